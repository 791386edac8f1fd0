import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DocsRuntime } from "../../../src/engine/runtime.js";
import { LIMITS } from "../../../src/limits.js";
import { localContext } from "../../../src/vfs/request-context.js";
import { AnalysisDuringLoad } from "../../../src/engine/search/analysis-during-load.js";
import { AnalysisFeed, type BodyToAnalyse } from "../../../src/engine/search/analysis-feed.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import type { Page } from "../../../src/vfs/page.js";
import type { Site } from "../../../src/vfs/site.js";
import { site } from "./analysis-site.js";
import { makePage } from "./inline-site.js";

/**
 * Page analysis begun while the load reads the pages (issue 22, `analysis-during-load.ts`): the
 * load offers each page as it makes it, the workers analyse at once, and the build plans the
 * feed with its own list. Whatever was offered, in whatever order, and whatever became of the
 * workers, the index must be the one a single thread builds, array for array.
 */

/** Build `s`'s index with `feed`, waiting where the build waits for a worker. */
async function buildWith(s: Site, feed: AnalysisFeed | undefined): Promise<SearchIndex> {
  const index = new SearchIndex();
  const steps = index.syncSteps(s, feed?.plan(index.bodiesToAnalyse(s)));
  for (let step = steps.next(); step.done !== true; step = steps.next()) if (step.value !== undefined) await step.value;
  return index;
}

function alone(s: Site): SearchIndex {
  const index = new SearchIndex();
  index.sync(s);
  return index;
}

/** The site's pages in an order of their own (the load's is by file path, the build's by page path). */
function offeredOrder(s: Site): Page[] {
  return [...s.pages.values()].reverse();
}

/** A page the build will not list: read by the load, then replaced by an edit before the build. */
const GONE = makePage("/v1/gone.mdx", "---\ntitle: Gone\n---\n\nA page edited away before the build: unrelatedword.");

/** A body whose bytes a worker cannot read (past the end of their memory): its analysis throws in
 *  the worker, which ends with that error, as a bug in analysis would end it. */
const POISON: BodyToAnalyse = { key: {}, body: "", bytes: { buffer: new SharedArrayBuffer(8), offset: 0, length: 64, encoding: "utf8" }, api: false, chars: 64 };
const POISON_MESSAGE = ((): string => {
  try {
    Buffer.from(new SharedArrayBuffer(8), 0, 64);
    return "";
  } catch (error) {
    return (error as Error).message;
  }
})();

describe("page analysis begun during the load", () => {
  it("builds the index one thread builds from analyses offered in the load's order, with a body the build does not list, and answers the same", async () => {
    const s = site();
    const during = new AnalysisDuringLoad(3, () => {}, { bodies: 4, chars: Number.POSITIVE_INFINITY });
    for (const page of [GONE, ...offeredOrder(s)]) during.offer(page);
    expect(during.started).toBe(true);
    const feed = during.feedFor(new SearchIndex().bodiesToAnalyse(s), 2);
    try {
      // Planned by `feedFor` already: `buildWith`'s plan is then none (a feed is planned once).
      const index = await buildWith(s, feed);
      expect(index.state()).toEqual(alone(s).state());
      expect(index.search({ query: "unrelatedword", canRead: () => true })).toEqual([]);
    } finally {
      feed?.close();
    }
  });

  it("starts no workers below the build's threshold, and leaves the build to decide", () => {
    const s = site();
    const during = new AnalysisDuringLoad(3, () => {}, { bodies: 100, chars: 100_000 });
    for (const page of offeredOrder(s)) during.offer(page);
    expect([during.started, during.feedFor(new SearchIndex().bodiesToAnalyse(s), 2)]).toEqual([false, undefined]);
  });

  it("offers each distinct body once, and none that imports MDX (analysed as each reader reads it)", () => {
    const s = site();
    const during = new AnalysisDuringLoad(3, () => {}, { bodies: 1, chars: Number.POSITIVE_INFINITY });
    for (const page of [...offeredOrder(s), ...offeredOrder(s)]) during.offer(page);
    // 48 pages and the snippet's own (a page file the build does not index: `plan` drops it),
    // 25 texts, 5 of which inline the note.
    expect(during.offered).toBe(20);
    during.close();
  });

  it("leaves a worker's bodies to the index's thread when it dies mid-load, says so once, and the index is the same", async () => {
    const s = site();
    const log: string[] = [];
    const feed = AnalysisFeed.open(1, (line) => log.push(line));
    const index = new SearchIndex();
    const bodies = index.bodiesToAnalyse(s);
    const [first, ...rest] = bodies;
    feed.offer(first as BodyToAnalyse);
    feed.offer(POISON);
    for (const body of rest) feed.offer(body);
    try {
      const steps = index.syncSteps(s, feed.plan(bodies));
      for (let step = steps.next(); step.done !== true; step = steps.next()) if (step.value !== undefined) await step.value;
      expect(index.state()).toEqual(alone(s).state());
      expect([log, feed.workers]).toEqual([[`warning: a page analysis worker failed (${POISON_MESSAGE}); its pages are analysed on the main thread`], 0]);
    } finally {
      feed.close();
    }
  });

  it("ends its workers and keeps nothing when closed before the build (a load that failed, a runtime closed first)", async () => {
    const s = site();
    const during = new AnalysisDuringLoad(3, () => {}, { bodies: 1, chars: Number.POSITIVE_INFINITY });
    for (const page of offeredOrder(s)) during.offer(page);
    during.close();
    during.offer(GONE);
    expect([during.started, during.feedFor(new SearchIndex().bodiesToAnalyse(s), 2)]).toEqual([false, undefined]);
    expect((await buildWith(s, undefined)).state()).toEqual(alone(s).state());
  });
});

