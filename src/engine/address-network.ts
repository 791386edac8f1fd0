/**
 * The network an address key (`callerAddress`: an IPv4 address, or an IPv6 /64 written
 * `a:b:c:d::/64`) counts under where one party's many addresses must count as one: an IPv4
 * address's /24, an IPv6 /64's /48 (a site's usual allocation: 65,536 /64s). Loopback is a /24
 * like any other (127.0.0.0/24 is the tests' and benches' clients; a proxy on the same machine is
 * behind `--trust-proxy`, so what is counted then is forwarded addresses). Undefined for text
 * that is no such key. Shared by the HTTP server's connection places (`placesNetwork`) and the
 * search turns (`CallerTurns`), so that both count the same networks.
 */
export function addressNetwork(address: string): string | undefined {
  const v4 = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.\d{1,3}$/.exec(address);
  if (v4 !== null) return `${v4[1]}.0/24`;
  const v6 = /^([0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}):[0-9a-f]{1,4}::\/64$/i.exec(address);
  if (v6 !== null) return `${v6[1]}::/48`;
  return undefined;
}
