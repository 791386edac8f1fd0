import { isIP } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { specialAddress } from "../../src/bridge/middleware/address-policy.js";
import { createRelayApp } from "../../src/bridge/playground/relay.js";
import type { Site } from "../../src/vfs/site.js";
import { load } from "../openapi/helpers.js";

/**
 * Every special-purpose range the relay refuses, with its exact refusal: as the address a
 * public-looking name resolves to (checked when the socket connects), and by `specialAddress`.
 * Nothing here connects anywhere: each address is refused before a socket opens.
 */

const RULE = "the relay calls loopback, private and other special-purpose addresses only when the spec's server is one";

const REFUSED: readonly (readonly [string, string])[] = [
  // IPv4
  ["0.0.0.0", "an unspecified address"],
  ["0.1.2.3", "an unspecified address"],
  ["10.0.0.1", "a private address"],
  ["172.16.0.1", "a private address"],
  ["172.31.255.254", "a private address"],
  ["192.168.1.1", "a private address"],
  ["100.64.0.1", "a carrier-grade NAT address"],
  ["127.0.0.1", "a loopback address"],
  ["127.255.255.254", "a loopback address"],
  ["169.254.169.254", "a link-local address"],
  ["192.0.0.8", "a reserved or documentation address"],
  ["192.0.2.1", "a reserved or documentation address"],
  ["198.51.100.7", "a reserved or documentation address"],
  ["203.0.113.9", "a reserved or documentation address"],
  ["198.18.0.1", "a reserved or documentation address"],
  ["192.88.99.1", "a reserved or documentation address"],
  ["240.0.0.1", "a reserved or documentation address"],
  ["224.0.0.1", "a multicast address"],
  ["239.255.255.250", "a multicast address"],
  ["255.255.255.255", "the broadcast address"],
  // IPv6
  ["::", "an unspecified address"],
  ["::1", "a loopback address"],
  ["fc00::1", "a unique-local address"],
  ["fd12:3456:789a::1", "a unique-local address"],
  ["fe80::1", "a link-local address"],
  ["febf::1", "a link-local address"],
  ["fec0::1", "a site-local address"],
  ["ff02::1", "a multicast address"],
  ["2001:db8::1", "a reserved or documentation address"],
  ["3fff::1", "a reserved or documentation address"],
  ["2001:2::1", "a benchmarking address"],
  ["100::1", "a discard-only address"],
  ["4000::1", "an unassigned address (outside 2000::/3)"],
  // IPv6 forms that lead to an IPv4 address
  ["::ffff:127.0.0.1", "the IPv4-mapped form of 127.0.0.1, a loopback address"],
  ["::ffff:a9fe:a9fe", "the IPv4-mapped form of 169.254.169.254, a link-local address"],
  ["::ffff:0:10.0.0.1", "the IPv4-translated form of 10.0.0.1, a private address"],
  ["::7f00:1", "an IPv4-compatible address (deprecated; 127.0.0.1)"],
  ["::8.8.8.8", "an IPv4-compatible address (deprecated; 8.8.8.8)"],
  ["64:ff9b::7f00:1", "the NAT64 form of 127.0.0.1, a loopback address"],
  ["64:ff9b::10.1.2.3", "the NAT64 form of 10.1.2.3, a private address"],
  ["64:ff9b::a9fe:a9fe", "the NAT64 form of 169.254.169.254, a link-local address"],
  ["64:ff9b:1::8.8.8.8", "a local-use NAT64 address (64:ff9b:1::/48)"],
  ["2002:7f00:1::1", "the 6to4 form of 127.0.0.1, a loopback address"],
  ["2002:c0a8:101::", "the 6to4 form of 192.168.1.1, a private address"],
  // Teredo: the server address in the clear, the client's with its bits flipped.
  ["2001:0:a00:1::1", "a Teredo address leading to 10.0.0.1, a private address"],
  ["2001:0:4136:e378:8000:63bf:3f57:fffe", "a Teredo address leading to 192.168.0.1, a private address"],
];

const ALLOWED = [
  "8.8.8.8",
  "93.184.216.34",
  "1.1.1.1",
  "2606:4700:4700::1111",
  "2a00:1450:4001:80b::200e",
  "::ffff:8.8.8.8",
  "::ffff:0:8.8.8.8",
  "64:ff9b::8.8.8.8",
  "2002:808:808::1",
  "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
];

describe("specialAddress", () => {
  it.each(REFUSED)("%s is %s", (address, words) => {
    expect(specialAddress(address)).toBe(words);
    expect(specialAddress(`[${address}]`)).toBe(words);
  });

  it.each(ALLOWED)("%s is a global unicast address", (address) => {
    expect(specialAddress(address)).toBeUndefined();
  });

  it("reads a zone index as the address it scopes", () => {
    expect(specialAddress("fe80::1%eth0")).toBe("a link-local address");
  });

  it("is undefined for what is not an IP address (names are resolved and checked address by address)", () => {
    for (const name of ["api.example.com", "localhost", "0x7f.1", "2130706433", ""]) expect(specialAddress(name)).toBeUndefined();
  });
});

describe("the relay refuses every special-purpose address a name resolves to", () => {
  let site: Site;
  let resolved: readonly string[] = [];
  let app: ReturnType<typeof createRelayApp>;
  beforeAll(async () => {
    site = await load({
      "docs.json": { navigation: { groups: [{ group: "API", openapi: "api.json", pages: ["GET /users"] }] } },
      "api.json": {
        openapi: "3.0.3",
        info: { title: "API", version: "1" },
        servers: [{ url: "https://api.example.test/v1" }],
        paths: { "/users": { get: { summary: "Users", tags: ["T"], responses: { "200": { description: "OK" } } } } },
      },
    });
    // Every page of this site is public, so the lookup needs no access check.
    app = createRelayApp({ lookupPage: (p) => site.api?.pages.get(p), lookup: async () => resolved.map((address) => ({ address, family: isIP(address) })) });
  });

  const relay = async () => {
    const res = await app.request("/_svc/api/request", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ page: "/api-reference/t/users", method: "GET", url: "https://api.example.test/v1/users" }),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it.each(REFUSED)("%s: %s", async (address, _words) => {
    resolved = [address];
    expect(await relay()).toEqual({ status: 403, body: { error: { code: "private_address", message: `api.example.test does not resolve to a public address; ${RULE}` } } });
  });

  it("refuses a name when any of its addresses is special, even after a public one", async () => {
    resolved = ["93.184.216.34", "::ffff:10.0.0.1"];
    expect(await relay()).toEqual({
      status: 403,
      body: { error: { code: "private_address", message: `api.example.test does not resolve to a public address; ${RULE}` } },
    });
  });
});
