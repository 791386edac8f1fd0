import { boundedEditDistance } from "./fuzzy.js";
import { PAGE_FIELDS, SECTION_FIELDS } from "./fields.js";
import { FIELDS_PER_UNIT, type InvertedIndex, type PageUnit, type SectionUnit, type TermEntry } from "./inverted-index.js";
import { weightedTf } from "./postings-codec.js";
import type { IndexStatistics } from "./statistics.js";

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
  readonly idfExponent: number;
  readonly proximityShare: number;
  readonly proximityWindow: number;
  readonly prefixWeight: number;
  readonly joinWeight: number;
  readonly generatedPageWeight: number;
  readonly minPrefixLength: number;
  readonly prefixMaxDfShare: number;
  readonly maxPrefixExpansions: number;
  readonly fuzzyWeights: readonly number[];
  readonly maxFuzzyExpansions: number;
  readonly versionTwinTolerance: number;
  readonly commonTermsReach: number;
}

export const RANKING: RankingParams = {
  /** BM25 term-frequency saturation. */
  k1: 1.2,
  /** Field weights and `b`, in schema order, from the field schema (`fields.ts`). */
  pageWeights: PAGE_FIELDS.map((f) => f.weight),
  pageB: PAGE_FIELDS.map((f) => f.b),
  sectionWeights: SECTION_FIELDS.map((f) => f.weight),
  sectionB: SECTION_FIELDS.map((f) => f.b),
  pageSectionB: SECTION_FIELDS.map((f) => f.pageB),
  /** Share of the score from the whole page (the rest from its best section). */
  pageShare: 0.5,
  /** Term weights are idf to this power: below 1, one rare word alone counts for less against
   *  a page matching several of the question's words. */
  idfExponent: 0.5,
  /** Share of the score from how well the query and the page title name each other. */
  titleShare: 0.15,
  /** Share of the score from query words appearing next to each other (in the title or the
   *  best section), as in the question: "gift card", "free shipping", an error message. */
  proximityShare: 0.05,
  /** Two query words are "next to each other" when at most this many index terms apart. */
  proximityWindow: 1,
  /** Weight of a dictionary term that merely starts with the query term (`config` -> `configurable`). */
  prefixWeight: 0.5,
  /** Score factor for pages generated from an API spec: one per operation, hundreds alike, they
   *  otherwise crowd out the guide that answers a question in words ("pay sellers a commission"
   *  matched five commission endpoints before the payouts guide). A strong match still wins. */
  generatedPageWeight: 0.85,
  /** Weight of a word the docs write as one that the query splits in two ("log in" -> `login`,
   *  "web hook" -> `webhook`), credited to each half that is a query term. */
  joinWeight: 0.8,
  /** Query terms shorter than this are not expanded by prefix (`ap` would match half the site). */
  minPrefixLength: 4,
  maxPrefixExpansions: 40,
  /** No prefix expansion for a term already on more than this share of pages: its longer forms
   *  add little to a common word and cost the most postings. */
  prefixMaxDfShare: 0.1,
  /** Weights of fuzzy matches at one and two edits; only for terms the site does not contain. */
  fuzzyWeights: [1, 0.7, 0.45],
  maxFuzzyExpansions: 8,
  /** Unfiltered, the same page in several versions is one hit, shown as the default version's
   *  page when it scores within this of the best of them (near-duplicates score within a few
   *  hundredths); a page whose other version answers the query clearly better is shown as that
   *  one, so a strong match is never hidden behind a weak default one. */
  versionTwinTolerance: 0.05,
  /** The most common query terms are read only for pages the others made candidates while a page
   *  holding them alone could score at most this (then the top's actual floor decides, see
   *  `skippable`); 0 reads every term's postings for every page. Changes speed, never results. */
  commonTermsReach: 0.5,
};

