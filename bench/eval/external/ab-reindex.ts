import { join } from "node:path";
import type { RankingParams } from "../../../src/engine/search/ranking.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { loadSite } from "../../../src/vfs/load-site.js";
import { CUTOFF, type Filter, firstRelevantRank, loadEvalSets, score } from "../eval.js";
import { hitPaths } from "../run-eval.js";
// `npx tsx bench/eval/external/ab-reindex.ts <sites dir> <questions dir | -> '<json list of partial
// RankingParams>' [dev|heldout|all]` (`ONLY=a,b` for some sites): as `ab-external.ts`, but each
// variant indexes the site anew. A prior or anything else read while a page is indexed (the weight
// of endpoint and template pages) is fixed at `sync`, so swapping the ranking object after it, as
// `ab-external.ts` does to index each site once, does not score it. A change of the analyzer (stop
// words) is scored by running this in a checkout with it and in one without (issue 24, fortieth round).
const [sitesDir, questionsDir, json, splitArg] = process.argv.slice(2);
const variants = JSON.parse(json ?? "[{}]") as Partial<RankingParams>[];
const split = splitArg ?? "dev";
const only = process.env.ONLY?.split(",");
const sets = loadEvalSets(questionsDir === "-" ? undefined : questionsDir)
  .map((s) => ({ ...s, questions: s.questions.filter((q) => split === "all" || q.split === split) }))
  .filter((s) => s.questions.length > 0 && (only === undefined || only.includes(s.corpus)));
const tot = variants.map(() => ({ n: 0, mrr: 0, rec: 0 }));
for (const set of sets) {
  const { site } = await loadSite(join(sitesDir as string, set.corpus));
  const per: string[][] = set.questions.map(() => []);
  const line: string[] = [];
  variants.forEach((v, vi) => {
    const index = new SearchIndex({ cachedResults: 0, ranking: v });
    index.sync(site);
    const run = (q: string, f: Filter | undefined): string[] => hitPaths(index.search({ query: q, pageSize: CUTOFF, canRead: () => true, ...f }));
    const s = score(set.questions, run);
    set.questions.forEach((q, qi) => {
      const r = run(q.query, { version: q.version, language: q.language });
      per[qi]!.push(`${firstRelevantRank(r, q.relevant) ?? "-"}`);
      if (vi === 0) per[qi]!.push(r.slice(0, 3).join(" "));
    });
    const n = set.questions.length;
    tot[vi]!.n += n; tot[vi]!.mrr += s.mrr * n; tot[vi]!.rec += s.recall * n;
    line.push(`${s.mrr.toFixed(3)}/${s.recall.toFixed(3)}`);
  });
  console.log(`${set.corpus}\t${line.join("\t")}`);
  set.questions.forEach((q, qi) => {
    const ranks = per[qi]!.filter((_, i) => i !== 1);
    if (q.split !== "heldout" && new Set(ranks).size > 1) console.log(`   ${q.id} "${q.query}" ranks ${ranks.join(" -> ")} want ${q.relevant.join(" ")} | top: ${per[qi]![1]}`);
  });
}
console.log(`ALL\t${tot.map((t) => `${(t.mrr / t.n).toFixed(3)}/${(t.rec / t.n).toFixed(3)}`).join("\t")}`);
