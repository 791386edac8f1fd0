import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { digest, FIXTURE_CORPORA, FIXTURE_FILE, type Fixture, fixtureCases, resultLine } from "../../../bench/ranking-fixture.js";
import { SearchIndex } from "../../../src/tools/search/search-index.js";
import { loadSite } from "../../../src/vfs/load-site.js";
import { CORPORA } from "../../helpers/paths.js";
import { describeShared, itShared } from "../../helpers/shared.js";

/**
 * Ranking's pruning changes no result, on 2,940 searches over every shared corpus with an eval
 * set (`fixtureCases`: every eval question as written and with an extra word, at page size 10;
 * each corpus's own at 3 and 50). Two checks of each search's whole result list (paths, anchors,
 * scores to the 3 decimals shown, order, other versions):
 *
 * - against an exhaustive scorer (`boundPruning: false`: every candidate page's sections read and
 *   every page finished, then the same cut): a pruning that drops a page belonging in the top,
 *   or a twin belonging under a hit, fails here;
 * - against the ranking before bounded proximity (digests in `ranking-before.json`, made by
 *   `bench/ranking-fixture.ts --code <checkout at 43d7827> --write`): the searches listed in
 *   `CHANGED` differ, and only they. The code before listed, past the top a query asked for, the
 *   pages its bounds happened to finish (every page within the proximity share, 0.05, of the top's
 *   last place): with a hit's versions folded into it, those filled the list's last places and
 *   its other versions. Now the list is refilled from a larger top while folding leaves it short,
 *   and a hit's other versions are every version scoring within `twinWindow` of the top's last
 *   place: a few last places and twin lists differ (MRR@10 and Recall@10 are the same on every
 *   corpus). A ranking change meant to change results refreezes the file and empties the list.
 */
const CHANGED: Readonly<Record<string, readonly string[]>> = {
  spree: ["10 run a model on my own machine with ollama", "10 give a customer their money back example"],
  stagehand: [
    "10 migrate my code from v3 to v4",
    "10 symbol codes for US stocks",
    "10 next.js storefront environment variables",
    "10 API key lacks scope: write_orders",
    "10 get a callback to my backend when new health data is synced example",
    "10 lower the cost of llm calls example",
    "10 let Polar and Oura push events to us example",
    "10 keep track of stock in several warehouses example",
    "10 v2 extract() schema options example",
    "10 next.js storefront environment variables example",
    "10 This Idempotency-Key has already been used with different request parameters example",
  ],
};

describeShared("ranking before and after pruning, on the shared corpora", () => {
  const before = JSON.parse(readFileSync(FIXTURE_FILE, "utf8")) as Fixture;
  for (const corpus of FIXTURE_CORPORA) {
    itShared(`${corpus}: every search's results are the exhaustive scorer's, and the code before's but for the listed ones`, async () => {
      const { site } = await loadSite(join(CORPORA, corpus));
      const pruned = new SearchIndex({ cachedResults: 0 });
      const every = new SearchIndex({ cachedResults: 0, ranking: { boundPruning: false } });
      pruned.sync(site);
      every.sync(site);
      const cases = fixtureCases(corpus);
      const frozen = before[corpus] ?? "";
      expect(frozen.length).toBe(8 * cases.length);
      const changed: string[] = [];
      cases.forEach(({ query, pageSize }, i) => {
        const line = resultLine(pruned.search({ query, canRead: () => true, pageSize }));
        expect([query, pageSize, line]).toEqual([query, pageSize, resultLine(every.search({ query, canRead: () => true, pageSize }))]);
        if (digest(line) !== frozen.slice(8 * i, 8 * i + 8)) changed.push(`${pageSize} ${query}`);
      });
      expect(changed).toEqual(CHANGED[corpus] ?? []);
    });
  }
});
