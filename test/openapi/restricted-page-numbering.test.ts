/**
 * Adversary round 18 (issue 25, F1/F2): generated API pages whose paths collide are numbered
 * (`get-pet`, `get-pet-1`), and whole-spec tag groups are ordered by first appearance. Both used
 * to count restricted operations, webhooks and channels, so a public page became `get-pet-1` and
 * a staff-only tag's group came first for anonymous readers too. Compared whole against the site
 * without the restricted parts: the files (`find`), `nav --groups`, search hits.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatNavTree } from "../../src/config/docs-json/nav-format.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { navigationOfSite } from "../../src/vfs/site-nav.js";
import { connect } from "../helpers/mcp.js";
import { writeRepo } from "./helpers.js";

const STAFF = { "x-svc": { metadata: { groups: ["staff"] } } };
const ok = { responses: { "200": { description: "Done" } } };

/** The spec: restricted parts first (`/s`, `/a`, `staffHook`), each before a public one it collides with. */
function openapi(restricted: boolean): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: "Pets", version: "1" },
    paths: {
      ...(restricted ? { "/s": { get: { ...STAFF, tags: ["Zeta"], summary: "Staff report", ...ok } } } : {}),
      ...(restricted ? { "/a": { get: { ...STAFF, summary: "Get pet", description: "Staff pet lookup", ...ok } } } : {}),
      "/b": { get: { summary: "Get pet", description: "Public pet lookup", ...ok } },
      "/al": { get: { tags: ["Alpha"], summary: "List alpha", ...ok } },
      "/z": { get: { tags: ["Zeta"], summary: "List zeta", ...ok } },
    },
    webhooks: {
      ...(restricted ? { staffHook: { post: { ...STAFF, summary: "Pet changed", description: "Staff hook", ...ok } } } : {}),
      petHook: { post: { summary: "Pet changed", description: "Public hook", ...ok } },
    },
  };
}

function asyncapi(restricted: boolean): Record<string, unknown> {
  return {
    asyncapi: "3.0.0",
    info: { title: "Events", version: "1" },
    channels: {
      ...(restricted ? { staffRoom: { ...STAFF, address: "rooms/staff", title: "Room events", description: "Staff room" } } : {}),
      room: { address: "rooms/all", title: "Room events", description: "Public room" },
    },
  };
}

const repo = (restricted: boolean): Record<string, unknown> => ({
  "docs.json": {
    name: "Acme",
    navigation: {
      groups: [
        { group: "API", openapi: "api/openapi.json" },
        { group: "Events", asyncapi: "events.json" },
      ],
    },
  },
  "api/openapi.json": openapi(restricted),
  "events.json": asyncapi(restricted),
});

const FIND = "find /api-reference -type f | sort";
const HEAD = ["Acme", "root: groups", "eyebrows: theme default", "drilldown: theme default", ""];

