import { join } from "node:path";
import { RANKING, type RankingParams } from "../../../src/engine/search/ranking.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { loadSite } from "../../../src/vfs/load-site.js";
import { CUTOFF, loadEvalSets, score } from "../eval.js";
import { hitPaths } from "../run-eval.js";

// `npx tsx bench/eval/external/tune-external.ts <sites dir> <questions dir> '<json list of partial
// RankingParams>' [--skip a,b]`: tune.ts for the external sites (issue 24), on the TUNE half only
// (questions `split: dev`); the held-out half is never scored here. Each site is indexed once.
const [sitesDir, questionsDir, json] = process.argv.slice(2);
const skip = new Set(process.argv.includes("--skip") ? (process.argv[process.argv.indexOf("--skip") + 1] ?? "").split(",") : []);
const variants = JSON.parse(json ?? "[{}]") as Partial<RankingParams>[];
const sets = loadEvalSets(questionsDir as string)
  .map((s) => ({ ...s, questions: s.questions.filter((q) => q.split === "dev") }))
  .filter((s) => s.questions.length > 0 && !skip.has(s.corpus));
const indexes = [];
for (const set of sets) {
  const { site } = await loadSite(join(sitesDir as string, set.corpus));
  const index = new SearchIndex({ cachedResults: 0 });
  index.sync(site);
  indexes.push({ set, index });
}
console.log(`sites: ${sets.map((s) => s.corpus).join(" ")}`);
for (const v of variants) {
  const params = { ...RANKING, ...v };
  const parts = indexes.map(({ set, index }) => {
    (index as unknown as { ranking: RankingParams }).ranking = params;
    return { n: set.questions.length, s: score(set.questions, (q, f) => hitPaths(index.search({ query: q, pageSize: CUTOFF, canRead: () => true, ...f }))) };
  });
  const n = parts.reduce((a, p) => a + p.n, 0);
  const mrr = parts.reduce((a, p) => a + p.s.mrr * p.n, 0) / n;
  const rec = parts.reduce((a, p) => a + p.s.recall * p.n, 0) / n;
  const per = parts.map((p) => p.s.mrr.toFixed(3)).join(" ");
  console.log(`MRR ${mrr.toFixed(3)} R@10 ${rec.toFixed(3)} [${per}] ${JSON.stringify(v)}`);
}
