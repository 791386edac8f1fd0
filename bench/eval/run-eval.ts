import { join } from "node:path";
import { type SearchHit, SearchIndex } from "../../src/engine/search/search-index.js";
import { loadSite } from "../../src/vfs/load-site.js";
import { isIndexed, placementOf, type Site } from "../../src/vfs/site.js";
import { plainBm25 } from "./baseline.js";
import { CUTOFF, type EvalSet, type Filter, firstRelevantRank, loadEvalSets, missingJudgements, type Question, type Ranker, type Scores, score } from "./eval.js";

/** One engine's scores on one slice of questions. */
export interface EvalResult {
  readonly corpus: string;
  readonly engine: "svc-mcp" | "plain BM25";
  readonly slice: string;
  readonly scores: Scores;
}

/**
 * The pages a result list shows an agent, in order: each hit's page, then the same page in other
 * versions folded into it (the tool prints their links under the hit). They take places within
 * the cutoff like any hit, so folding is credited only for what it really shows.
 */
export function hitPaths(hits: readonly SearchHit[]): string[] {
  return hits.flatMap((h) => [h.page.path, ...h.otherVersions.map((t) => t.page.path)]);
}

/** Rankers for a loaded site: ours (the real SearchIndex) and the plain BM25 baseline; `oursHits`
 *  lists only each hit's own page (what distinct-page counts are taken over). */
export function rankers(site: Site): { ours: Ranker; oursHits: Ranker; baseline: Ranker } {
  const index = new SearchIndex();
  index.sync(site);
  // Searched as a server searches once its site vectors are learned after ready (`DocsRuntime.learnVectors`).
  index.learnVectors();
  const pages = [...site.pages.values()].filter((p) => isIndexed(site, p));
  const bm25 = plainBm25(pages);
  // The baseline has no filters: its list is cut to the pages the filter keeps, as ours is.
  const kept = (path: string, f: Filter | undefined): boolean => {
    const placement = placementOf(site, site.pages.get(path)!);
    if (f?.version !== undefined && placement?.versions !== undefined && !placement.versions.includes(f.version)) return false;
    return !(f?.language !== undefined && placement?.languages !== undefined && !placement.languages.includes(f.language));
  };
  return {
    ours: (query, f) => hitPaths(index.search({ query, pageSize: CUTOFF, canRead: () => true, ...f })),
    oursHits: (query, f) => index.search({ query, pageSize: CUTOFF, canRead: () => true, ...f }).map((h) => h.page.path),
    baseline: (query, f) => (f?.version === undefined && f?.language === undefined ? bm25(query) : bm25(query).filter((p) => kept(p, f))),
  };
}

/**
 * How many different pages a top 10 shows: copies of one page in several versions (the same
 * path under each version's segment, `versionPaths`) count once. A reader of a versioned site
 * gains nothing from the third copy of a page.
 */
export function distinctPages(site: Site, ranked: readonly string[]): number {
  const prefixes = [...(site.config.versionPaths?.values() ?? [])].map((v) => v.prefix);
  const canonical = (path: string): string => {
    const prefix = prefixes.find((p) => path.startsWith(`${p}/`));
    return prefix === undefined ? path : `*${path.slice(prefix.length)}`;
  };
  return new Set(ranked.slice(0, CUTOFF).map(canonical)).size;
}

/** Distinct pages in the unfiltered top 10 over a corpus's questions: the fewest and the mean. */
export interface Distinct {
  readonly corpus: string;
  readonly engine: "svc-mcp" | "plain BM25";
  readonly min: number;
  readonly mean: number;
}