describe("generated API page paths and tag group order, beside restricted parts that come first", () => {
  const roots: string[] = [];
  let withParts: DocsRuntime;
  let without: DocsRuntime;
  beforeAll(async () => {
    for (const restricted of [true, false]) roots.push(writeRepo(repo(restricted)));
    withParts = await DocsRuntime.load({ root: roots[0] as string });
    without = await DocsRuntime.load({ root: roots[1] as string });
  });
  afterAll(async () => {
    await Promise.all([withParts.close(), without.close()]);
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  const shell = async (runtime: DocsRuntime, reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;
  const nav = (runtime: DocsRuntime, reader: Reader): string => {
    const got = navigationOfSite(runtime.site, { context: localContext(reader) });
    if (!got.ok) throw new Error(`no navigation: ${got.reason}`);
    return formatNavTree(got.tree);
  };
  const searches = async (runtime: DocsRuntime, reader: Reader): Promise<string[][]> => {
    const client = await connect(runtime, reader);
    try {
      const out: string[][] = [];
      for (const query of ["get pet", "pet changed", "room events"]) {
        const hits = (await client.call("search_acme", { query })).structuredContent as { results: { path: string }[] };
        out.push(hits.results.map((h) => h.path));
      }
      return out;
    } finally {
      await client.close();
    }
  };

  it("are, for an anonymous reader, those of the site without the restricted parts: files, navigation, search", async () => {
    const files = await shell(withParts, ANONYMOUS, FIND);
    expect(files).toBe(await shell(without, ANONYMOUS, FIND));
    expect(files).toBe(
      [
        "/api-reference/alpha/list-alpha.mdx",
        "/api-reference/get-pet.mdx",
        "/api-reference/pet-changed.mdx",
        "/api-reference/room-events.mdx",
        "/api-reference/zeta/list-zeta.mdx",
        "",
      ].join("\n"),
    );
    expect(await shell(withParts, ANONYMOUS, "grep -h '^Public' /api-reference/get-pet.mdx /api-reference/pet-changed.mdx /api-reference/room-events.mdx")).toBe("Public pet lookup\nPublic hook\nPublic room\n");
    const outline = nav(withParts, ANONYMOUS);
    expect(outline).toBe(nav(without, ANONYMOUS));
    expect(outline).toBe(
      [
        ...HEAD,
        "group API  (openapi api/openapi.json)",
        "  Get pet  /api-reference/get-pet  [operation in api/openapi.json]",
        "  group Alpha  (generated from the spec; collapsed)",
        "    List alpha  /api-reference/alpha/list-alpha  [operation in api/openapi.json]",
        "  group Zeta  (generated from the spec; collapsed)",
        "    List zeta  /api-reference/zeta/list-zeta  [operation in api/openapi.json]",
        "  Pet changed  /api-reference/pet-changed  [operation in api/openapi.json]",
        "group Events",
        "  Room events  /api-reference/room-events  [operation]",
        "",
      ].join("\n"),
    );
    const hits = await searches(withParts, ANONYMOUS);
    expect(hits).toEqual(await searches(without, ANONYMOUS));
    expect(hits.map((h) => h[0])).toEqual(["/api-reference/get-pet", "/api-reference/pet-changed", "/api-reference/room-events"]);
  });

  it("number the restricted parts after the public ones for their readers", async () => {
    const staff = readerWithGroups(["staff"]);
    expect(await shell(withParts, staff, FIND)).toBe(
      [
        "/api-reference/alpha/list-alpha.mdx",
        "/api-reference/get-pet-1.mdx",
        "/api-reference/get-pet.mdx",
        "/api-reference/pet-changed-1.mdx",
        "/api-reference/pet-changed.mdx",
        "/api-reference/room-events-1.mdx",
        "/api-reference/room-events.mdx",
        "/api-reference/zeta/list-zeta.mdx",
        "/api-reference/zeta/staff-report.mdx",
        "",
      ].join("\n"),
    );
    expect(await shell(withParts, staff, "grep -h '^Staff [phr]' /api-reference/get-pet-1.mdx /api-reference/pet-changed-1.mdx /api-reference/room-events-1.mdx")).toBe("Staff pet lookup\nStaff hook\nStaff room\n");
    // Untagged pages and, within a group, pages in the spec's order; the Zeta group where its
    // first public operation puts it.
    expect(nav(withParts, staff)).toBe(
      [
        ...HEAD,
        "group API  (openapi api/openapi.json)",
        "  Get pet  /api-reference/get-pet-1  [operation in api/openapi.json]",
        "  Get pet  /api-reference/get-pet  [operation in api/openapi.json]",
        "  group Alpha  (generated from the spec; collapsed)",
        "    List alpha  /api-reference/alpha/list-alpha  [operation in api/openapi.json]",
        "  group Zeta  (generated from the spec; collapsed)",
        "    Staff report  /api-reference/zeta/staff-report  [operation in api/openapi.json]",
        "    List zeta  /api-reference/zeta/list-zeta  [operation in api/openapi.json]",
        "  Pet changed  /api-reference/pet-changed-1  [operation in api/openapi.json]",
        "  Pet changed  /api-reference/pet-changed  [operation in api/openapi.json]",
        "group Events",
        "  Room events  /api-reference/room-events-1  [operation]",
        "  Room events  /api-reference/room-events  [operation]",
        "",
      ].join("\n"),
    );
  });
});
