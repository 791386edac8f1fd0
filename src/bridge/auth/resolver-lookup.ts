import type { LookupAddress } from "node:dns";
import { Resolver } from "node:dns/promises";
import type { LookupAll } from "../playground/relay.js";

/**
 * Every IPv4 and IPv6 address of a name, asked of the DNS servers directly (c-ares, the system's
 * resolv.conf servers unless `servers` names others), never through `dns.lookup`.
 *
 * Why: `dns.lookup` is the C library's `getaddrinfo`, which Node runs on its pool of four I/O
 * threads, the pool that also reads files, runs scrypt and zlib; a call holds its thread until
 * the name's servers answer or the resolver gives up (seconds for a name whose servers never
 * answer). A client metadata document's URL is anyone's to name, so a caller naming a few such
 * hosts would hold the pool, and every file read of every other caller waited behind them (the
 * class of adversary round 66 F1, where sign-ins' scrypt did it). The resolver's queries are
 * sockets on the event loop: a slow name holds nothing but its own request, and it gives up
 * after `timeoutMs`. Local names (`/etc/hosts`) are not read, which suits these URLs: they must
 * reach a public address anyway.
 */
export function resolverLookup(timeoutMs: number, servers?: readonly string[]): LookupAll {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers !== undefined) resolver.setServers([...servers]);
  return async (hostname) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses: LookupAddress[] = [];
    if (v4.status === "fulfilled") for (const address of v4.value) addresses.push({ address, family: 4 });
    if (v6.status === "fulfilled") for (const address of v6.value) addresses.push({ address, family: 6 });
    // Neither answered: the name's error (not found, timed out), as `dns.lookup` would reject.
    if (addresses.length === 0 && v4.status === "rejected") throw v4.reason;
    return addresses;
  };
}
