import { join } from "node:path";
import { type SearchHit, SearchIndex } from "../../../src/engine/search/search-index.js";
import { loadSite } from "../../../src/vfs/load-site.js";
import { CUTOFF, firstRelevantRank, loadEvalSets } from "../eval.js";
import { hitPaths } from "../run-eval.js";

/**
 * Prototype of a "the question paraphrases a heading" lift (issue 24, forty-first round), measured
 * before building it into ranking: each question's first `DEPTH` hits re-ordered by score plus a
 * weight times how well one heading of the hit's page names the question, above what its title
 * does (`max(0, heading - title)`), each cover the title part's shape: the share of the question's
 * words the heading holds times the heading's share the question holds to the power 0.7. Words are
 * lower-cased, stop words left out, cut to 5 letters (a light stem, as `misses.ts`). `GATE=r,p`
 * makes the cover 1 when the heading holds at least r of the question's words, p of its own are
 * the question's and two or more match, else 0. MRR@10 per site and over all, one column a weight
 * (`WS`, the first 0: the order as ranked, the same figures as `ab-external.ts`), then each tune
 * question whose rank moves. Only `split: dev` questions, or every question of `-` (the shared
 * corpora's sets, `<sites dir>` their folder).
 *
 *   WS=0,0.01,0.02 [GATE=0.5,0.6] npx tsx bench/eval/external/heading-cover.ts <sites dir> <questions dir | ->
 */
const [sitesDir, questionsDir] = process.argv.slice(2);
if (sitesDir === undefined || questionsDir === undefined) throw new Error("usage: heading-cover.ts <sites dir> <questions dir | ->");
/** How many hits are re-ordered: a page below them is never brought in. */
const DEPTH = 30;
const weights = (process.env.WS ?? "0,0.01,0.015,0.02,0.03").split(",").map(Number);
const gate = process.env.GATE?.split(",").map(Number);
const shared = questionsDir === "-";
const sets = loadEvalSets(shared ? undefined : questionsDir)
  .map((s) => ({ ...s, questions: s.questions.filter((q) => shared || q.split === "dev") }))
  .filter((s) => s.questions.length > 0);
const STOP = new Set("the and for how can what with from that this does are when which into out not get use using your its one my do a an of to in on is it be by or as at me".split(" "));
const stem = (w: string): string => (w.length > 5 ? w.slice(0, 5) : w.replace(/s$/u, ""));
const words = (s: string): string[] => [
  ...new Set(
    s
      .toLowerCase()
      .normalize("NFKC")
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1 && !STOP.has(w))
      .map(stem),
  ),
];

function cover(asked: readonly string[], line: readonly string[]): number {
  if (asked.length === 0 || line.length === 0) return 0;
  const held = new Set(line);
  const hits = asked.filter((w) => held.has(w)).length;
  if (gate !== undefined) return hits >= 2 && hits / asked.length >= (gate[0] as number) && hits / line.length >= (gate[1] as number) ? 1 : 0;
  return (hits / asked.length) * Math.pow(hits / line.length, 0.7);
}

/** A page's headings outside code fences, and the titles of the components that act as headings. */
function headings(body: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of body.split("\n")) {
    if (/^\s*```/u.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^\s*#{1,6}\s+(.*)$/u.exec(line);
    if (heading !== null) out.push(heading[1] as string);
    const titled = /<(?:Accordion|Tab|Step|Card|Update)\b[^>]*\btitle="([^"]+)"/u.exec(line);
    if (titled !== null) out.push(titled[1] as string);
  }
  return out;
}

const total = weights.map(() => 0);
let questions = 0;
for (const set of sets) {
  const { site } = await loadSite(join(sitesDir, set.corpus));
  const index = new SearchIndex({ cachedResults: 0 });
  index.sync(site);
  const perSite = weights.map(() => 0);
  const moved: string[] = [];
  for (const q of set.questions) {
    const hits = index.search({ query: q.query, pageSize: DEPTH, canRead: () => true, version: q.version, language: q.language });
    const asked = words(q.query);
    const lift = hits.map((h) => Math.max(0, Math.max(0, ...headings(h.page.body).map((line) => cover(asked, words(line)))) - cover(asked, words(h.page.title))));
    const ranks = weights.map((w, wi) => {
      const order: SearchHit[] = hits
        .map((h, i) => ({ h, i, s: h.score + w * (lift[i] as number) }))
        .sort((a, b) => b.s - a.s || a.i - b.i)
        .map((x) => x.h);
      const rank = firstRelevantRank(hitPaths(order).slice(0, CUTOFF), q.relevant);
      perSite[wi] = (perSite[wi] as number) + (rank === undefined ? 0 : 1 / rank);
      return `${rank ?? "-"}`;
    });
    if (new Set(ranks).size > 1) moved.push(`   ${q.id} ${ranks.join(" -> ")} "${q.query}"`);
  }
  questions += set.questions.length;
  perSite.forEach((p, wi) => (total[wi] = (total[wi] as number) + p));
  console.log(`${set.corpus}\t${perSite.map((p) => (p / set.questions.length).toFixed(3)).join("\t")}`);
  for (const line of moved) console.log(line);
}
console.log(`ALL\t${total.map((t) => (t / questions).toFixed(3)).join("\t")}`);
