import { boundedEditDistance } from "./fuzzy.js";
import { FIELDS_PER_UNIT, type InvertedIndex, type PageUnit, type SectionUnit, type TermEntry } from "./inverted-index.js";
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
 * (see `searchScore` in search-index.ts for why that is comparable across queries).
 * `accept` filters pages before any scoring, so rejected pages never become candidates.
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
  const k1 = P.k1;
  const { section: secScale, page: pageScale } = stats.scales(P);
  const acc = scratch.begin(index.sectionCapacity, index.pageCapacity, n);

  for (let qi = 0; qi < n; qi++) {
    for (const { entry, weight } of (query[qi] as QueryTerm).matches) {
      const sp = entry.sections;
      for (let r = 0; r < sp.ids.length; r++) {
        const sid = sp.ids[r] as number;
        const s = index.section(sid);
        if (s === undefined) continue;
        const ps = acc.pageSlot(s.page, accept);
        if (ps < 0) continue;
        const packed = sp.tf[r] as number;
        const h = packed & 1023;
        const b = (packed >>> 10) & 1023;
        const c = packed >>> 20;
        const so = sid * FIELDS_PER_UNIT;
        // Take the slot first: it may grow (replace) `acc.sec`.
        const ss = acc.sectionSlot(sid, ps);
        acc.sec[ss * n + qi]! += weight * (h * (secScale[so] as number) + b * (secScale[so + 1] as number) + c * (secScale[so + 2] as number));
        const po = s.page * 2 * FIELDS_PER_UNIT;
        acc.page[ps * 2 * n + n + qi]! += weight * (h * (pageScale[po + 3] as number) + b * (pageScale[po + 4] as number) + c * (pageScale[po + 5] as number));
      }
      const pp = entry.pages;
      for (let r = 0; r < pp.ids.length; r++) {
        const pid = pp.ids[r] as number;
        const ps = acc.pageSlot(pid, accept);
        if (ps < 0) continue;
        const packed = pp.tf[r] as number;
        const po = pid * 2 * FIELDS_PER_UNIT;
        acc.page[ps * 2 * n + qi]! += weight * ((packed & 1023) * (pageScale[po] as number) + ((packed >>> 10) & 1023) * (pageScale[po + 1] as number) + (packed >>> 20) * (pageScale[po + 2] as number));
      }
    }
  }

  const sat = (x: number): number => x / (k1 + x);
  // Which query term each matching vocabulary id stands for, and with what weight.
  const { termQuery, termWeight } = acc.termMaps(index.vocabularySize);
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
  const withPairs = n >= 2 && pairSum > 0;
  // Without word pairs to look for, the proximity share goes to the other parts.
  const keep = withPairs ? 1 : 1 / (1 - P.proximityShare);
  const baseShare = (1 - P.titleShare - P.proximityShare) * keep;
  const titleShare = P.titleShare * keep;

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

  // Phase 1, every candidate: the BM25F part, the best section and the title part.
  const slots = acc.pages.length;
  const partialOf = new Float64Array(slots);
  const boundOf = new Float64Array(slots);
  const sectionOf = new Int32Array(slots);
  const order: number[] = [];
  const pageAcc = acc.page;
  const secAcc = acc.sec;
  const inTitle = new Float64Array(n);
  for (let ps = 0; ps < acc.pages.length; ps++) {
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
    const base = (P.pageShare * whole + (1 - P.pageShare) * best) / idfSum;

    // Title: the idf-weighted share of the query in the title, times the share of the title in the query.
    const unit = index.page(page) as PageUnit;
    inTitle.fill(0);
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
    const partial = baseShare * base + titleShare * title;
    partialOf[ps] = partial;
    boundOf[ps] = (partial + (withPairs ? P.proximityShare : 0)) * prior(page);
    sectionOf[ps] = bestSection ?? -1;
    order.push(ps);
  }

  // Phase 2, best first by an upper bound (proximity at most 1): proximity, which scans the
  // best section's words, is computed only while a candidate could still reach the top `limit`.
  order.sort((a, b) => (boundOf[b] as number) - (boundOf[a] as number));
  const out: RankedPage[] = [];
  const top: number[] = []; // the best `limit` final scores so far, descending
  for (const ps of order) {
    // Scores are shown rounded to 3 decimals: keep near-ties with the last place too.
    if (top.length >= limit && (boundOf[ps] as number) < (top[limit - 1] as number) - 0.0005) break;
    const page = acc.pages[ps] as number;
    const section = sectionOf[ps] as number;
    let score = partialOf[ps] as number;
    if (withPairs) {
      pairsFound.fill(0);
      findPairs((index.page(page) as PageUnit).title);
      if (section >= 0) findPairs((index.section(section) as SectionUnit).sequence);
      let found = 0;
      for (let k = 0; k < pairWeights.length; k++) if (pairsFound[k] === 1) found += pairWeights[k] as number;
      score += P.proximityShare * (found / pairSum);
    }
    score *= prior(page);
    out.push({ page, section: section >= 0 ? section : undefined, score });
    let i = Math.min(top.length, limit);
    top.splice(i, 0, score);
    while (i > 0 && (top[i - 1] as number) < score) {
      top[i] = top[i - 1] as number;
      top[i - 1] = score;
      i--;
    }
    if (top.length > limit) top.length = limit;
  }
  acc.clearTermMaps(query);
  acc.end();
  return out;
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