/** One query term with the dictionary terms it matches and its weight. */
export interface QueryTerm {
  readonly term: string;
  /** The term's weight: its inverse document frequency to the power `idfExponent`. */
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
 * Resolve query terms against the dictionary as `stats` sees it (a term only in pages the
 * reader may not read does not exist for it): the exact term; terms it is a prefix of (at a
 * lower weight); and, only for a term the reader's pages do not contain at all (a typo), terms
 * within one or two edits.
 */
export function resolveTerms(
  index: InvertedIndex,
  stats: IndexStatistics,
  terms: readonly string[],
  P: RankingParams = RANKING,
  joined: ReadonlyMap<string, readonly string[]> = new Map(),
): QueryTerm[] {
  const n = Math.max(1, stats.pageCount);
  const live = (entry: TermEntry): boolean => stats.df(entry) > 0;
  const find = (term: string): TermEntry | undefined => {
    const entry = index.entry(term);
    return entry !== undefined && live(entry) ? entry : undefined;
  };
  return terms.map((term) => {
    const matches: { entry: TermEntry; weight: number; term: string }[] = [];
    const exact = find(term);
    if (exact !== undefined) matches.push({ entry: exact, weight: 1, term });
    for (const j of joined.get(term) ?? []) {
      const entry = find(j);
      if (entry !== undefined && entry !== exact) matches.push({ entry, weight: P.joinWeight, term: j });
    }
    if (term.length >= P.minPrefixLength && !/^\d+$/.test(term) && (exact === undefined || stats.df(exact) <= P.prefixMaxDfShare * n)) {
      for (const entry of index.withPrefix(term, P.maxPrefixExpansions, live)) {
        matches.push({ entry, weight: P.prefixWeight * (term.length / entry.term.length), term: entry.term });
      }
    }
    if (matches.length === 0) {
      const max = maxEdits(term);
      if (max > 0 && !/\d/.test(term)) {
        const found: { entry: TermEntry; d: number; df: number; term: string }[] = [];
        index.forEachTerm((entry) => {
          if (Math.abs(entry.term.length - term.length) > max) return;
          const df = stats.df(entry);
          if (df <= 0) return;
          const d = boundedEditDistance(term, entry.term, max);
          if (d <= max) found.push({ entry, d, df, term: entry.term });
        });
        const best = Math.min(...found.map((f) => f.d));
        // Ties by the term itself, not by the order terms entered the index (which pages the
        // reader may not read took part in).
        found
          .filter((f) => f.d === best)
          .sort((a, b) => b.df - a.df || (a.term < b.term ? -1 : 1))
          .slice(0, P.maxFuzzyExpansions)
          .forEach((f) => matches.push({ entry: f.entry, weight: P.fuzzyWeights[f.d] as number, term: f.term }));
      }
    }
    // The term's rarity: the exact term's, else its most common stand-in's (a lower bound).
    const df = exact !== undefined ? stats.df(exact) : Math.max(0, ...matches.map((m) => stats.df(m.entry)));
    return { term, idf: idf(df, n) ** P.idfExponent, matches };
  });
}

/**
 * Score pages for resolved query terms. A page's score blends BM25F over the whole page with
 * BM25F over its best section, each expressed as the IDF-weighted mean of per-term saturations
 * (see docs/search.md for why that is comparable across queries). `accept` filters pages before
 * any scoring, so rejected pages never become candidates. Phases: `accumulate` the
 * field-weighted frequencies from the postings (common terms only into pages that can still
 * reach the top `limit`, see `skippable`), `scoreCandidates` (BM25F, best section, title), then
 * `finishTop` (proximity, only for candidates that can still reach the top `limit`). `prior`
 * must be at most 1.
 */
export function rankPages(
  index: InvertedIndex,
  stats: IndexStatistics,
  query: readonly QueryTerm[],
  accept: (page: number) => boolean,
  P: RankingParams = RANKING,
  scratch: RankScratch = new RankScratch(),
  prior: (page: number) => number = () => 1,
  limit: number = Number.POSITIVE_INFINITY,
): RankedPage[] {
  const n = query.length;
  const idfSum = query.reduce((s, q) => s + q.idf, 0);
  if (n === 0 || idfSum === 0) return [];
  const acc = scratch.begin(index.sectionCapacity, index.pageCapacity, n);
  const shape = queryShape(query, acc.termMaps(index.vocabularySize), P, idfSum);
  const scales = stats.scales(P);
  const common = skippable(query, shape, P, limit);
  const rare = query.map((_, qi) => qi).filter((qi) => !common.includes(qi));
  accumulate(index, scales, query, rare, accept, acc, true);
  // The common terms' postings reach only pages already taken when no page holding common terms
  // alone can reach the top `limit` (its score is at most `reach`); otherwise the least common
  // of them join the rare ones until that holds (or none is left).
  if (common.length > 0) {
    const floor = lowerBoundOfTop(index, query, acc, shape, P, prior, limit);
    while (common.length > 0 && reach(common, query, shape, P) >= floor - TIE_MARGIN) {
      accumulate(index, scales, query, [common.pop() as number], accept, acc, true);
    }
    accumulate(index, scales, query, common, accept, acc, false);
  }
  const candidates = scoreCandidates(index, query, acc, shape, P, prior);
  const out = finishTop(index, acc, candidates, shape, P, prior, limit);
  acc.clearTermMaps(query);
  acc.end();
  return out;
}

/** Scores are shown rounded to 3 decimals: near-ties with the last place are kept. */
const TIE_MARGIN = 0.0005;

/**
 * The most a page can score (before `prior`, at most 1) whose only matches are the query terms
 * `terms`: their idf share of the BM25F and title parts, and all of the proximity share (the
 * bound `finishTop` uses, so a page skipped here is one it would skip too).
 */
function reach(terms: readonly number[], query: readonly QueryTerm[], shape: QueryShape, P: RankingParams): number {
  const share = terms.reduce((s, qi) => s + (query[qi] as QueryTerm).idf, 0) / shape.idfSum;
  return (shape.baseShare + shape.titleShare) * share + (shape.withPairs ? P.proximityShare : 0);
}

/**
 * Query terms, most common last, whose postings may be read only for pages the other terms
 * made candidates: the longest run of the most common terms that could not lift a page that has
 * nothing else into a plausible top `limit` (`commonTermsReach`; the measured floor decides).
 * None without a limit, or for a one-term query.
 */
function skippable(query: readonly QueryTerm[], shape: QueryShape, P: RankingParams, limit: number): number[] {
  if (!Number.isFinite(limit) || query.length < 2) return [];
  const byRarity = query.map((_, qi) => qi).sort((a, b) => (query[b] as QueryTerm).idf - (query[a] as QueryTerm).idf || a - b);
  const out: number[] = [];
  // Most common first, while they stay under the plausible score of a top result.
  for (let k = byRarity.length - 1; k > 0; k--) {
    const next = [...out, byRarity[k] as number];
    if (reach(next, query, shape, P) >= P.commonTermsReach) break;
    out.push(byRarity[k] as number);
  }
  // Least common of the skippable last: it is the first to join the rare terms.
  return out;
}

/**
 * A lower bound of the `limit`-th best final score, from the candidates taken so far: each
 * one's score counting only the frequencies accumulated yet, its best section taken as none
 * (every term weighs the same or more once all are in, and a section only raises the score).
 * 0 with fewer candidates than `limit`.
 */
function lowerBoundOfTop(index: InvertedIndex, query: readonly QueryTerm[], acc: RankScratch, shape: QueryShape, P: RankingParams, prior: (page: number) => number, limit: number): number {
  const n = query.length;
  const sat = (x: number): number => x / (P.k1 + x);
  const scores: number[] = [];
  const inTitle = new Float64Array(n);
  for (let ps = 0; ps < acc.pages.length; ps++) {
    if (acc.accepted[ps] !== true) continue;
    const page = acc.pages[ps] as number;
    const v = ps * 2 * n;
    let whole = 0;
    let fieldsOnly = 0;
    for (let qi = 0; qi < n; qi++) {
      const w = (query[qi] as QueryTerm).idf;
      whole += w * sat((acc.page[v + qi] as number) + (acc.page[v + n + qi] as number));
      fieldsOnly += w * sat(acc.page[v + qi] as number);
    }
    const base = (P.pageShare * whole + (1 - P.pageShare) * fieldsOnly) / shape.idfSum;
    scores.push((shape.baseShare * base + shape.titleShare * titlePart(index.page(page) as PageUnit, query, shape, inTitle)) * prior(page));
  }
  if (scores.length < limit) return 0;
  scores.sort((a, b) => b - a);
  return scores[limit - 1] as number;
}

/** Phase 1: for every posting of the query terms `terms`, add its field-weighted frequency to
 *  its section's and page's accumulators. With `take`, a page not seen yet takes a slot (pages
 *  `accept` rejects take none); without, only pages that hold one already count. */
function accumulate(
  index: InvertedIndex,
  scales: { section: Float64Array; page: Float64Array },
  query: readonly QueryTerm[],
  terms: readonly number[],
  accept: (page: number) => boolean,
  acc: RankScratch,
  take: boolean,
): void {
  const n = query.length;
  const { section: secScale, page: pageScale } = scales;
  for (const qi of terms) {
    for (const { entry, weight } of (query[qi] as QueryTerm).matches) {
      const sp = entry.sections;
      for (let r = 0; r < sp.ids.length; r++) {
        const sid = sp.ids[r] as number;
        const s = index.section(sid);
        if (s === undefined) continue;
        const ps = take ? acc.pageSlot(s.page, accept) : acc.heldSlot(s.page);
        if (ps < 0) continue;
        const packed = sp.tf[r] as number;
        // Take the slot first: it may grow (replace) `acc.sec`.
        const ss = acc.sectionSlot(sid, ps);
        acc.sec[ss * n + qi]! += weight * weightedTf(packed, secScale, sid * FIELDS_PER_UNIT);
        // The same frequencies counted in the page's summed section fields.
        acc.page[ps * 2 * n + n + qi]! += weight * weightedTf(packed, pageScale, s.page * 2 * FIELDS_PER_UNIT + FIELDS_PER_UNIT);
      }
      const pp = entry.pages;
      for (let r = 0; r < pp.ids.length; r++) {
        const pid = pp.ids[r] as number;
        const ps = take ? acc.pageSlot(pid, accept) : acc.heldSlot(pid);
        if (ps < 0) continue;
        acc.page[ps * 2 * n + qi]! += weight * weightedTf(pp.tf[r] as number, pageScale, pid * 2 * FIELDS_PER_UNIT);
      }
    }
  }
}

/** What the scoring phases need to know about the query beyond its terms. */
interface QueryShape {
  readonly idfSum: number;
  /** Vocabulary id -> query term index (-1: none), and the match's weight. */
  readonly termQuery: Int16Array;
  readonly termWeight: Float64Array;
  /** Weight of each pair of consecutive query terms (mean of their idfs), and their sum. */
  readonly pairWeights: readonly number[];
  readonly pairSum: number;
  readonly withPairs: boolean;
  /** Shares of the BM25F and title parts (the proximity share goes to them without pairs). */
  readonly baseShare: number;
  readonly titleShare: number;
}

function queryShape(query: readonly QueryTerm[], maps: { termQuery: Int16Array; termWeight: Float64Array }, P: RankingParams, idfSum: number): QueryShape {
  const n = query.length;
  const { termQuery, termWeight } = maps;
  for (let qi = n - 1; qi >= 0; qi--) {
    for (const m of (query[qi] as QueryTerm).matches) {
      termQuery[m.entry.id] = qi;
      termWeight[m.entry.id] = m.weight;
    }
  }
  const pairWeights: number[] = [];
  for (let qi = 0; qi + 1 < n; qi++) pairWeights.push(((query[qi] as QueryTerm).idf + (query[qi + 1] as QueryTerm).idf) / 2);
  const pairSum = pairWeights.reduce((a, b) => a + b, 0);
  const withPairs = n >= 2 && pairSum > 0;
  const keep = withPairs ? 1 : 1 / (1 - P.proximityShare);
  return { idfSum, termQuery, termWeight, pairWeights, pairSum, withPairs, baseShare: (1 - P.titleShare - P.proximityShare) * keep, titleShare: P.titleShare * keep };
}

/** Candidates after phase 2: per page slot, the score without proximity, an upper bound of the
 *  final score, the best section (-1: page fields only), and the slots best bound first. */
interface Candidates {
  readonly partial: Float64Array;
  readonly bound: Float64Array;
  readonly section: Int32Array;
  readonly order: number[];
}

/** Phase 2, every accepted page: the BM25F part (whole page and best section) and the title part. */
function scoreCandidates(index: InvertedIndex, query: readonly QueryTerm[], acc: RankScratch, shape: QueryShape, P: RankingParams, prior: (page: number) => number): Candidates {
  const n = query.length;
  const sat = (x: number): number => x / (P.k1 + x);
  const slots = acc.pages.length;
  const out: Candidates = { partial: new Float64Array(slots), bound: new Float64Array(slots), section: new Int32Array(slots), order: [] };
  const pageAcc = acc.page;
  const secAcc = acc.sec;
  const inTitle = new Float64Array(n);
  for (let ps = 0; ps < slots; ps++) {
    if (acc.accepted[ps] !== true) continue;
    const page = acc.pages[ps] as number;
    const v = ps * 2 * n;
    let whole = 0;
    let fieldsOnly = 0;
    for (let qi = 0; qi < n; qi++) {
      const w = (query[qi] as QueryTerm).idf;
      whole += w * sat((pageAcc[v + qi] as number) + (pageAcc[v + n + qi] as number));
      fieldsOnly += w * sat(pageAcc[v + qi] as number);
    }
    let best = fieldsOnly;
    let bestSection: number | undefined;
    for (let ss = acc.firstSection[ps] as number; ss >= 0; ss = acc.nextSection[ss] as number) {
      let s = 0;
      for (let qi = 0; qi < n; qi++) s += (query[qi] as QueryTerm).idf * sat((pageAcc[v + qi] as number) + (secAcc[ss * n + qi] as number));
      const sid = acc.sections[ss] as number;
      // Ties go to the earlier section (lower id), so the choice does not depend on posting order.
      if (s > best || (s === best && bestSection !== undefined && sid < bestSection)) {
        best = s;
        bestSection = sid;
      }
    }
    const base = (P.pageShare * whole + (1 - P.pageShare) * best) / shape.idfSum;
    const partial = shape.baseShare * base + shape.titleShare * titlePart(index.page(page) as PageUnit, query, shape, inTitle);
    out.partial[ps] = partial;
    out.bound[ps] = (partial + (shape.withPairs ? P.proximityShare : 0)) * prior(page);
    out.section[ps] = bestSection ?? -1;
    out.order.push(ps);
  }
  return out;
}

/** The idf-weighted share of the query in the page title, times the share of the title in the query. */
function titlePart(unit: PageUnit, query: readonly QueryTerm[], shape: QueryShape, inTitle: Float64Array): number {
  if (unit.title.length === 0) return 0;
  inTitle.fill(0);
  let titleHits = 0;
  for (let i = 0; i < unit.title.length; i++) {
    const t = unit.title[i] as number;
    const qi = shape.termQuery[t] as number;
    if (qi < 0) continue;
    titleHits++;
    inTitle[qi] = Math.max(inTitle[qi] as number, shape.termWeight[t] as number);
  }
  let queryInTitle = 0;
  for (let qi = 0; qi < query.length; qi++) queryInTitle += (query[qi] as QueryTerm).idf * (inTitle[qi] as number);
  return (queryInTitle / shape.idfSum) * (titleHits / unit.title.length);
}

/**
 * Phase 3, best first by the upper bound (proximity at most 1): proximity, which scans the best
 * section's words, is computed only while a candidate could still reach the top `limit`.
 */
function finishTop(index: InvertedIndex, acc: RankScratch, c: Candidates, shape: QueryShape, P: RankingParams, prior: (page: number) => number, limit: number): RankedPage[] {
  // Equal bounds in page order: which of them is scored before the cut must not depend on the
  // order pages took their slots in (it differs with the order terms are accumulated).
  c.order.sort((a, b) => (c.bound[b] as number) - (c.bound[a] as number) || (acc.pages[a] as number) - (acc.pages[b] as number));
  const pairs = new PairFinder(shape, P.proximityWindow);
  const out: RankedPage[] = [];
  const top: number[] = []; // the best `limit` final scores so far, descending
  for (const ps of c.order) {
    if (top.length >= limit && (c.bound[ps] as number) < (top[limit - 1] as number) - TIE_MARGIN) break;
    const page = acc.pages[ps] as number;
    const section = c.section[ps] as number;
    let score = c.partial[ps] as number;
    if (shape.withPairs) {
      pairs.reset();
      pairs.scan((index.page(page) as PageUnit).title);
      if (section >= 0) pairs.scan((index.section(section) as SectionUnit).sequence);
      score += P.proximityShare * (pairs.found() / shape.pairSum);
    }
    score *= prior(page);
    out.push({ page, section: section >= 0 ? section : undefined, score });
    insertDescending(top, score, limit);
  }
  return out;
}

/** Keep `top` the best `limit` scores, descending, after adding `score`. */
function insertDescending(top: number[], score: number, limit: number): void {
  let i = Math.min(top.length, limit);
  top.splice(i, 0, score);
  while (i > 0 && (top[i - 1] as number) < score) {
    top[i] = top[i - 1] as number;
    top[i - 1] = score;
    i--;
  }
  if (top.length > limit) top.length = limit;
}

/** Which pairs of consecutive query terms occur within the window in term sequences. */
class PairFinder {
  private readonly found_: Uint8Array;
  private readonly lastSeen: Int32Array;
  constructor(
    private readonly shape: QueryShape,
    private readonly window: number,
  ) {
    this.found_ = new Uint8Array(shape.pairWeights.length);
    this.lastSeen = new Int32Array(shape.pairWeights.length + 1);
  }

