/**
 * Adversary round 47 F4, F6, F7: which spec file a page's front matter name resolves to depended
 * on what restricted pages name.
 * - F4: `secret.json GET /gadgets` on a public page, beside a staff page naming
 *   `/specs/secret.json` by its path: the file left the anonymous reader's filesystem (only the
 *   staff page counted among its namers) while the plan, resolving the name on its own, still
 *   showed the operation from it (`Generated from /specs/secret.json`).
 * - F6: `openapi.json GET /pets` on a public page finds two files; a staff page naming
 *   `/staff/openapi.json` by its path made it find the public one (a file appeared to anonymous
 *   readers because of a page they may not read).
 * - F7: `GET /x` (no file) on a public page, with `a.json` and `b.json` both holding it: a staff
 *   page naming `a.json` moved the public page to `b.json`.
 * A page's name now resolves from the repository's files and that page alone, the same for
 * mounting and for the plan; the page counts among the namers of the file it finds, so a file a
 * staff page names and a public page's name finds is the public page's readers' too.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const spec = (title: string, path: string, word: string, schema?: Record<string, unknown>): Record<string, unknown> => ({
  openapi: "3.1.0",
  info: { title, version: "1" },
  paths: { [path]: { get: { summary: `Get ${path.slice(1)}`, description: `${word} operation.`, responses: { "200": { description: "Done" } } } } },
  ...(schema !== undefined ? { components: { schemas: schema } } : {}),
});
const events = (word: string): string =>
  JSON.stringify({ asyncapi: "3.0.0", info: { title: "Events", version: "1" }, channels: { orders: { address: "orders", description: `${word} channel.`, messages: { created: { payload: { type: "object" } } } } } });
const widget = (word: string): Record<string, unknown> => ({ Widget: { type: "object", description: `${word} widget.`, properties: { id: { type: "string" } } } });

/** Every reproduction in one repository: the public pages, and the staff pages (`staff`) naming files by their path. */
const repo = (staff: boolean): Record<string, unknown> => ({
  "docs.json": { name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["guides/gadgets", "guides/pets", "guides/pet-model", "guides/events", "guides/x", "guides/widget", "guides/orders"] }] } },
  // F4: the one file the public name's end finds, and the staff page names by its path.
  "specs/secret.json": spec("Gadgets", "/gadgets", "GADGETOP"),
  "guides/gadgets.mdx": "---\ntitle: Gadgets\nopenapi: secret.json GET /gadgets\n---\n\nPublic gadgets.\n",
  // F6: two files the public name's end finds.
  "pub/openapi.json": spec("Pets", "/pets", "PUBPETS", widget("PUBWIDGET")),
  "staff/openapi.json": spec("Staff pets", "/pets", "STAFFPETS", widget("STAFFWIDGET")),
  "guides/pets.mdx": "---\ntitle: Pets\nopenapi: openapi.json GET /pets\n---\n\nPublic pets.\n",
  "guides/pet-model.mdx": "---\ntitle: Pet model\nopenapi-schema: openapi.json Widget\n---\n\nPublic pet model.\n",
  "pub/events.yaml": events("PUBEVENTS"),
  "staff/events.yaml": events("STAFFEVENTS"),
  "guides/events.mdx": "---\ntitle: Events\nasyncapi: events.yaml orders\n---\n\nPublic events.\n",
  // F7: two files holding an operation and a schema the public pages name without a file.
  "api/a.json": spec("A", "/x", "AOP", widget("AWIDGET")),
  "api/b.json": spec("B", "/x", "BOP", widget("BWIDGET")),
  "guides/x.mdx": "---\ntitle: X\nopenapi: GET /x\n---\n\nPublic x.\n",
  "guides/widget.mdx": "---\ntitle: Widget\nopenapi-schema: Widget\n---\n\nPublic widget.\n",
  // F4 for a channel page.
  "async/orders.yaml": events("ORDERS"),
  "guides/orders.mdx": "---\ntitle: Orders\nasyncapi: orders.yaml orders\n---\n\nPublic orders.\n",
  ...(staff
    ? {
        "internal/gadgets.mdx": "---\ntitle: Staff gadgets\ngroups: [staff]\nopenapi: /specs/secret.json GET /gadgets\n---\n\nStaff gadgets.\n",
        "internal/pets.mdx": "---\ntitle: Staff pets\ngroups: [staff]\nopenapi: /staff/openapi.json GET /pets\n---\n\nStaff pets.\n",
        "internal/events.mdx": "---\ntitle: Staff events\ngroups: [staff]\nasyncapi: /staff/events.yaml orders\n---\n\nStaff events.\n",
        "internal/x.mdx": "---\ntitle: Staff x\ngroups: [staff]\nopenapi: api/a.json GET /x\n---\n\nStaff x.\n",
        "internal/widget.mdx": "---\ntitle: Staff widget\ngroups: [staff]\nopenapi-schema: /api/a.json Widget\n---\n\nStaff widget.\n",
        "internal/orders.mdx": "---\ntitle: Staff orders\ngroups: [staff]\nasyncapi: /async/orders.yaml orders\n---\n\nStaff orders.\n",
      }
    : {}),
});

