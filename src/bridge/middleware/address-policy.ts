import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Which addresses the server may call on someone else's behalf (the playground relay, and the
 * sign-in's fetch of a client metadata document): global unicast only, unless the spec itself
 * declares a local server for the relay. `ipaddr.js` knows the IANA special-purpose registries (loopback, private,
 * link-local with cloud metadata at 169.254.169.254, CGNAT, multicast, documentation,
 * benchmarking, unique-local, site-local, ...); anything it does not call `unicast` is refused.
 * The IPv6 forms that carry an IPv4 address (mapped, translated, NAT64, 6to4, Teredo) are judged
 * by the IPv4 address they lead to, so `::ffff:127.0.0.1` and `64:ff9b::a00:1` are loopback
 * and private; IPv6 outside 2000::/3, where nothing global is assigned (the deprecated
 * IPv4-compatible `::a.b.c.d` among it), is refused.
 */

/** How each range is named in a refusal; ranges not listed are "a special-purpose address (name)". */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  unspecified: "an unspecified address",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT address",
  private: "a private address",
  reserved: "a reserved or documentation address",
  benchmarking: "a benchmarking address",
  uniqueLocal: "a unique-local address",
  deprecatedSiteLocal: "a site-local address",
  discard: "a discard-only address",
};

/** IPv4 inside an IPv6 address, by range: where the 32 bits sit (index of the high 16-bit part). */
const EMBEDDED_V4: Readonly<Record<string, { readonly form: string; readonly at: number }>> = {
  ipv4Mapped: { form: "the IPv4-mapped form", at: 6 },
  rfc6145: { form: "the IPv4-translated form", at: 6 },
  rfc6052: { form: "the NAT64 form", at: 6 },
  "6to4": { form: "the 6to4 form", at: 1 },
};

/**
 * Why the relay must not call `address` (an IP literal, brackets allowed), in words for the
 * refusal ("a loopback address", "the NAT64 form of 10.0.0.1, a private address"); undefined
 * when it is a global unicast address, or not an IP address at all.
 */
export function specialAddress(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "");
  if (isIP(bare) === 0) return undefined;
  if (isIP(bare) === 4) return v4Words(ipaddr.IPv4.parse(bare));
  // ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`; RFC 4291 says it is IPv4-compatible, which
  // the URL parser's IPv6 reader gets right (`::808:808`). A zone (`fe80::1%eth0`) changes nothing.
  const v6 = ipaddr.IPv6.parse(new URL(`http://[${bare.replace(/%.*$/s, "")}]`).hostname.slice(1, -1));
  const range: string = v6.range();
  const parts = v6.parts;
  const embedded = EMBEDDED_V4[range];
  if (range === "rfc6052" && !(parts[1] === 0xff9b && parts[2] === 0)) {
    // RFC 8215's local-use prefix: each network chooses where the IPv4 address goes.
    return "a local-use NAT64 address (64:ff9b:1::/48)";
  }
  if (embedded !== undefined) {
    const inner = v4At(parts, embedded.at);
    const why = v4Words(inner);
    return why === undefined ? undefined : `${embedded.form} of ${inner.toString()}, ${why}`;
  }
  if (range === "teredo") {
    // RFC 4380 4: the server's address in the clear, the client's with every bit flipped.
    const server = v4At(parts, 2);
    const client = v4At(parts.map((p) => ~p & 0xffff), 6);
    const why = v4Words(server) ?? v4Words(client);
    if (why === undefined) return undefined;
    return `a Teredo address leading to ${v4Words(server) !== undefined ? server.toString() : client.toString()}, ${why}`;
  }
  if (range !== "unicast") return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
  if (parts.slice(0, 6).every((p) => p === 0)) return `an IPv4-compatible address (deprecated; ${v4At(parts, 6).toString()})`;
  // 2000::/3 is all the global unicast space IANA has assigned.
  if ((parts[0]! & 0xe000) !== 0x2000) return "an unassigned address (outside 2000::/3)";
  return undefined;
}

/** A host name the relay treats as local without asking DNS: `localhost`, `*.localhost` (RFC 6761), or a special address. */
export function isLocalHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost") || specialAddress(h) !== undefined;
}

function v4Words(ip: ipaddr.IPv4): string | undefined {
  const range: string = ip.range();
  return range === "unicast" ? undefined : (RANGE_WORDS[range] ?? `a special-purpose address (${range})`);
}

function v4At(parts: readonly number[], at: number): ipaddr.IPv4 {
  const high = parts[at] ?? 0;
  const low = parts[at + 1] ?? 0;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}
