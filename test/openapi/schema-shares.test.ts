/**
 * Security row 145: a page cut at its schema budget states the budget, and the budget was the
 * spec's bound over all its operations, restricted ones counted: an anonymous reader of a cut page
 * could work out how many operations they may not read, and adding one changed public pages' text.
 * A page's share now counts only the spec's pages its own readers read (`SchemaShares`).
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ALL_ACCESS, ANONYMOUS, type Access, accessClass, type AuthMode, canRead, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const STAFF = { "x-svc": { metadata: { groups: ["staff"] } } };
/** A request body of 1,200 fields (the page lists 300, `maxSchemaFields`; its examples hold all): whole
 *  at one page's full budget (5,000 nodes), cut at 2,000. */
const WIDE = {
  requestBody: {
    content: {
      "application/json": {
        schema: { type: "object", properties: Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`field${i}`, { type: "string" }])) },
      },
    },
  },
  responses: { "200": { description: "Done" } },
};
const SMALL = 499;

/** One public operation with a wide body, then (when `restricted`) a staff one like it and many small staff ones. */
function spec(restricted: boolean): Record<string, unknown> {
  const staff: Record<string, unknown> = {};
  if (restricted) {
    staff["/staff-wide"] = { post: { ...STAFF, summary: "Staff wide", ...WIDE } };
    for (let i = 0; i < SMALL; i++) staff[`/staff/${i}`] = { get: { ...STAFF, summary: `Staff ${i}`, responses: { "200": { description: "Done" } } } };
  }
  return { openapi: "3.1.0", info: { title: "Shop", version: "1" }, paths: { "/wide": { post: { summary: "Public wide", ...WIDE } }, ...staff } };
}

const repo = (restricted: boolean): Record<string, unknown> => ({
  "docs.json": { name: "Acme", navigation: { groups: [{ group: "API", openapi: "api.json" }] } },
  "api.json": spec(restricted),
});

const CUT_LINE = (nodes: string): string =>
  `> **Cut:** this page shows ${nodes} schema nodes at most, and its schemas reach each other in more ways than that: some fields are not listed, some types read \`…\` and some example objects are empty. The spec file (see Source) holds them whole.`;

describe("a generated page's schema budget", () => {
  const roots: string[] = [];
  let withStaff: DocsRuntime;
  let without: DocsRuntime;
  beforeAll(async () => {
    for (const restricted of [true, false]) roots.push(writeRepo(repo(restricted)));
    withStaff = await DocsRuntime.load({ root: roots[0] as string });
    without = await DocsRuntime.load({ root: roots[1] as string });
  });
  afterAll(async () => {
    await Promise.all([withStaff.close(), without.close()]);
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  const shell = async (runtime: DocsRuntime, reader: Reader, command: string): Promise<{ stdout: string; exitCode: number }> => {
    const { stdout, exitCode } = await runtime.readerState(localContext(reader)).shell.run(command);
    return { stdout, exitCode };
  };

  it("is, for an anonymous reader, what it is on the site without the restricted operations: whole, the same bytes", async () => {
    const page = await shell(withStaff, ANONYMOUS, "cat /api-reference/public-wide.mdx");
    expect(page).toEqual(await shell(without, ANONYMOUS, "cat /api-reference/public-wide.mdx"));
    expect(await shell(withStaff, ANONYMOUS, "grep -c '^> \\*\\*Cut' /api-reference/public-wide.mdx; grep -c field1199 /api-reference/public-wide.mdx")).toEqual({ stdout: "0\n3\n", exitCode: 0 });
    expect([withStaff.site.api?.pages.get("/api-reference/public-wide")?.schemaNodes, without.site.api?.pages.get("/api-reference/public-wide")?.schemaNodes]).toEqual([5000, 5000]);
  });

  it("is shared among the pages of its own readers: 500 staff pages take 2,000 nodes each, and the wide one says so", async () => {
    const staff = readerWithGroups(["staff"]);
    expect(await shell(withStaff, staff, "grep -c '^> \\*\\*Cut' /api-reference/public-wide.mdx; grep '^> \\*\\*Cut' /api-reference/staff-wide.mdx")).toEqual({ stdout: `0\n${CUT_LINE("2,000")}\n`, exitCode: 0 });
    expect(withStaff.site.api?.pages.get("/api-reference/staff-wide")?.schemaNodes).toBe(2000);
    expect(withStaff.site.api?.pages.get("/api-reference/staff-0")?.schemaNodes).toBe(2000);
  });

  it("counts a page that documents an operation in its own readers' class, not the spec's operations no page shows", async () => {
    const root = writeRepo({
      "docs.json": { name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["a", "b"] }] } },
      "api.json": spec(true),
      "a.mdx": "---\ntitle: A\nopenapi: POST /wide\ngroups: [staff]\n---\n\nStaff prose.\n",
      "b.mdx": "---\ntitle: B\nopenapi: POST /wide\n---\n\nPublic prose.\n",
    });
    const runtime = await DocsRuntime.load({ root });
    try {
      expect(["/a", "/b"].map((p) => runtime.site.api?.pages.get(p)?.schemaNodes)).toEqual([5000, 5000]);
      expect(await shell(runtime, ALL_ACCESS, "grep -c field1199 /a.mdx /b.mdx; grep -c Cut /a.mdx /b.mdx")).toEqual({ stdout: "/a.mdx:3\n/b.mdx:3\n/a.mdx:0\n/b.mdx:0\n", exitCode: 1 });
    } finally {
      await runtime.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("accessClass", () => {
  // `a\nb` and `a,b`: one group each, whose names hold what a join of two names could (adversary round 46 F4).
  const rules: Access[] = [{}, { groups: [] }, { public: true }, { public: true, groups: ["a"] }, { groups: ["a"] }, { groups: ["a", "a"] }, { groups: ["a", "b"] }, { groups: ["b", "a"] }, { groups: ["b"] }, { groups: ["a\nb"] }, { groups: ["a,b"] }, { groups: ['a","b'] }];
  const readers: Reader[] = [ANONYMOUS, ALL_ACCESS, readerWithGroups(["a"]), readerWithGroups(["b"]), readerWithGroups(["a", "b"]), readerWithGroups(["c"]), readerWithGroups(["a\nb"]), readerWithGroups(["a,b"]), readerWithGroups(['a","b'])];
  const modes: AuthMode[] = ["public", "partial", "full"];
  const readersOf = (rule: Access): string => modes.map((m) => readers.map((r) => (canRead(rule, r, m) ? "1" : "0")).join("")).join(" ");

  it("is equal for two rules exactly when the same readers read both, in every mode", () => {
    const pairs = rules.flatMap((x) => rules.map((y) => [x, y] as const));
    expect(pairs.filter(([x, y]) => (accessClass(x) === accessClass(y)) !== (readersOf(x) === readersOf(y)))).toEqual([]);
    expect(new Set(rules.map(accessClass)).size).toBe(8);
  });
});
