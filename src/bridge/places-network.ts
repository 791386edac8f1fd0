import { addressNetwork } from "../engine/address-network.js";

/**
 * The network a caller (`callerAddress`: an IPv4 address, an IPv6 /64) counts under for the
 * connection places: an IPv4 address's /24, an IPv6 /64's /48 (a site's usual allocation: 65,536
 * /64s). Counting callers alone, 704 addresses holding one connection each held every place and
 * no newcomer could take one of theirs, each holding no more than it (adversary round 53 F1); one
 * party's addresses mostly share a network, so the places are shared out by network first
 * (`shedRank`). Loopback counts as one network here, unlike the search's standing
 * (src/engine/shell/caller-network.ts): a proxy on the same machine is behind `--trust-proxy`, so
 * what is counted there is forwarded addresses, and 127.0.0.0/24 is then the tests' own clients.
 * Any other key (an address that did not parse) is a network of its own. The rule is
 * `addressNetwork`'s, which the search turns (`CallerTurns`) count by too.
 */
export function placesNetwork(caller: string): string {
  return addressNetwork(caller) ?? caller;
}
