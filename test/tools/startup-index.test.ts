import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { SearchIndex } from "../../src/engine/search/search-index.js";
import { loadSite } from "../../src/vfs/load-site.js";
import { localContext, mayRead } from "../../src/vfs/request-context.js";
import { connect } from "../helpers/mcp.js";
import { copyToTemp, fixture } from "../helpers/paths.js";

/**
 * The search index is built after `DocsRuntime.load` returns, in slices with requests answered
 * between them. `indexSliceMs: 0` pauses after every page, so what a request meets right after
 * the load is an index still being built (the demo site has 10 pages: 9 pauses).
 */
const SLICED = { root: fixture("demo"), baseUrl: "https://docs.nimbus.example", indexSliceMs: 0 };

const opened: DocsRuntime[] = [];
async function load(options: Parameters<typeof DocsRuntime.load>[0]): Promise<DocsRuntime> {
  const runtime = await DocsRuntime.load(options);
  opened.push(runtime);
  return runtime;
}
afterEach(async () => {
  for (const r of opened.splice(0)) await r.close();
});

/** The paths and scores a query gets from an index built in one go over the same site, for
 *  the same reader (an anonymous local preview: the demo's staff pages are not theirs). */
async function builtInOneGo(root: string, query: string): Promise<{ path: string; score: number }[]> {
  const { site } = await loadSite(root);
  const index = new SearchIndex();
  index.sync(site);
  return index.search({ query, canRead: (access) => mayRead(localContext(), access) }).map((h) => ({ path: h.page.path, score: h.score }));
}

describe("the index built after start-up", () => {
  it("a search made while it builds waits for the whole index: the results of one built in one go", async () => {
    const runtime = await load(SLICED);
    expect(runtime.indexReady).toBe(false);
    const hits = await runtime.search(localContext(), { query: "signed url expires" });
    expect(runtime.indexReady).toBe(true);
    const got = hits.map((h) => ({ path: h.page.path, score: h.score }));
    expect(got).toEqual([
      { path: "/guides/access-control", score: 0.547 },
      { path: "/index", score: 0.273 },
      { path: "/api/overview", score: 0.151 },
    ]);
    expect(got).toEqual(await builtInOneGo(fixture("demo"), "signed url expires"));
  });

  it("tools/list and the instructions are answered before the index is built, the same as after", async () => {
    const runtime = await load(SLICED);
    const early = await connect(runtime);
    const tools = await early.client.listTools();
    const instructions = early.client.getInstructions();
    // The client's handshake and list ran between two slices of the build.
    expect(runtime.indexReady).toBe(false);
    await runtime.whenIndexed();
    const late = await connect(runtime);
    expect(await late.client.listTools()).toEqual(tools);
    expect(late.client.getInstructions()).toEqual(instructions);
    expect(tools.tools.map((t) => t.name)).toEqual(["search_nimbus_storage", "query_docs_filesystem_nimbus_storage"]);
    // And a search through the client made early gets the whole index.
    const result = await early.call("search_nimbus_storage", { query: "signed url expires", pageSize: 1 });
    expect((result.structuredContent as { results: { path: string; score: number }[] }).results.map((r) => [r.path, r.score])).toEqual([["/guides/access-control", 0.547]]);
    await early.close();
    await late.close();
  });

  it("a change applied while it builds is applied after it, and searchable", async () => {
    const tmp = copyToTemp(fixture("demo"));
    try {
      const runtime = await load({ ...SLICED, root: tmp.dir });
      writeFileSync(join(tmp.dir, "quickstart.mdx"), "---\ntitle: Quickstart\n---\n\nFlamingo pipelines start here.\n");
      const applied = runtime.applyChanges(["quickstart.mdx"]);
      expect(runtime.indexReady).toBe(false);
      await applied;
      const hits = await runtime.search(localContext(), { query: "flamingo pipelines" });
      expect(hits.map((h) => ({ path: h.page.path, score: h.score, snippet: h.snippet }))).toEqual([
        { path: "/quickstart", score: 0.56, snippet: "Flamingo pipelines start here." },
      ]);
    } finally {
      tmp.cleanup();
    }
  });

  it("with indexLater nothing is indexed until asked; a change before that is in the index it builds", async () => {
    const tmp = copyToTemp(fixture("demo"));
    try {
      const runtime = await load({ ...SLICED, root: tmp.dir, indexLater: true });
      writeFileSync(join(tmp.dir, "quickstart.mdx"), "---\ntitle: Quickstart\n---\n\nFlamingo pipelines start here.\n");
      await runtime.applyChanges(["quickstart.mdx"]);
      expect(runtime.indexReady).toBe(false);
      // The search starts the build, and waits for it.
      const hits = await runtime.search(localContext(), { query: "flamingo pipelines" });
      expect(runtime.indexReady).toBe(true);
      expect(hits.map((h) => ({ path: h.page.path, score: h.score, snippet: h.snippet }))).toEqual([
        { path: "/quickstart", score: 0.56, snippet: "Flamingo pipelines start here." },
      ]);
      const signed = await runtime.search(localContext(), { query: "signed url expires" });
      expect(signed.map((h) => ({ path: h.page.path, score: h.score }))).toEqual(await builtInOneGo(tmp.dir, "signed url expires"));
    } finally {
      tmp.cleanup();
    }
  });

  it("closing stops the build; a search after that is refused rather than answered from part of the index", async () => {
    const runtime = await load(SLICED);
    await runtime.close();
    await runtime.whenIndexed();
    expect(runtime.indexReady).toBe(false);
    await expect(runtime.search(localContext(), { query: "signed url" })).rejects.toThrow("the docs runtime was closed before its search index was built");
  });
});
