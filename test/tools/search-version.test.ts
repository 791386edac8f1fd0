import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NavTree } from "../../src/config/docs-json/nav-tree.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { navigationOfSite } from "../../src/vfs/site-nav.js";
import { fileTime } from "../helpers/provenance.js";
import { argumentError, connect } from "../helpers/mcp.js";
import { CORPORA } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";
import { runCli } from "../helpers/cli.js";
import { describeShared } from "../helpers/shared.js";

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

/** Every page a search shows: each result's, and the other versions folded into it. */
async function paths(args: Record<string, unknown>): Promise<string[]> {
  const r = await mcp.call("search_versions_demo", { query: "widgets", pageSize: 50, ...args });
  expect(r.isError).toBeFalsy();
  // Each result with the copies folded into it: other versions, and other languages when unfiltered by language.
  const results = (r.structuredContent as { results: { path: string; otherVersions?: { path: string }[]; otherLanguages?: { path: string }[] }[] }).results;
  return results.flatMap((x) => [x.path, ...(x.otherVersions ?? []).map((o) => o.path), ...(x.otherLanguages ?? []).map((o) => o.path)]).sort();
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

  it("without a filter, the same page in v1 and v2 is one result: the default version's, naming the other", async () => {
    const r = await mcp.call("search_versions_demo", { query: "widgets in v1 v2", pageSize: 50 });
    const widgets = (r.structuredContent as { results: Record<string, unknown>[] }).results.find((x) => x.path === "/v2/widgets");
    expect(widgets).toEqual({
      title: "Widgets in v2",
      section: "Widgets in v2",
      path: "/v2/widgets",
      file: "/v2/widgets.mdx",
      url: "https://docs.example.com/v2/widgets#widgets-in-v2",
      snippet: "All about widgets and their gears.",
      score: widgets?.score,
      versions: ["v2"],
      products: ["Core"],
      otherVersions: [{ versions: ["v1"], products: ["Core"], path: "/v1/widgets", url: "https://docs.example.com/v1/widgets", score: (widgets?.otherVersions as { score: number }[] | undefined)?.[0]?.score }],
      lastModified: fileTime(repo.dir, "v2/widgets.mdx"),
    });
  });

  it("names of versions and languages are taken in near forms: V2, 2, FR", async () => {
    expect(await paths({ version: "V2" })).toEqual(await paths({ version: "v2" }));
    expect(await paths({ version: "2" })).toEqual(await paths({ version: "v2" }));
    expect(await paths({ language: "FR" })).toEqual(await paths({ language: "fr" }));
    expect(await paths({ language: "fr-CA" })).toEqual(await paths({ language: "fr" }));
  });

  it("an unknown version or language is an error result naming the argument and the values that exist", async () => {
    expect(await mcp.call("search_versions_demo", { query: "widgets", version: "v9" })).toEqual(argumentError('Invalid arguments for search_versions_demo: version: not a version of this site; use one of v1, v2, latest (got "v9")'));
    expect(await mcp.call("search_versions_demo", { query: "widgets", language: "de" })).toEqual(argumentError('Invalid arguments for search_versions_demo: language: not a language of this site; use one of en, fr (got "de")'));
    expect(await mcp.call("search_versions_demo", { query: "widgets", version: "v3", language: "zh" })).toEqual(argumentError('Invalid arguments for search_versions_demo: version: not a version of this site; use one of v1, v2, latest (got "v3"); ' +
        'language: not a language of this site; use one of en, fr (got "zh")'));
  });

  it("language fr: fr pages and the language-less ones", async () => {
    expect(await paths({ language: "fr" })).toEqual(["/fr/extras/widgets", "/notes/widgets", "/shared/glossary", "/v1/widgets", "/v2/widgets"]);
  });

  it("version and language together", async () => {
    expect(await paths({ version: "v2", language: "en" })).toEqual(["/extras/widgets", "/notes/widgets", "/shared/glossary", "/v2/widgets"]);
  });
});

