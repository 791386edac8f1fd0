/**
 * The network a caller's address belongs to, for `CallerStanding`: an IPv4 address's /24, an
 * IPv6 /64's /48 (a site's usual allocation: 65,536 /64s, each a caller of its own). Callers
 * are keyed `address:<IPv4>` or `address:<first four groups>::/64` by the bridge
 * (`callerAddress`); a token's principal, the local reader and loopback addresses (tests,
 * benches and a proxy on the same machine, where every caller shares 127.0.0.0/8) have none.
 */
export function callerNetwork(caller: string): string | undefined {
  if (!caller.startsWith("address:")) return undefined;
  const address = caller.slice("address:".length);
  const v4 = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.\d{1,3}$/.exec(address);
  if (v4 !== null && address.startsWith("127.")) return undefined;
  if (v4 !== null) return `${v4[1]}.0/24`;
  if (address === "0:0:0:0::/64") return undefined; // ::1
  const v6 = /^([0-9a-f]{1,4}):([0-9a-f]{1,4}):([0-9a-f]{1,4}):[0-9a-f]{1,4}::\/64$/i.exec(address);
  if (v6 !== null) return `${v6[1]}:${v6[2]}:${v6[3]}::/48`;
  return undefined;
}
