import { boundedEditDistance } from "./fuzzy.js";
import { PAGE_FIELDS, SECTION_FIELDS } from "./fields.js";
import type { PageUnit } from "./index-units.js";
import { FIELDS_PER_UNIT, type InvertedIndex, type TermEntry } from "./inverted-index.js";
import { ClassTop, LargestFirst, TopScores } from "./heaps.js";
import { MAX_TF, PER_WIDE, PER_WIDE2, TF_BITS, WIDE, WIDE2, weightedTf } from "./postings-codec.js";
import type { IndexStatistics, UnitScales } from "./statistics.js";
import { TermPeaks } from "./term-peaks.js";
import { maxOf, minOf } from "../../arrays.js";

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
  readonly longQueryTerms: number;
  readonly longQueryPageShare: number;
  readonly titleShare: number;
  readonly titlePrecisionExponent: number;
  readonly idfExponent: number;
  readonly proximityShare: number;
  readonly proximityWindow: number;
  readonly prefixWeight: number;
  readonly joinWeight: number;
  readonly aliasWeight: number;
  readonly paraphraseWeight: number;
  readonly translationWeight: number;
  readonly negatedTitleWeight: number;
  readonly siteVectorWeight: number;
  readonly generatedPageWeight: number;
  readonly templatePageWeight: number;
  readonly templatePages: number;
  readonly namedOperationWeight: number;
  readonly documentsWeight: number;
  readonly companionWeight: number;
  readonly companionGuides: number;
  readonly minPrefixLength: number;
  readonly prefixMaxDfShare: number;
  readonly maxPrefixExpansions: number;
  readonly fuzzyWeights: readonly number[];
  readonly maxFuzzyExpansions: number;
  readonly versionTwinTolerance: number;
  readonly twinWindow: number;
  readonly boundPruning: boolean;
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
  /** A question of at least this many terms takes `longQueryPageShare` as its page share: the
   *  more words a question has, the more a long page's whole-page sum gathers from sections each
   *  holding one of them, while the page that answers holds them in one place (Hoppscotch's "run
   *  every request in a folder several times in a row with a pause between them" found the CLI
   *  overview and the changelog before the Runner page, 4th; now 3rd). Shorter questions keep
   *  `pageShare`: at 7 terms, or a share of 0.3, sites whose answers span their sections lost
   *  (thirty-ninth round, docs/search.md). */
  longQueryTerms: 8,
  longQueryPageShare: 0.4,
  /** Term weights are idf to this power: below 1, one rare word alone counts for less against
   *  a page matching several of the question's words. */
  idfExponent: 0.5,
  /** Share of the score from how well the query and the page title name each other. */
  titleShare: 0.2,
  /** The title part is the query's share the title names times the title's share the query
   *  names, the latter to this power. */
  titlePrecisionExponent: 0.7,
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
  /** Score factor for a page written to an outline (its headings, in order) that pages of at
   *  least `templatePages` other titles share (`template-pages.ts`): a node's, a type's or a
   *  provider's reference page among hundreds alike. A question in words ("extend an image beyond
   *  its borders") matched ComfyUI's node pages' parameter tables above the tutorial that answers
   *  it. A question naming the page's title gives it its full weight back, as for endpoint pages.
   *  1 turns it off. */
  templatePageWeight: 0.9,
  /** How many different titles share an outline for it to be a template's (`templatePageWeight`). */
  templatePages: 10,
  /** Score factor for an endpoint page whose title or path the question names ("Cancel Crawl" in
   *  "cancel a running crawl job", `POST /v3/memories/add`): the question asks for that operation,
   *  and the SDK page or guide that mentions every operation in a section of its own (firecrawl's
   *  Python SDK, "Cancelling a Crawl") should come after it, as they do when they only tie. */
  namedOperationWeight: 1.1,
  /** Score factor for a page documenting an identifier the question names (a heading, a table
   *  row's first cell or a field named by it, `documented-identifiers.ts`): the reference for
   *  `ANONYMIZED_TELEMETRY` above the guides quoting it in examples. 1 turns it off. */
  documentsWeight: 1.1,
  /** After ranking, a guide among the first hits shows the endpoint page of the operation it is
   *  written about (`endpoint-companions.ts`: `/features/map` and `/api-reference/endpoint/map`) at
   *  this share of its own score, when that page ranks lower or not at all: the question in words
   *  finds the guide, and the operation's reference is what the reader opens next. Below the
   *  guide, so the guide stays first. 0 turns it off. */
  companionWeight: 0.8,
  /** How many of the first guides (hits that are not endpoint pages) lift their endpoint page: the
   *  ones a reader sees; a companion of a guide further down would land below the page. */
  companionGuides: 5,
  /** Weight of a word the docs write as one that the query splits in two ("log in" -> `login`,
   *  "web hook" -> `webhook`), credited to each half that is a query term. */
  joinWeight: 0.8,
  /** Weight of a short or long form standing in for a query word (`auth` for `authentication`
   *  and back, `abbreviations.ts`): the same thing, written another way. */
  aliasWeight: 0.8,
  /** Weight of a word of like meaning standing in for a query word ("re-run" for `replay`, "own"
   *  for `custom`, `paraphrases.ts`): near in meaning, so below a short form's. */
  paraphraseWeight: 0.6,
  /** Weight of an English word standing in for a word of another language that the reader's
   *  pages never write ("chamadas" for `call` on an English site, `translations.ts`): the same
   *  meaning, but a word of a table, not of the page, so below a short form's. */
  translationWeight: 0.6,
  /** Weight in the title part of a query word the question says it does not want, after
   *  "without" or "instead of" (`negation.ts`): "get every URL of a website without scraping it"
   *  is not asking for the page titled Scrape. Its other parts count the word in full: the page
   *  asked for names the way it replaces, and "which models can I use without paying" asks for
   *  the page on free models, which says "paying" in its text. */
  negatedTitleWeight: 0,
  /** When the first hit's title holds none of the question's words (a paraphrase: "get told when
   *  a long document finishes parsing"), the page of hits is re-ordered by score plus this times
   *  the cosine of the question's and each hit's title and description site vectors
   *  (`site-vectors.ts`): a title written in other words than the question's, used in like places
   *  on the site, comes up. Small: it re-orders near ties within the page, never brings a page in.
   *  Learned after ready, off the search path (`DocsRuntime.learnVectors`); a search before that
   *  re-orders by nothing. Off (0): 0.05 lifted 9 of the 21 tune sites and the held-out half's
   *  mean (0.846 -> 0.853), but lowered two held-out sites by ~0.03, and learning costs up to
   *  ~42 s of CPU beside searches on a large site (each HTTP worker its own), with results that
   *  change once it ends: not on by default until the vectors come with the persistent cache and
   *  cost no search its tail (docs/search.md, twenty-third round). */
  siteVectorWeight: 0,
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
  /** A hit's other versions outside the top it was ranked in are listed when they score at most
   *  this below the top's last place: a version far below is not what the question asks for (and
   *  each one shown takes a place in the list an agent reads). */
  twinWindow: 0.05,
  /** Read section postings only for pages whose upper bound can reach the top (`scoreBestFirst`);
   *  false reads them for every candidate (the bench's baseline). The results are the same. */
  boundPruning: true,
};

/** One query term with the dictionary terms it matches and its weight. */
export interface QueryTerm {
  readonly term: string;
  /** The term's weight: its inverse document frequency to the power `idfExponent`. */
  readonly idf: number;
  readonly matches: readonly { readonly entry: TermEntry; readonly weight: number; readonly term: string }[];
  /** Dictionary terms its prefix and typo matches added (`QueryWork.expansions`). */
  readonly expanded?: number;
  /** Whether it was looked up by edit distance (`QueryWork.typoScans`). */
  readonly scanned?: boolean;
  /** A factor of its weight in the title part: `negatedTitleWeight` for a word the question excludes
   *  (`negation.ts`), whose page titled with it is not the answer; else 1. Always present, so
   *  every term has one shape (a term with and one without it made ranking's reads of terms
   *  polymorphic: ~5% more CPU a search on spree, `bench/search-ab.ts`). */
  readonly titleFactor: number;
}

/** A scored page: its best section and a 0..1 score. */
export interface RankedPage {
  readonly page: number;
  /** The best-matching section, or undefined when only page fields (title, description) matched. */
  readonly section: number | undefined;
  readonly score: number;
}

/**
 * Each page's prior (`rankPages`): `base` by page id, unless `lift` says the page takes 1 (`FULL`)
 * or `named` (`NAMED`, the operation the question names) for this query. Not a function returning
 * the prior: a fraction returned from a call is a heap object, and `bounds` asks for the prior of
 * every candidate page. Only pages with a base below 1 are asked.
 */
export interface PagePriors {
  readonly base: Float64Array;
  readonly named: number;
  lift(page: number): number;
  /** The pages documenting an identifier the question names (`documented-identifiers.ts`): those
   *  whose `stamps` entry is `stamp`, their prior times `weight`. Absent for most questions. */
  readonly documents?: DocumentsLift;
}

/** `PagePriors.documents`: a stamp per page rather than a set, as `bounds` asks for every candidate. */
export interface DocumentsLift {
  readonly stamps: Uint32Array;
  readonly stamp: number;
  readonly weight: number;
}

/** The most any page's prior may be under `priors`: bounds of a page's reach are scaled by it. */
function mostPrior(priors: PagePriors): number {
  return Math.max(1, priors.named) * (priors.documents === undefined ? 1 : Math.max(1, priors.documents.weight));
}

/** `prior` times the documents lift of `page`, when `priors` has one for it. */
function documentsLifted(priors: PagePriors, page: number, prior: number): number {
  const d = priors.documents;
  return d !== undefined && d.stamps[page] === d.stamp ? prior * d.weight : prior;
}

/** `PagePriors.lift`: the page keeps its base, takes 1, or takes `named`. */
export const BASE = 0;
export const FULL = 1;
export const NAMED = 2;

const NO_PRIORS: PagePriors = { base: new Float64Array(0), named: 1, lift: () => FULL };

