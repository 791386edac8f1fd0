import { boundedEditDistance } from "./fuzzy.js";
import { FIELDS_PER_UNIT, type InvertedIndex, type PageUnit, type SectionUnit, type TermEntry } from "./inverted-index.js";

/**
 * Ranking parameters, in one place. Field weights say how much one occurrence counts in each
 * field; `b` is BM25's length normalisation per field (titles are short and equally
 * informative whatever their length, bodies are not).
 */
export interface RankingParams {
  readonly k1: number;
  readonly pageWeights: readonly number[];
  readonly pageB: readonly number[];
  readonly sectionWeights: readonly number[];
  readonly sectionB: readonly number[];
  readonly pageSectionB: readonly number[];
  readonly pageShare: number;
  readonly titleShare: number;
  readonly proximityShare: number;
  readonly proximityWindow: number;
  readonly prefixWeight: number;
  readonly minPrefixLength: number;
  readonly maxPrefixExpansions: number;
  readonly fuzzyWeights: readonly number[];
  readonly maxFuzzyExpansions: number;
}

export const RANKING: RankingParams = {
  /** BM25 term-frequency saturation. */
  k1: 1.2,
  /** Page fields: title, meta (description, keywords), context (breadcrumbs, path). */
  pageWeights: [3, 1.5, 0.75],
  pageB: [0.3, 0.5, 0.3],
  /** Section fields: heading (with parent headings), body, code. */
  sectionWeights: [2, 1, 0.5],
  sectionB: [0.3, 0.75, 0.5],
  /** The same section fields summed over a page: pages differ in length far more than sections. */
  pageSectionB: [0.3, 0.5, 0.5],
  /** Share of the score from the whole page (the rest from its best section). */
  pageShare: 0.5,
  /** Share of the score from how well the query and the page title name each other. */
  titleShare: 0.15,
  /** Share of the score from query words appearing next to each other (in the title or the
   *  best section), as in the question: "gift card", "free shipping", an error message. */
  proximityShare: 0.05,
  /** Two query words are "next to each other" when at most this many index terms apart. */
  proximityWindow: 1,
  /** Weight of a dictionary term that merely starts with the query term (`config` -> `configurable`). */
  prefixWeight: 0.5,
  /** Query terms shorter than this are not expanded by prefix (`ap` would match half the site). */
  minPrefixLength: 4,
  maxPrefixExpansions: 40,
  /** Weights of fuzzy matches at one and two edits; only for terms the site does not contain. */
  fuzzyWeights: [1, 0.7, 0.45],
  maxFuzzyExpansions: 8,
};

/** One query term with the dictionary terms it matches and its inverse document frequency. */
export interface QueryTerm {
  readonly term: string;
  readonly idf: number;
  readonly matches: readonly { readonly entry: TermEntry; readonly weight: number; readonly term: string }[];
}

/** A scored page: its best section and a 0..1 score. */
export interface RankedPage {
  readonly page: number;
  /** The best-matching section, or undefined when only page fields (title, description) matched. */
  readonly section: number | undefined;
  readonly score: number;
}