  reset(): void {
    this.found_.fill(0);
  }

  /** Mark query-adjacent pairs of terms found within the window in a term sequence. */
  scan(seq: Int32Array): void {
    const n = this.lastSeen.length;
    const { termQuery } = this.shape;
    this.lastSeen.fill(-1_000_000);
    for (let p = 0; p < seq.length; p++) {
      const t = seq[p] as number;
      if (t < 0) {
        this.lastSeen.fill(-1_000_000);
        continue;
      }
      const qi = termQuery[t] as number;
      if (qi < 0) continue;
      if (qi > 0 && p - (this.lastSeen[qi - 1] as number) <= this.window) this.found_[qi - 1] = 1;
      if (qi + 1 < n && p - (this.lastSeen[qi + 1] as number) <= this.window) this.found_[qi] = 1;
      this.lastSeen[qi] = p;
    }
  }

  /** The summed weights of the pairs found. */
  found(): number {
    let sum = 0;
    for (let k = 0; k < this.found_.length; k++) if (this.found_[k] === 1) sum += this.shape.pairWeights[k] as number;
    return sum;
  }
}

/**
 * Per-query accumulators, reused across queries so a search allocates almost nothing: touched
 * pages and sections get dense slots (through id -> slot arrays reset after each query), and
 * their partial scores live in flat arrays of `n` (sections) or `2n` (pages) numbers per slot.
 */
export class RankScratch {
  private sectionSlots: Int32Array = new Int32Array(0);
  private pageSlots: Int32Array = new Int32Array(0);
  /** Per page slot: n page-field tf~ followed by n summed section-field tf~. */
  page: Float64Array = new Float64Array(0);
  /** Per section slot: n section-field tf~. */
  sec: Float64Array = new Float64Array(0);
  /** Page id per page slot, whether `accept` took it, and section id per section slot. */
  readonly pages: number[] = [];
  readonly accepted: boolean[] = [];
  readonly sections: number[] = [];
  /** Sections of each page slot as a linked list of section slots. */
  firstSection: Int32Array = new Int32Array(0);
  nextSection: Int32Array = new Int32Array(0);
  private n = 0;

