import { join } from "node:path";
import { RANKING, type RankingParams } from "../../src/engine/search/ranking.js";
import { SearchIndex } from "../../src/engine/search/search-index.js";
import { loadSite } from "../../src/vfs/load-site.js";
import { CUTOFF, loadEvalSets, score } from "./eval.js";
import { hitPaths } from "./run-eval.js";

// `npx tsx bench/eval/tune.ts '<json list of partial RankingParams>' [--heldout]`: a tuning aid
// scoring parameter variants on the dev questions (held-out ones only with --heldout, to check
// a choice once, not to make it).
const variants = JSON.parse(process.argv[2] ?? "[{}]") as Partial<RankingParams>[];
const split = process.argv.includes("--heldout") ? "heldout" : process.argv.includes("--all") ? undefined : "dev";
const corpora = new URL("../../../shared/corpora", import.meta.url).pathname;
const sets = loadEvalSets();
const indexes = await Promise.all(
  sets.map(async (s) => {
    const { site } = await loadSite(join(corpora, s.corpus));
    // No result cache: every variant searches again (cached lists would repeat the first variant's).
    const index = new SearchIndex({ cachedResults: 0 });
    index.sync(site);
    return { set: s, index };
  }),
);
for (const v of variants) {
  const params = { ...RANKING, ...v };
  const parts = indexes.map(({ set, index }) => {
    (index as unknown as { ranking: RankingParams }).ranking = params;
    const qs = set.questions.filter((q) => split === undefined || q.split === split);
    return { n: qs.length, s: score(qs, (q, f) => hitPaths(index.search({ query: q, pageSize: CUTOFF, canRead: () => true, ...f }))) };
  });
  const n = parts.reduce((a, p) => a + p.n, 0);
  const mrr = parts.reduce((a, p) => a + p.s.mrr * p.n, 0) / n;
  const rec = parts.reduce((a, p) => a + p.s.recall * p.n, 0) / n;
  const per = parts.map((p) => p.s.mrr.toFixed(3)).join(" ");
  console.log(`MRR ${mrr.toFixed(3)} R@10 ${rec.toFixed(3)} [${per}] ${JSON.stringify(v)}`);
}