/** BM25 inverse document frequency (always positive). */
export function idf(df: number, n: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** How many edits a typo of a term this long may have. */
function maxEdits(term: string): number {
  if (term.length >= 8) return 2;
  if (term.length >= 5) return 1;
  return 0;
}

/**
 * Resolve query terms against the dictionary: the exact term; terms it is a prefix of (at a
 * lower weight); and, only for a term the site does not contain at all (a typo), terms within
 * one or two edits.
 */
export function resolveTerms(index: InvertedIndex, terms: readonly string[], P: RankingParams = RANKING): QueryTerm[] {
  const n = Math.max(1, index.pageCount);
  return terms.map((term) => {
    const matches: { entry: TermEntry; weight: number; term: string }[] = [];
    const exact = index.get(term);
    if (exact !== undefined) matches.push({ entry: exact, weight: 1, term });
    if (term.length >= P.minPrefixLength && !/^\d+$/.test(term)) {
      for (const entry of index.withPrefix(term, P.maxPrefixExpansions)) {
        matches.push({ entry, weight: P.prefixWeight * (term.length / entry.term.length), term: entry.term });
      }
    }
    if (matches.length === 0) {
      const max = maxEdits(term);
      if (max > 0 && !/\d/.test(term)) {
        const found: { entry: TermEntry; d: number; term: string }[] = [];
        for (const entry of index.liveTerms()) {
          const d = boundedEditDistance(term, entry.term, max);
          if (d <= max) found.push({ entry, d, term: entry.term });
        }
        const best = Math.min(...found.map((f) => f.d));
        found
          .filter((f) => f.d === best)
          .sort((a, b) => b.entry.df - a.entry.df)
          .slice(0, P.maxFuzzyExpansions)
          .forEach((f) => matches.push({ entry: f.entry, weight: P.fuzzyWeights[f.d] as number, term: f.term }));
      }
    }
    // The term's rarity: the exact term's, else its most common stand-in's (a lower bound).
    const df = exact !== undefined ? exact.df : Math.max(0, ...matches.map((m) => m.entry.df));
    return { term, idf: idf(df, n), matches };
  });
}

/**
 * Score pages for resolved query terms. A page's score blends BM25F over the whole page with
 * BM25F over its best section, each expressed as the IDF-weighted mean of per-term saturations
 * (see `searchScore` in search-index.ts for why that is comparable across queries).
 * `accept` filters pages before any scoring, so rejected pages never become candidates.
 */
export function rankPages(index: InvertedIndex, query: readonly QueryTerm[], accept: (page: number) => boolean, P: RankingParams = RANKING): RankedPage[] {
  const n = query.length;
  const idfSum = query.reduce((s, q) => s + q.idf, 0);
  if (n === 0 || idfSum === 0) return [];
  const { k1, pageWeights: PW, pageB: PB, sectionWeights: SW, sectionB: SB, pageSectionB: PSB } = P;
  const avgSec = [0, 1, 2].map((f) => index.avgSectionLength(f));
  const avgPage = [0, 1, 2].map((f) => index.avgPageLength(f));
  const avgPageSec = [0, 1, 2].map((f) => index.avgPageSectionLength(f));
  const norm = (len: number, avg: number, b: number): number => (avg > 0 ? 1 - b + (b * len) / avg : 1);

  /** Per page: [n page-field tf~ | n summed section-field tf~]. */
  const pageAcc = new Map<number, Float64Array>();
  /** Per section: n section-field tf~. */
  const secAcc = new Map<number, Float64Array>();
  const sectionsOfPage = new Map<number, number[]>();
  const accepted = new Map<number, boolean>();
  const pageNorms = new Map<number, number[]>();
  const isAccepted = (page: number): boolean => {
    let ok = accepted.get(page);
    if (ok === undefined) {
      ok = index.hasPage(page) && accept(page);
      accepted.set(page, ok);
    }
    return ok;
  };
  const pageVector = (page: number): Float64Array => {
    let v = pageAcc.get(page);
    if (v === undefined) {
      v = new Float64Array(2 * n);
      pageAcc.set(page, v);
    }
    return v;
  };
  /** 1/norm for a page's own fields and for its summed section fields, computed once per page. */
  const pageInvNorms = (page: number): number[] => {
    let v = pageNorms.get(page);
    if (v === undefined) {
      const p = index.pages.get(page) as PageUnit;
      v = [];
      for (let f = 0; f < FIELDS_PER_UNIT; f++) v.push((PW[f] as number) / norm(p.lengths[f] as number, avgPage[f] as number, PB[f] as number));
      for (let f = 0; f < FIELDS_PER_UNIT; f++) v.push((SW[f] as number) / norm(p.sectionLengths[f] as number, avgPageSec[f] as number, PSB[f] as number));
      pageNorms.set(page, v);
    }
    return v;
  };

  for (let qi = 0; qi < n; qi++) {
    for (const { entry, weight } of (query[qi] as QueryTerm).matches) {
      const sp = entry.sections;
      for (let r = 0; r < sp.ids.length; r++) {
        const sid = sp.ids[r] as number;
        const s = index.sections.get(sid) as SectionUnit | undefined;
        if (s === undefined || !isAccepted(s.page)) continue;
        const packed = sp.tf[r] as number;
        const h = packed & 1023;
        const b = (packed >>> 10) & 1023;
        const c = packed >>> 20;
        let sv = secAcc.get(sid);
        if (sv === undefined) {
          sv = new Float64Array(n);
          secAcc.set(sid, sv);
          const list = sectionsOfPage.get(s.page);
          if (list === undefined) sectionsOfPage.set(s.page, [sid]);
          else list.push(sid);
        }
        const L = s.lengths;
        sv[qi]! +=
          weight *
          ((h * (SW[0] as number)) / norm(L[0] as number, avgSec[0] as number, SB[0] as number) +
            (b * (SW[1] as number)) / norm(L[1] as number, avgSec[1] as number, SB[1] as number) +
            (c * (SW[2] as number)) / norm(L[2] as number, avgSec[2] as number, SB[2] as number));
        const inv = pageInvNorms(s.page);
        pageVector(s.page)[n + qi]! += weight * (h * (inv[3] as number) + b * (inv[4] as number) + c * (inv[5] as number));
      }
      const pp = entry.pages;
      for (let r = 0; r < pp.ids.length; r++) {
        const pid = pp.ids[r] as number;
        if (!isAccepted(pid)) continue;
        const packed = pp.tf[r] as number;
        const inv = pageInvNorms(pid);
        pageVector(pid)[qi]! += weight * ((packed & 1023) * (inv[0] as number) + ((packed >>> 10) & 1023) * (inv[1] as number) + (packed >>> 20) * (inv[2] as number));
      }
    }
  }

  const sat = (x: number): number => x / (k1 + x);
  // Which query term each matching vocabulary id stands for, and with what weight.
  const termQuery = new Int16Array(index.vocabularySize).fill(-1);
  const termWeight = new Float64Array(index.vocabularySize);
  for (let qi = n - 1; qi >= 0; qi--) {
    for (const m of (query[qi] as QueryTerm).matches) {
      termQuery[m.entry.id] = qi;
      termWeight[m.entry.id] = m.weight;
    }
  }
  const pairWeights: number[] = [];
  for (let qi = 0; qi + 1 < n; qi++) pairWeights.push(((query[qi] as QueryTerm).idf + (query[qi + 1] as QueryTerm).idf) / 2);
  const pairSum = pairWeights.reduce((a, b) => a + b, 0);
  const pairsFound = new Uint8Array(Math.max(0, n - 1));
  const lastSeen = new Int32Array(n);

  /** Mark query-adjacent pairs of terms found within the window in a term sequence. */
  const findPairs = (seq: Int32Array): void => {
    lastSeen.fill(-1_000_000);
    for (let p = 0; p < seq.length; p++) {
      const t = seq[p] as number;
      if (t < 0) {
        lastSeen.fill(-1_000_000);
        continue;
      }
      const qi = termQuery[t] as number;
      if (qi < 0) continue;
      if (qi > 0 && p - (lastSeen[qi - 1] as number) <= P.proximityWindow) pairsFound[qi - 1] = 1;
      if (qi + 1 < n && p - (lastSeen[qi + 1] as number) <= P.proximityWindow) pairsFound[qi] = 1;
      lastSeen[qi] = p;
    }
  };

  const out: RankedPage[] = [];
  for (const [page, v] of pageAcc) {
    let whole = 0;
    let fieldsOnly = 0;
    for (let qi = 0; qi < n; qi++) {
      const w = (query[qi] as QueryTerm).idf;
      whole += w * sat((v[qi] as number) + (v[n + qi] as number));
      fieldsOnly += w * sat(v[qi] as number);
    }
    let best = fieldsOnly;
    let bestSection: number | undefined;
    for (const sid of sectionsOfPage.get(page) ?? []) {
      const sv = secAcc.get(sid) as Float64Array;
      let s = 0;
      for (let qi = 0; qi < n; qi++) s += (query[qi] as QueryTerm).idf * sat((v[qi] as number) + (sv[qi] as number));
      if (s > best) {
        best = s;
        bestSection = sid;
      }
    }
    const base = (P.pageShare * whole + (1 - P.pageShare) * best) / idfSum;

    // Title: the idf-weighted share of the query in the title, times the share of the title in the query.
    const unit = index.pages.get(page) as PageUnit;
    const inTitle = new Float64Array(n);
    let titleHits = 0;
    for (let i = 0; i < unit.title.length; i++) {
      const qi = termQuery[unit.title[i] as number] as number;
      if (qi < 0) continue;
      titleHits++;
      inTitle[qi] = Math.max(inTitle[qi] as number, termWeight[unit.title[i] as number] as number);
    }
    let queryInTitle = 0;
    for (let qi = 0; qi < n; qi++) queryInTitle += (query[qi] as QueryTerm).idf * (inTitle[qi] as number);
    const title = unit.title.length === 0 ? 0 : (queryInTitle / idfSum) * (titleHits / unit.title.length);

    let score: number;
    if (n >= 2 && pairSum > 0) {
      pairsFound.fill(0);
      findPairs(unit.title);
      if (bestSection !== undefined) findPairs((index.sections.get(bestSection) as SectionUnit).sequence);
      let found = 0;
      for (let k = 0; k < pairWeights.length; k++) if (pairsFound[k] === 1) found += pairWeights[k] as number;
      score = (1 - P.titleShare - P.proximityShare) * base + P.titleShare * title + P.proximityShare * (found / pairSum);
    } else {
      score = ((1 - P.titleShare - P.proximityShare) * base + P.titleShare * title) / (1 - P.proximityShare);
    }
    out.push({ page, section: bestSection, score });
  }
  return out;
}
