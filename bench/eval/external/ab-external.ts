import { join } from "node:path";
import type { ParaphraseRow } from "../../../src/engine/search/paraphrase-row.js";
import { PARAPHRASE_ROWS, paraphraseTable } from "../../../src/engine/search/paraphrases.js";
import { RANKING, type RankingParams } from "../../../src/engine/search/ranking.js";
import { ResolvedTerms } from "../../../src/engine/search/resolved-terms.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import type { Analyzer } from "../../../src/engine/search/terms.js";
import { loadSite } from "../../../src/vfs/load-site.js";
import { CUTOFF, type Filter, firstRelevantRank, loadEvalSets, score } from "../eval.js";
import { hitPaths } from "../run-eval.js";
import { THESAURUS_ROWS } from "./thesaurus.js";

// `npx tsx bench/eval/external/ab-external.ts <sites dir> <questions dir | -> '<json list of partial
// RankingParams>' [dev|heldout|all]`: each site indexed once, each variant scored on it, MRR@10 /
// Recall@10 per site and over all, and each tune question (`split: dev`) whose first relevant rank
// differs between variants with its ranks and the first variant's top 3. Held-out questions are
// scored in aggregate only, never printed. `-` reads the shared corpora's sets (`bench/eval/*.json`),
// with `<sites dir>` their corpora folder (issue 24). A variant's `paraphraseRows` picks the
// paraphrase table instead of a ranking parameter (issue 24, round 42): "base" (`paraphrases.ts`
// alone), "thesaurus" (and the docs thesaurus, `./thesaurus.ts`, measured and not kept), or
// { "drop": [...] } (both, less the thesaurus rows whose first word is listed), or { "add": [...] }
// (`paraphrases.ts` and the rows given, to measure rows before they are written into it, round
// 64); without it, the table the index was built with.
type Rows = "base" | "thesaurus" | { readonly drop: readonly string[] } | { readonly add: readonly ParaphraseRow[] };
const [sitesDir, questionsDir, json, splitArg] = process.argv.slice(2);
const variants = JSON.parse(json ?? "[{}]") as (Partial<RankingParams> & { paraphraseRows?: Rows })[];
const rowsOf = (rows: Rows): readonly ParaphraseRow[] =>
  rows === "base" ? PARAPHRASE_ROWS : typeof rows === "object" && "add" in rows ? [...PARAPHRASE_ROWS, ...rows.add] :
  [...PARAPHRASE_ROWS, ...THESAURUS_ROWS.filter((r) => rows === "thesaurus" || !rows.drop.includes(r.words[0] as string))];
const split = splitArg ?? "dev";
const sets = loadEvalSets(questionsDir === "-" ? undefined : questionsDir)
  .map((s) => ({ ...s, questions: s.questions.filter((q) => split === "all" || q.split === split) }))
  .filter((s) => s.questions.length > 0);
const tot = variants.map(() => ({ n: 0, mrr: 0, rec: 0 }));
for (const set of sets) {
  const { site } = await loadSite(join(sitesDir as string, set.corpus));
  const index = new SearchIndex({ cachedResults: 0 });
  index.sync(site);
  // As a server has them once learned after ready (`DocsRuntime.learnVectors`), when a variant uses them.
  if (variants.some((v) => ({ ...RANKING, ...v }).siteVectorWeight !== 0)) index.learnVectors();
  const per: string[][] = set.questions.map(() => []);
  const line: string[] = [];
  const built = (index as unknown as { paraphrases: ReadonlyMap<string, readonly string[]> }).paraphrases;
  variants.forEach(({ paraphraseRows, ...v }, vi) => {
    (index as unknown as { ranking: RankingParams }).ranking = { ...RANKING, ...v };
    const analyzer = (index as unknown as { analyzer: Analyzer }).analyzer;
    (index as unknown as { paraphrases: ReadonlyMap<string, readonly string[]> }).paraphrases =
      paraphraseRows === undefined ? built : paraphraseTable((w) => analyzer.term(w), rowsOf(paraphraseRows));
    // Query terms resolved under the previous variant keep its idf exponent and prefix weights.
    (index as unknown as { resolved: ResolvedTerms }).resolved = new ResolvedTerms();
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
    if (q.split !== "heldout" && (new Set(ranks).size > 1 || process.env.ALL)) console.log(`   ${q.id} "${q.query}" ranks ${ranks.join(" -> ")} want ${q.relevant.join(" ")} | top: ${per[qi]![1]}`);
  });
}
console.log(`ALL\t${tot.map((t) => `${(t.mrr / t.n).toFixed(3)}/${(t.rec / t.n).toFixed(3)}`).join("\t")}`);
