import { describe, expect, it } from "vitest";
import { AnalysisFeed, analysisWorkers } from "../../../src/engine/search/analysis-feed.js";
import { PAGE_READ, SearchIndex } from "../../../src/engine/search/search-index.js";
import type { Site } from "../../../src/vfs/site.js";
import { site } from "./analysis-site.js";

/**
 * Page analysis in worker threads (issue 22, `analysis-feed.ts`): workers analyse bodies in
 * vocabularies of their own, and the index maps their terms to its ids in page order. The index
 * built so must be the one a single thread builds, array for array (term ids included), and
 * answer the same.
 */

async function buildWith(s: Site, workers: number): Promise<SearchIndex> {
  const index = new SearchIndex();
  const feed = new AnalysisFeed(index.bodiesToAnalyse(s), workers);
  try {
    const steps = index.syncSteps(s, feed);
    for (let step = steps.next(); step.done !== true; step = steps.next()) if (step.value !== undefined) await step.value;
  } finally {
    feed.close();
  }
  return index;
}

const hitsOf = (index: SearchIndex, query: string): unknown[] =>
  index.search({ query, canRead: () => true }).map((h) => ({ path: h.page.path, anchor: h.section.anchor, score: h.score, snippet: h.snippet, also: h.otherVersions.map((t) => t.page.path) }));

describe("page analysis in worker threads", () => {
  it("builds the index one thread builds, term ids included, and it answers the same", async () => {
    const s = site();
    const alone = new SearchIndex();
    alone.sync(s);
    for (const workers of [2, 1, 0]) {
      const index = await buildWith(s, workers);
      expect(index.state()).toEqual(alone.state());
      for (const query of ["refund failed code_3", "support order number", "知识库", "api_key createCart", "unique7word"]) expect(hitsOf(index, query)).toEqual(hitsOf(alone, query));
    }
  });

  it("sends each analysis's id arrays as views of shared memory, not of the worker's own (issue 22: its allocator kept what the index let go, ~160 MB at 50,000 pages)", async () => {
    const s = site();
    const index = new SearchIndex();
    const bodies = index.bodiesToAnalyse(s);
    const feed = new AnalysisFeed(bodies, 1);
    try {
      const kinds: string[] = [];
      for (const body of bodies) {
        await feed.arriving(body.key, body.api);
        const made = feed.take(body.key, body.api);
        kinds.push(made === undefined ? "none" : [made.analysis.ids, made.analysis.ends].map((a) => (a.buffer instanceof SharedArrayBuffer ? "shared" : "own")).join(" "));
      }
      expect(kinds).toEqual(bodies.map(() => "shared shared"));
    } finally {
      feed.close();
    }
  });

  it("lets go of the bodies it listed once closed (a closed feed may outlive the build)", async () => {
    const s = site();
    const index = new SearchIndex();
    const feed = new AnalysisFeed(index.bodiesToAnalyse(s), 1);
    // 24 bodies (19 pages' own, 5 with the note inlined), each in the list and in the map by key.
    expect(feed.listed).toBe(48);
    feed.close();
    expect(feed.listed).toBe(0);
  });

  it("is closed by the build once its last page is added, before the build's synchronous end (issue 22: the workers' heaps are let go before the commit, the build's peak)", async () => {
    const s = site();
    const index = new SearchIndex();
    const feed = new AnalysisFeed(index.bodiesToAnalyse(s), 1);
    const steps = index.syncSteps(s, feed);
    let step = steps.next();
    for (; step.done !== true; step = steps.next()) if (step.value !== undefined) await step.value;
    expect([step.value, feed.listed]).toEqual([{ added: 48, removed: 0 }, 0]);
  });

  it("lists the bodies a build analyses once each, in page order, a page that inlines snippets as its readers read it, leaving out pages already indexed", () => {
    const s = site();
    const index = new SearchIndex();
    const bodies = index.bodiesToAnalyse(s);
    // 24 texts in two versions each; 5 of them (p0, p5, ...) inline the note, listed with it in.
    expect(bodies.map((b) => [b.api, /^Intro \w+ \w+ (unique\d+word)/m.exec(b.body)?.[1], b.body.includes("import Note"), b.body.includes("A shared note about the refundNote flow.")])).toEqual(
      Array.from({ length: 24 }, (_, i) => [false, `unique${i}word`, i % 5 === 0, i % 5 === 0]),
    );
    index.sync(s);
    expect(index.bodiesToAnalyse(s)).toEqual([]);
  });

  it("makes every analysis of a build in the workers, those of pages that inline snippets too (2026-12-07: a real site's 794 such pages were analysed on the index's thread)", async () => {
    const s = site();
    const index = new SearchIndex();
    const feed = new AnalysisFeed(index.bodiesToAnalyse(s), 2);
    try {
      const steps = index.syncSteps(s, feed);
      for (let step = steps.next(); step.done !== true; step = steps.next()) if (step.value !== undefined && step.value !== PAGE_READ) await step.value;
    } finally {
      feed.close();
    }
    // Every distinct body listed (19 pages' own, 5 with the note inlined), none made here.
    expect(feed.delivered).toBe(24);
  });

  it("uses two workers on two cores for mostly distinct pages, where analysis outweighs indexing, one per other core beside the index's thread elsewhere, and none on one core", () => {
    expect([1, 2, 3, 4, 5, 8, 64].map((cores) => analysisWorkers(cores, 50_000, 50_000))).toEqual([0, 2, 2, 3, 4, 4, 4]);
    expect([1, 2, 3, 4, 5, 8, 64].map((cores) => analysisWorkers(cores, 1_411, 24_920))).toEqual([0, 1, 2, 3, 4, 4, 4]);
    expect([analysisWorkers(2, 5_000, 10_000), analysisWorkers(2, 4_999, 10_000)]).toEqual([2, 1]);
  });
});
