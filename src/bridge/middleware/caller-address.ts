import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The key one caller's address counts under, for the per-caller bounds on what it may hold at
 * once (MCP sessions, listen streams): an IPv4 address as it is (an IPv4-mapped IPv6 address is
 * that IPv4 address), and an IPv6 address by its /64 prefix, the smallest block a site is
 * given, so one host cannot take a fresh address per request (RFC 4941 privacy addresses,
 * a whole /64 routed to one machine) and count as many callers.
 */
export function callerAddress(ip: string): string {
  const bare = ip.replace(/^\[|\]$/g, "").replace(/%.*$/s, "");
  if (isIP(bare) === 4) return bare;
  if (isIP(bare) !== 6) return ip;
  const v6 = ipaddr.IPv6.parse(bare);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(":")}::/64`;
}