  begin(sectionCapacity: number, pageCapacity: number, n: number): this {
    if (this.sectionSlots.length < sectionCapacity) this.sectionSlots = grow(this.sectionSlots, sectionCapacity, -1);
    if (this.pageSlots.length < pageCapacity) this.pageSlots = grow(this.pageSlots, pageCapacity, -1);
    this.n = n;
    return this;
  }

  /** The slot of a page, taking one (and asking `accept`) the first time; -1 if rejected. */
  pageSlot(page: number, accept: (page: number) => boolean): number {
    const slot = this.pageSlots[page] as number;
    if (slot !== -1) return this.accepted[slot] === true ? slot : -1;
    const next = this.pages.length;
    this.pageSlots[page] = next;
    const ok = accept(page);
    this.pages.push(page);
    this.accepted.push(ok);
    const need = (next + 1) * 2 * this.n;
    if (this.page.length < need) this.page = growFloat(this.page, need);
    this.page.fill(0, next * 2 * this.n, need);
    if (this.firstSection.length <= next) this.firstSection = grow(this.firstSection, next + 1, -1);
    this.firstSection[next] = -1;
    return ok ? next : -1;
  }

  /** The slot of a page that took one and was accepted, else -1 (never asks `accept`). */
  heldSlot(page: number): number {
    const slot = this.pageSlots[page] as number;
    return slot !== -1 && this.accepted[slot] === true ? slot : -1;
  }