describeShared("spree through the MCP client", () => {
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

  it("takes v6 for v6.x, and refuses v7 naming spree's versions", async () => {
    const a = await client.call("search_spree_commerce", { query: "returns", version: "v6" });
    const b = await client.call("search_spree_commerce", { query: "returns", version: "v6.x" });
    expect(a.structuredContent).toEqual(b.structuredContent);
    expect(await client.call("search_spree_commerce", { query: "returns", version: "v7" })).toEqual(argumentError('Invalid arguments for search_spree_commerce: version: not a version of this site; use one of v5.x, v6.x, latest (got "v7")'));
  });

  it("unfiltered, a v5.x page and its v6 copy are one result, shown as the default v5.x one", async () => {
    const r = await client.call("search_spree_commerce", { query: "Spree::Config settings", pageSize: 3 });
    const results = (r.structuredContent as { results: { path: string; versions?: string[]; otherVersions?: { path: string; versions: string[] }[] }[] }).results;
    expect(results[0]).toMatchObject({
      path: "/developer/customization/configuration",
      versions: ["v5.x"],
      otherVersions: [{ path: "/v6/developer/customization/configuration", versions: ["v6.x"] }],
    });
    expect(client.text(r)).toContain(
      "   file: /developer/customization/configuration.mdx · score " +
        `${(results[0] as unknown as { score: number }).score} · version v5.x\n` +
        "   also in v6.x: https://spreecommerce.org/docs/v6/developer/customization/configuration\n",
    );
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

describe("a site that declares no versions or languages", () => {
  let plain: ReturnType<typeof makeRepo>;
  let rt: DocsRuntime;
  let client: Awaited<ReturnType<typeof connect>>;
  beforeAll(async () => {
    plain = makeRepo({ "docs.json": JSON.stringify({ name: "Plain", navigation: { pages: ["a", "b"] } }), "a.mdx": page("Widgets A"), "b.mdx": page("Widgets B") });
    rt = await DocsRuntime.load({ root: plain.dir });
    client = await connect(rt);
  });
  afterAll(async () => {
    await client.close();
    plain.cleanup();
  });

  it("has all its content in every version and language: the filters keep everything", async () => {
    const all = await client.call("search_plain", { query: "widgets" });
    expect((all.structuredContent as { results: unknown[] }).results.length).toBe(2);
    expect((await client.call("search_plain", { query: "widgets", version: "v2", language: "en" })).structuredContent).toEqual(all.structuredContent);
  });
});

describe("svc-mcp search --version / --language", () => {
  it("an unknown one exits 2 naming the option and the values that exist", async () => {
    expect(await runCli(["search", "widgets", "--dir", repo.dir, "--version", "v9", "--language", "de"])).toEqual({
      code: 2,
      stdout: "",
      stderr: 'svc-mcp: --version: not a version of this site; use one of v1, v2, latest (got "v9"); --language: not a language of this site; use one of en, fr (got "de")\n',
    });
  });

  it("--json carries each result's versions, languages and folded versions", async () => {
    const run = await runCli(["search", "widgets in v1 v2", "--dir", repo.dir, "--json", "--page-size", "1"]);
    expect(run.code).toBe(0);
    const [hit] = JSON.parse(run.stdout) as { path: string; score: number; otherVersions: { score: number }[] }[];
    expect(hit).toEqual({
      title: "Widgets in v2",
      path: "/v2/widgets",
      url: "http://localhost:3000/v2/widgets#widgets-in-v2",
      snippet: "All about widgets and their gears.",
      score: hit?.score,
      versions: ["v2"],
      products: ["Core"],
      otherVersions: [{ versions: ["v1"], products: ["Core"], path: "/v1/widgets", url: "http://localhost:3000/v1/widgets", score: hit?.otherVersions[0]?.score }],
    });
  });
});

/**
 * One language listed under two of its codes (`cn` and `zh`, which the platform documents side
 * by side; `en` and `EN`): it is one language, under the code the site writes first. Any code of
 * it selects the pages of both listings, and the error names it once.
 */
describe("one language under two codes", () => {
  const sites: { name: string; first: string; second: string; codes: readonly string[]; listed: string }[] = [
    { name: "Chinese Twice", first: "cn", second: "zh", codes: ["cn", "zh", "zh-Hans", "zh-CN", "ZH"], listed: "cn (also zh, zh-Hans, zh-CN)" },
    { name: "English Twice", first: "en", second: "EN", codes: ["en", "EN", "en-US"], listed: "en" },
  ];
  for (const site of sites) {
    describe(`${site.first} and ${site.second}`, () => {
      let twice: ReturnType<typeof makeRepo>;
      let rt: DocsRuntime;
      let client: Awaited<ReturnType<typeof connect>>;
      const tool = `search_${site.name.toLowerCase().replace(" ", "_")}`;
      beforeAll(async () => {
        const navigation = { languages: [{ language: site.first, pages: ["a"] }, { language: site.second, pages: ["b"] }, { language: "fr", pages: ["c"] }] };
        twice = makeRepo({ "docs.json": JSON.stringify({ name: site.name, navigation }), "a.mdx": page("Widgets A"), "b.mdx": page("Widgets B"), "c.mdx": page("Widgets C") });
        rt = await DocsRuntime.load({ root: twice.dir });
        client = await connect(rt);
      });
      afterAll(async () => {
        await client.close();
        twice.cleanup();
      });

      it("any of its codes finds the pages of both listings", async () => {
        for (const language of site.codes) {
          const r = await client.call(tool, { query: "widgets", language });
          expect({ language, paths: (r.structuredContent as { results: { path: string }[] }).results.map((x) => x.path).sort() }).toEqual({ language, paths: ["/a", "/b"] });
        }
      });

      it("an unknown code is refused naming the language once", async () => {
        expect(await client.call(tool, { query: "widgets", language: "de" })).toEqual(
          argumentError(`Invalid arguments for ${tool}: language: not a language of this site; use one of ${site.listed}, fr (got "de")`),
        );
      });

      it("svc-mcp search --language and nav --language take any of its codes", async () => {
        const run = await runCli(["search", "widgets", "--dir", twice.dir, "--json", "--language", site.codes[site.codes.length - 1] as string]);
        expect(run.code).toBe(0);
        expect((JSON.parse(run.stdout) as { path: string }[]).map((x) => x.path).sort()).toEqual(["/a", "/b"]);
        const nav = await runCli(["nav", "--dir", twice.dir, "--json", "--language", site.second]);
        expect(nav.code).toBe(0);
        const tree = JSON.parse(nav.stdout) as NavTree;
        expect({ languages: tree.languages.map((l) => l.language), pages: tree.pages.map((p) => [p.page, p.languages]) }).toEqual({
          languages: [site.first, "fr"],
          pages: [["/a", [site.first]], ["/b", [site.first]]],
        });
      });
    });
  }
});
