import { join } from "node:path";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import type { Page } from "../../../src/vfs/page.js";
import { loadSite } from "../../../src/vfs/load-site.js";
import { CUTOFF, firstRelevantRank, loadEvalSets } from "../eval.js";
import { hitPaths } from "../run-eval.js";

/**
 * The tune half's misses, each with the failure classes of issue 24 read off the pages rather
 * than guessed, so a round picks the class most common by count:
 *
 * - `a`: a page ranked above the answer links to it (`[text](/answer)` or `href="/answer"`): a
 *   glossary entry, an overview or a related guide describes the answer in the question's words;
 * - `c`: a page ranked above it is an endpoint page (generated, or `openapi:`/`api:` front matter);
 * - `d-title`: no question word (3+ letters, stop words left out, compared on 5-letter stems)
 *   is in the answer's title; `d-body`: fewer than half of them are anywhere in the answer.
 *
 * Each miss in the top 10 shows its score below the first place, and the end counts, per class,
 * those within 0.01 and 0.03 of it: a near tie any weight moves, or a page far below.
 *
 * Only `split: dev` questions are read; the held-out half is never printed here.
 *
 *   npx tsx bench/eval/external/misses.ts <sites dir> <questions dir> [--skip a,b]
 */
const [sitesDir, questionsDir] = process.argv.slice(2);
if (sitesDir === undefined || questionsDir === undefined) throw new Error("usage: misses.ts <sites dir> <questions dir> [--skip a,b]");
const skip = new Set(process.argv.includes("--skip") ? (process.argv[process.argv.indexOf("--skip") + 1] ?? "").split(",") : []);
const sets = loadEvalSets(questionsDir)
  .map((s) => ({ ...s, questions: s.questions.filter((q) => q.split === "dev") }))
  .filter((s) => s.questions.length > 0 && !skip.has(s.corpus));
const STOP = new Set("the and for how can what with from that this does are when which into out not get use using your its one".split(" "));
const words = (s: string): string[] => s.toLowerCase().normalize("NFKC").split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2 && !STOP.has(w));
const stems = (s: string): Set<string> => new Set(words(s).map((w) => w.slice(0, 5)));
const links = (page: Page, to: readonly string[]): boolean => to.some((p) => page.body.includes(`](${p}`) || page.body.includes(`href="${p}`));
const endpoint = (page: Page): boolean => page.generated || page.frontMatter.openapi !== undefined || page.frontMatter.api !== undefined;
const counts = new Map<string, number>();
let misses = 0;
const gaps: { gap: number; classes: string[] }[] = [];
for (const set of sets) {
  const { site } = await loadSite(join(sitesDir, set.corpus));
  const index = new SearchIndex({ cachedResults: 0 });
  index.sync(site);
  // As a server searches once its site vectors are learned (`DocsRuntime.learnVectors`).
  index.learnVectors();
  for (const q of set.questions) {
    const hits = index.search({ query: q.query, pageSize: CUTOFF, canRead: () => true, version: q.version, language: q.language });
    const ranked = hitPaths(hits);
    // Each listed path's score (a folded twin at its hit's): the gap to the first place says
    // whether a miss is a near tie, which any weight moves, or a page far below.
    const scoreOf = new Map(hits.flatMap((h) => [[h.page.path, h.score] as const, ...h.otherVersions.map((t) => [t.page.path, h.score] as const)]));
    const rank = firstRelevantRank(ranked, q.relevant);
    if (rank === 1) continue;
    misses++;
    const answer = q.relevant.map((p) => site.pages.get(p)).find((p) => p !== undefined) as Page;
    const above = ranked.slice(0, Math.min(rank === undefined ? 3 : rank - 1, 4)).map((p) => site.pages.get(p) as Page);
    const asked = [...new Set(words(q.query).map((w) => w.slice(0, 5)))];
    const title = stems(answer.title);
    const text = stems(`${answer.title} ${answer.body}`);
    const inTitle = asked.filter((w) => title.has(w)).length;
    const inText = asked.filter((w) => text.has(w)).length;
    const classes = [
      ...(above.some((p) => links(p, q.relevant)) ? ["a"] : []),
      ...(above.some(endpoint) ? ["c"] : []),
      ...(inTitle === 0 ? ["d-title"] : []),
      ...(inText < asked.length / 2 ? ["d-body"] : []),
    ];
    for (const c of classes) counts.set(c, (counts.get(c) ?? 0) + 1);
    const gap = rank === undefined ? undefined : (hits[0]?.score ?? 0) - (scoreOf.get(ranked[rank - 1] as string) ?? 0);
    if (gap !== undefined) gaps.push({ gap, classes });
    console.log(`${q.id} rank ${rank ?? "-"}${gap === undefined ? "" : ` (${gap.toFixed(3)} below the first)`} [${classes.join(",")}] "${q.query}" want ${answer.path} (${answer.body.length} chars; words in title ${inTitle}/${asked.length}, in page ${inText}/${asked.length})`);
    for (const p of above) console.log(`    above ${p.path}${links(p, q.relevant) ? " links to it" : ""}${endpoint(p) ? " endpoint" : ""} (${p.body.length} chars)`);
  }
}
console.log(`\n${misses} misses: ${[...counts].map(([c, n]) => `${c} ${n}`).join(", ")}`);
// How many of the misses ranked in the top 10 are within 0.01 / 0.03 of the first place, per class.
for (const c of ["all", ...counts.keys()]) {
  const of = gaps.filter((g) => c === "all" || g.classes.includes(c));
  console.log(`${c}: ${of.length} in the top ${CUTOFF}, ${of.filter((g) => g.gap <= 0.01).length} within 0.01 of the first, ${of.filter((g) => g.gap <= 0.03).length} within 0.03`);
}
