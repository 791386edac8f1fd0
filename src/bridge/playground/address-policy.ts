import { BlockList, isIP } from "node:net";

/**
 * Addresses the relay never calls unless the spec itself declares a server there: loopback,
 * private networks, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT,
 * benchmarking, multicast and reserved ranges, and their IPv6 counterparts.
 */
export function createPrivateRanges(): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["127.0.0.0", 8],
    ["169.254.0.0", 16],
    ["172.16.0.0", 12],
    ["192.0.0.0", 24],
    ["192.168.0.0", 16],
    ["198.18.0.0", 15],
    ["224.0.0.0", 3],
  ] as const) {
    list.addSubnet(net, prefix, "ipv4");
  }
  list.addAddress("::1", "ipv6");
  list.addAddress("::", "ipv6");
  list.addSubnet("fc00::", 7, "ipv6");
  list.addSubnet("fe80::", 10, "ipv6");
  list.addSubnet("ff00::", 8, "ipv6");
  return list;
}

/** True when `address` (an IP literal) is loopback, private, link-local or reserved. */
export function isPrivateAddress(ranges: BlockList, address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped !== null) return ranges.check(mapped[1] as string, "ipv4");
  const family = isIP(bare);
  if (family === 4) return ranges.check(bare, "ipv4");
  if (family === 6) return ranges.check(bare, "ipv6");
  return false;
}

/** A server host the spec declares that is itself local (`localhost`, `127.0.0.1`, `10.1.2.3`). */
export function isPrivateHost(ranges: BlockList, hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  return isPrivateAddress(ranges, h);
}
