/**
 * Adversary round 46 F1: a restricted `x.mdx` beside a public `x.md` leaves the `.md` to every
 * reader outside the `.mdx`'s groups (`Site.shadowed`), but front matter references (and the spec
 * files they name) were read from the first page of each path only: the `.md`'s `openapi`,
 * `openapi-schema` or `asyncapi` reference was never looked at, so an anonymous reader got the
 * page without it (and not the spec it alone names), which told them a restricted page stood
 * there. Each page of a path now shows what its own front matter names to the readers who get it,
 * as on the site without the files before it.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { appResources } from "../../src/mcp/ui-extension.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { readerApiPage } from "../../src/vfs/outline.js";
import { localContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "./helpers.js";

const PET = { type: "object", description: "A pet PETSCHEMA.", properties: { name: { type: "string" } } };
const SPEC = {
  openapi: "3.1.0",
  info: { title: "Pets", version: "1" },
  paths: { "/pets": { get: { summary: "List pets", description: "Every pet PETLIST.", responses: { "200": { description: "Done", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } } } } } },
  components: { schemas: { Pet: PET } },
};
const EVENTS = {
  asyncapi: "3.0.0",
  info: { title: "Events", version: "1" },
  channels: { orders: { address: "orders", description: "Order events ORDERCHANNEL.", messages: { created: { payload: { type: "object" } } } } },
};

/** The public pages, each naming what only it names (no docs.json reference to either spec). */
const PUBLIC: Record<string, string> = {
  "guides/op.md": "---\ntitle: Op\nopenapi: /api/openapi.json GET /pets\n---\n\nPublic op prose.\n",
  "guides/model.md": "---\ntitle: Model\nopenapi-schema: /api/openapi.json Pet\n---\n\nPublic model prose.\n",
  "guides/events.md": "---\ntitle: Events\nasyncapi: /api/events.yaml orders\n---\n\nPublic channel prose.\n",
};
/** The staff pages at the same paths, naming nothing. */
const STAFF: Record<string, string> = {
  "guides/op.mdx": "---\ntitle: Staff op\ngroups: [staff]\n---\n\nStaff prose one.\n",
  "guides/model.mdx": "---\ntitle: Staff model\ngroups: [staff]\n---\n\nStaff prose two.\n",
  "guides/events.mdx": "---\ntitle: Staff events\ngroups: [staff]\n---\n\nStaff prose three.\n",
};

const repo = (staff: boolean): Record<string, unknown> => ({
  "docs.json": { name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["guides/op", "guides/model", "guides/events"] }] } },
  "api/openapi.json": SPEC,
  "api/events.yaml": JSON.stringify(EVENTS),
  ...PUBLIC,
  // A page after them by path documenting an operation too: the MCP Apps list keeps one order.
  "guides/zz.mdx": "---\ntitle: Pets again\nopenapi: /api/openapi.json GET /pets\n---\n\nMore pets.\n",
  ...(staff ? STAFF : {}),
});

