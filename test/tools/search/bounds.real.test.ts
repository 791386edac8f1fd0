import { join } from "node:path";
import { expect } from "vitest";
import { loadEvalSets } from "../../../bench/eval/eval.js";
import { QueryStream } from "../../../bench/query-stream.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { loadSite } from "../../../src/vfs/load-site.js";
import { SHARED } from "../../helpers/paths.js";
import { describeShared, itShared } from "../../helpers/shared.js";

/**
 * On real sites, ranking that reads section postings only for pages whose bound can reach the
 * top returns exactly what scoring every candidate page returns: every eval question, at the
 * default page size and at 3 (a small top cuts the most pages), unfiltered (versions fold).
 */
describeShared("ranking with bounds on real sites", () => {
  for (const corpus of ["spree", "stagehand", "cowagent"]) {
    itShared(`${corpus}: the same hits for every eval question`, async () => {
      const { site } = await loadSite(join(SHARED, "corpora", corpus));
      const pruned = new SearchIndex({ cachedResults: 0 });
      const every = new SearchIndex({ cachedResults: 0, ranking: { boundPruning: false } });
      pruned.sync(site);
      every.sync(site);
      const set = loadEvalSets().find((s) => s.corpus === corpus);
      const queries = set?.questions.map((q) => q.query) ?? [];
      expect(queries.length).toBeGreaterThan(20);
      for (const pageSize of [10, 3]) {
        for (const query of queries) {
          const shown = (i: SearchIndex) => i.search({ query, canRead: () => true, pageSize }).map((h) => [h.page.path, h.section.anchor, h.score, h.otherVersions.map((t) => t.page.path)]);
          expect([query, pageSize, shown(pruned)]).toEqual([query, pageSize, shown(every)]);
        }
      }
    });
  }
  // The most common words of a question count only for pages the others made candidates
  // (`skippable`). A hit's other version or language whose only match was such a word was then
  // missing from its list (`otherVersions`, `otherLanguages`), and the hits after it moved: 6 of
  // 4,000 searches on alltick (these three questions among them); none since.
  itShared("alltick: whole answers alike, other versions and languages matched only by a common word included", async () => {
    const { site } = await loadSite(join(SHARED, "corpora", "alltick"));
    const pruned = new SearchIndex({ cachedResults: 0 });
    const every = new SearchIndex({ cachedResults: 0, ranking: { boundPruning: false } });
    pruned.sync(site);
    every.sync(site);
    const stream = new QueryStream();
    const queries = [
      "use sidekiq and redis for background jobs instead of the default queue api",
      "choose which llm provider and model stagehand uses api",
      "cheaper unit price when buying in bulk quantities api",
      ...Array.from({ length: 300 }, (_, i) => stream.at(i)),
    ];
    for (const pageSize of [10, 3]) {
      for (const query of queries) {
        const whole = (i: SearchIndex): string => JSON.stringify(i.search({ query, canRead: () => true, pageSize }));
        expect([query, pageSize, whole(pruned)]).toEqual([query, pageSize, whole(every)]);
      }
    }
  });
});