/** A page's prior under `priors` (1 for a page past `base`). */
function priorOf(priors: PagePriors, page: number): number {
  const p = priors.base[page];
  if (p === undefined || p === 1) return documentsLifted(priors, page, 1);
  const lift = priors.lift(page);
  return documentsLifted(priors, page, lift === BASE ? p : lift === FULL ? 1 : priors.named);
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
 * The work `resolveTerms` may do for one query, and what it did: a bound by the query, never by
 * time (issue 25). `typoScans` is how many terms were looked up by edit distance (each visits
 * every dictionary term of about its length), `expansions` how many dictionary terms prefix and
 * edit-distance matches added (each one more posting list for ranking to read). Terms are
 * resolved in the order given, so a caller that gives the most informative first spends the
 * budget on them.
 */
export class QueryWork {
  typoScans = 0;
  expansions = 0;
  constructor(
    readonly maxTypoScans: number,
    readonly maxExpansions: number,
  ) {}
}

/**
 * Resolve query terms against the dictionary as `stats` sees it (a term only in pages the
 * reader may not read does not exist for it): the exact term; terms it is a prefix of (at a
 * lower weight); and, only for a term the reader's pages do not contain at all (a typo), terms
 * within one or two edits. With `kept` (`ResolvedTerms`, for the same index, statistics, `P`,
 * `aliases` and `paraphrases`), a term resolved before with the same joined words is taken from
 * it, and one resolved now is added.
 */
export function resolveTerms(
  index: InvertedIndex,
  stats: IndexStatistics,
  terms: readonly string[],
  P: RankingParams = RANKING,
  joined: ReadonlyMap<string, readonly string[]> = new Map(),
  aliases: ReadonlyMap<string, readonly string[]> = new Map(),
  paraphrases: ReadonlyMap<string, readonly string[]> = new Map(),
  kept?: Map<string, QueryTerm>,
  work: QueryWork = new QueryWork(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY),
  translations: ReadonlyMap<string, readonly string[]> = new Map(),
): QueryTerm[] {
  const n = Math.max(1, stats.pageCount);
  const live = (entry: TermEntry): boolean => stats.df(entry) > 0;
  const find = (term: string): TermEntry | undefined => {
    const entry = index.entry(term);
    return entry !== undefined && live(entry) ? entry : undefined;
  };
  // `kept` (`ResolvedTerms`): a term resolved before under the same statistics and joined words,
  // and the same share of the query's budget (a term resolved with less room has fewer matches).
  // What a kept term cost is counted again, so that the budget (and the answer) is the same
  // whatever earlier searches left in `kept`.
  return terms.map((term) => {
    const room = Math.min(Math.max(0, work.maxExpansions - work.expansions), P.maxPrefixExpansions + P.maxFuzzyExpansions);
    const scan = work.typoScans < work.maxTypoScans;
    if (kept === undefined) return resolve(term, room, scan);
    const joinedWith = joined.get(term);
    const key = `${term}\n${room}\n${scan ? 1 : 0}${joinedWith === undefined ? "" : `\n${joinedWith.join("\n")}`}`;
    let q = kept.get(key);
    if (q === undefined) kept.set(key, (q = resolve(term, room, scan)));
    else count(q, scan);
    return q;
  });

  /** Count a kept term's work as `resolve` counted it. */
  function count(q: QueryTerm, scan: boolean): void {
    if (scan && q.scanned === true) work.typoScans++;
    work.expansions += q.expanded ?? 0;
  }

  /** `room`: dictionary terms prefix and typo matches may add; `scan`: whether a typo may be looked up. */
  function resolve(term: string, room: number, scan: boolean): QueryTerm {
    const matches: { entry: TermEntry; weight: number; term: string }[] = [];
    let expanded = 0;
    let scanned = false;
    const exact = find(term);
    if (exact !== undefined) matches.push({ entry: exact, weight: 1, term });
    for (const j of joined.get(term) ?? []) {
      const entry = find(j);
      if (entry !== undefined && entry !== exact) matches.push({ entry, weight: P.joinWeight, term: j });
    }
    for (const a of aliases.get(term) ?? []) {
      const entry = find(a);
      if (entry !== undefined && entry !== exact && !matches.some((m) => m.entry === entry)) matches.push({ entry, weight: P.aliasWeight, term: a });
    }
    for (const a of P.paraphraseWeight > 0 ? (paraphrases.get(term) ?? []) : []) {
      const entry = find(a);
      if (entry !== undefined && entry !== exact && !matches.some((m) => m.entry === entry)) matches.push({ entry, weight: P.paraphraseWeight, term: a });
    }
    // Only a word the reader's pages never write: a site in the question's language answers in
    // its own words, and its pages in English keep their own terms' weights.
    for (const a of exact === undefined && P.translationWeight > 0 ? (translations.get(term) ?? []) : []) {
      const entry = find(a);
      if (entry !== undefined && !matches.some((m) => m.entry === entry)) matches.push({ entry, weight: P.translationWeight, term: a });
    }
    if (term.length >= P.minPrefixLength && !/^\d+$/.test(term) && (exact === undefined || stats.df(exact) <= P.prefixMaxDfShare * n) && room > 0) {
      for (const entry of index.withPrefix(term, Math.min(P.maxPrefixExpansions, room), live)) {
        // A form already matched at its own weight (`auth` for `authentication`) is not counted twice.
        if (entry !== exact && matches.some((m) => m.entry === entry)) continue;
        matches.push({ entry, weight: P.prefixWeight * (term.length / entry.term.length), term: entry.term });
        expanded++;
      }
    }
    if (matches.length === 0 && scan && room > 0) {
      const max = maxEdits(term);
      if (max > 0 && !/\d/.test(term)) {
        scanned = true;
        const found: { entry: TermEntry; d: number; df: number; term: string }[] = [];
        index.forEachTermNear(term, max, (entry) => {
          const df = stats.df(entry);
          if (df <= 0) return;
          const d = boundedEditDistance(term, entry.term, max);
          if (d <= max) found.push({ entry, d, df, term: entry.term });
        });
        const best = minOf(found.map((f) => f.d));
        // Ties by the term itself, not by the order terms entered the index (which pages the
        // reader may not read took part in).
        found
          .filter((f) => f.d === best)
          .sort((a, b) => b.df - a.df || (a.term < b.term ? -1 : 1))
          .slice(0, Math.min(P.maxFuzzyExpansions, room))
          .forEach((f) => {
            matches.push({ entry: f.entry, weight: P.fuzzyWeights[f.d] as number, term: f.term });
            expanded++;
          });
      }
    }
    // The term's rarity: the exact term's, else its most common stand-in's (a lower bound).
    const df = exact !== undefined ? stats.df(exact) : maxOf(matches.map((m) => stats.df(m.entry)), 0);
    const q: QueryTerm = { term, idf: idf(df, n) ** P.idfExponent, matches, expanded, scanned, titleFactor: 1 };
    count(q, scan);
    return q;
  }
}

/**
 * Score pages for resolved query terms. A page's score blends BM25F over the whole page with
 * BM25F over its best section, each expressed as the IDF-weighted mean of per-term saturations
 * (see docs/search.md for why that is comparable across queries). `accepted` flags the page
 * units that may be scored (1; live ones only): the others never become candidates. Phases:
 * `accumulatePages` (one posting per page and term: its fields and its sections' sums),
 * `scoreBestFirst` (pages by their upper bound, best first: each one's section postings, its
 * BM25F and title parts, and its proximity while it can still reach the top, until no page left
 * can reach the top `limit` against a lower bound of it). The result is the pages scoring at
 * least the `limit`-th best score less `TIE_MARGIN` (every page without a limit), in no order:
 * the same as scoring every page. `prior` multiplies both bounds and the score alike. `also`, given the top, says which of
 * it to keep and names more pages to score exactly and add after them (the top's other versions,
 * `SearchIndex`), those the query matches at all. With `classes` (a class per page, `topOf`), the top is of `limit`
 * classes, each at its best page's score, and holds the pages scoring at least its last place.
 */
export function rankPages(
  index: InvertedIndex,
  stats: IndexStatistics,
  query: readonly QueryTerm[],
  accepted: Uint8Array,
  P: RankingParams = RANKING,
  scratch: RankScratch = new RankScratch(),
  prior: PagePriors = NO_PRIORS,
  limit: number = Number.POSITIVE_INFINITY,
  also?: (top: readonly RankedPage[]) => { readonly top: RankedPage[]; readonly more: Iterable<number> },
  classes?: Int32Array,
): RankedPage[] {
  const n = query.length;
  const idfSum = query.reduce((s, q) => s + q.idf, 0);
  if (n === 0 || idfSum === 0) return [];
  // Field scales are kept per ranking object (`ScaleMemo`), and the long-question share changes none.
  const scaling = P;
  if (n >= P.longQueryTerms) P = { ...P, pageShare: P.longQueryPageShare };
  const acc = scratch.begin(index.sectionCapacity, index.pageCapacity, query);
  const shape = queryShape(query, acc.termMaps(index.vocabularySize), P, idfSum);
  acc.markTitleMatches(shape.termQuery);
  acc.usePowers(shape.titlePrecisionExponent);
  const scales = stats.scales(scaling);
  // The most common terms (`skippable`) count only for pages the others made candidates, as long
  // as a page holding them alone could not reach the top; else they join the others one by one.
  const pruning = P.boundPruning && Number.isFinite(limit) ? scratch.peaks : undefined;
  const peaks = pruning !== undefined && n >= 2 ? termReach(index, scales, query, shape, P, pruning) : undefined;
  const common = peaks !== undefined ? skippable(peaks, shape, P) : [];
  accumulatePages(index, scales, query, query.map((_, qi) => qi).filter((qi) => !common.includes(qi)), accepted, acc, true, pruning);
  if (common.length > 0 && peaks !== undefined) {
    const floor = floorOfTop(bounds(index, query, acc, shape, P, prior, false).lower, acc, limit, classes);
    // A page named by the question may score above its reach (`PagePriors.named`, `documents`).
    const lifted = mostPrior(prior);
    while (common.length > 0 && reach(common, peaks, shape, P) * lifted >= floor - TIE_MARGIN) {
      accumulatePages(index, scales, query, [common.pop() as number], accepted, acc, true, pruning);
    }
    accumulatePages(index, scales, query, common, accepted, acc, false, pruning);
  }
  const { candidates, out: scored } = scoreBestFirst(index, scales, query, acc, shape, P, prior, limit, classes, peaks);
  let out = scored;
  if (also !== undefined) {
    const { top, more } = also(scored);
    out = top;
    finishAlso(index, scales, query, acc, candidates, shape, P, prior, out, more, { skipped: common, accepted, peaks: pruning });
  }
  acc.clearTermMaps(query);
  acc.end();
  return out;
}

/** Scores are shown rounded to 3 decimals: every page that rounds to the last place's score is
 *  kept, so the cut never picks among equal shown scores (two scores rounding alike are less than
 *  0.001 apart). Results are then sorted by shown score and path (`SearchIndex`). */
const TIE_MARGIN = 0.001;

/** BM25 saturation of a field-weighted frequency. */
function saturate(x: number, k1: number): number {
  return x / (k1 + x);
}

/**
 * Phase 1: for every page posting of every matched term, add the field-weighted frequencies of
 * the page's own fields, of its sections summed (as one document), and a bound of any one of
 * its sections' to the page's accumulators: with `peaks` (pruning), the term's largest in one of
 * its sections (`TermPeaks.sections`); else the sums under the page's largest section scales.
 * The first were several times tighter on pages of many sections: at 10,000 pages a search read
 * the sections of ~370 pages to finish ~37.
 * With `take`, a page not seen yet takes a slot (pages not `accepted` take none); without,
 * only pages that hold one already count.
 */
function accumulatePages(
  index: InvertedIndex,
  scales: UnitScales,
  query: readonly QueryTerm[],
  terms: readonly number[],
  accepted: Uint8Array,
  acc: RankScratch,
  take: boolean,
  peaks: TermPeaks | undefined,
): void {
  const n = query.length;
  const width = acc.width;
  const { page: pageScale, sectionMax } = scales;
  const pagePool = index.postings("pages");
  const sumPool = index.postings("pageSections");
  for (const qi of terms) {
    const matches = (query[qi] as QueryTerm).matches;
    for (let mi = 0; mi < matches.length; mi++) {
      const { entry, weight } = matches[mi] as QueryTerm["matches"][number];
      const match = (acc.matchBase[qi] as number) + mi;
      const forTitle = acc.titleMatch[match] === 1;
      const titleWeight = weight * (query[qi] as QueryTerm).titleFactor;
      const sectionBit = match < SECTION_BITS ? 1 << match : 0;
      const termBit = qi < SECTION_BITS ? 1 << qi : 0;
      // A pool's arrays end at the last term it holds: a term found only in titles has no
      // summed section postings, and its `start` there is past the end (read as none, not NaN:
      // a NaN count reserved no room, and the page's accumulators were written nowhere).
      const pStart = pagePool.start[entry.id] ?? 0;
      const pEnd = pStart + (pagePool.length[entry.id] ?? 0);
      const sStart = sumPool.start[entry.id] ?? 0;
      const sEnd = sStart + (sumPool.length[entry.id] ?? 0);
      // Room for every page of both lists first, so that no slot taken below grows an array:
      // the arrays are then read once per list, not once per posting.
      if (take) acc.reserve(pEnd - pStart + sEnd - sStart);
      const { slotOf, present, withSections, inTitleOf } = acc;
      const row = acc.page;
      {
        const { ids, values } = pagePool;
        for (let r = pStart; r < pEnd; r++) {
          const pid = ids[r] as number;
          let ps = slotOf[pid] as number;
          if (ps < 0) {
            if (!take || accepted[pid] !== 1) continue;
            ps = acc.newSlot(pid);
          }
          addPagePosting(row, present, inTitleOf, ps * width, ps, pid, values[r] as number, qi, n, weight, pageScale, termBit, forTitle, titleWeight);
        }
      }
      // With pruning, the bound of one section is the term's largest frequency in one of the
      // page's sections (`TermPeaks.sections`), not all of its sections' at their largest scales.
      const oneSection = peaks?.sections(index, scales, entry);
      const { ids, values, overflow } = sumPool;
      for (let r = sStart; r < sEnd; r++) {
        const pid = ids[r] as number;
        let ps = slotOf[pid] as number;
        if (ps < 0) {
          if (!take || accepted[pid] !== 1) continue;
          ps = acc.newSlot(pid);
        }
        addSumPosting(row, ps * width, pid, values[r] as number, overflow, qi, weight, pageScale, sectionMax, oneSection === undefined ? undefined : (oneSection[r - sStart] as number));
        withSections[ps]! |= sectionBit;
        present[ps]! |= termBit;
      }
    }
  }
}

/** One page posting of query term `qi` (a match's `weight`) into page slot `ps`'s accumulators, which start at `v` of `row` (`accumulatePages`). */
function addPagePosting(row: Float64Array, present: Int32Array, inTitleOf: Int32Array, v: number, ps: number, pid: number, packed: number, qi: number, n: number, weight: number, pageScale: Float64Array, termBit: number, forTitle: boolean, titleWeight: number): void {
  present[ps]! |= termBit;
  // Which query terms the title holds, by any match (`pairsFindable`).
  if ((packed & MAX_TF) > 0) inTitleOf[ps]! |= termBit;
  row[v + 4 * qi]! += weight * weightedTf(packed, pageScale, pid * 2 * FIELDS_PER_UNIT);
  // The title part's counts (`titlePart`), from the title field's frequency.
  const inTitle = packed & MAX_TF;
  if (forTitle && inTitle > 0) {
    if (titleWeight > (row[v + 4 * qi + 3] as number)) row[v + 4 * qi + 3] = titleWeight;
    row[v + 4 * n]! += inTitle;
  }
}

/** One summed-sections posting of query term `qi` into the accumulators at `v` of `row`: its sum, and the bound of one section (`oneSection` with pruning, else every section at its largest scale). */
function addSumPosting(row: Float64Array, v: number, pid: number, value: number, overflow: Float64Array, qi: number, weight: number, pageScale: Float64Array, sectionMax: Float64Array, oneSection: number | undefined): void {
  // The summed frequencies decoded once for both scales (`sumFields`, written out: it runs per posting).
  let a: number;
  let b: number;
  let c: number;
  if (value >= 0) {
    a = value & MAX_TF;
    b = (value >>> TF_BITS) & MAX_TF;
    c = value >>> (2 * TF_BITS);
  } else {
    const packed = overflow[-value - 1] as number;
    c = Math.floor(packed * PER_WIDE2);
    const rest = packed - c * WIDE2;
    b = Math.floor(rest * PER_WIDE);
    a = rest - b * WIDE;
  }
  const o = pid * 2 * FIELDS_PER_UNIT + FIELDS_PER_UNIT;
  row[v + 4 * qi + 1]! += weight * (a * (pageScale[o] as number) + b * (pageScale[o + 1] as number) + c * (pageScale[o + 2] as number));
  if (oneSection !== undefined) row[v + 4 * qi + 2]! += weight * oneSection;
  else {
    const m = pid * FIELDS_PER_UNIT;
    row[v + 4 * qi + 2]! += weight * (a * (sectionMax[m] as number) + b * (sectionMax[m + 1] as number) + c * (sectionMax[m + 2] as number));
  }
}

/**
 * A page no term made a candidate, given the postings of the terms `skipped` left for candidates
 * only (`accumulatePages` with `take` false): its slot, and those terms' postings of it, found by
 * binary search on page id (each list is in page-id order: ids are never reused), match by match
 * in the order `accumulatePages` reads them, so its accumulators hold what a search without
 * pruning gives it. -1 when none of them holds the page.
 */
function takeSkipped(index: InvertedIndex, scales: UnitScales, query: readonly QueryTerm[], skipped: readonly number[], page: number, acc: RankScratch, peaks: TermPeaks | undefined): number {
  const pagePool = index.postings("pages");
  const sumPool = index.postings("pageSections");
  let ps = -1;
  const slot = (): number => {
    if (ps < 0) {
      acc.reserve(1);
      ps = acc.newSlot(page);
    }
    return ps;
  };
  for (const qi of skipped) {
    const matches = (query[qi] as QueryTerm).matches;
    for (let mi = 0; mi < matches.length; mi++) {
      const { entry, weight } = matches[mi] as QueryTerm["matches"][number];
      const match = (acc.matchBase[qi] as number) + mi;
      const termBit = qi < SECTION_BITS ? 1 << qi : 0;
      const p = postingOf(pagePool, entry.id, page);
      if (p >= 0) {
        const at = slot();
        addPagePosting(acc.page, acc.present, acc.inTitleOf, at * acc.width, at, page, pagePool.values[p] as number, qi, query.length, weight, scales.page, termBit, acc.titleMatch[match] === 1, weight * (query[qi] as QueryTerm).titleFactor);
      }
      const r = postingOf(sumPool, entry.id, page);
      if (r >= 0) {
        const at = slot();
        const oneSection = peaks?.sections(index, scales, entry);
        const start = sumPool.start[entry.id] ?? 0;
        addSumPosting(acc.page, at * acc.width, page, sumPool.values[r] as number, sumPool.overflow, qi, weight, scales.page, scales.sectionMax, oneSection === undefined ? undefined : (oneSection[r - start] as number));
        acc.withSections[at]! |= match < SECTION_BITS ? 1 << match : 0;
        acc.present[at]! |= termBit;
      }
    }
  }
  return ps;
}

/** Where `page`'s posting is in term `term`'s list of `pool` (its ids ascending), else -1. */
function postingOf(pool: { readonly ids: Int32Array; readonly start: ArrayLike<number>; readonly length: ArrayLike<number> }, term: number, page: number): number {
  let lo = pool.start[term] ?? 0;
  let hi = lo + (pool.length[term] ?? 0) - 1;
  const { ids } = pool;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const id = ids[mid] as number;
    if (id === page) return mid;
    if (id < page) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * What `bounds` needs to leave out, as it goes, the pages that cannot reach the top: each query
 * term's reach (`termReach`), and the top's size and classes (`floorOfTop`).
 */
interface BoundsCut {
  readonly reach: Float64Array;
  readonly limit: number;
  readonly classes: Int32Array | undefined;
}

/**
 * `acc.reachTable` for `bounds`: at 256k + b, the summed reach of the query terms 8k .. 8k + 7
 * whose bits are set in b (of at most 31 terms, so 4 bytes), each entry made from one with a bit
 * fewer.
 */
function fillReachTable(acc: RankScratch, reachOf: Float64Array, chunks: number): Float64Array {
  const table = acc.reachTable;
  for (let k = 0; k < chunks; k++) {
    const at = k << 8;
    table[at] = 0;
    for (let b = 1; b < 256; b++) {
      const low = 31 - Math.clz32(b & -b);
      const qi = 8 * k + low;
      table[at + b] = (table[at + (b & (b - 1))] as number) + (qi < reachOf.length ? (reachOf[qi] as number) : 0);
    }
  }
  return table;
}

/** Candidates between two readings of `bounds`' running floor (a power of 2). */
const FLOOR_EVERY = 32;

/**
 * Per page slot, bounds of its final score from the page-level accumulators: at least its score
 * with no section counted on its own (`lower`), at most its score with its best section scored
 * at the bound of `accumulatePages` and every proximity pair found (`upper`). Without
 * `withUpper`, only `lower` is set. With `cut`, a page whose terms' reach (`reach`: read from
 * which terms it holds, not from its accumulators) is below the floor of the top so far (the
 * `limit`-th best lower bound of the pages before it) gets upper -1 and lower 0 and nothing is
 * worked out for it: it cannot reach the floor `scoreBestFirst` starts from, which is at least
 * that one. At 50,000 distinct pages most candidates of a long question hold one or two of its
 * words and end here.
 */
function bounds(
  index: InvertedIndex,
  query: readonly QueryTerm[],
  acc: RankScratch,
  shape: QueryShape,
  P: RankingParams,
  prior: PagePriors,
  withUpper = true,
  cut?: BoundsCut,
): { lower: Float64Array; upper: Float64Array; floor: number | undefined } {
  const n = query.length;
  const { lower, upper } = acc.boundArrays();
  // With `cut`: a running floor of the top (the `limit`-th best lower bound so far, read every
  // `FLOOR_EVERY` pages), and a page whose terms' reach cannot reach it is left out at once.
  const reachOf = cut !== undefined && withUpper && n <= SECTION_BITS ? cut.reach : undefined;
  const running = reachOf === undefined ? undefined : cut?.classes === undefined ? acc.scoreTop(cut?.limit ?? 1, 0) : acc.classTop(cut.limit, 0);
  const lifted = mostPrior(prior);
  const documents = prior.documents;
  let runningFloor = 0;
  const chunks = Math.ceil(n / 8);
  const table = reachOf === undefined ? acc.reachTable : fillReachTable(acc, reachOf, chunks);
  const idfs = acc.idf;
  const pageAcc = acc.page;
  const { k1, pageShare } = P;
  const { baseShare, titleShare, idfSum } = shape;
  const slots = acc.pageCount;
  // Hot at 10,000 pages (one pass per candidate page): saturation inlined, fields hoisted, and
  // only the terms the page holds visited (a term it lacks adds 0: the sums are the same).
  const few = n <= SECTION_BITS;
  const pairValues = acc.pairsMemo(shape, P);
  for (let ps = 0; ps < slots; ps++) {
    if (reachOf !== undefined) {
      // The most its terms' matches and their pairs can add (`reach`), whatever its accumulators.
      const held = acc.present[ps] as number;
      // Summed a byte of `held` at a time from `reachTable` (filled below, once a search): a
      // loop over the terms held was a seventh of `bounds`. Another order of the same sums: the
      // slack covers its rounding.
      let most = REACH_SLACK + (table[held & 255] as number);
      for (let k = 1; k < chunks; k++) most += table[(k << 8) | ((held >>> (8 * k)) & 255)] as number;
      pairsHeldInto(held, shape, P, pairValues, upper, ps);
      if ((ps & (FLOOR_EVERY - 1)) === 0) runningFloor = (running as TopScores | ClassTop).last();
      if ((most + (upper[ps] as number)) * lifted < runningFloor - TIE_MARGIN) {
        lower[ps] = 0;
        upper[ps] = -1;
        continue;
      }
    }
    const v = ps * acc.width;
    let whole = 0;
    let fieldsOnly = 0;
    let sectionBound = 0;
    for (let held = few ? (acc.present[ps] as number) : -1, qi = nextHeld(held, -1, n); qi < n; qi = nextHeld(held, qi, n)) {
      const w = idfs[qi] as number;
      const fields = pageAcc[v + 4 * qi] as number;
      const all = fields + (pageAcc[v + 4 * qi + 1] as number);
      whole += (w * all) / (k1 + all);
      fieldsOnly += (w * fields) / (k1 + fields);
      if (withUpper) {
        const one = fields + (pageAcc[v + 4 * qi + 2] as number);
        sectionBound += (w * one) / (k1 + one);
      }
    }
    const page = acc.pages[ps] as number;
    // A title term of the query is a page-field posting: no page-field frequency, no title part.
    // The title part and the pairs' reach are written into arrays by their functions, not
    // returned: a fraction returned from a call not inlined is a heap object, two per candidate.
    if (fieldsOnly > 0) titlePartInto(index, acc, ps, query, shape, lower, ps);
    const title = fieldsOnly > 0 ? titleShare * (lower[ps] as number) : 0;
    // `priorOf`, written out: its fraction, returned from a call not inlined, was a heap object.
    const base = prior.base[page];
    const lift = base === undefined || base === 1 ? FULL : prior.lift(page);
    const own = lift === FULL ? 1 : lift === BASE ? (base as number) : prior.named;
    const weight = documents !== undefined && documents.stamps[page] === documents.stamp ? own * documents.weight : own;
    lower[ps] = ((baseShare * (pageShare * whole + (1 - pageShare) * fieldsOnly)) / idfSum + title) * weight;
    if (running !== undefined) {
      // The bound's place, not the bound: a fraction passed to a call not inlined is a heap object.
      if (running instanceof TopScores) running.pushAt(lower, ps);
      else running.pushAt((cut?.classes as Int32Array)[page] as number, lower, ps);
    }
    if (!withUpper) continue;
    const best = fieldsOnly > sectionBound ? fieldsOnly : sectionBound;
    // With `reachOf`, `upper[ps]` holds the pairs' reach already.
    if (reachOf === undefined) pairsHeldInto(acc.present[ps] as number, shape, P, pairValues, upper, ps);
    upper[ps] = ((baseShare * (pageShare * whole + (1 - pageShare) * best)) / idfSum + title + (upper[ps] as number)) * weight;
  }
  // The running floor after the last page is `floorOfTop` of `lower` (a page left out adds 0).
  return { lower, upper, floor: running?.last() };
}

/**
 * A running `limit`-th best: of the scores added per page, or with `classes` of the classes of
 * the pages added, each at its best page's score. On a site of 35 versions the copies of one page
 * score alike and would fill a top of pages (`SearchIndex` folds them into one hit); a top of
 * classes holds `limit` different pages, each with its copies that reach its last place.
 */
function topOf(acc: RankScratch, limit: number, classes: Int32Array | undefined): (page: number, x: number) => number {
  // The scratch's second top: `bounds` and `floorOfTop` use the first, done with by now.
  if (classes === undefined) {
    const top = acc.scoreTop(limit, 1);
    return (_page, x) => top.add(x);
  }
  const top = acc.classTop(limit, 1);
  return (page, x) => top.add(classes[page] as number, x);
}

/** The `limit`-th largest of `values` per page slot (of classes, `topOf`; 0 when there are
 *  fewer, or no limit): a lower bound of the top's last score when `values` are lower bounds. */
function floorOfTop(values: Float64Array, acc: RankScratch, limit: number, classes: Int32Array | undefined): number {
  if (!Number.isFinite(limit) || limit < 1) return 0;
  // In bulk (`addAll`): a double passed per candidate to the closure of `topOf` was a heap object each.
  return classes === undefined ? acc.scoreTop(limit, 0).addAll(values, acc.pageCount) : acc.classTop(limit, 0).addAll(values, acc.pages, classes, acc.pageCount);
}

/**
 * Phase 2, best first by the upper bound of `bounds`: each page's section postings and its
 * score without proximity (`scorePage`), then, if that plus the proximity its terms allow can
 * still reach the top, its final score (`finishPage`: proximity scans the title and the best
 * section), while its upper bound can reach the top `limit`. The floor of the top is the
 * `limit`-th best of lower bounds of final scores, each of a different page: those of `bounds`
 * for every page, raised by each final score found. A page of the true top has a final score at
 * or above the floor at every step (the floor stands for `limit` pages' scores or less), so it is
 * scored and finished; a page left out has a final score below the floor less `TIE_MARGIN`, so
 * below the cut. The result is the pages finished scoring at least the `limit`-th best final
 * score less `TIE_MARGIN`: which pages those are does not depend on the bounds (without
 * `boundPruning` every candidate is scored and finished, the tests' reference). Merging the two
 * steps raises the floor by final scores rather than by scores without proximity: a long
 * question on common words read the sections of 7,450 of 9,368 candidates at 10,000 pages.
 */
function scoreBestFirst(
  index: InvertedIndex,
  scales: UnitScales,
  query: readonly QueryTerm[],
  acc: RankScratch,
  shape: QueryShape,
  P: RankingParams,
  prior: PagePriors,
  limit: number,
  classes: Int32Array | undefined,
  reach: Float64Array | undefined,
): { candidates: Candidates; out: RankedPage[] } {
  const { lower, upper, floor: running } = bounds(index, query, acc, shape, P, prior, true, reach === undefined ? undefined : { reach, limit, classes });
  const slots = acc.pageCount;
  const c: Candidates = { ...acc.candidateArrays(slots), order: [] };
  const cut = Number.isFinite(limit) && limit >= 1;
  const prune = P.boundPruning && cut;
  let floor = prune ? (running ?? floorOfTop(lower, acc, limit, classes)) : 0;
  const queue = acc.queue;
  queue.fill(upper, slots, floor - TIE_MARGIN);
  const finals = cut ? topOf(acc, limit, classes) : undefined;
  const pairs = new PairFinder(shape, P.proximityWindow);
  const out: RankedPage[] = [];
  let last = 0; // the `limit`-th best final score so far (0 while fewer)
  for (let ps = queue.take(); ps >= 0; ps = queue.take()) {
    if ((upper[ps] as number) < floor - TIE_MARGIN) break;
    scoreOrCopy(index, query, scales, acc, shape, P, prior, ps, c);
    if (prune && (c.bound[ps] as number) < floor - TIE_MARGIN) continue;
    const done = finishPage(index, acc, c, ps, shape, P, prior, pairs);
    out.push(done);
    if (finals === undefined) continue;
    last = finals(done.page, done.score);
    if (prune && last > floor) floor = last;
  }
  if (finals === undefined || last === 0) return { candidates: c, out };
  const least = last - TIE_MARGIN;
  return { candidates: c, out: out.filter((r) => r.score >= least) };
}

/**
 * The most proximity can add to the score of a page (before `prior`) holding the query terms
 * whose bits are set in `present` (`RankScratch.present`; terms past the 31st count as present):
 * a pair can be found in its title or a section only if the page holds both of its terms. Summed
 * in the order `PairFinder.found` sums, so never below what it finds (a sum of a subset of the
 * same weights in the same order is no larger, rounding included). A question holding one word
 * the site has gets no proximity share in its bounds: without this, a long question matching one
 * common word bounded every page holding it 0.05 above its score and finished thousands.
 */
function pairsWithin(present: number, shape: QueryShape, P: RankingParams): number {
  if (!shape.withPairs) return 0;
  return P.proximityShare * (pairWeightsHeld(present, shape.pairWeights) / shape.pairSum);
}

/** `pairsWithin` written into `out[at]`, for `bounds` (once per candidate page). */
function pairsWithinInto(present: number, shape: QueryShape, P: RankingParams, out: Float64Array, at: number): void {
  out[at] = shape.withPairs ? P.proximityShare * (pairWeightsHeld(present, shape.pairWeights) / shape.pairSum) : 0;
}

/**
 * `pairsWithinInto` through `values` (`RankScratch.pairsMemo`, by the pairs held) when given:
 * the pairs' value worked out once a search per distinct pairs held, the same number.
 */
function pairsHeldInto(present: number, shape: QueryShape, P: RankingParams, values: Float64Array | undefined, out: Float64Array, at: number): void {
  if (values === undefined) {
    pairsWithinInto(present, shape, P, out, at);
    return;
  }
  // `values` is given for fewer than 31 pairs only: the pairs held are these bits (`pairWeightsHeld`).
  const both = present & (present >>> 1) & ((1 << shape.pairWeights.length) - 1);
  let value = values[both] as number;
  if (Number.isNaN(value)) {
    value = pairsWithin(present, shape, P);
    values[both] = value;
  }
  out[at] = value;
}

/**
 * The pairs of consecutive query terms (bit k: terms k and k + 1) that proximity can find in a
 * page (`finishPage` scans its title and its best section): both terms in the title (`inTitle`,
 * `RankScratch.inTitleOf`) or both in the best section (`inSection`, `RankScratch.secHeld`).
 * A page holding both terms, one only in its title and the other only in a section, or both in
 * another section, can find no such pair: bounding by the pairs the page holds (`pairsWithin`)
 * left a common question's pages within proximity's share of the top, and `scoreBestFirst`
 * finished (scanned) 651 of 953 candidates to keep 25 ("python example for the http api" on
 * spree, issue 23). For questions of at most 31 terms.
 */
function pairsFindable(inTitle: number, inSection: number): number {
  return (inTitle & (inTitle >>> 1)) | (inSection & (inSection >>> 1));
}

/** The most the pairs `findable` (`pairsFindable`) add to a score: as `pairsWithin`, the same sum. */
function pairsOf(findable: number, shape: QueryShape, P: RankingParams): number {
  if (!shape.withPairs) return 0;
  let sum = 0;
  const weights = shape.pairWeights;
  for (let both = findable & ((1 << weights.length) - 1); both !== 0; both &= both - 1) sum += weights[31 - Math.clz32(both & -both)] as number;
  return P.proximityShare * (sum / shape.pairSum);
}

/**
 * The summed weights of the pairs (k, k + 1) of query terms both held in `present`, k
 * increasing (pairs past the 31st bit count as held). A question of up to 31 terms visits the
 * pairs held only (`present & present >>> 1`, lowest bit first): the same additions in the same
 * order as a loop over every pair, which `bounds` ran per candidate page, ~20 pairs for a long
 * question at tens of thousands of candidates (issue 23).
 */
function pairWeightsHeld(present: number, weights: readonly number[]): number {
  let sum = 0;
  if (weights.length < SECTION_BITS) {
    for (let both = present & (present >>> 1) & ((1 << weights.length) - 1); both !== 0; both &= both - 1) sum += weights[31 - Math.clz32(both & -both)] as number;
    return sum;
  }
  for (let k = 0; k < weights.length; k++) {
    const both = k + 1 >= SECTION_BITS || ((present >>> k) & 3) === 3;
    if (both) sum += weights[k] as number;
  }
  return sum;
}

/**
 * Per query term, the most its matches can add to a page's score (before `prior`, proximity
 * apart): its idf share of the BM25F parts with each saturation at its matches' largest postings
 * (`TermPeaks`; one section's at its largest frequency in any one section, `sectionPeak`), and
 * of the title part at its largest match weight if any page has it in its title. Every part of a
 * page's score is a sum over query terms of a number at most these, so a page holding only some
 * terms scores at most their sum (`reach`).
 */
function termReach(index: InvertedIndex, scales: UnitScales, query: readonly QueryTerm[], shape: QueryShape, P: RankingParams, peaks: TermPeaks): Float64Array {
  const out = new Float64Array(query.length);
  for (let qi = 0; qi < query.length; qi++) {
    const q = query[qi] as QueryTerm;
    let whole = 0;
    let one = 0;
    let titled = 0;
    for (const { entry, weight } of q.matches) {
      const p = peaks.of(index, scales, entry);
      whole += weight * ((p[0] as number) + (p[1] as number));
      // One section's part at the term's largest frequency in any one section (what
      // `accumulatePages` bounds each page's by), not at its largest summed posting under the
      // page's largest section scales: on pages of many sections those are several times more,
      // and a common word's reach then kept every page holding it above the top's floor.
      one += weight * ((p[0] as number) + Math.min(p[2] as number, peaks.sectionPeak(index, scales, entry)));
      if (p[3] === 1 && weight > titled) titled = weight;
    }
    const base = P.pageShare * saturate(whole, P.k1) + (1 - P.pageShare) * saturate(one, P.k1);
    out[qi] = (q.idf * (shape.baseShare * base + shape.titleShare * titled)) / shape.idfSum;
  }
  return out;
}

/** Slack for the rounding of sums taken in another order than the scoring's (far below `TIE_MARGIN`). */
const REACH_SLACK = 1e-9;

/**
 * The most a page can score (before `prior`, at most 1) whose only matches are the query terms
 * `terms`: their `termReach`, and the proximity of the pairs among them.
 */
function reach(terms: readonly number[], peaks: Float64Array, shape: QueryShape, P: RankingParams): number {
  let sum = REACH_SLACK;
  let present = 0;
  for (const qi of terms) {
    sum += peaks[qi] as number;
    if (qi < SECTION_BITS) present |= 1 << qi;
  }
  return sum + pairsWithin(present, shape, P);
}

/**
 * Query terms, least reach first, whose postings may be read only for pages the other terms
 * made candidates: the longest run of the terms of least reach (`termReach`) that could not lift
 * a page that has nothing else above half the scale (the measured floor of the top then decides).
 */
function skippable(peaks: Float64Array, shape: QueryShape, P: RankingParams): number[] {
  const order = Array.from(peaks, (_, qi) => qi).sort((a, b) => (peaks[a] as number) - (peaks[b] as number) || a - b);
  const out: number[] = [];
  for (let k = 0; k < order.length - 1; k++) {
    if (reach([...out, order[k] as number], peaks, shape, P) >= 0.5) break;
    out.push(order[k] as number);
  }
  return out;
}

/**
 * The section postings of one page: a page's sections have consecutive ids, so they are found by
 * binary search in each matched term's list, for the terms that reached the page's sections in
 * `accumulatePages` only. Added per section in the order of the query's matches: the sums are the
 * same, to the bit, whatever order pages are scored in.
 */
function accumulateSectionsOf(index: InvertedIndex, ps: number, query: readonly QueryTerm[], scales: UnitScales, acc: RankScratch): void {
  const n = query.length;
  const secScale = scales.section;
  // The page's first and last section ids, kept by page id (`InvertedIndex.textKey`,
  // `lastSection`): the page's unit is not read.
  const page = acc.pages[ps] as number;
  const from = index.textKey(page);
  if (from < 0) return;
  const to = index.lastSection(page);
  const reached = acc.withSections[ps] as number;
  const pool = index.postings("sections");
  for (let match = 0; match < acc.matches.length; match++) {
    if (match < SECTION_BITS && (reached & (1 << match)) === 0) continue;
    const qi = acc.matchQuery[match] as number;
    const { entry, weight } = acc.matches[match] as QueryTerm["matches"][number];
    const { ids, values } = pool;
    const end = (pool.start[entry.id] as number) + (pool.length[entry.id] as number);
    for (let j = firstAtLeast(ids, from, pool.start[entry.id] as number, end); j < end && (ids[j] as number) <= to; j++) {
      const sid = ids[j] as number;
      const ss = acc.sectionSlot(sid, ps);
      acc.sec[ss * n + qi]! += weight * weightedTf(values[j] as number, secScale, sid * FIELDS_PER_UNIT);
      if (qi < SECTION_BITS) acc.secHeld[ss]! |= 1 << qi;
    }
  }
}

/** Matches whose reach of a page's sections is noted per page slot (`RankScratch.withSections`). */
const SECTION_BITS = 31;

/**
 * The query term after `qi` (-1: the first) whose bit is set in `held` (a page's
 * `RankScratch.present`), `n` when none: terms in increasing order, as a loop over all of them
 * visits them. With `held` -1 (a query of more terms than bits), every term.
 */
function nextHeld(held: number, qi: number, n: number): number {
  if (held === -1) return qi + 1;
  // Bits above `qi` (`held` has none past bit 30).
  const rest = held & (-1 << (qi + 1));
  return rest === 0 ? n : 31 - Math.clz32(rest & -rest);
}

/**
 * The first index in `from .. to` of a sorted range of `list` holding a value >= `value` (`to` if
 * none). A long range is entered where `value` would be were its values evenly spread (a term's
 * section ids nearly are), then bracketed by steps doubling from there, then halved: a plain
 * halving of a common word's list read ~16 places of it per scored page at 50,000 pages, each
 * a cache miss (issue 23). The index found is the same.
 */
function firstAtLeast(list: Int32Array, value: number, from: number, to: number): number {
  if (to - from > GUESS_FROM) {
    const first = list[from] as number;
    const last = list[to - 1] as number;
    if (value <= first) return from;
    if (value > last) return to;
    const guess = Math.min(to - 1, from + Math.floor(((value - first) / (last - first + 1)) * (to - from)));
    if ((list[guess] as number) < value) {
      // Every value before `lo` is below `value`; `list[hi - 1]` is not, or `hi` is `to`.
      let lo = guess + 1;
      let step = GUESS_STEP;
      let hi = Math.min(to, lo + step);
      while (hi < to && (list[hi - 1] as number) < value) {
        lo = hi;
        step *= 2;
        hi = Math.min(to, lo + step);
      }
      return halving(list, value, lo, hi);
    }
    // `list[hi]` is at least `value`; before `lo` (if `lo` is not `from`) every value is below.
    let hi = guess;
    let step = GUESS_STEP;
    let lo = Math.max(from, hi - step);
    while (lo > from && (list[lo] as number) >= value) {
      hi = lo;
      step *= 2;
      lo = Math.max(from, hi - step);
    }
    return halving(list, value, lo, hi);
  }
  return halving(list, value, from, to);
}

/** Ranges longer than this are entered at a guess (`firstAtLeast`), and its first step. */
const GUESS_FROM = 64;
const GUESS_STEP = 8;

/** `firstAtLeast` by halving `from .. to` alone. */
function halving(list: Int32Array, value: number, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
  readonly titlePrecisionExponent: number;
}

function queryShape(query: readonly QueryTerm[], maps: { termQuery: Int16Array; termWeight: Float64Array }, P: RankingParams, idfSum: number): QueryShape {
  const n = query.length;
  const { termQuery, termWeight } = maps;
  for (let qi = n - 1; qi >= 0; qi--) {
    const q = query[qi] as QueryTerm;
    for (const m of q.matches) {
      termQuery[m.entry.id] = qi;
      termWeight[m.entry.id] = m.weight * q.titleFactor;
    }
  }
  const pairWeights: number[] = [];
  for (let qi = 0; qi + 1 < n; qi++) pairWeights.push(((query[qi] as QueryTerm).idf + (query[qi + 1] as QueryTerm).idf) / 2);
  const pairSum = pairWeights.reduce((a, b) => a + b, 0);
  const withPairs = n >= 2 && pairSum > 0;
  const keep = withPairs ? 1 : 1 / (1 - P.proximityShare);
  return { idfSum, termQuery, termWeight, pairWeights, pairSum, withPairs, baseShare: (1 - P.titleShare - P.proximityShare) * keep, titleShare: P.titleShare * keep, titlePrecisionExponent: P.titlePrecisionExponent };
}

/** Candidates after phase 2: per page slot scored, the score without proximity, an upper bound of
 *  the final score, the best section (-1: page fields only); and the slots scored. */
interface Candidates {
  readonly partial: Float64Array;
  readonly bound: Float64Array;
  readonly section: Int32Array;
  /** Per scored slot: the slot whose scoring it copied (`scoreOrCopy`), else -1. */
  readonly copyOf: Int32Array;
  /** Per scored slot that scored itself: its final score before `prior` once finished, else NaN. */
  readonly final: Float64Array;
  /** Per scored slot, the pairs of query terms its title or best section can hold
   *  (`pairsFindable`; -1 for a question of more than 31 terms). */
  readonly findable: Int32Array;
  readonly order: number[];
  /** Slots that scored themselves, by their text (`InvertedIndex.textKey`) and `fingerprint`. */
  readonly byText: Map<number, Map<number, number[]>>;
}

/**
 * Score the page in slot `ps` (`accumulateSectionsOf`, `scorePage`), or copy the scoring of a
 * page scored before whose inputs are the same: the same text (its sections are the same units),
 * the same page accumulators (its own fields matched alike: every number `scorePage` reads of
 * the page), the same sections reached and the same title. Its score is then the same number,
 * and so is its final one (`finishPage` scans the title and the best section); only `prior` is
 * its own. A page copied into 35 versions and 4 languages was scored 140 times a search.
 */
function scoreOrCopy(index: InvertedIndex, query: readonly QueryTerm[], scales: UnitScales, acc: RankScratch, shape: QueryShape, P: RankingParams, prior: PagePriors, ps: number, c: Candidates): void {
  const page = acc.pages[ps] as number;
  // The text's and title's numbers (`InvertedIndex.textKey`, `titleKey`), not the page's unit:
  // a copy scored by copying never reads it.
  const text = index.textKey(page);
  // A text only this page has: no copy to take from or give to.
  if (index.textUsers(text) < 2) {
    accumulateSectionsOf(index, ps, query, scales, acc);
    scorePage(index, query, acc, shape, P, prior, ps, c);
    c.copyOf[ps] = -1;
    c.final[ps] = Number.NaN;
    return;
  }
  let byPrint = c.byText.get(text);
  const print = fingerprint(acc, ps);
  const scored = byPrint?.get(print);
  // A loop, not `find`: a closure and its context per candidate sharing its text (issue 23).
  let twin = -1;
  if (scored !== undefined) {
    for (let k = 0; k < scored.length; k++) {
      if (sameInputs(index, acc, scored[k] as number, ps)) {
        twin = scored[k] as number;
        break;
      }
    }
  }
  if (twin === -1) {
    accumulateSectionsOf(index, ps, query, scales, acc);
    scorePage(index, query, acc, shape, P, prior, ps, c);
    c.copyOf[ps] = -1;
    c.final[ps] = Number.NaN;
    if (byPrint === undefined) c.byText.set(text, (byPrint = new Map()));
    if (scored === undefined) byPrint.set(print, [ps]);
    else scored.push(ps);
    return;
  }
  c.partial[ps] = c.partial[twin] as number;
  c.section[ps] = c.section[twin] as number;
  // The same title and sections: the same pairs findable.
  const findable = c.findable[twin] as number;
  c.findable[ps] = findable;
  c.bound[ps] = ((c.partial[twin] as number) + (findable === -1 ? pairsWithin(acc.present[ps] as number, shape, P) : pairsOf(findable, shape, P))) * priorOf(prior, page);
  c.copyOf[ps] = twin;
  c.order.push(ps);
  acc.scored[ps] = 1;
}

/** A number equal for slots with the same scoring inputs (`sameInputs`), and seldom else. */
function fingerprint(acc: RankScratch, ps: number): number {
  let h = ((acc.withSections[ps] as number) * 31 + (acc.present[ps] as number)) | 0;
  for (let k = 0, v = ps * acc.width; k < acc.width; k++) h = (Math.imul(h, 0x01000193) + ((acc.page[v + k] as number) * 1e6)) | 0;
  return h;
}

/** Whether the pages in slots `a` and `b` (of the same text) have the same scoring inputs. */
function sameInputs(index: InvertedIndex, acc: RankScratch, a: number, b: number): boolean {
  if (acc.withSections[a] !== acc.withSections[b] || acc.present[a] !== acc.present[b]) return false;
  const width = acc.width;
  const row = acc.page;
  for (let k = 0, va = a * width, vb = b * width; k < width; k++) if (row[va + k] !== row[vb + k]) return false;
  return index.titleKey(acc.pages[a] as number) === index.titleKey(acc.pages[b] as number);
}

/** One page slot's BM25F part (whole page and best section) and title part, into `out`. */
function scorePage(index: InvertedIndex, query: readonly QueryTerm[], acc: RankScratch, shape: QueryShape, P: RankingParams, prior: PagePriors, ps: number, out: Candidates): void {
  const n = query.length;
  const pageAcc = acc.page;
  const secAcc = acc.sec;
  const page = acc.pages[ps] as number;
  const v = ps * acc.width;
  let whole = 0;
  let fieldsOnly = 0;
  // Only the terms the page holds (`nextHeld`): the others add 0.
  const held = n <= SECTION_BITS ? (acc.present[ps] as number) : -1;
  for (let qi = nextHeld(held, -1, n); qi < n; qi = nextHeld(held, qi, n)) {
    const w = acc.idf[qi] as number;
    whole += w * saturate((pageAcc[v + 4 * qi] as number) + (pageAcc[v + 4 * qi + 1] as number), P.k1);
    fieldsOnly += w * saturate(pageAcc[v + 4 * qi] as number, P.k1);
  }
  let best = fieldsOnly;
  let bestSection: number | undefined;
  let bestSlot = -1;
  for (let ss = acc.firstSection[ps] as number; ss >= 0; ss = acc.nextSection[ss] as number) {
    let s = 0;
    for (let qi = nextHeld(held, -1, n); qi < n; qi = nextHeld(held, qi, n)) s += (acc.idf[qi] as number) * saturate((pageAcc[v + 4 * qi] as number) + (secAcc[ss * n + qi] as number), P.k1);
    const sid = acc.sections[ss] as number;
    // Ties go to the earlier section (lower id), so the choice does not depend on posting order.
    if (s > best || (s === best && bestSection !== undefined && sid < bestSection)) {
      best = s;
      bestSection = sid;
      bestSlot = ss;
    }
  }
  const base = (P.pageShare * whole + (1 - P.pageShare) * best) / shape.idfSum;
  const partial = shape.baseShare * base + shape.titleShare * titlePart(index, acc, ps, query, shape);
  out.partial[ps] = partial;
  const findable = n <= SECTION_BITS ? pairsFindable(acc.inTitleOf[ps] as number, bestSlot < 0 ? 0 : (acc.secHeld[bestSlot] as number)) : -1;
  out.findable[ps] = findable;
  out.bound[ps] = (partial + (findable === -1 ? pairsWithin(acc.present[ps] as number, shape, P) : pairsOf(findable, shape, P))) * priorOf(prior, page);
  out.section[ps] = bestSection ?? -1;
  out.order.push(ps);
  acc.scored[ps] = 1;
}

/**
 * The idf-weighted share of the query in the title of the page in slot `ps`, times the share of
 * the title in the query: from the counts `accumulatePages` took from the title field's
 * frequencies (each title word a query term matches, counted once, for the first query term it
 * matches, at that match's weight: what `termQuery` and `termWeight` say of it), so the title
 * itself is not read (a cache miss per candidate page on a large site). A title longer than
 * `MAX_TF` words, whose frequencies may be capped, is read.
 */
function titlePart(index: InvertedIndex, acc: RankScratch, ps: number, query: readonly QueryTerm[], shape: QueryShape): number {
  titlePartInto(index, acc, ps, query, shape, acc.one, 0);
  return acc.one[0] as number;
}

/** `titlePart` written into `out[at]`, for `bounds` (once per candidate page). */
function titlePartInto(index: InvertedIndex, acc: RankScratch, ps: number, query: readonly QueryTerm[], shape: QueryShape, out: Float64Array, at: number): void {
  const page = acc.pages[ps] as number;
  const n = query.length;
  const length = index.titleLength(page);
  if (length === 0) {
    out[at] = 0;
    return;
  }
  if (length > MAX_TF) {
    out[at] = titleOf((index.page(page) as PageUnit).title, acc.idf, n, shape);
    return;
  }
  const v = ps * acc.width;
  let queryInTitle = 0;
  // Only the terms the page holds (`nextHeld`): a term's title weight is set with its bit, and
  // the others would add 0 (the same sum).
  const held = n <= SECTION_BITS ? (acc.present[ps] as number) : -1;
  for (let qi = nextHeld(held, -1, n); qi < n; qi = nextHeld(held, qi, n)) queryInTitle += (acc.idf[qi] as number) * (acc.page[v + 4 * qi + 3] as number);
  // `Math.pow(hits / length, exponent)`, kept by (hits, length) for small whole numbers
  // (`RankScratch.powers`), worked out inline: a fraction returned from a call is a heap object.
  const hits = acc.page[v + 4 * n] as number;
  const small = hits < POWER_SIDE && length < POWER_SIDE && Number.isInteger(hits);
  const key = small ? hits * POWER_SIDE + length : 0;
  let power = small ? (acc.powers[key] as number) : Number.NaN;
  if (Number.isNaN(power)) {
    power = Math.pow(hits / length, shape.titlePrecisionExponent);
    if (small) acc.powers[key] = power;
  }
  out[at] = (queryInTitle / shape.idfSum) * power;
}

/** `titlePart` read from the title's words. */
function titleOf(title: Int32Array, idfs: Float64Array, n: number, shape: QueryShape): number {
  const inTitle = new Float64Array(n);
  let titleHits = 0;
  for (let i = 0; i < title.length; i++) {
    const t = title[i] as number;
    const qi = shape.termQuery[t] as number;
    if (qi < 0) continue;
    titleHits++;
    inTitle[qi] = Math.max(inTitle[qi] as number, shape.termWeight[t] as number);
  }
  let queryInTitle = 0;
  for (let qi = 0; qi < n; qi++) queryInTitle += (idfs[qi] as number) * (inTitle[qi] as number);
  return (queryInTitle / shape.idfSum) * Math.pow(titleHits / title.length, shape.titlePrecisionExponent);
}

/** The final score of a scored page slot: its partial score, proximity added, times its prior. */
function finishPage(index: InvertedIndex, acc: RankScratch, c: Candidates, ps: number, shape: QueryShape, P: RankingParams, prior: PagePriors, pairs: PairFinder): RankedPage {
  const page = acc.pages[ps] as number;
  const section = c.section[ps] as number;
  const copied = c.copyOf[ps] as number;
  if (copied >= 0 && !Number.isNaN(c.final[copied] as number)) return { page, section: section >= 0 ? section : undefined, score: (c.final[copied] as number) * priorOf(prior, page) };
  let score = c.partial[ps] as number;
  const findable = c.findable[ps] as number;
  if (shape.withPairs && (findable === -1 ? pairsWithin(acc.present[ps] as number, shape, P) > 0 : findable !== 0)) {
    pairs.reset(acc.present[ps] as number, findable);
    pairs.scan((index.page(page) as PageUnit).title);
    if (section >= 0) pairs.scan(index.sectionSequence(section));
    score += P.proximityShare * (pairs.found() / shape.pairSum);
  }
  c.final[copied >= 0 ? copied : ps] = score;
  return { page, section: section >= 0 ? section : undefined, score: score * priorOf(prior, page) };
}

/**
 * Add to `out` the pages of `pages` it lacks that the query matches (they hold a slot), scored
 * exactly: their sections read if phase 2 did not, then finished. A few pages a query (the
 * other versions of the pages shown): no bound decides whether they are listed.
 */
function finishAlso(
  index: InvertedIndex,
  scales: UnitScales,
  query: readonly QueryTerm[],
  acc: RankScratch,
  c: Candidates,
  shape: QueryShape,
  P: RankingParams,
  prior: PagePriors,
  out: RankedPage[],
  pages: Iterable<number>,
  pruned: { readonly skipped: readonly number[]; readonly accepted: Uint8Array; readonly peaks: TermPeaks | undefined },
): void {
  const listed = new Set(out.map((r) => r.page));
  const pairs = new PairFinder(shape, P.proximityWindow);
  for (const page of pages) {
    if (listed.has(page)) continue;
    let ps = acc.heldSlot(page);
    // Held only by terms left for candidates (pruning): a search without pruning lists it too
    // (before, a hit's other version matching only a common word was missing from its list).
    if (ps < 0 && pruned.skipped.length > 0 && pruned.accepted[page] === 1) ps = takeSkipped(index, scales, query, pruned.skipped, page, acc, pruned.peaks);
    if (ps < 0) continue;
    listed.add(page);
    if (acc.scored[ps] !== 1) scoreOrCopy(index, query, scales, acc, shape, P, prior, ps, c);
    out.push(finishPage(index, acc, c, ps, shape, P, prior, pairs));
  }
}

/** The number of bits set in a 32-bit integer. */
function popCount(x: number): number {
  let count = 0;
  for (let rest = x; rest !== 0; rest &= rest - 1) count++;
  return count;
}

/** Which pairs of consecutive query terms occur within the window in term sequences. */
class PairFinder {
  private readonly found_: Uint8Array;
  private readonly lastSeen: Int32Array;
  /** Pairs both of whose terms the page holds (bit k: pair k), and how many of them are not
   *  found yet: no other pair can be found, so once these are, the scans stop (`scan`). */
  private held = 0;
  private left = -1;
  constructor(
    private readonly shape: QueryShape,
    private readonly window: number,
  ) {
    this.found_ = new Uint8Array(shape.pairWeights.length);
    this.lastSeen = new Int32Array(shape.pairWeights.length + 1);
  }

  /** Forget the pairs found, for a page holding the terms `present` (`RankScratch.present`),
   *  of which only the pairs `findable` can be found (`pairsFindable`; -1: not known). */
  reset(present: number, findable = -1): void {
    // Loops, not `fill`: a few entries (one per pair), and a builtin's call per finished page.
    const found = this.found_;
    for (let k = 0; k < found.length; k++) found[k] = 0;
    // Past 31 terms `present` does not tell every term apart: no early stop.
    const pairs = this.found_.length;
    this.held = pairs < SECTION_BITS ? (findable === -1 ? present & (present >>> 1) : findable) & ((1 << pairs) - 1) : 0;
    this.left = pairs < SECTION_BITS ? popCount(this.held) : -1;
  }

  /** Note pair `k` found; stop scanning (false) once every pair the page holds is. */
  private note(k: number): boolean {
    if (this.found_[k] === 1) return true;
    this.found_[k] = 1;
    if (((this.held >>> k) & 1) === 1) this.left--;
    return this.left !== 0;
  }

  /** Mark query-adjacent pairs of terms found within the window in a term sequence. */
  scan(seq: Int32Array): void {
    const n = this.lastSeen.length;
    const { termQuery } = this.shape;
    const lastSeen = this.lastSeen;
    const window = this.window;
    for (let k = 0; k < n; k++) lastSeen[k] = -1_000_000;
    // A break in the sequence (t < 0) forgets every term seen: a term counts only when seen
    // after the last break (`after`), instead of filling `lastSeen` again at each break (a call
    // per break of every finished page's best section, issue 23). The same pairs are found.
    // Scanning ends once every pair the page holds is found (`note`): reading the sequence was
    // most of `finishPage` (issue 23), and a pair found twice counts once.
    if (this.left === 0) return;
    let after = -1;
    for (let p = 0; p < seq.length; p++) {
      const t = seq[p] as number;
      if (t < 0) {
        after = p;
        continue;
      }
      const qi = termQuery[t] as number;
      if (qi < 0) continue;
      if (qi > 0) {
        const last = lastSeen[qi - 1] as number;
        if (last > after && p - last <= window && !this.note(qi - 1)) return;
      }
      if (qi + 1 < n) {
        const last = lastSeen[qi + 1] as number;
        if (last > after && p - last <= window && !this.note(qi)) return;
      }
      lastSeen[qi] = p;
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
  /** The page slot each section slot belongs to. */
  private sectionPage: Int32Array = new Int32Array(0);
  /** Page id -> its slot, -1 for none (reset by `end`). */
  slotOf: Int32Array = new Int32Array(0);
  /** Per page slot (`width` numbers): per query term qi, at 4qi .. 4qi + 3, its page-field tf~,
   *  summed section-field tf~, bound of one section's tf~ and weight in the title; then the title
   *  words matched (at 4n). A term's four numbers side by side, not four runs of n (issue 23):
   *  a posting wrote two or three cache lines of a slot and read as many in `bounds`, one now; at
   *  50,000 pages a long question's ~27,000 slots are ~9 MB, past the caches. */
  page: Float64Array = new Float64Array(0);
  width = 0;
  /** Per section slot: n section-field tf~. */
  sec: Float64Array = new Float64Array(0);
  /** Page id per page slot (accepted pages only, `pageCount` of them), and section id per
   *  section slot (`sectionCount`). Typed arrays kept across queries: a plain array emptied
   *  after each query gave its memory back and grew again by copies (tens of thousands of
   *  candidate pages a search at 50,000 pages). */
  pages: Int32Array = new Int32Array(256);
  pageCount = 0;
  sections: Int32Array = new Int32Array(256);
  sectionCount = 0;
  /** Sections of each page slot as a linked list of section slots. */
  firstSection: Int32Array = new Int32Array(0);
  nextSection: Int32Array = new Int32Array(0);
  /** The query's matches in one list (query term by query term), the query term of each, and
   *  where each query term's start. */
  readonly matches: QueryTerm["matches"][number][] = [];
  readonly matchQuery: number[] = [];
  readonly matchBase: number[] = [];
  /** Per match, 1 if its page postings count title words for `titlePart`: the match of its term
   *  that `termQuery` and `termWeight` speak of (the last one of the first query term holding it). */
  readonly titleMatch: number[] = [];
  /** Per page slot, which of the query's first 31 matches (`matches`) have its sections (bit k
   *  for match k; later matches are not told apart). */
  withSections: Int32Array = new Int32Array(0);
  /** Per page slot, which of the query's first 31 terms it holds (bit qi), in any field or
   *  section: bounds proximity (`pairsWithin`). */
  present: Int32Array = new Int32Array(0);
  /** Per page slot, which of the query's first 31 terms its title holds, by any of their matches
   *  (`pairsFindable`). */
  inTitleOf: Int32Array = new Int32Array(0);
  /** Per section slot, which of the query's first 31 terms it holds (`accumulateSectionsOf`). */
  secHeld: Int32Array = new Int32Array(0);
  /** Per page slot, 1 once `scorePage` scored it (its sections are read: not to be read twice). */
  scored: Uint8Array = new Uint8Array(0);
  /**
   * Each query term's `idf`, read per candidate page and section from here, not from the terms:
   * terms reach ranking in more than one shape (kept across searches, copied for a negated word),
   * and a number read from objects of several shapes was a new heap number per read (~40 KB a
   * search on spree, issue 23).
   */
  idf: Float64Array = new Float64Array(16);
  private n = 0;
  /** Page and section slots taken by every search so far: their work, counted, not timed
   *  (`SearchIndex.work`, what `CallerTurns` charges a caller's search). */
  work = 0;

  begin(sectionCapacity: number, pageCapacity: number, query: readonly QueryTerm[]): this {
    if (this.sectionSlots.length < sectionCapacity) this.sectionSlots = grow(this.sectionSlots, sectionCapacity, -1);
    if (this.slotOf.length < pageCapacity) this.slotOf = grow(this.slotOf, pageCapacity, -1);
    this.n = query.length;
    this.width = 4 * query.length + 1;
    // Zeroed for another width (or left by a search that threw before `end`): zeroed again.
    this.zeroedSlots = 0;
    if (this.idf.length < query.length) this.idf = new Float64Array(Math.max(query.length, 2 * this.idf.length, 16));
    for (let qi = 0; qi < query.length; qi++) this.idf[qi] = (query[qi] as QueryTerm).idf;
    this.matches.length = 0;
    this.matchQuery.length = 0;
    this.matchBase.length = 0;
    query.forEach((q, qi) => {
      this.matchBase.push(this.matches.length);
      for (const m of q.matches) {
        this.matches.push(m);
        this.matchQuery.push(qi);
      }
    });
    return this;
  }

  /**
   * Room made before any search, for a question of `terms` terms over every page of an index of
   * `pageCapacity` pages: what a first search would grow step by step, copying as it went (at
   * 50,000 pages its arrays' growth was a quarter of the first search's own time, issue 22).
   */
  presize(sectionCapacity: number, pageCapacity: number, terms: number): void {
    if (this.sectionSlots.length < sectionCapacity) this.sectionSlots = grow(this.sectionSlots, sectionCapacity, -1);
    if (this.slotOf.length < pageCapacity) this.slotOf = grow(this.slotOf, pageCapacity, -1);
    if (this.pages.length < pageCapacity) this.pages = grow(this.pages, pageCapacity, 0);
    const need = pageCapacity * (4 * terms + 1);
    if (this.page.length < need) this.page = growFloat(this.page, need);
    if (this.firstSection.length < pageCapacity) {
      this.firstSection = grow(this.firstSection, pageCapacity, -1);
      this.withSections = grow(this.withSections, pageCapacity, 0);
      this.present = grow(this.present, pageCapacity, 0);
      this.inTitleOf = grow(this.inTitleOf, pageCapacity, 0);
      const scored = new Uint8Array(this.firstSection.length);
      scored.set(this.scored);
      this.scored = scored;
    }
  }

  /** Room for `extra` more page slots than taken (never more than there are pages): `newSlot`
   *  then grows nothing. */
  reserve(extra: number): void {
    const slots = Math.min(this.pageCount + extra, this.slotOf.length);
    if (slots > this.pages.length) this.pages = grow(this.pages, slots, 0);
    const need = slots * this.width;
    if (this.page.length < need) this.page = growFloat(this.page, need);
    if (this.firstSection.length < slots) {
      this.firstSection = grow(this.firstSection, slots, -1);
      this.withSections = grow(this.withSections, slots, 0);
      this.present = grow(this.present, slots, 0);
      this.inTitleOf = grow(this.inTitleOf, slots, 0);
      const scored = new Uint8Array(this.firstSection.length);
      scored.set(this.scored);
      this.scored = scored;
    }
  }

  /** The next slot, for `page` (which has none), within the room `reserve` made. */
  newSlot(page: number): number {
    const next = this.pageCount++;
    this.slotOf[page] = next;
    this.pages[next] = page;
    if (next >= this.zeroedSlots) this.zeroAhead(next);
    this.firstSection[next] = -1;
    this.withSections[next] = 0;
    this.present[next] = 0;
    this.inTitleOf[next] = 0;
    this.scored[next] = 0;
    return next;
  }

  /**
   * Slots from `zeroedSlots` on have not had their accumulators zeroed this search. A new slot's
   * `width` numbers were zeroed one by one in `newSlot`: ~22% of `accumulatePages` on spree (a
   * long question's slot is ~80 numbers, and at 50,000 pages it takes ~27,000 slots). They are
   * zeroed `ZERO_AHEAD` slots at a time with one `fill` instead (issue 23): the same zeros.
   */
  private zeroedSlots = 0;

  private zeroAhead(next: number): void {
    const width = this.width;
    const to = Math.min(next + ZERO_AHEAD, Math.floor(this.page.length / width));
    this.page.fill(0, next * width, to * width);
    this.zeroedSlots = to;
  }

  /** The slot of a page that took one, else -1. */
  heldSlot(page: number): number {
    return this.slotOf[page] as number;
  }

  /**
   * `Math.pow(hits / length, exponent)`, the title part's precision factor (`titlePartInto`), by
   * `hits * POWER_SIDE + length` (NaN: not worked out yet). Asked of every candidate page whose
   * title holds a query word, the power was over half of `titlePartInto` at 10,000 pages (issue
   * 23), for few distinct pairs of small whole numbers (title words matched, title length): each
   * pair's is worked out once by the same call, the same number. Kept across searches for one
   * exponent (`usePowers`).
   */
  readonly powers = new Float64Array(POWER_SIDE * POWER_SIDE).fill(Number.NaN);

  /** Forget `powers` when the exponent is not theirs. */
  usePowers(exponent: number): void {
    if (exponent === this.powerExponent) return;
    this.powers.fill(Number.NaN);
    this.powerExponent = exponent;
  }

  private powerExponent = Number.NaN;

  /**
   * `pairsWithin` of a page slot's terms `held`, kept per search by the pairs held
   * (`held & held >>> 1`), for `bounds` (once per candidate page: ~11% of `bounds` at 10,000
   * pages, issue 23), NaN until worked out by `pairsWithin` itself: the same number. For a
   * question of up to `PAIR_MEMO_BITS` pairs with pairs at all; else undefined (worked out per page).
   */
  pairsMemo(shape: QueryShape, P: RankingParams): Float64Array | undefined {
    const pairs = shape.pairWeights.length;
    if (!shape.withPairs || pairs > PAIR_MEMO_BITS) return undefined;
    const size = 1 << pairs;
    if (this.pairValues.length < size) this.pairValues = new Float64Array(Math.max(size, 2 * this.pairValues.length));
    this.pairValues.fill(Number.NaN, 0, size);
    // No pair held: `pairsWithin` is 0 (a sum of no weights).
    this.pairValues[0] = pairsWithin(0, shape, P);
    return this.pairValues;
  }

  private pairValues = new Float64Array(32);

  /**
   * An empty `TopScores` of `limit`, reused across searches while the limit is the same: the
   * tops of a search (the running floor of `bounds`, `floorOfTop`, the finals of
   * `scoreBestFirst`) were made anew, typed arrays whose making cost more than their use (~1.4%
   * of a search on spree, issue 23). Two (`which` 0 and 1), for two in use at once.
   */
  scoreTop(limit: number, which: 0 | 1): TopScores {
    const kept = this.scoreTops[which];
    if (kept !== undefined && kept.limit === limit) return kept.reset();
    const top = new TopScores(limit);
    this.scoreTops[which] = top;
    return top;
  }

  /** An empty `ClassTop` of `limit`, reused as `scoreTop`'s. */
  classTop(limit: number, which: 0 | 1): ClassTop {
    const kept = this.classTops[which];
    if (kept !== undefined && kept.limit === limit) return kept.reset();
    const top = new ClassTop(limit);
    this.classTops[which] = top;
    return top;
  }

  private readonly scoreTops: (TopScores | undefined)[] = [undefined, undefined];
  private readonly classTops: (ClassTop | undefined)[] = [undefined, undefined];

  /** Query terms' summed reach by bytes of a page's `present` (`fillReachTable`). */
  readonly reachTable = new Float64Array(4 * 256);
  /** One number written by a function for its caller (`titlePart`). */
  readonly one = new Float64Array(1);
  /** Page slots best upper bound first, for `scoreBestFirst`. */
  readonly queue = new LargestFirst();
  /** Query terms' peaks, for `termReach`. */
  readonly peaks = new TermPeaks();
  private lower: Float64Array = new Float64Array(0);
  private upper: Float64Array = new Float64Array(0);

  private partial: Float64Array = new Float64Array(0);
  private bound: Float64Array = new Float64Array(0);
  private section: Int32Array = new Int32Array(0);
  private copyOf: Int32Array = new Int32Array(0);
  private final: Float64Array = new Float64Array(0);
  private findable: Int32Array = new Int32Array(0);

  /** Arrays of at least `slots` entries, for `scoreBestFirst` (only the scored slots' are set and read). */
  private readonly byText = new Map<number, Map<number, number[]>>();

  candidateArrays(slots: number): Omit<Candidates, "order"> {
    if (this.partial.length < slots) {
      const size = Math.max(slots, this.partial.length * 2, 256);
      this.partial = new Float64Array(size);
      this.bound = new Float64Array(size);
      this.section = new Int32Array(size);
      this.copyOf = new Int32Array(size);
      this.final = new Float64Array(size);
      this.findable = new Int32Array(size);
    }
    // One map a scratch, emptied here: a search's candidates are done with before the next's.
    this.byText.clear();
    return { partial: this.partial, bound: this.bound, section: this.section, copyOf: this.copyOf, final: this.final, findable: this.findable, byText: this.byText };
  }

  /** Two arrays of one number per page slot taken, for `bounds`. */
  boundArrays(): { lower: Float64Array; upper: Float64Array } {
    if (this.lower.length < this.pageCount) {
      const size = Math.max(this.pageCount, this.lower.length * 2, 256);
      this.lower = new Float64Array(size);
      this.upper = new Float64Array(size);
    }
    return { lower: this.lower, upper: this.upper };
  }

  /** Set `titleMatch` once `termQuery` maps the query's terms. */
  markTitleMatches(termQuery: Int16Array): void {
    const { matches, matchQuery, titleMatch } = this;
    titleMatch.length = 0;
    for (let mi = 0; mi < matches.length; mi++) {
      const qi = matchQuery[mi] as number;
      const id = (matches[mi] as QueryTerm["matches"][number]).entry.id;
      let last = termQuery[id] === qi;
      for (let later = mi + 1; last && later < matches.length && matchQuery[later] === qi; later++) if ((matches[later] as QueryTerm["matches"][number]).entry.id === id) last = false;
      titleMatch.push(last ? 1 : 0);
    }
  }

  /** The slot of a section of the page in slot `pageSlot`, taking one the first time. */
  sectionSlot(section: number, pageSlot: number): number {
    const slot = this.sectionSlots[section] as number;
    // Pages of the same text share section ids (`InvertedIndex.addPage`): a slot is this page's
    // only if this page took it; a page scored earlier with the same section gets no say here.
    if (slot !== -1 && this.sectionPage[slot] === pageSlot) return slot;
    const next = this.sectionCount++;
    if (this.sectionPage.length <= next) this.sectionPage = grow(this.sectionPage, next + 1, -1);
    this.sectionPage[next] = pageSlot;
    this.sectionSlots[section] = next;
    if (next >= this.sections.length) this.sections = grow(this.sections, next + 1, 0);
    this.sections[next] = section;
    const need = (next + 1) * this.n;
    if (this.sec.length < need) this.sec = growFloat(this.sec, need);
    // Zeroed by a loop: a slot is a few numbers (one per query term), and `fill`'s call was all
    // of `sectionSlot`'s own time (~2.5% of a search on spree, issue 23). The same zeros.
    const sec = this.sec;
    for (let k = next * this.n; k < need; k++) sec[k] = 0;
    if (this.nextSection.length <= next) this.nextSection = grow(this.nextSection, next + 1, -1);
    if (this.secHeld.length <= next) this.secHeld = grow(this.secHeld, next + 1, 0);
    this.secHeld[next] = 0;
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
    this.work += this.pageCount + this.sectionCount;
    for (let k = 0; k < this.sectionCount; k++) this.sectionSlots[this.sections[k] as number] = -1;
    for (let k = 0; k < this.pageCount; k++) this.slotOf[this.pages[k] as number] = -1;
    this.sectionCount = 0;
    this.pageCount = 0;
    this.zeroedSlots = 0;
  }
}

/** Title words matched and title lengths below this have their precision factor kept (`RankScratch.powers`). */
const POWER_SIDE = 64;

/** Questions of at most this many pairs (terms less one) have `pairsWithin` kept per pairs held (`RankScratch.pairsMemo`). */
const PAIR_MEMO_BITS = 12;

/** Page slots whose accumulators `RankScratch.newSlot` zeroes at once (`zeroAhead`). */
const ZERO_AHEAD = 64;

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
