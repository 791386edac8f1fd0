import { join } from "node:path";
import { SearchIndex, type SearchHit } from "../../../src/engine/search/search-index.js";
import { Analyzer } from "../../../src/engine/search/terms.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";
import { loadSite } from "../../../src/vfs/load-site.js";
import { CUTOFF, firstRelevantRank, loadEvalSets, type Question } from "../eval.js";
import { hitPaths } from "../run-eval.js";

// Scratch prototype (issue 24): gated rerank of the top 30 by site vectors (random indexing over
// public pages). variants: [{l, gate, k}] ; l=0 is the code as is (pageSize 10).
const [sitesDir, questionsDir, json, splitArg] = process.argv.slice(2);
type V = { l: number; gate?: "title" | "none"; k?: number; desc?: boolean; minGap?: number };
const variants = JSON.parse(json ?? '[{"l":0}]') as V[];
const split = splitArg ?? "dev";
const sets = loadEvalSets(questionsDir === "-" ? undefined : questionsDir)
  .map((s) => ({ ...s, questions: s.questions.filter((q) => split === "all" || q.split === split) }))
  .filter((s) => s.questions.length > 0 && (process.env.ONLY === undefined || process.env.ONLY.split(",").includes(s.corpus)));
const DIM = 256, NNZ = 6;
function hash(s: string, seed: number): number { let h = 2166136261 ^ seed; for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); } return h >>> 0; }
function buildVectors(texts: string[][], analyzer: Analyzer): Map<string, Float32Array> {
  const lines: string[][][] = [];
  const df = new Map<string, number>(), count = new Map<string, number>();
  for (const doc of texts) {
    const seen = new Set<string>(); const ls: string[][] = [];
    for (const t of doc) for (const line of t.split("\n")) { const ts = analyzer.terms(line); if (ts.length === 0) continue; ls.push(ts); for (const x of ts) { seen.add(x); count.set(x, (count.get(x) ?? 0) + 1); } }
    for (const x of seen) df.set(x, (df.get(x) ?? 0) + 1);
    lines.push(ls);
  }
  const N = texts.length;
  const idf = (t: string): number => Math.log(N / (df.get(t) ?? N));
  const idx = new Map<string, Int32Array>();
  const indexOf = (t: string): Int32Array => { let v = idx.get(t); if (!v) { v = new Int32Array(NNZ); for (let i = 0; i < NNZ; i++) { const h = hash(t, i * 7919 + 1); v[i] = ((h % DIM) + 1) * (h & 0x10000 ? 1 : -1); } idx.set(t, v); } return v; };
  const rows = new Map<string, Float32Array>();
  for (const [t, c] of count) if (c >= 10) rows.set(t, new Float32Array(DIM));
  for (const ls of lines) for (const ts of ls) for (let i = 0; i < ts.length; i++) {
    const row = rows.get(ts[i]!); if (!row) continue;
    for (let j = Math.max(0, i - 2); j <= Math.min(ts.length - 1, i + 2); j++) {
      if (j === i) continue; const w = idf(ts[j]!) / Math.abs(i - j); if (w <= 0) continue;
      for (const p of indexOf(ts[j]!)) row[Math.abs(p) - 1]! += p > 0 ? w : -w;
    }
  }
  const mean = new Float64Array(DIM);
  const norm = (r: Float32Array): void => { let s = 0; for (const x of r) s += x * x; s = Math.sqrt(s) || 1; for (let i = 0; i < DIM; i++) r[i] = r[i]! / s; };
  for (const r of rows.values()) { norm(r); for (let i = 0; i < DIM; i++) mean[i]! += r[i]!; }
  for (let i = 0; i < DIM; i++) mean[i] = mean[i]! / Math.max(1, rows.size);
  for (const r of rows.values()) { for (let i = 0; i < DIM; i++) r[i] = r[i]! - mean[i]!; norm(r); }
  return rows;
}
function meanVec(terms: readonly string[], rows: Map<string, Float32Array>): Float32Array | undefined {
  const out = new Float32Array(DIM); let n = 0;
  for (const t of terms) { const r = rows.get(t); if (!r) continue; n++; for (let i = 0; i < DIM; i++) out[i]! += r[i]!; }
  if (n === 0) return undefined; let s = 0; for (const x of out) s += x * x; s = Math.sqrt(s) || 1; for (let i = 0; i < DIM; i++) out[i] = out[i]! / s; return out;
}
const cos = (a: Float32Array, b: Float32Array): number => { let s = 0; for (let i = 0; i < DIM; i++) s += a[i]! * b[i]!; return s; };
const tot = variants.map(() => ({ n: 0, mrr: 0, rec: 0 }));
for (const set of sets) {
  const { site } = await loadSite(join(sitesDir as string, set.corpus));
  const index = new SearchIndex({ cachedResults: 0 });
  index.sync(site);
  const analyzer = new Analyzer(new Vocabulary());
  const t0 = process.cpuUsage();
  const bodies = new Map<string, string[]>();
  for (const p of site.pages.values()) { if (p.file.access.groups !== undefined && p.file.access.groups.length > 0) continue; if (!bodies.has(p.body)) bodies.set(p.body, [p.title, p.meta.description ?? "", p.body]); }
  const rows = buildVectors([...bodies.values()], analyzer);
  const c = process.cpuUsage(t0);
  const line: string[] = [];
  const per: string[][] = set.questions.map(() => []);
  variants.forEach((v, vi) => {
    let m = 0, r = 0;
    set.questions.forEach((q: Question, qi) => {
      const f = { version: q.version, language: q.language };
      let ranked: string[];
      if (v.l === 0) ranked = hitPaths(index.search({ query: q.query, pageSize: CUTOFF, canRead: () => true, ...f }));
      else {
        const hits = index.search({ query: q.query, pageSize: v.k ?? 30, canRead: () => true, ...f });
        const qt = analyzer.terms(q.query);
        const qv = meanVec(qt, rows);
        const first = hits[0];
        const gated = v.gate === "none" || (first !== undefined && !analyzer.terms(first.page.title).some((t) => qt.includes(t)));
        let order: SearchHit[] = [...hits];
        if (qv && gated) {
          const s = new Map<SearchHit, number>();
          for (const h of hits) { const hv = meanVec(analyzer.terms(`${h.page.title}${v.desc === false ? "" : " " + (h.page.meta.description ?? "")}`), rows); s.set(h, h.score + (hv ? v.l * cos(qv, hv) : 0)); }
          order = [...hits].sort((a, b) => s.get(b)! - s.get(a)!);
        }
        ranked = hitPaths(order.slice(0, CUTOFF));
      }
      const fr = firstRelevantRank(ranked, q.relevant);
      if (fr !== undefined) m += 1 / fr;
      const found = new Set(ranked.slice(0, CUTOFF));
      r += q.relevant.filter((p) => found.has(p)).length / q.relevant.length;
      per[qi]!.push(`${fr ?? "-"}`);
    });
    const n = set.questions.length;
    tot[vi]!.n += n; tot[vi]!.mrr += m; tot[vi]!.rec += r;
    line.push(`${(m / n).toFixed(3)}/${(r / n).toFixed(3)}`);
  });
  console.log(`${set.corpus}\t${line.join("\t")}\t(vectors ${rows.size} rows, ${((c.user + c.system) / 1000).toFixed(0)} ms)`);
  if (split === "dev") set.questions.forEach((q, qi) => { if (new Set(per[qi]).size > 1) console.log(`   ${q.id} "${q.query}" ranks ${per[qi]!.join(" -> ")}`); });
}
console.log(`ALL\t${tot.map((t) => `${(t.mrr / t.n).toFixed(3)}/${(t.rec / t.n).toFixed(3)}`).join("\t")}`);