describe("a public page's spec name, beside staff pages naming spec files", () => {
  const roots: string[] = [];
  let withStaff: DocsRuntime;
  let without: DocsRuntime;
  beforeAll(async () => {
    for (const staff of [true, false]) roots.push(writeRepo(repo(staff)));
    withStaff = await DocsRuntime.load({ root: roots[0] as string });
    without = await DocsRuntime.load({ root: roots[1] as string });
  });
  afterAll(async () => {
    await Promise.all([withStaff.close(), without.close()]);
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });
  const run = async (runtime: DocsRuntime, reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;
  const PAGES = "/guides/gadgets.mdx /guides/pets.mdx /guides/pet-model.mdx /guides/events.mdx /guides/x.mdx /guides/widget.mdx /guides/orders.mdx";

  it("gives an anonymous reader the files the site without the staff pages gives", async () => {
    const listing = await run(withStaff, ANONYMOUS, "find / -type f | sort");
    expect(listing).toBe(await run(without, ANONYMOUS, "find / -type f | sort"));
    // F4: the file the public page's name finds is theirs; F6: an ambiguous name finds neither
    // file; F7: the first by file name holding the operation and the schema.
    expect(listing).toBe(
      ["/api/a.json", "/async/orders.yaml", "/guides/events.mdx", "/guides/gadgets.mdx", "/guides/orders.mdx", "/guides/pet-model.mdx", "/guides/pets.mdx", "/guides/widget.mdx", "/guides/x.mdx", "/skill.md", "/specs/secret.json", ""].join("\n"),
    );
  });

  it("gives an anonymous reader each public page byte for byte as the site without the staff pages", async () => {
    for (const page of PAGES.split(" ")) expect(await run(withStaff, ANONYMOUS, `cat ${page}`), page).toBe(await run(without, ANONYMOUS, `cat ${page}`));
    expect(await run(withStaff, ANONYMOUS, `grep -c 'GADGETOP\\|PUBPETS\\|STAFFPETS\\|PUBWIDGET\\|STAFFWIDGET\\|PUBEVENTS\\|STAFFEVENTS\\|AOP\\|BOP\\|AWIDGET\\|BWIDGET\\|ORDERS' ${PAGES}`)).toBe(
      "/guides/gadgets.mdx:1\n/guides/pets.mdx:0\n/guides/pet-model.mdx:0\n/guides/events.mdx:0\n/guides/x.mdx:1\n/guides/widget.mdx:1\n/guides/orders.mdx:1\n",
    );
    expect(await run(withStaff, ANONYMOUS, "grep -h 'AOP\\|AWIDGET\\|Generated from' /guides/gadgets.mdx /guides/x.mdx /guides/widget.mdx")).toBe(
      await run(without, ANONYMOUS, "grep -h 'AOP\\|AWIDGET\\|Generated from' /guides/gadgets.mdx /guides/x.mdx /guides/widget.mdx"),
    );
  });

  it("gives an anonymous reader the search hits the site without the staff pages gives", async () => {
    const hits = async (runtime: DocsRuntime, query: string): Promise<unknown> =>
      (await runtime.search(localContext(ANONYMOUS), { query })).map((h) => ({ path: h.page.path, file: h.page.file.path, score: h.score, snippet: h.snippet }));
    for (const query of ["GADGETOP operation", "PUBPETS operation", "STAFFPETS", "PUBWIDGET", "STAFFWIDGET", "PUBEVENTS", "STAFFEVENTS", "AOP operation", "BOP operation", "AWIDGET widget", "ORDERS channel"]) {
      expect(await hits(withStaff, query), query).toEqual(await hits(without, query));
    }
    expect(((await hits(withStaff, "GADGETOP")) as { path: string }[]).map((h) => h.path)).toEqual(["/guides/gadgets"]);
  });

  it("resolves each name alike for mounting and for the plan, and staff pages show what they name", async () => {
    const sources = (runtime: DocsRuntime): (string | undefined)[] => ["/guides/gadgets", "/guides/pets", "/guides/x"].map((p) => runtime.site.api?.pages.get(p)?.source);
    expect(sources(withStaff)).toEqual(["specs/secret.json", undefined, "api/a.json"]);
    expect(sources(without)).toEqual(sources(withStaff));
    expect(await run(withStaff, ANONYMOUS, `grep -h 'Generated from' ${PAGES}`)).toBe(
      [
        "Generated from `/specs/secret.json`: `jq '.[\"paths\"][\"/gadgets\"][\"get\"]' /specs/secret.json`",
        "Generated from `/api/a.json`: `jq '.[\"paths\"][\"/x\"][\"get\"]' /api/a.json`",
        "Generated from `/api/a.json`: `jq '.[\"components\"][\"schemas\"][\"Widget\"]' /api/a.json`",
        "Generated from `/async/orders.yaml`: `yq '.[\"channels\"][\"orders\"]' /async/orders.yaml`",
        "",
      ].join("\n"),
    );
    const staff = readerWithGroups(["staff"]);
    expect(await run(withStaff, staff, "grep -c 'GADGETOP\\|STAFFPETS\\|AOP\\|AWIDGET\\|ORDERS' /internal/gadgets.mdx /internal/pets.mdx /internal/x.mdx /internal/widget.mdx /internal/orders.mdx; ls /staff")).toBe(
      "/internal/gadgets.mdx:1\n/internal/pets.mdx:1\n/internal/x.mdx:1\n/internal/widget.mdx:1\n/internal/orders.mdx:1\nevents.yaml\nopenapi.json\n",
    );
    expect(await run(withStaff, ANONYMOUS, "ls /staff")).toBe("");
  });
});

/**
 * Adversary round 47 F7, for a data model page: a page naming no file chose among the specs whose
 * schema every reader of it keeps, counting what MDX pages with `groups` document, so a staff page
 * documenting the one operation that uses `a.json`'s `Widget` moved the public page to `b.json`'s.
 * The choice is now made by the repository's files alone; the staff page narrows `a.json` for
 * everyone else (its operation and the schema only it uses leave their copy), so the public page
 * shows no schema there, never another spec's.
 */
describe("a public data model page naming no file, beside a staff page documenting the operation that uses its schema", () => {
  const usesWidget = {
    ...spec("A", "/x", "AOP", widget("AWIDGET")),
    paths: { "/admin": { post: { summary: "Admin", responses: { "200": { description: "OK", content: { "application/json": { schema: { $ref: "#/components/schemas/Widget" } } } } } } } },
  };
  const repo = (staff: boolean): Record<string, unknown> => ({
    "docs.json": { name: "W", navigation: { pages: ["guides/widget"] }, api: { openapi: ["api/a.json", "api/b.json"] } },
    "api/a.json": usesWidget,
    "api/b.json": spec("B", "/y", "BOP", widget("BWIDGET")),
    "guides/widget.mdx": "---\ntitle: Widget\nopenapi-schema: Widget\n---\n\nPublic widget.\n",
    ...(staff ? { "internal/admin.mdx": "---\ntitle: Admin\ngroups: [staff]\nopenapi: /api/a.json POST /admin\n---\n\nStaff admin.\n" } : {}),
  });
  const roots: string[] = [];
  let withStaff: DocsRuntime;
  let without: DocsRuntime;
  beforeAll(async () => {
    for (const staff of [true, false]) roots.push(writeRepo(repo(staff)));
    withStaff = await DocsRuntime.load({ root: roots[0] as string });
    without = await DocsRuntime.load({ root: roots[1] as string });
  });
  afterAll(async () => {
    await Promise.all([withStaff.close(), without.close()]);
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });
  const run = async (runtime: DocsRuntime, reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;

  it("shows an anonymous reader a.json's schema without the staff page, and no schema with it: never b.json's", async () => {
    expect(await run(without, ANONYMOUS, "grep -c 'AWIDGET\\|BWIDGET' /guides/widget.mdx; grep -c AWIDGET /guides/widget.mdx")).toBe("1\n1\n");
    expect(await run(withStaff, ANONYMOUS, "cat /guides/widget.mdx")).toBe("---\ntitle: Widget\nopenapi-schema: Widget\n---\n\nPublic widget.\n");
    expect(withStaff.site.diagnostics.filter((d) => d.file === "guides/widget.mdx").map((d) => d.message)).toEqual([
      'several specs have a schema "Widget" (api/a.json, api/b.json): the page shows api/a.json\'s; name one as "<spec file> Widget"',
      'schema "Widget" (api/a.json) is used only by operations restricted to groups that not every reader of this page is in: it is not shown on the page',
    ]);
    expect(await run(withStaff, readerWithGroups(["staff"]), "grep -c 'AWIDGET\\|BWIDGET' /guides/widget.mdx /api/a.json; grep -c AWIDGET /api/a.json")).toBe("/guides/widget.mdx:0\n/api/a.json:1\n1\n");
    expect(await run(withStaff, ANONYMOUS, "grep -c 'AWIDGET\\|/admin' /api/a.json")).toBe("0\n");
  });
});

/**
 * A data model page naming no file, where docs.json names a spec holding the schema and a
 * repository spec sorting before it, which a staff page names, holds it too: the plan shows the
 * docs.json spec's, as for an operation naming no file, and the staff page's file is not opened
 * to the page's readers for a schema the page does not show (with and without the staff page).
 */
describe("a public data model page naming no file, docs.json naming a spec that holds it", () => {
  const repo = (staff: boolean): Record<string, unknown> => ({
    "docs.json": { name: "W", navigation: { pages: ["guides/widget"] }, api: { openapi: ["api/d.json"] } },
    "api/c-staff.json": spec("C", "/c", "COP", widget("CWIDGET")),
    "api/d.json": spec("D", "/d", "DOP", widget("DWIDGET")),
    "guides/widget.mdx": "---\ntitle: Widget\nopenapi-schema: Widget\n---\n\nPublic widget.\n",
    ...(staff ? { "internal/c.mdx": "---\ntitle: C\ngroups: [staff]\nopenapi-schema: /api/c-staff.json Widget\n---\n\nStaff widget.\n" } : {}),
  });
  it("shows the docs.json spec's schema and keeps the other file closed, with and without the staff page", async () => {
    const roots = [true, false].map((staff) => writeRepo(repo(staff)));
    const runtimes = await Promise.all(roots.map((root) => DocsRuntime.load({ root })));
    try {
      const COMMAND = "find / -type f | sort; grep -c 'CWIDGET\\|DWIDGET' /guides/widget.mdx; grep -c DWIDGET /guides/widget.mdx";
      const seen = await Promise.all(runtimes.map(async (rt) => (await rt.readerState(localContext(ANONYMOUS)).shell.run(COMMAND)).stdout));
      expect(seen[0]).toBe(seen[1]);
      expect(seen[0]).toBe("/api/d.json\n/guides/widget.mdx\n/skill.md\n1\n1\n");
    } finally {
      await Promise.all(runtimes.map((rt) => rt.close()));
      for (const r of roots) rmSync(r, { recursive: true, force: true });
    }
  });
});
