import { describe, expect, it } from "vitest";
import { callerAddress } from "../../src/bridge/middleware/caller-address.js";
import { placesNetwork } from "../../src/bridge/places-network.js";

describe("the network a caller's connection places count under", () => {
  it("is an IPv4 address's /24 (loopback too), an IPv6 address's /48, and any other key itself", () => {
    const addresses = ["203.0.113.7", "203.0.113.250", "203.0.114.7", "127.0.0.9", "127.1.0.1", "::ffff:198.51.100.4", "2001:db8:aa:1::5", "2001:DB8:AA:ffff::1", "2001:db8:ab:1::5", "::1", "unknown"];
    expect(addresses.map((a) => [a, placesNetwork(callerAddress(a))])).toEqual([
      ["203.0.113.7", "203.0.113.0/24"],
      ["203.0.113.250", "203.0.113.0/24"],
      ["203.0.114.7", "203.0.114.0/24"],
      ["127.0.0.9", "127.0.0.0/24"],
      ["127.1.0.1", "127.1.0.0/24"],
      ["::ffff:198.51.100.4", "198.51.100.0/24"],
      ["2001:db8:aa:1::5", "2001:db8:aa::/48"],
      ["2001:DB8:AA:ffff::1", "2001:db8:aa::/48"],
      ["2001:db8:ab:1::5", "2001:db8:ab::/48"],
      ["::1", "0:0:0::/48"],
      ["unknown", "unknown"],
    ]);
  });
});
