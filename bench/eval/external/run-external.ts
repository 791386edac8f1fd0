import { firstRelevantRank, loadEvalSets } from "../eval.js";
import { evaluate } from "../run-eval.js";

/**
 * Search quality on real sites the project does not ship (issue 24): question sets written
 * before looking at results, over sites fetched at fixed commits by `fetch-sites.sh`. Site text
 * stays out of the repository; the question files (our own wording) are in `questions/`.
 *
 * `npx tsx bench/eval/external/run-external.ts <sites dir> <questions dir> [--verbose]`
 */
const [sitesDir, questionsDir] = process.argv.slice(2);
if (sitesDir === undefined || questionsDir === undefined) throw new Error("usage: run-external.ts <sites dir> <questions dir> [--verbose] [--only name]");
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
// Validated as the shared corpora's sets are (a misspelt field fails here, not silently).
const sets = loadEvalSets(questionsDir).filter((s) => only === undefined || s.corpus === only);
const { results, problems, perQuestion } = await evaluate(sitesDir, sets);
for (const p of problems) console.log(`judgement problem: ${p}`);
const f = (x: number): string => x.toFixed(3);
console.log("corpus\tslice\tn\tMRR ours\tMRR base\tR@10 ours\tR@10 base");
for (const r of results.filter((x) => x.engine === "svc-mcp" && !x.slice.startsWith("kind="))) {
  const b = results.find((x) => x.engine === "plain BM25" && x.corpus === r.corpus && x.slice === r.slice)!.scores;
  if (r.scores.n > 0) console.log(`${r.corpus}\t${r.slice}\t${r.scores.n}\t${f(r.scores.mrr)}\t${f(b.mrr)}\t${f(r.scores.recall)}\t${f(b.recall)}`);
}
if (process.argv.includes("--verbose")) {
  for (const { q, ours } of perQuestion.values()) {
    if (q.split === "heldout" && !process.argv.includes("--heldout")) continue;
    console.log(`\n${q.id} "${q.query}" ours=${firstRelevantRank(ours, q.relevant) ?? "-"} want ${q.relevant.join(" ")}`);
    console.log(`   ${ours.slice(0, 6).join("  ")}`);
  }
}