/** Evaluate every question set against its corpus under `corporaDir`. */
export async function evaluate(
  corporaDir: string,
  sets: readonly EvalSet[] = loadEvalSets(),
): Promise<{ results: EvalResult[]; distinct: Distinct[]; problems: string[]; perQuestion: Map<string, { q: Question; ours: readonly string[]; baseline: readonly string[] }> }> {
  const results: EvalResult[] = [];
  const distinct: Distinct[] = [];
  const problems: string[] = [];
  const perQuestion = new Map<string, { q: Question; ours: readonly string[]; baseline: readonly string[] }>();
  const all: { q: Question; r: ReturnType<typeof rankers> }[] = [];
  for (const set of sets) {
    const { site } = await loadSite(join(corporaDir, set.corpus));
    problems.push(...missingJudgements(set, site, (p) => isIndexed(site, site.pages.get(p)!)));
    const r = rankers(site);
    for (const q of set.questions) {
      all.push({ q, r });
      const f = { version: q.version, language: q.language };
      perQuestion.set(q.id, { q, ours: r.ours(q.query, f).slice(0, CUTOFF), baseline: r.baseline(q.query, f).slice(0, CUTOFF) });
    }
    for (const split of ["dev", "heldout"] as const) {
      const qs = set.questions.filter((q) => q.split === split);
      results.push({ corpus: set.corpus, engine: "svc-mcp", slice: split, scores: score(qs, r.ours) });
      results.push({ corpus: set.corpus, engine: "plain BM25", slice: split, scores: score(qs, r.baseline) });
    }
    for (const [engine, rank] of [
      ["svc-mcp", r.oursHits],
      ["plain BM25", r.baseline],
    ] as const) {
      const counts = set.questions.map((q) => distinctPages(site, rank(q.query, { version: q.version, language: q.language })));
      distinct.push({ corpus: set.corpus, engine, min: Math.min(...counts), mean: counts.reduce((a, b) => a + b, 0) / counts.length });
    }
    results.push({ corpus: set.corpus, engine: "svc-mcp", slice: "all", scores: score(set.questions, r.ours) });
    results.push({ corpus: set.corpus, engine: "plain BM25", slice: "all", scores: score(set.questions, r.baseline) });
  }
  const byKind = new Map<string, Question[]>();
  for (const { q } of all) byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), q]);
  const cached = (pick: "ours" | "baseline"): Ranker => (query, f) => {
    for (const v of perQuestion.values()) if (v.q.query === query && v.q.version === f?.version && v.q.language === f?.language) return v[pick];
    return [];
  };
  // Slices of the multilingual and versioned sets: Chinese/Japanese, unspaced, naming a version or SDK.
  for (const q of all.map((x) => x.q)) {
    if (q.script !== undefined) byKind.set("script=zh/ja", [...(byKind.get("script=zh/ja") ?? []), q]);
    if (q.unspaced === true) byKind.set("unspaced", [...(byKind.get("unspaced") ?? []), q]);
    if (q.names !== undefined) byKind.set("names version/SDK", [...(byKind.get("names version/SDK") ?? []), q]);
  }
  for (const [kind, qs] of byKind) {
    results.push({ corpus: "all", engine: "svc-mcp", slice: `kind=${kind}`, scores: score(qs, cached("ours")) });
    results.push({ corpus: "all", engine: "plain BM25", slice: `kind=${kind}`, scores: score(qs, cached("baseline")) });
  }
  for (const split of ["dev", "heldout", "all"]) {
    const qs = all.map((x) => x.q).filter((q) => split === "all" || q.split === split);
    results.push({ corpus: "all", engine: "svc-mcp", slice: split, scores: score(qs, cached("ours")) });
    results.push({ corpus: "all", engine: "plain BM25", slice: split, scores: score(qs, cached("baseline")) });
  }
  return { results, distinct, problems, perQuestion };
}

// `npx tsx bench/eval/run-eval.ts [--verbose] [--heldout]`: a tuning aid printing every slice,
// and with --verbose the rank of each dev question (held-out questions only with --heldout).
if (import.meta.url === `file://${process.argv[1]}`) {
  const corpora = process.env.SVC_SHARED !== undefined ? join(process.env.SVC_SHARED, "corpora") : new URL("../../../shared/corpora", import.meta.url).pathname;
  const verbose = process.argv.includes("--verbose");
  const showHeldout = process.argv.includes("--heldout");
  const { results, distinct, problems, perQuestion } = await evaluate(corpora);
  for (const p of problems) console.log(`judgement problem: ${p}`);
  const f = (x: number) => x.toFixed(3);
  const keys = [...new Set(results.map((r) => `${r.corpus}\t${r.slice}`))];
  console.log("corpus\tslice\tn\tMRR ours\tMRR base\tR@10 ours\tR@10 base\ttop1 ours\ttop1 base");
  for (const k of keys) {
    const [c, s] = k.split("\t");
    const o = results.find((r) => r.corpus === c && r.slice === s && r.engine === "svc-mcp")!.scores;
    const b = results.find((r) => r.corpus === c && r.slice === s && r.engine === "plain BM25")!.scores;
    console.log(`${c}\t${s}\t${o.n}\t${f(o.mrr)}\t${f(b.mrr)}\t${f(o.recall)}\t${f(b.recall)}\t${f(o.top1)}\t${f(b.top1)}`);
  }
  console.log("\ncorpus\tengine\tdistinct pages in top 10: min\tmean");
  for (const d of distinct) console.log(`${d.corpus}\t${d.engine}\t${d.min}\t${d.mean.toFixed(1)}`);
  if (verbose) {
    for (const { q, ours, baseline } of perQuestion.values()) {
      if (q.split === "heldout" && !showHeldout) continue;
      const ro = firstRelevantRank(ours, q.relevant);
      const rb = firstRelevantRank(baseline, q.relevant);
      console.log(`\n${q.id} [${q.kind}] "${q.query}"  ours=${ro ?? "-"} base=${rb ?? "-"}  want ${q.relevant.join(" ")}`);
      console.log(`   ours: ${ours.slice(0, 5).join("  ")}`);
    }
  }
}
