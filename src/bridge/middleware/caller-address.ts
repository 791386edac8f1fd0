import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The key one caller's address counts under, for every per-address bound: what it may hold at
 * once (MCP sessions, listen streams, shell commands, connections) and the hourly limits and
 * budgets (`ip`, `feedback`, `feedback-bytes`, `relay`). An IPv4 address as it is (an
 * IPv4-mapped IPv6 address is that IPv4 address), and an IPv6 address by its /64 prefix, the
 * smallest block a site is given, so one host cannot take a fresh address per request (RFC 4941
 * privacy addresses, a whole /64 routed to one machine) and count as many callers. Spellings of
 * one address are one key: either case, a zone (`%eth0`), `[...]` with or without a port,
 * an IPv4 address with a port (as some proxies write `X-Forwarded-For`).
 */
export function callerAddress(ip: string): string {
  let key = KEYS.get(ip);
  if (key === undefined) {
    key = addressKey(ip);
    // Longer text is no address a socket or a proxy gives (an IPv6 one with a zone and a port is under 64).
    if (ip.length <= MAX_KEPT_LENGTH) {
      if (KEYS.size >= MAX_KEPT) KEYS.clear();
      KEYS.set(ip, key);
    }
  }
  return key;
}

/** Addresses keyed so far: a server sees the same few again and again (each connection's every request). */
const MAX_KEPT = 4096;
const MAX_KEPT_LENGTH = 64;

/**
 * `callerAddress` of each address seen, kept: a request asks it three times (the connection's
 * bound, the per-IP limit, the endpoint's owner), and an IPv6 address is parsed each time
 * (~3 µs; ~0.25 µs an IPv4 one, issue 23).
 */
const KEYS = new Map<string, string>();

/**
 * Whether `text` is an address in one of the spellings `callerAddress` reads. A forwarded value
 * that is not (`unknown`, a host name, any text a client put there) names no caller of its own.
 */
export function isAddressText(text: string): boolean {
  return isIP(bareAddress(text.trim())) !== 0;
}

function addressKey(ip: string): string {
  const bare = bareAddress(ip.trim());
  if (isIP(bare) === 4) return bare;
  if (isIP(bare) !== 6) return ip;
  const v6 = ipaddr.IPv6.parse(bare);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(":")}::/64`;
}

/** The address in `[addr]`, `[addr]:port` or `a.b.c.d:port`, without its zone. */
function bareAddress(text: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(text);
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text);
  const address = bracketed?.[1] ?? v4WithPort?.[1] ?? text;
  return address.replace(/%.*$/s, "");
}