/** A repository of `n` distinct pages (a dash each: held as their UTF-8 bytes, as most real pages
 *  are; every 17th plain ASCII, held as a string), every 9th importing a footer snippet and every
 *  11th naming one with the older `<Snippet file>` tag: whether each body imports is asked by the
 *  load and its answers taken by the build (`BodyImports`). */
function repository(n: number): string {
  const root = mkdtempSync(join(tmpdir(), "during-load-"));
  mkdirSync(join(root, "snippets"));
  writeFileSync(join(root, "snippets", "footer.mdx"), "Ask the footersnippet desk about your order.\n");
  writeFileSync(join(root, "snippets", "tip.mdx"), "A tipsnippet for faster checkout.\n");
  for (let i = 0; i < n; i++) {
    mkdirSync(join(root, `g${i % 10}`), { recursive: true });
    const dash = i % 17 === 0 ? "-" : "—";
    const head = i % 9 === 0 ? 'import Footer from "/snippets/footer.mdx";\n\n' : "";
    const tail = `${i % 9 === 0 ? "\n<Footer />\n" : ""}${i % 11 === 0 ? '\n<Snippet file="tip.mdx" />\n' : ""}`;
    writeFileSync(join(root, `g${i % 10}`, `p${i}.mdx`), `---\ntitle: Page ${i}\n---\n\n${head}The ${i % 7 === 0 ? "refund" : "checkout"} flow ${dash} word${i} and word${i % 13}.\n\n## Webhooks ${i % 3}\n\nSign each webhook${i % 5} payload.\n${tail}`);
  }
  return root;
}

describe("a server's start with analysis begun during the load", () => {
  it("answers every search as a start without it does, snippets inlined (2,100 pages: past the build's threshold of bodies)", async () => {
    const root = repository(LIMITS.search.analysisWorkersFrom + 100);
    try {
      const answers: unknown[][] = [];
      for (const analyseWhileLoading of [true, false]) {
        const runtime = await DocsRuntime.load({ root, analyseWhileLoading });
        try {
          await runtime.whenIndexed();
          const out: unknown[] = [];
          for (const query of ["refund flow", "word1999", "webhook3 payload", "checkout word12", "footersnippet word1998", "tipsnippet word1991"]) {
            out.push((await runtime.search(localContext(), { query })).map((h) => [h.page.path, h.section.anchor, h.score, h.snippet]));
          }
          answers.push(out);
        } finally {
          await runtime.close();
        }
      }
      expect(answers[0]).toEqual(answers[1]);
      expect((answers[0]?.[1] as unknown[])[0]).toEqual(["/g9/p1999", "", expect.any(Number), expect.any(String)]);
      // The snippets inlined: found by their words with the page's own (1998 = 9 × 222, 1991 = 11 × 181).
      expect((answers[0]?.[4] as unknown[])[0]).toEqual(["/g8/p1998", "", expect.any(Number), expect.any(String)]);
      expect((answers[0]?.[5] as unknown[])[0]).toEqual(["/g1/p1991", "", expect.any(Number), expect.any(String)]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
});
