import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NavTree } from "../../src/config/docs-json/nav-tree.js";
import { DocsRuntime } from "../../src/tools/runtime.js";
import { navigationOfSite } from "../../src/vfs/site-nav.js";
import { connect } from "../helpers/mcp.js";
import { CORPORA } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * The search tool's `version` and `language` filters, through the SDK client: a page's versions
 * and languages come from where docs.json places it; a page under no version is in every version.
 */
const page = (title: string) => `---\ntitle: ${title}\n---\n\n# ${title}\n\nAll about widgets and their gears.\n`;

const docs = {
  name: "Versions Demo",
  seo: { indexing: "all" },
  navigation: {
    products: [
      {
        product: "Core",
        versions: [
          { version: "v1", groups: [{ group: "Widgets", pages: ["v1/widgets", "shared/glossary"] }] },
          { version: "v2", default: true, groups: [{ group: "Widgets", pages: ["v2/widgets", "shared/glossary"] }] },
        ],
      },
      {
        product: "Extras",
        languages: [
          { language: "en", pages: ["extras/widgets"] },
          { language: "fr", pages: ["fr/extras/widgets"] },
        ],
      },
    ],
  },
};

let repo: ReturnType<typeof makeRepo>;
let runtime: DocsRuntime;
let mcp: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  repo = makeRepo({
    "docs.json": JSON.stringify(docs, null, 2),
    "v1/widgets.mdx": page("Widgets in v1"),
    "v2/widgets.mdx": page("Widgets in v2"),
    "shared/glossary.mdx": page("Widget glossary"),
    "extras/widgets.mdx": page("Extra widgets"),
    "fr/extras/widgets.mdx": page("Widgets en plus"),
    // Not in navigation: indexed because of seo.indexing "all", in every version and language.
    "notes/widgets.mdx": page("Widget notes"),
  });
  runtime = await DocsRuntime.load({ root: repo.dir, baseUrl: "https://docs.example.com" });
  mcp = await connect(runtime);
});
afterAll(async () => {
  await mcp.close();
  repo.cleanup();
});

async function paths(args: Record<string, unknown>): Promise<string[]> {
  const r = await mcp.call("search_versions_demo", { query: "widgets", pageSize: 50, ...args });
  expect(r.isError).toBeFalsy();
  return (r.structuredContent as { results: { path: string }[] }).results.map((x) => x.path).sort();
}

describe("search through the MCP client, filtered by version and language", () => {
  it("without a filter, every page", async () => {
    expect(await paths({})).toEqual(["/extras/widgets", "/fr/extras/widgets", "/notes/widgets", "/shared/glossary", "/v1/widgets", "/v2/widgets"]);
  });

  it("version v1: v1's pages and the version-less ones, not v2's", async () => {
    expect(await paths({ version: "v1" })).toEqual(["/extras/widgets", "/fr/extras/widgets", "/notes/widgets", "/shared/glossary", "/v1/widgets"]);
  });

  it("version v2: v2's pages and the version-less ones, not v1's", async () => {
    expect(await paths({ version: "v2" })).toEqual(["/extras/widgets", "/fr/extras/widgets", "/notes/widgets", "/shared/glossary", "/v2/widgets"]);
  });

  it("a version no page has: only the version-less pages", async () => {
    expect(await paths({ version: "v9" })).toEqual(["/extras/widgets", "/fr/extras/widgets", "/notes/widgets"]);
  });

  it("language fr: fr pages and the language-less ones", async () => {
    expect(await paths({ language: "fr" })).toEqual(["/fr/extras/widgets", "/notes/widgets", "/shared/glossary", "/v1/widgets", "/v2/widgets"]);
  });

  it("version and language together", async () => {
    expect(await paths({ version: "v2", language: "en" })).toEqual(["/extras/widgets", "/notes/widgets", "/shared/glossary", "/v2/widgets"]);
  });
});

describe("spree through the MCP client", () => {
  let spree: DocsRuntime;
  let client: Awaited<ReturnType<typeof connect>>;
  let tree: NavTree;
  beforeAll(async () => {
    const root = join(CORPORA, "spree");
    spree = await DocsRuntime.load({ root });
    client = await connect(spree);
    const nav = navigationOfSite(spree.site);
    if (!nav.ok) throw new Error("spree navigation did not load");
    tree = nav.tree;
  });
  afterAll(async () => {
    await client.close();
  });

  for (const version of ["v5.x", "v6.x"]) {
    it(`version ${version}: every result is placed in ${version} by the navigation`, async () => {
      const inVersion = new Set(tree.pages.filter((p) => p.versions === null || p.versions.includes(version)).map((p) => p.page));
      const other = version === "v5.x" ? "v6.x" : "v5.x";
      const onlyOther = tree.pages.filter((p) => p.versions !== null && !p.versions.includes(version)).map((p) => p.page);
      expect(onlyOther.length).toBeGreaterThan(0);
      for (const query of ["checkout", "promotions", "customization", "returns"]) {
        const r = await client.call("search_spree_commerce", { query, pageSize: 50, version });
        const results = (r.structuredContent as { results: { path: string }[] }).results.map((x) => x.path);
        expect(results.length).toBeGreaterThan(0);
        // Generated API pages carry their element's placement; file pages must be in this version.
        const filePages = results.filter((p) => !p.startsWith("/api-reference/"));
        expect([query, other, filePages.filter((p) => !inVersion.has(p))]).toEqual([query, other, []]);
      }
    });
  }
});