  /** The slot of a section of the page in slot `pageSlot`, taking one the first time. */
  sectionSlot(section: number, pageSlot: number): number {
    const slot = this.sectionSlots[section] as number;
    if (slot !== -1) return slot;
    const next = this.sections.length;
    this.sectionSlots[section] = next;
    this.sections.push(section);
    const need = (next + 1) * this.n;
    if (this.sec.length < need) this.sec = growFloat(this.sec, need);
    this.sec.fill(0, next * this.n, need);
    if (this.nextSection.length <= next) this.nextSection = grow(this.nextSection, next + 1, -1);
    this.nextSection[next] = this.firstSection[pageSlot] as number;
    this.firstSection[pageSlot] = next;
    return next;
  }

  private termQuery: Int16Array = new Int16Array(0);
  private termWeight: Float64Array = new Float64Array(0);

  /** Term id -> query term index (-1: none) and weight, all -1/0 between queries. */
  termMaps(vocabularySize: number): { termQuery: Int16Array; termWeight: Float64Array } {
    if (this.termQuery.length < vocabularySize) {
      const size = Math.max(vocabularySize, this.termQuery.length * 2, 1024);
      this.termQuery = new Int16Array(size).fill(-1);
      this.termWeight = new Float64Array(size);
    }
    return { termQuery: this.termQuery, termWeight: this.termWeight };
  }

  /** Undo `termMaps` entries for the query's matched terms. */
  clearTermMaps(query: readonly QueryTerm[]): void {
    for (const q of query) for (const m of q.matches) this.termQuery[m.entry.id] = -1;
  }

  /** Reset the id -> slot arrays for the next query. */
  end(): void {
    for (const s of this.sections) this.sectionSlots[s] = -1;
    for (const p of this.pages) this.pageSlots[p] = -1;
    this.sections.length = 0;
    this.pages.length = 0;
    this.accepted.length = 0;
  }
}

function grow(a: Int32Array, min: number, fill: number): Int32Array {
  const next = new Int32Array(Math.max(min, a.length * 2, 64)).fill(fill);
  next.set(a);
  return next;
}

function growFloat(a: Float64Array, min: number): Float64Array {
  const next = new Float64Array(Math.max(min, a.length * 2, 256));
  next.set(a);
  return next;
}