describe("a public x.md behind a staff x.mdx, naming an operation, a schema and a channel", () => {
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
  const COMMAND = "find / -type f | sort; grep -c 'PETLIST\\|PETSCHEMA\\|ORDERCHANNEL' /guides/op.md /guides/model.md /guides/events.md; wc -c /guides/op.md /guides/model.md /guides/events.md /api/openapi.json /api/events.yaml";

  it("gives an anonymous reader each page with its reference and the specs it names, as the site without the staff pages", async () => {
    const seen = await run(withStaff, ANONYMOUS, COMMAND);
    expect(seen).toBe(await run(without, ANONYMOUS, COMMAND));
    expect(seen.split("\n").slice(0, 10)).toEqual([
      "/api/events.yaml",
      "/api/openapi.json",
      "/guides/events.md",
      "/guides/model.md",
      "/guides/op.md",
      "/guides/zz.mdx",
      "/skill.md",
      "/guides/op.md:1",
      "/guides/model.md:1",
      "/guides/events.md:1",
    ]);
    for (const file of Object.keys(PUBLIC)) expect(await run(withStaff, ANONYMOUS, `cat /${file}`)).toBe(await run(without, ANONYMOUS, `cat /${file}`));
  });

  it("answers the reader's search, API facts and diagnostics as without the staff pages", async () => {
    for (const query of ["PETLIST", "PETSCHEMA", "ORDERCHANNEL"]) {
      const paths = async (runtime: DocsRuntime): Promise<string[]> => (await runtime.search(localContext(ANONYMOUS), { query })).map((h) => h.page.path);
      expect(await paths(withStaff)).toEqual(await paths(without));
    }
    expect((await withStaff.search(localContext(ANONYMOUS), { query: "PETLIST" })).map((h) => h.page.path)).toEqual(["/guides/op"]);
    const facts = (runtime: DocsRuntime): unknown => {
      const found = readerApiPage(runtime.site, localContext(ANONYMOUS), "/guides/op");
      return found === undefined ? undefined : { file: found.page.file.path, method: found.info.method, path: found.info.path, source: found.info.source };
    };
    expect(facts(withStaff)).toEqual({ file: "/guides/op.md", method: "GET", path: "/pets", source: "api/openapi.json" });
    expect(facts(without)).toEqual(facts(withStaff));
    const theirs = (runtime: DocsRuntime): string[] => runtime.site.diagnostics.filter((d) => d.file.endsWith(".md") && d.code !== "page-two-files").map((d) => `${d.file}: ${d.message}`);
    expect(theirs(withStaff)).toEqual(theirs(without));
  });

  it("gives staff their own pages, which name nothing, and the public pages' files as everyone's", async () => {
    const staff = readerWithGroups(["staff"]);
    expect(await run(withStaff, staff, "cat /guides/op.mdx; grep -c 'PETLIST\\|PETSCHEMA\\|ORDERCHANNEL' /guides/op.md /guides/model.md /guides/events.md")).toBe(
      `${STAFF["guides/op.mdx"]}/guides/op.md:1\n/guides/model.md:1\n/guides/events.md:1\n`,
    );
    expect(readerApiPage(withStaff.site, localContext(staff), "/guides/op")).toBeUndefined();
  });

  it("lists the anonymous reader's MCP Apps in the same order (adversary round 47 F3)", () => {
    const apps = (runtime: DocsRuntime): string[] => appResources(runtime, localContext(ANONYMOUS)).map((r) => r.name);
    expect(apps(withStaff)).toEqual(["/guides/op", "/guides/zz"]);
    expect(apps(without)).toEqual(apps(withStaff));
  });

  it("follows an edit of the hidden page: its new reference for its readers, none once it names nothing", async () => {
    const root = writeRepo(repo(true));
    roots.push(root);
    const runtime = await DocsRuntime.load({ root });
    try {
      writeFileSync(join(root, "guides/op.md"), PUBLIC["guides/op.md"]?.replace("openapi: /api/openapi.json GET /pets\n", "") ?? "");
      await runtime.applyChanges(["guides/op.md"]);
      expect(await run(runtime, ANONYMOUS, "cat /guides/op.md; grep -c PETLIST /api/openapi.json")).toBe("---\ntitle: Op\n---\n\nPublic op prose.\n1\n");
      expect(readerApiPage(runtime.site, localContext(ANONYMOUS), "/guides/op")).toBeUndefined();
      writeFileSync(join(root, "guides/op.md"), PUBLIC["guides/op.md"] ?? "");
      await runtime.applyChanges(["guides/op.md"]);
      expect(await run(runtime, ANONYMOUS, "cat /guides/op.md")).toBe(await run(without, ANONYMOUS, "cat /guides/op.md"));
    } finally {
      await runtime.close();
    }
  });
});

describe("a staff x.mdx and a public x.md documenting one operation", () => {
  const roots: string[] = [];
  let withStaff: DocsRuntime;
  let without: DocsRuntime;
  const files = (staff: boolean): Record<string, unknown> => ({
    "docs.json": { name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["guides/op", "guides/model"] }] } },
    "api/openapi.json": SPEC,
    "guides/op.md": PUBLIC["guides/op.md"],
    "guides/model.md": PUBLIC["guides/model.md"],
    ...(staff ? { "guides/op.mdx": "---\ntitle: Staff op\ngroups: [staff]\nopenapi: /api/openapi.json GET /pets\n---\n\nStaff prose.\n" } : {}),
  });
  beforeAll(async () => {
    for (const staff of [true, false]) roots.push(writeRepo(files(staff)));
    withStaff = await DocsRuntime.load({ root: roots[0] as string });
    without = await DocsRuntime.load({ root: roots[1] as string });
  });
  afterAll(async () => {
    await Promise.all([withStaff.close(), without.close()]);
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });
  const run = async (runtime: DocsRuntime, reader: Reader, command: string): Promise<string> => (await runtime.readerState(localContext(reader)).shell.run(command)).stdout;

  it("keeps the operation and its schema in the anonymous reader's spec, their page's reference and the schema page, as without the staff page", async () => {
    const command = "find / -type f | sort; grep -c 'PETLIST\\|PETSCHEMA' /api/openapi.json /guides/op.md /guides/model.md; cat /api/openapi.json /guides/op.md /guides/model.md | wc -c";
    const seen = await run(withStaff, ANONYMOUS, command);
    expect(seen).toBe(await run(without, ANONYMOUS, command));
    expect(seen.split("\n").slice(0, 7)).toEqual(["/api/openapi.json", "/guides/model.md", "/guides/op.md", "/skill.md", "/api/openapi.json:2", "/guides/op.md:1", "/guides/model.md:1"]);
  });

  it("shows staff their page with the reference", async () => {
    expect(await run(withStaff, readerWithGroups(["staff"]), "grep -c PETLIST /guides/op.mdx /guides/op.md")).toBe("/guides/op.mdx:1\n/guides/op.md:1\n");
  });
});

