import { join } from "node:path";
import { expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { CORPORA } from "../helpers/paths.js";
import { describeShared } from "../helpers/shared.js";

/** Every real repository in ../shared/corpora loads and serves sensible answers. */
const CASES = [
  { corpus: "spree", slug: "spree_commerce", pages: 425, query: "checkout", expectPath: /checkout/ },
  { corpus: "cline", slug: "cline", pages: 113, query: "mcp servers", expectPath: /mcp/ },
  { corpus: "open-wearables", slug: "open_wearables", pages: 66, query: "garmin", expectPath: /garmin/ },
] as const;

describeShared.each(CASES)("corpus $corpus", ({ corpus, slug, pages, query, expectPath }) => {
  it("loads, lists tools, searches and runs shell commands", async () => {
    const logs: string[] = [];
    const runtime = await DocsRuntime.load({ root: join(CORPORA, corpus), log: (m) => logs.push(m) });
    expect(runtime.site.pages.size).toBeGreaterThanOrEqual(pages);
    const c = await connect(runtime);
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([`search_${slug}`, `query_docs_filesystem_${slug}`]);
    const s = (await c.call(`search_${slug}`, { query })).structuredContent as { results: { path: string; score: number }[] };
    expect(s.results.length).toBeGreaterThan(3);
    // Scores are absolute (see README "Search"): a one-word query about a page's subject scores high.
    expect(s.results[0]?.score).toBeGreaterThan(0.6);
    expect(s.results[0]?.score).toBeLessThanOrEqual(1);
    expect(s.results.slice(0, 3).some((r) => expectPath.test(r.path))).toBe(true);
    const tree = await c.call(`query_docs_filesystem_${slug}`, { command: "tree / -L 1" });
    expect(tree.isError).toBeUndefined();
    const first = (await c.call(`query_docs_filesystem_${slug}`, { command: `cat ${runtime.site.pages.values().next().value?.file.path}` })).structuredContent as { exitCode: number };
    expect(first.exitCode).toBe(0);
    await c.close();
  });
});