describe("search weighs the page a reader gets by what that page documents (adversary round 47 F1, F2)", () => {
  const GADGETS = {
    openapi: "3.1.0",
    info: { title: "Gadgets", version: "1" },
    paths: {
      "/gadgets": { get: { summary: "List gadgets", description: "Every gadget.", responses: { "200": { description: "Done" } } } },
      "/widgets/list": { get: { summary: "List widgets", description: "Every widget.", responses: { "200": { description: "Done" } } } },
    },
  };
  const files = (staff: boolean): Record<string, unknown> => ({
    "docs.json": { name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["guides/x", "guides/y", "guides/other"] }] } },
    "api/openapi.json": GADGETS,
    "guides/x.md": "---\ntitle: Widgets\nopenapi: /api/openapi.json GET /widgets/list\n---\n\nWidgets and gadgets, listed.\n",
    "guides/y.md": "---\ntitle: Things\nopenapi: GET /things/frobnicate\n---\n\nA page about things.\n",
    "guides/other.mdx": "---\ntitle: Other\n---\n\nWidgets and gadgets and things, frobnicated.\n",
    ...(staff
      ? {
          "guides/x.mdx": "---\ntitle: Staff gadgets\ngroups: [staff]\nopenapi: /api/openapi.json GET /gadgets\n---\n\nStaff prose.\n",
          "guides/y.mdx": "---\ntitle: Staff widgets\ngroups: [staff]\nopenapi: /api/openapi.json GET /widgets/list\n---\n\nStaff prose.\n",
        }
      : {}),
  });
  const roots: string[] = [];
  let withStaff: DocsRuntime;
  let without: DocsRuntime;
  beforeAll(async () => {
    for (const staff of [true, false]) roots.push(writeRepo(files(staff)));
    withStaff = await DocsRuntime.load({ root: roots[0] as string });
    without = await DocsRuntime.load({ root: roots[1] as string });
  });
  afterAll(async () => {
    await Promise.all([withStaff.close(), without.close()]);
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  it("gives the anonymous reader the same hits, scores and snippets as the site without the staff pages", async () => {
    const hits = async (runtime: DocsRuntime, query: string): Promise<unknown> => (await runtime.search(localContext(ANONYMOUS), { query })).map((h) => ({ path: h.page.path, file: h.page.file.path, score: h.score, snippet: h.snippet }));
    for (const query of ["widgets /gadgets", "widgets /widgets/list", "frobnicate things"]) expect(await hits(withStaff, query)).toEqual(await hits(without, query));
    expect(((await hits(withStaff, "frobnicate things")) as { file: string }[]).map((h) => h.file)).toEqual(["/guides/y.md", "/guides/other.mdx"]);
  });
});

describe("search weighs a generated page behind a staff file by its own operation (adversary round 47 F1)", () => {
  const SPEC2 = {
    openapi: "3.1.0",
    info: { title: "Widgets", version: "1" },
    paths: {
      "/widgets/list": { get: { summary: "List widgets", tags: ["W"], description: "Lists the widgets ZORBLAX.", responses: { "200": { description: "Done" } } } },
      "/gadgets": { get: { summary: "List gadgets", tags: ["G"], description: "Lists the gadgets.", responses: { "200": { description: "Done" } } } },
    },
  };
  const files: Record<string, unknown> = {
    "docs.json": { name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["guides/y"] }, { group: "API", openapi: "openapi.json" }] } },
    "openapi.json": SPEC2,
    "guides/y.mdx": "---\ntitle: Y\n---\n\nWidgets listed elsewhere.\n",
  };
  const roots: string[] = [];
  let withStaff: DocsRuntime;
  let without: DocsRuntime;
  let generatedPath = "";
  beforeAll(async () => {
    roots.push(writeRepo(files));
    without = await DocsRuntime.load({ root: roots[0] as string });
    generatedPath = without.site.api?.plan.pages.find((p) => p.item.kind === "operation" && p.item.operation.path === "/widgets/list")?.pagePath ?? "";
    roots.push(writeRepo({ ...files, [`${generatedPath.slice(1)}.mdx`]: "---\ntitle: Staff widgets\ngroups: [staff]\n---\n\nStaff only.\n" }));
    withStaff = await DocsRuntime.load({ root: roots[1] as string });
  });
  afterAll(async () => {
    await Promise.all([withStaff.close(), without.close()]);
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  it("gives the anonymous reader the generated page's hits and scores as without the staff file", async () => {
    expect(generatedPath).toBe("/api-reference/w/list-widgets");
    const hits = async (runtime: DocsRuntime, query: string): Promise<unknown> => (await runtime.search(localContext(ANONYMOUS), { query })).map((h) => ({ path: h.page.path, score: h.score, snippet: h.snippet }));
    for (const query of ["widgets /widgets/list", "widgets /gadgets", "ZORBLAX"]) expect(await hits(withStaff, query)).toEqual(await hits(without, query));
    expect(((await hits(withStaff, "widgets /widgets/list")) as { path: string }[])[0]?.path).toBe("/api-reference/w/list-widgets");
  });
});
