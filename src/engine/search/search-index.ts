import { appendAll } from "../../arrays.js";
import { type PagePlacement, type SiteConfig, scopeNames } from "../../config/site-config.js";
import { LIMITS } from "../../limits.js";
import type { Access } from "../../vfs/access.js";
import { folderPlacement } from "../../vfs/folder-placement.js";
import { isIndexed, placementOf, type Site } from "../../vfs/site.js";
import { indexFilesBefore, ownPagesAt, pagesAt, pagesBefore } from "../../vfs/page-routes.js";
import { apiFactsByPage, apiPageKey } from "../../vfs/api-facts.js";
import { isApiPage } from "./endpoint-page.js";
import { type CompanionUnit, EndpointCompanions } from "./endpoint-companions.js";
import type { Page } from "../../vfs/page.js";
import { type BodyKey, bodyKeyOf } from "../../vfs/body-key.js";
import type { SiteFile } from "../../vfs/site-file.js";
import { AccessTable, type ReaderClass } from "./access-table.js";
import { type Expanded, isCurrent } from "./includes.js";
import { BodyImports } from "./body-imports.js";
import { PAGE_FIELDS } from "./fields.js";
import { InvertedIndex, type InvertedIndexState } from "./inverted-index.js";
import { InlineArena } from "../inline-arena.js";
import { abbreviationTable } from "./abbreviations.js";
import { paraphraseTable } from "./paraphrases.js";
import { cjkTableWords, translationTable } from "./translations.js";
import { ResolvedTerms } from "./resolved-terms.js";
import { type QueryWord, QueryWords } from "./query-words.js";
import { negationScopes } from "./negation.js";
import { cosine, type PageVector, SiteVectors, teachesVectors, type VectorSource } from "./site-vectors.js";
import { BASE, FULL, NAMED, type PagePriors, type QueryTerm, RANKING, type RankedPage, RankScratch, type RankingParams, QueryWork, rankPages, resolveTerms } from "./ranking.js";
import { keptTerms } from "./kept-terms.js";
import { expectedWork } from "./expected-work.js";
import { ScopeSizes } from "./scope-sizes.js";
import { DocumentedUnits, queryIdentifiers } from "./documented-identifiers.js";
import { TitleWords } from "./title-words.js";
import { ReaderClasses } from "./reader-classes.js";
import { decodeHTML } from "entities";
import { RepeatedSections, type RepeatedSectionsState } from "./repeated-sections.js";
import { type SectionTable, sectionAt, sectionCount, type StoredSection } from "./section-table.js";
import { outlineOf, TemplatePages } from "./template-pages.js";
import { type Section, sectionText } from "./sections.js";
import { operationWords } from "./operation-words.js";
import { type AnalysisFeed, type BodyToAnalyse, bodyToAnalyse } from "./analysis-feed.js";
import { type BodyAnalysis, BodyAnalyzer, LocalTerms } from "./body-analysis.js";
import { makeSnippet, type SnippetSource, snippetSource, TermFlags } from "./snippet.js";
import { BaseStatistics, type IndexStatistics } from "./statistics.js";
import { Analyzer } from "./terms.js";
import { type Condition, type PageVariants, pageVariants, pickVariant, readerVariant, type Variant } from "./variants.js";
import { foldVersionTwins, sketchOf, type TwinInfo, twinInfo, twinRules, versionKey } from "./version-twins.js";
import { branchesOf, navigationKey, type PreparedReaderState, preparedReaderState, type ReaderBranches, type TwinTable, type TwinTableUnits, twinInfoAt, unitsWithKey } from "./prepared-reader.js";
import { IdBuffer, Vocabulary } from "./vocabulary.js";
import { Lru } from "./lru.js";
import { pageInputsSum, pageSum, standsBySum } from "./page-sum.js";
import { SecondChance } from "./second-chance.js";
import { ReaderPlacements } from "./reader-placements.js";

/** What a search asks for, beyond the query. */
export interface SearchRequest {
  readonly query: string;
  readonly pageSize?: number;
  readonly scoreThreshold?: number;
  readonly version?: string;
  readonly language?: string;
  /**
   * The reader's visibility rule, asked about access rules (`canRead` of `vfs/access.ts` bound to
   * a reader): pages it rejects are never scored, text inlined from files it rejects is not part
   * of the pages it gets, and its statistics count only what it accepts.
   */
  readonly canRead: (access: Access) => boolean;
}

/** One search hit: a page and its best-matching section. */
export interface SearchHit {
  readonly page: Page;
  readonly section: Section;
  /** 0..1, comparable across queries: see docs/search.md. */
  readonly score: number;
  readonly snippet: string;
  /** Where navigation lists the page (its versions and languages), if anywhere. */
  readonly placement: PagePlacement | undefined;
  /** The same page in other versions, folded into this hit (see `foldVersionTwins`): best first. */
  readonly otherVersions: readonly VersionTwin[];
  /** How many more versions of the page were folded into this hit than `otherVersions` lists
   *  (`LIMITS.search.shownVersionTwins`). */
  readonly moreVersions: number;
  /** The same page in other languages, folded into this hit when the search has no language
   *  filter: one copy per language (in this hit's versions when it matched), best first. */
  readonly otherLanguages: readonly VersionTwin[];
  /** How many more languages hold the page than `otherLanguages` lists (`LIMITS.search.shownLanguageTwins`). */
  readonly moreLanguages: number;
}

/** A page folded into a hit as the same page in another version (or language). */
export interface VersionTwin {
  readonly page: Page;
  readonly placement: PagePlacement | undefined;
  readonly score: number;
}

/** A `SearchIndex` as data (`state`, `restore`). */
export interface SearchIndexState {
  readonly vocabulary: readonly string[];
  readonly index: InvertedIndexState;
  readonly pages: readonly IndexedPageState[];
  readonly priors: Float64Array<ArrayBuffer>;
  readonly repeated: RepeatedSectionsState;
  readonly rules: readonly Access[];
  readonly texts: number;
  /** The prepared state of the reader `state` was asked to prepare (`PreparedReaderState`), when
   *  its search folds twins; and the units' path order (`pathOrderOf`). Used by a restored index
   *  only while its first sync changes no unit (`restore`). */
  readonly reader?: PreparedReaderState;
  readonly pathOrder?: Int32Array;
  /** The `pageSum` of each page the load makes again every time (`standsBySum`), by its key:
   *  what a restored index knows such a page by (`restore`). */
  readonly sums?: readonly (readonly [string, string])[];
  /** The `pageInputsSum` of those that have one, by key: a restored page whose inputs are the
   *  loaded page's is adopted without rendering its body (`adopt`). */
  readonly inputs?: readonly (readonly [string, string])[];
}

/** An indexed page as data: its page and the files it inlined by path. */
export interface IndexedPageState {
  readonly path: string;
  /** Its key in the index (`IndexedPage.key`). */
  readonly key: string;
  readonly placement: PagePlacement | undefined;
  readonly rule: number;
  readonly above: readonly number[];
  readonly variants: readonly IndexedVariant[];
  readonly conditions: readonly Condition[];
  readonly complete: boolean;
  readonly eager: number;
  readonly uses: readonly string[];
  readonly missing: readonly string[];
}

/** What the index keeps per indexed page. */
interface IndexedPage {
  /** The page path; for a page another file of its path took the place of, the page path and
   *  its file's path (`entryKey`). */
  readonly key: string;
  /** Replaced only by `adopt`: a restored page known by its sum, by the loaded page of that sum. */
  page: Page;
  /** The page's `pageSum`, for a page the load makes again every time (`standsBySum`): set when
   *  restored (its page then a stand-in) or summed for a state. */
  sum?: string;
  /** The page's `pageInputsSum`, when it has one: set when restored or summed for a state, and
   *  when a page is adopted by its `sum`. */
  inputs?: string;
  readonly placement: PagePlacement | undefined;
  /** The id of the page's access rule (`AccessTable`). */
  readonly rule: number;
  /** The rule ids of the pages before it on its page path (`page-routes.ts`): a reader gets it
   *  only when it may read none of them. Empty for the site's page. */
  readonly above: readonly number[];
  /** The page as readers with different rights to the files it inlines read it (`variants.ts`);
   *  the first is the whole page. Most pages have one. Those past `eager` were made for readers
   *  when they searched (`ensureVariants`). */
  variants: IndexedVariant[];
  /** Each variant's condition, for `pickVariant`. */
  conditions: Condition[];
  /** Whether every outcome has its variant from the start; if not, the page is in `open`. */
  readonly complete: boolean;
  /** How many variants were made with the page (the others for readers, `ensureVariants`). */
  readonly eager: number;
  /** The files the variants inlined or left out, and imports no file answered (`isCurrent`). */
  readonly inlined: { uses: readonly SiteFile[]; missing: readonly string[] };
}

/** One variant of a page, as indexed. */
/** A page a site has indexed (`wantedPages`): where navigation places it, and the access rules of
 *  the files before it on its page path. */
interface WantedPage {
  readonly page: Page;
  readonly placement: PagePlacement | undefined;
  readonly above: number[];
}

interface IndexedVariant {
  /** The body with its snippets inlined, when it imports MDX (`includes.ts`); else `page.body`. */
  readonly expanded: Expanded | undefined;
  /** Its page unit in the inverted index. */
  readonly id: number;
  /** Its sections (`section-table.ts`; their text is rebuilt from the body for the hits only:
   *  keeping every section's text would double the index's memory). */
  readonly sections: SectionTable;
  /** Section ids in the inverted index, parallel to `sections`. */
  readonly sectionIds: readonly number[];
  /** A sketch of its text, to tell near-identical copies in other versions (`sketchOf`). */
  readonly sketch: Uint32Array;
  /** The identifiers its text documents (`documented-identifiers.ts`). */
  readonly documents: readonly string[];
}

/** The key of a reader class's branches (`SearchIndex.branchesFor`): its flags, and whether languages fold. */
function branchKey(readerClass: ReaderClass | undefined, languages: boolean): string {
  return `${languages ? "l" : ""}:${readerClass?.key ?? "*"}`;
}

/** The reader class key of a `branchKey` (undefined: a reader of everything). */
function branchReader(key: string): string | undefined {
  const reader = key.slice(key.indexOf(":") + 1);
  return reader === "*" ? undefined : reader;
}

/** The one version the query's words name (`v3`, `2025-06-18`), shown first among copies. */
function namedVersion(queryWords: readonly QueryWord[], versionWords: ReaderBranches["versionWords"]): string | undefined {
  if (versionWords.length === 0) return undefined;
  const words = new Set(queryWords.map((w) => w.lower));
  const named = versionWords.filter((v) => [...v.words].some((w) => words.has(w)));
  return named.length === 1 ? (named[0] as { version: string }).version : undefined;
}

/** A ranked page unit before folding (`rankAndFold`). */
interface RankedUnit {
  readonly section: number | undefined;
  readonly score: number;
  readonly entry: IndexedPage;
  readonly variant: IndexedVariant;
  readonly twin: TwinInfo | undefined;
  readonly top: boolean;
  /** Its place in path order (`pathOrderOf`): ties in score are shown by path. */
  readonly place: number;
}

/** A ranked unit after folding, with the pages folded into it (`rankAndFold`). */
interface FoldedUnit extends RankedUnit {
  readonly twins: readonly RankedUnit[];
  readonly languageTwins: readonly RankedUnit[];
}

/** A page unit as `EndpointCompanions` reads it. */
function companionUnit(id: number, entry: IndexedPage, placement: PagePlacement | undefined = entry.placement): CompanionUnit {
  return { id, path: entry.page.path, endpoint: isApiPage(entry.page), versions: placement?.versions, languages: placement?.languages };
}

/** What a page unit id stands for: a page, and which of its variants. */
interface UnitOf {
  readonly entry: IndexedPage;
  readonly variant: number;
}

/** A body as indexed (`SearchIndex.analyse`): shared by every page with the same text. */
interface AnalysedBody {
  /** Its sections and their terms, in `local`'s ids. */
  readonly analysis: BodyAnalysis;
  readonly local: LocalTerms;
  readonly sections: SectionTable;
  /** Term sequences and sketch by rule and repeated sections (`SearchIndex.sequencesOf`). */
  readonly indexed: Map<string, { readonly sequences: readonly Int32Array[]; readonly sketch: Uint32Array }>;
  /** The last key of `indexed` asked, its rule, and the `RepeatedSections.generation` it was
   *  made at: the same while no section's answer changed (the copies of a text, one after another). */
  last?: { readonly rule: number; readonly generation: number; readonly key: string };
}

/** A page a `sync` has read and recorded and not yet indexed (`SearchIndex.readPage`): its
 *  variants, and their conditions in rule ids (numbered when it was read, as before indexing). */
interface ReadPage {
  readonly key: string;
  readonly page: Page;
  readonly placement: PagePlacement | undefined;
  readonly rule: number;
  readonly above: readonly number[];
  readonly variants: readonly Variant[];
  readonly conditions: readonly Condition[];
  readonly uses: readonly SiteFile[];
  readonly missing: readonly string[];
  readonly complete: boolean;
}

/** What `syncSteps` yields after reading a page, before the pages are indexed (not a page indexed). */
export const PAGE_READ = "read" as const;

/** No negated term (`negatedTerms`). */
const NONE: ReadonlySet<string> = new Set();

const EMPTY_SECTION: StoredSection = { heading: "", parents: [], anchor: "", start: 0, end: 0 };

/**
 * The search index of a site: pages split into heading sections, in an inverted index scored
 * with BM25F at page and section level. `sync` updates it page by page, so an edit is
 * searchable within milliseconds instead of after a rebuild.
 */
export class SearchIndex {
  private readonly vocabulary = new Vocabulary();
  private readonly index = new InvertedIndex(this.vocabulary);
  private readonly analyzer = new Analyzer(this.vocabulary);
  /** Short and long forms of a word, as this analyzer's terms (`abbreviations.ts`). */
  private readonly abbreviations = abbreviationTable((w) => this.analyzer.term(w));
  /** Words of like meaning, as this analyzer's terms (`paraphrases.ts`). */
  private readonly paraphrases = paraphraseTable((w) => this.analyzer.term(w));
  /** Other languages' docs words and their English ones, as this analyzer's terms (`translations.ts`). */
  private readonly translations = translationTable((w) => this.analyzer.term(w));
  /** Verbs an endpoint title may open with that name no more than the rest of it (`rank`). */
  /** "endpoint" as this analyzer's terms (`rank`). */
  private readonly endpointWords = ["endpoint", "endpoints"].flatMap((w) => this.analyzer.term(w) ?? []);
  private readonly readVerbs = new Set(["get", "list", "retrieve", "fetch", "read", "show", "view"].flatMap((w) => this.analyzer.term(w) ?? []));
  /** Verbs an endpoint title may open with that name an action on its resource ("Cancel Crawl",
   *  "Create Job"): a question naming the verb and the rest asks for that operation (`rank`). */
  private readonly actionVerbs = new Set(ACTION_VERBS.flatMap((w) => this.analyzer.term(w) ?? []));
  private readonly buffer = new IdBuffer();
  /** Where a page field's text is tokenized before its exact-size copy is kept (`pageFields`): a
   *  buffer made per text zeroed 16 KB each time, ~7% of a real site's indexing (2026-12-07). */
  private readonly fieldBuffer = new IdBuffer();
  /** Where what a page keeps of its text's analysis lives: its section table's ints and its
   *  sketch, cut from shared blocks (`InlineArena`). */
  private readonly arena = new InlineArena();
  private readonly byPath = new Map<string, IndexedPage>();
  /** Page units by id (an array: ranking asks for one per candidate page). */
  private readonly byId: (UnitOf | undefined)[] = [];
  /** Each page unit's score factor (`RankingParams.generatedPageWeight` for generated pages), by
   *  id: one flat array, read for every candidate page (a lookup through the page object costs
   *  a cache miss per page on a large site). */
  private priors = new Float64Array(1024);
  /** Which units document which identifiers, for the lift of a question naming one. */
  private readonly documented = new DocumentedUnits();
  /** The pages of each outline (`template-pages.ts`), for the weight of a template's pages.
   *  Undefined after a `restore` (the weights restored with the priors) until a sync changes pages. */
  private templates: TemplatePages<IndexedPage> | undefined = new TemplatePages();
  /** The operation path each API page documents (`operationPathKey`), by `apiPageKey`. */
  private operationPaths = new Map<string, string>();
  /** Pages whose operation the loaded API reference renders (so their text shows it), by `apiPageKey`. */
  private apiPages = new Set<string>();

  /** Text of recently returned sections by section id (ids are never reused): rebuilding it
   *  from the page body is most of the cost of a hit. */
  private readonly sectionTexts = new SecondChance<number, { readonly text: string; snippet?: SnippetSource }>(LIMITS.search.cachedSectionTexts);
  /** Sections repeated on many pages, indexed at low weight (issue 24; `repeated-sections.ts`). */
  private readonly repeated = new RepeatedSections();
  private readonly rules = new AccessTable();
  /** Pages outside navigation placed per reader class, by the navigation pages it may read. */
  private readonly placements = new ReaderPlacements();
  /** Statistics of a reader who may read everything, and of each class that may read less. */
  private readonly base = new BaseStatistics(this.index);
  private readonly classes = new ReaderClasses(this.index, this.rules, (id, readable) => {
    const unit = this.byId[id];
    return unit !== undefined && variantFor(unit.entry, readable) === unit.variant;
  });
  private readonly ranking: RankingParams;
  private readonly scratch = new RankScratch();
  /** The term ids the current search matched, for its snippets. */
  private readonly matched = new TermFlags();
  /** Query terms resolved by earlier searches, per statistics (`resolveTerms`). */
  private readonly resolved = new ResolvedTerms();
  /** Question words as the analyzer reads them, kept across searches (`query-words.ts`). */
  private readonly queryWords = new QueryWords(this.analyzer);
  /** Learned by `vectorSteps` (in the background after the build, `DocsRuntime.learnVectors`),
   *  dropped by a sync that changes pages until learned again; until then searches re-order by
   *  nothing, as with `siteVectorWeight` 0 (`site-vectors.ts`). */
  private siteVectors: SiteVectors | undefined;
  /** Bumped by each change that drops the vectors: a learning begun before it is thrown away. */
  private vectorsOf = 0;
  /** The site's default version (set by `sync`); undefined for a site without versions. */
  private defaultVersion: string | undefined;
  /** Whether the site has versions or products (set by `sync`). */
  private branched = false;
  /** Navigation and versions (set by `sync`), and each navigation page's access rule id. */
  private navConfig: Pick<SiteConfig, "navPages" | "versions" | "languages" | "defaultLanguage"> = { navPages: new Map(), versions: [], languages: [] };
  private navRules = new Map<string, readonly number[]>();
  /** Each reader class's versions and twin rules (`branchesFor`), until the next `sync`. */
  private readonly branches = new Map<string, ReaderBranches>();

  /** Each distinct body's analysis during one `sync` (`analyse`): a site whose versions copy the
   *  same files (dozens of versions × languages, most pages unchanged from one release to the
   *  next) splits, segments and sketches each text once, and its copies share the term arrays. */
  private analysed = new Map<BodyKey, AnalysedBody>();
  /** The same for endpoint pages, which are analysed without reference-list items (`analyse`). */
  private analysedApi = new Map<BodyKey, AnalysedBody>();
  /** Pages still to add in this `sync` by body: a body's analysis (its split sections hold as much
   *  text again as the body) is dropped when its last page is added (`release`), so that a build
   *  of 50,000 distinct pages does not hold them all. */
  private remaining = new Map<BodyKey, number>();
  /** Bodies whose analysis was dropped in this `sync` (counted once, if analysed again). */
  private released = new Set<BodyKey>();
  /** Distinct bodies analysed in this `sync`. */
  private distinct = 0;
  /** Whether each distinct body imports MDX, during one `sync` likewise. */
  private imports = new BodyImports();
  private texts = 0;
  /** Bodies analysed on this thread (no worker, or edits after the build), and their terms; for
   *  one `sync` (its vocabulary would otherwise be a second copy of the index's map of terms). */
  private bodies = new BodyAnalyzer();
  private bodyTerms = new LocalTerms();
  /** The term ids of page fields' texts shared by a page's copies (titles, descriptions), during
   *  one `sync` (`pageFields`). */
  private fieldTerms = new Map<string, Int32Array>();
  /** Analyses made by worker threads ahead of the pages that need them, during one `syncSteps`. */
  private feed: AnalysisFeed | undefined;
  /** The pages `bodiesToAnalyse` listed a site's bodies from, for the `syncSteps` of that site
   *  that follows it (a start's build): made once, not twice (25,000 pages of a warm start). */
  private wantedOf: { readonly site: Site; readonly wanted: Map<string, WantedPage> } | undefined;
  /** The variants `bodiesToAnalyse(site)` made of pages inlining snippets, for the sync. */
  private variantsAhead: { readonly site: Site; readonly variants: Map<Page, PageVariants> } | undefined;

  /** Pages whose variants are not all indexed (`ensureVariants`). */
  private readonly open = new Set<IndexedPage>();
  /** Reader classes that have their variant of every page in `open`, until the next `sync`. */
  private readonly complete = new Set<string>();
  /** The files of the site last synced, for variants made for readers. */
  private fileAt: (path: string) => SiteFile | undefined = () => undefined;

  /** Each kind of search's `acceptedUnits` (by reader class, version and language), until the next `sync`. */
  private readonly scopes = new SecondChance<string, Uint8Array>(LIMITS.search.cachedScopes);
  /** The page units per version and language (`expectedWork`), made at the first estimate after a change. */
  private scopeSizes: ScopeSizes | undefined;
  /** The work searches ranked lately made per query term, at the whole site's scope (`expectedWork`
   *  for a term the pages do not hold: `termWork`). */
  private readonly madePerTerm = { work: 0, terms: 0 };
  /** Each guide's endpoint page per kind of search (`liftCompanions`), until the units change. */
  private readonly companions = new EndpointCompanions({ units: () => this.companionUnits(), term: (w) => this.analyzer.term(w) }, LIMITS.search.cachedCompanions);
  /** Each page unit's place in path order, by id (`firstClasses`), until the next `sync`. */
  private pathOrder: Int32Array | undefined;
  /** Counts every change to the page units (`byId`): what a restored state prepared for a reader
   *  holds while it stays at the count the restore left (`restored`). */
  private unitChanges = 0;
  /** A restored state's prepared reader and path order, until the first `sync` after the restore
   *  takes them (when it changed no unit) or drops them. */
  /** What the last `sync` indexed and removed, by key (`lastSync`). */
  private lastChanged: { readonly added: readonly string[]; readonly removed: readonly string[] } = { added: [], removed: [] };
  private restored: { readonly reader: PreparedReaderState | undefined; readonly pathOrder: Int32Array | undefined; readonly at: number } | undefined;
  /** The branches' key of the reader the last sync took from `restored` (`preparedFromState`). */
  private restoredReader: string | undefined;
  /** The title words of page units with a prior below 1 (endpoint pages), by id, once asked
   *  (`rank`): analysing them in every search was 40% of a search's time on spree. */
  private readonly titleWords = new TitleWords(this.readVerbs, this.actionVerbs);
  /** The analysed words of unit `id`'s title (`TitleWords.of`): one function for every unit and search. */
  private readonly titleTerms = (id: number): readonly string[] => this.analyzer.terms((this.byId[id] as UnitOf).entry.page.title);
  /** Per page unit, the search that last decided whether the query names its title, and what it decided. */
  private titleStamps = new Uint32Array(0);
  private titleNamed = new Uint8Array(0);
  private titleStamp = 0;

  private readonly foldVersions: boolean;
  /** Recent searches' hits by request and reader class, until the next `sync` (undefined: off). */
  private readonly results: Lru<string, readonly SearchHit[]> | undefined;

  /** `ranking` overrides ranking parameters (for tuning and tests; production uses the defaults);
   *  `foldVersions: false` keeps version twins apart (for the bench's comparison); `cachedResults`
   *  is how many searches' hits are kept for a repeat of the same request (0: none). */
  constructor(options: { ranking?: Partial<RankingParams>; foldVersions?: boolean; cachedResults?: number } = {}) {
    this.ranking = { ...RANKING, ...options.ranking };
    this.foldVersions = options.foldVersions ?? true;
    const cached = options.cachedResults ?? LIMITS.search.cachedResults;
    this.results = cached > 0 ? new Lru(cached) : undefined;
  }

  /** Number of indexed sections. */
  get size(): number {
    return this.index.sectionCount;
  }

  /** Number of distinct page bodies indexed by the last `sync` that added pages (copies count once). */
  get textCount(): number {
    return this.texts;
  }

  /** The key of the reader whose prepared state the last sync took from a restored state (for
   *  tests and logs), or undefined when it took none. */
  get preparedFromState(): string | undefined {
    return this.restoredReader;
  }

  /** The keys of the pages the last `sync` indexed (added, or changed and indexed again) and
   *  removed (gone, or changed), each in the order it did them: what an edit cost, for tests
   *  and measurements (an edit to one operation of a spec indexes that operation's page alone). */
  get lastSync(): { readonly added: readonly string[]; readonly removed: readonly string[] } {
    return this.lastChanged;
  }

  /** Number of indexed pages. */
  get pageCount(): number {
    return this.index.pageCount;
  }

  /**
   * Bring the index in line with a site: add new or changed pages, drop removed ones. A page
   * whose object and placement are unchanged is not touched. `feed`: analyses made in workers.
   */
  sync(site: Site, feed?: AnalysisFeed): { added: number; removed: number } {
    // Promises a step yields are not waited for: what `feed` has not made is made here.
    const steps = this.syncSteps(site, feed);
    let step = steps.next();
    while (step.done !== true) step = steps.next();
    return step.value;
  }

  /** The bodies `syncSteps(site)` will analyse, in the order it needs them, for `feed`: each
   *  page's body, or each reader's variant of a page that inlines snippets (its variants are made
   *  here, once, and kept for the sync: analysed on this thread, the 794 pages of a real site that
   *  inline a footer were half of its start's main thread, 2026-12-07). `saved` (a save, the index
   *  built): the pages it re-indexes with a changed placement or snippet too. */
  bodiesToAnalyse(site: Site, saved = false): BodyToAnalyse[] {
    const out: BodyToAnalyse[] = [];
    const seen = [new Set<BodyKey>(), new Set<BodyKey>()];
    const wanted = this.wantedPages(site);
    this.wantedOf = { site, wanted };
    const fileAt = (path: string): SiteFile | undefined => site.files.get(path);
    const variantsAhead = new Map<Page, PageVariants>();
    for (const [key, next] of wanted) {
      const { page } = next;
      const entry = this.byPath.get(key);
      // A page the index holds as it is now is not indexed again (`syncSteps`).
      if (entry !== undefined && this.adopt(entry, page) && (!saved || unchanged(next, entry, fileAt))) continue;
      const api = isApiPage(page);
      const known = seen[api ? 1 : 0] as Set<BodyKey>;
      if (this.importsOf(page)) {
        const read = pageVariants(page, fileAt, true);
        variantsAhead.set(page, read);
        for (const { expanded } of read.variants) {
          const body: BodyKey = expanded?.body ?? bodyKeyOf(page);
          if (known.has(body)) continue;
          known.add(body);
          out.push(expanded !== undefined ? { key: body, body: expanded.body, api, chars: expanded.body.length } : bodyToAnalyse(page, body, api));
        }
        continue;
      }
      const body = bodyKeyOf(page);
      if (known.has(body)) continue;
      known.add(body);
      out.push(bodyToAnalyse(page, body, api));
    }
    this.variantsAhead = variantsAhead.size > 0 ? { site, variants: variantsAhead } : undefined;
    return out;
  }

  /**
   * `sync` a page at a time: it pauses after each page it adds, so that a caller can build a
   * large index in slices and answer requests between them (start-up, see `DocsRuntime`). The
   * index is incomplete until the generator is done: nothing may search it before then.
   */
  *syncSteps(site: Site, feed?: AnalysisFeed): Generator<Promise<void> | typeof PAGE_READ | undefined, { added: number; removed: number }> {
    const { config } = site;
    const restored = this.restored;
    this.restored = undefined;
    this.restoredReader = undefined;
    // Any change (pages, navigation, versions, access rules) may change any result.
    this.results?.clear();
    this.scopes.clear();
    this.scopeSizes = undefined;
    this.pathOrder = undefined;
    this.companions.clear();
    this.titleWords.clear();
    this.complete.clear();
    this.defaultVersion = config.versions.length > 0 ? (config.defaultVersion ?? config.versions[0]) : undefined;
    const sameNavigation = this.navConfig === config;
    this.navConfig = config;
    const facts = apiFactsByPage(site);
    this.operationPaths = new Map([...facts].filter(([, i]) => i.kind === "operation").map(([key, i]) => [key, operationPathKey(i.path)]));
    this.apiPages = new Set(facts.keys());
    // Each navigation page's access rules (of every file of its path), for readers' own twin
    // rules (`branchesFor`). A navigation entry with no page is no reader's: it counts as a
    // restricted one does (else whether an entry's page is restricted or missing would show in
    // how versions fold). A generated page behind `<path>/index` files is a page of its path, and
    // so are the files before it (`indexFilesBefore`), as on the site without them; another
    // path's generated page behind this path's files is not (`ownPagesAt`).
    const navRules = new Map([...config.navPages.keys()].flatMap((path) => {
      const pages = [...ownPagesAt(site, path), ...indexFilesBefore(site, path)];
      return pages.length === 0 ? [] : [[path, pages.map((page) => this.rules.id(page.file.access))] as const];
    }));
    this.keepBranches(sameNavigation, navRules);
    this.branched = this.defaultVersion !== undefined || [...config.navPages.values()].some((p) => p.products !== undefined);
    const wanted = this.wantedOf?.site === site ? this.wantedOf.wanted : this.wantedPages(site);
    this.wantedOf = undefined;
    // Variants made for another site are not this one's.
    if (this.variantsAhead?.site !== site) this.variantsAhead = undefined;
    const fileAt = (path: string): SiteFile | undefined => site.files.get(path);
    this.fileAt = fileAt;
    let added = 0;
    let removed = 0;
    const changed: { added: string[]; removed: string[] } = { added: [], removed: [] };
    this.lastChanged = changed;
    for (const [path, entry] of this.byPath) {
      const next = wanted.get(path);
      // A page is unchanged when its object, its place and the snippets it inlines all are.
      if (next !== undefined && this.adopt(entry, next.page) && unchanged(next, entry, fileAt)) {
        wanted.delete(path);
        continue;
      }
      this.remove(entry);
      this.repeated.forget(path);
      changed.removed.push(path);
      removed++;
    }
    this.distinct = 0;
    for (const { page } of wanted.values()) {
      const body = bodyKeyOf(page);
      this.remaining.set(body, (this.remaining.get(body) ?? 0) + 1);
    }
    this.feed = feed;
    // Every page's sections are recorded (`RepeatedSections`) before any page is indexed: whether
    // a section is boilerplate is then known as the whole site says, and no page is indexed a
    // first time under an answer a later page changes and then again (issue 22: 12% of the
    // pages of 10,000 distinct ones were indexed twice, those whose section a later page repeated).
    // Each text's analysis is kept until its last page is indexed (`release`).
    const read: ReadPage[] = [];
    for (const [key, { page, placement, above }] of wanted) {
      // The page's analyses (its variants') are on their way from a worker: wait for them (the
      // caller awaits this); one taken before it came would be made again here.
      for (const body of this.bodyKeysOf(page)) {
        const arriving = feed?.arriving(body, isApiPage(page));
        if (arriving !== undefined) yield arriving;
      }
      read.push(this.readPage(key, page, placement, above, fileAt));
      yield PAGE_READ;
    }
    // Stale now: pages indexed by an earlier sync (those read above are indexed as they are now).
    const staleBefore = this.repeated.takeStale().filter((path) => this.byPath.has(path));
    for (let i = 0; i < read.length; i++) {
      const page = read[i] as ReadPage;
      // Let go as it is indexed: the list held every page's variants.
      read[i] = undefined as unknown as ReadPage;
      this.indexPage(page);
      this.release(bodyKeyOf(page.page));
      changed.added.push(page.key);
      added++;
      yield;
    }
    // Every page the workers analysed is taken: they are ended now, not once the stale pages are
    // indexed again and the postings committed (the build's peak, a synchronous stretch of ~20 s
    // at 50,000 distinct pages), so their threads' heaps are let go meanwhile (issue 22). Their
    // owner's `close` after the build finds them ended.
    feed?.close();
    // Pages indexed before a section of theirs turned out to be repeated boilerplate, again.
    for (let stale = staleBefore; stale.length > 0; stale = this.repeated.takeStale()) {
      for (const path of stale) {
        const entry = this.byPath.get(path);
        if (entry === undefined) continue;
        this.remove(entry);
        this.add(entry.key, entry.page, entry.placement, entry.above, fileAt);
      }
    }
    this.feed = undefined;
    if (added > 0) {
      this.analyzer.releaseCaches();
      this.texts = this.distinct;
    }
    if (added > 0 || removed > 0) {
      this.weighTemplates();
      this.index.prepare();
      this.dropVectors();
    }
    this.forgetAnalyses();
    this.variantsAhead = undefined;
    this.remaining = new Map();
    this.released = new Set();
    this.imports = new BodyImports();
    this.takeRestored(restored);
    return { added, removed };
  }

  /** The pages a site has indexed, by key (`entryKey`), in path order. */
  private wantedPages(site: Site): Map<string, WantedPage> {
    const wanted = new Map<string, WantedPage>();
    for (const path of site.pages.keys()) {
      // Each file of the page path, for the readers whose page it is (`page-routes.ts`): a
      // restricted `a.mdx` leaves readers outside it `a.md`, as if `a.mdx` were not there.
      // A generated page behind `<path>/index` files is below its own path's pages too (`pagesBefore`).
      const pages = pagesAt(site, path);
      pages.forEach((page, k) => {
        if (isIndexed(site, page)) wanted.set(entryKey(page, k), { page, placement: searchPlacement(site, page), above: pagesBefore(site, path, k).map((p) => this.rules.id(p.file.access)) });
      });
    }
    return wanted;
  }

  /**
   * The index as data, for the persistent cache (`site-cache.ts`): everything a search reads,
   * pages by path (the cache keeps the pages themselves apart, their texts once each). Taken
   * between syncs only. Caches of searches and per-reader statistics are not kept: they are
   * made again at the first search, as after any sync.
   */
  state(prepare?: (access: Access) => boolean): SearchIndexState {
    // First: preparing a reader may index its variants of pages (`ensureVariants`), which the pages below then hold.
    const key = prepare !== undefined ? this.prepareReader(prepare) : undefined;
    const branches = key !== undefined ? this.branches.get(key) : undefined;
    const reader = key !== undefined && branches !== undefined ? preparedReaderState(key, navigationKey(this.navConfig, this.navRules), branches) : undefined;
    const pathOrder = prepare !== undefined ? this.pathOrderOf() : undefined;
    const pages = [...this.byPath.values()].map((e): IndexedPageState => ({
      path: e.page.path,
      key: e.key,
      placement: e.placement,
      rule: e.rule,
      above: e.above,
      variants: e.variants,
      conditions: e.conditions,
      complete: e.complete,
      eager: e.eager,
      uses: e.inlined.uses.map((f) => f.path),
      missing: e.inlined.missing,
    }));
    const sums: [string, string][] = [];
    const inputs: [string, string][] = [];
    for (const e of this.byPath.values()) {
      if (!standsBySum(e.page)) continue;
      e.sum ??= pageSum(e.page);
      sums.push([e.key, e.sum]);
      e.inputs ??= pageInputsSum(e.page);
      if (e.inputs !== undefined) inputs.push([e.key, e.inputs]);
    }
    return {
      vocabulary: this.vocabulary.state(),
      index: this.index.state(),
      pages,
      priors: this.priors,
      repeated: this.repeated.state(),
      rules: this.rules.state(),
      texts: this.texts,
      ...(reader !== undefined ? { reader } : {}),
      ...(pathOrder !== undefined ? { pathOrder } : {}),
      ...(sums.length > 0 ? { sums } : {}),
      ...(inputs.length > 0 ? { inputs } : {}),
    };
  }

  /**
   * Take a `state()` into this new index. `pageAt` and `fileAt` give the pages and files the
   * state was taken with (the cache's, by path); the next `sync` then finds unchanged those the
   * site load reused, and indexes again the rest, as for a reload. A page `pageAt` does not
   * know (a generated API page, never reused) is held by its path alone until that sync removes it.
   */
  restore(state: SearchIndexState, pageAt: (path: string) => Page | undefined, fileAt: (path: string) => SiteFile | undefined): void {
    if (this.byPath.size > 0 || this.vocabulary.size > 0) throw new Error("a search index is restored only while empty");
    this.pathOrder = undefined;
    this.companions.clear();
    // Listed with the rules' numbers of before.
    this.wantedOf = undefined;
    this.vocabulary.restore(state.vocabulary);
    this.index.restore(state.index);
    this.repeated.restore(state.repeated);
    this.rules.restore(state.rules);
    this.priors = state.priors;
    // Templates' weights are in the priors; their pages are counted when a sync changes pages.
    this.templates = undefined;
    this.texts = state.texts;
    const sums = new Map(state.sums);
    const inputsOf = new Map(state.inputs);
    for (const p of state.pages) {
      // A file that is gone from the cache's pages stands for none: the page is expanded again.
      const uses = p.uses.map((path) => fileAt(path) ?? goneFile(path));
      // A page the load makes again (generated from a spec) is known by its sum until the sync
      // finds the loaded page of that sum (`adopt`). A page another file took the place of is
      // not among the cache's pages: indexed again.
      const sum = sums.get(p.key);
      const inputs = sum === undefined ? undefined : inputsOf.get(p.key);
      const page = (sum === undefined && p.above.length === 0 ? pageAt(p.path) : undefined) ?? gonePage(p.path);
      const entry: IndexedPage = {
        key: p.key,
        page,
        ...(sum !== undefined ? { sum } : {}),
        ...(inputs !== undefined ? { inputs } : {}),
        placement: p.placement,
        rule: p.rule,
        above: p.above,
        variants: [...p.variants],
        conditions: [...p.conditions],
        complete: p.complete,
        eager: p.eager,
        inlined: { uses, missing: p.missing },
      };
      this.byPath.set(p.key, entry);
      if (!entry.complete) this.open.add(entry);
      entry.variants.forEach((v, variant) => {
        this.byId[v.id] = { entry, variant };
        this.documented.add(v.id, v.documents);
      });
    }
    // Terms sorted for prefixes and grouped for fuzzy matching now, not by the first search.
    this.index.prepare();
    this.restored = { reader: state.reader, pathOrder: state.pathOrder, at: this.unitChanges };
  }

  /**
   * Whether `entry` holds `page`: the very page, or a page the load makes again (`standsBySum`)
   * with the sum the entry knows (a restored entry's stand-in, or the page a reload made before),
   * which the entry then holds instead. The sum covers all the index read of the page: its
   * entry stands as it was indexed. Asked by inputs first (`pageInputsSum`), then by text.
   */
  private adopt(entry: IndexedPage, page: Page): boolean {
    if (entry.page === page) return true;
    if (entry.sum === undefined || !standsBySum(page)) return false;
    // By what it is rendered from first: an unchanged spec's pages are adopted unrendered.
    const inputs = pageInputsSum(page);
    if (inputs !== undefined && inputs === entry.inputs) {
      entry.page = page;
      return true;
    }
    // Else by its text: a page of an edited spec that came out the same is not indexed again.
    if (pageSum(page) !== entry.sum) return false;
    entry.page = page;
    if (inputs !== undefined) entry.inputs = inputs;
    else delete entry.inputs;
    return true;
  }

  /**
   * After the first `sync` that follows a `restore`: take the restored state's prepared reader
   * and path order when that sync changed no page unit (the units, their pages, placements and
   * navigation are then those they were made from: a change to a page indexes it again, and a
   * change to docs.json or the files it names makes the cache stale, `site-cache.ts`), else
   * leave them to be made again. One that does not fit the units is dropped the same way.
   */
  private takeRestored(restored: SearchIndex["restored"]): void {
    if (restored === undefined || restored.at !== this.unitChanges) return;
    const size = this.byId.length;
    if (restored.pathOrder !== undefined && restored.pathOrder.length === size) this.pathOrder = restored.pathOrder;
    const reader = restored.reader;
    if (reader === undefined || reader.size !== size || reader.navigation !== navigationKey(this.navConfig, this.navRules)) return;
    try {
      this.restoredReader = reader.key;
      const branches = branchesOf(reader, (id) => {
        const unit = this.byId[id];
        return unit === undefined ? undefined : unit.entry.variants[unit.variant]?.sketch;
      });
      const readerKey = branchReader(reader.key);
      if (readerKey !== undefined) branches.reader = readerKey;
      this.branches.set(reader.key, branches);
    } catch {
      // Made again by the reader's first search, as without a cache.
      this.restoredReader = undefined;
    }
  }

  /**
   * Make now what a reader's first search would otherwise make: its class's statistics, its
   * versions' and languages' twins (`twinIndex`) and the path order. `serve` calls it once the
   * client has its tool list, in the time before a first question arrives: on a site of 35
   * versions in four languages these were about a third of the first search's time.
   */
  prepareReader(canRead: (access: Access) => boolean): string | undefined {
    let readerClass = this.rules.classOf(canRead);
    if (readerClass !== undefined && this.ensureVariants(canRead, readerClass)) readerClass = this.rules.classOf(canRead);
    // What the reader's first search would otherwise make before it could rank (issue 22: ready
    // means a search answers within a second): its class's statistics and their field scales (a
    // pass over every unit: ~0.15 s at 50,000 pages), and the ranking's scratch for a long question.
    const stats = readerClass === undefined ? this.base : this.classes.statistics(readerClass);
    stats.scales(this.ranking);
    this.scratch.presize(this.index.sectionCapacity, this.index.pageCapacity, PRESIZED_QUESTION_TERMS);
    // The branches an unfiltered search folds by (`rank`).
    const languages = this.foldVersions && this.navConfig.languages.length > 1;
    let key: string | undefined;
    if ((this.foldVersions && this.branched) || languages) {
      this.twinIndex(this.branchesFor(readerClass, languages));
      key = branchKey(readerClass, languages);
    }
    this.pathOrderOf();
    // And what its first search's turn is weighed by (`expectedWork`): ~14 ms at 24,920 pages.
    this.sizesOfScopes();
    return key;
  }

  /**
   * Search: best section per page, filtered by reader, version and language, scores in 0..1. A
   * repeat of a recent request by a reader of the same class (the same flags over every access
   * rule in the index, so the same pages, variants and statistics) gets the same hits back.
   */
  /** Page and section slots the ranking took for every search so far (`RankScratch.work`): a
   *  search's work is the difference across it, the same on any machine. */
  get work(): number {
    return this.scratch.work;
  }

  /**
   * The work `search` is expected to make for `req` (`expected-work.ts`), before it runs: the
   * pages holding the query's terms (the terms a search keeps, `keptTerms`), the index's own
   * counts, and for a term no page holds what a query term made lately (`madePerTerm`), under the
   * share of pages its version and language keep. Reads no reader's class or
   * statistics (the first search of a class makes them): a search of fewer pages may make less.
   */
  expectedWork(req: Pick<SearchRequest, "query" | "version" | "language">): number {
    const dfs = this.keptTermPages(req.query);
    // A term no page holds makes the work of the forms its prefix and typo lookups add, which
    // its own count (0) does not tell: at most `maxTypoScans` such terms are looked up.
    let unmatched = 0;
    for (const { term, df } of dfs) if (df === 0 && term.length >= this.ranking.minPrefixLength && unmatched < LIMITS.search.maxTypoScans) unmatched++;
    const sizes = this.sizesOfScopes();
    return expectedWork(
      dfs.map((t) => t.df),
      sizes.count(req.version, req.language),
      sizes.live,
      // Before any search has ranked, a page for each correction its typo lookup may add.
      { terms: unmatched, each: Math.max(this.ranking.maxFuzzyExpansions, this.madePerTerm.terms > 0 ? this.madePerTerm.work / this.madePerTerm.terms : 0) },
    );
  }

  /** The terms a search of `query` keeps (`keptTerms`) and the pages holding each, from the index's counts. */
  private keptTermPages(query: string): { readonly term: string; readonly df: number }[] {
    const pagesWith = (t: string): number => this.index.entry(t)?.df ?? 0;
    const analysed = new Set<string>();
    for (const w of this.queryWords.of(query)) for (const t of w.terms) analysed.add(t);
    return keptTerms([...analysed], LIMITS.search.maxQueryTerms, pagesWith).map((term) => ({ term, df: pagesWith(term) }));
  }

  /**
   * `rank`, and what it made per query term counted into `madePerTerm` (scaled to the whole
   * site's scope by the share its filters keep), the last `TERM_WORK_SPAN` searches or so
   * weighing most: counted, never timed.
   */
  private ranked(req: SearchRequest, readerClass: ReaderClass | undefined): SearchHit[] {
    const before = this.scratch.work;
    const hits = this.rank(req, readerClass);
    const terms = this.keptTermPages(req.query).length;
    const sizes = this.sizesOfScopes();
    const inScope = sizes.count(req.version, req.language);
    if (terms > 0 && inScope > 0) {
      const keep = 1 - 1 / TERM_WORK_SPAN;
      this.madePerTerm.work = this.madePerTerm.work * keep + ((this.scratch.work - before) * sizes.live) / Math.min(inScope, sizes.live);
      this.madePerTerm.terms = this.madePerTerm.terms * keep + terms;
    }
    return hits;
  }

  /** The page units per version and language (`ScopeSizes`): a pass over the units once per change. */
  private sizesOfScopes(): ScopeSizes {
    if (this.scopeSizes !== undefined) return this.scopeSizes;
    const placements: (PagePlacement | undefined)[] = [];
    for (const unit of this.byId) if (unit !== undefined) placements.push(unit.entry.placement);
    return (this.scopeSizes = new ScopeSizes(placements));
  }

  search(req: SearchRequest): readonly SearchHit[] {
    let readerClass = this.rules.classOf(req.canRead);
    // A rule first met by a reader's own variant is one more rule to classify readers by.
    if (readerClass !== undefined && this.ensureVariants(req.canRead, readerClass)) readerClass = this.rules.classOf(req.canRead);
    if (this.results === undefined) return this.ranked(req, readerClass);
    const key = JSON.stringify([req.query, req.pageSize ?? null, req.scoreThreshold ?? null, req.version ?? null, req.language ?? null, readerClass?.key ?? null]);
    let hits = this.results.get(key);
    if (hits === undefined) {
      hits = Object.freeze(this.ranked(req, readerClass));
      this.results.set(key, hits);
    }
    return hits;
  }

  private rank(req: SearchRequest, readerClass: ReaderClass | undefined): SearchHit[] {
    const pageSize = req.pageSize ?? LIMITS.search.defaultPageSize;
    const stats: IndexStatistics = readerClass === undefined ? this.base : this.classes.statistics(readerClass);
    const words = this.queryWords.of(req.query);
    const { terms, query } = this.resolveQuery(req.query, words, stats);
    if (terms.length === 0) return [];
    const accepted = this.acceptedUnits(req, readerClass);
    const threshold = req.scoreThreshold ?? 0;
    const priors = this.priors;
    // An endpoint page whose path the query names (`POST /v3/memories/add`) is what was asked
    // for: it keeps its full score, and the guides that mention the path come after it.
    const named = new Set([...req.query.matchAll(/\/[^\s"'`]+/g)].map((m) => operationPathKey(m[0])));
    // Likewise an endpoint page whose title the query names word for word ("Cancel Crawl" in
    // "cancel a running crawl job", "Delete Memories" in "delete all memories of a user"): the
    // question asks for that operation, and the guides mentioning it should not come first.
    // A word the question excludes ("without scanning a QR code") names no title (`negation.ts`).
    const asked = new Set(query.some((q) => q.titleFactor !== 1) ? terms.filter((_, at) => query[at]?.titleFactor === 1) : terms);
    // Decided once a search per page, in arrays stamped by search (`bounds` asks for every candidate).
    const stamp = this.nextTitleStamp();
    const titleWords = this.titleWords;
    titleWords.ask(asked);
    // NAMED for a title named whole that opens with an action verb ("Cancel Crawl", "Create Job"):
    // the question names the action and the resource. FULL for any other title named: a read
    // verb's ("List Sellers" for "sellers list their products", where "list" asks for no listing)
    // or a noun's ("Batch Scrape" for "errors of a batch scrape", which Get Batch Scrape Errors answers).
    const namesTitle = (id: number): number => {
      if (titleWords.rejects(id)) return BASE;
      if (this.titleStamps[id] === stamp) return this.titleNamed[id] as number;
      const words = titleWords.of(id, this.titleTerms);
      // A title's leading read verb ("Get Batch Scrape Errors") names no more than the rest of it:
      // "errors of a batch scrape" asks for that operation as much. Only when the rest is most of
      // the question: "Show a staff member" is not what "restrict what an admin staff member can
      // see and do" asks for, though it names a staff member.
      const read = words.length > 1 && titleWords.isReadVerb(words[0] as number);
      const from = read && 2 * (words.length - 1) >= asked.size ? 1 : 0;
      let yes = words.length > 0;
      for (let i = from; yes && i < words.length; i++) yes = titleWords.isAsked(words[i] as number);
      const lift = !yes ? BASE : titleWords.isActionVerb(words[0] as number) && words.length > 1 ? NAMED : FULL;
      this.titleStamps[id] = stamp;
      this.titleNamed[id] = lift;
      return lift;
    };
    // A question that asks for an endpoint by the word ("rerank documents endpoint") asks for the
    // reference: endpoint pages keep their full score, as the weight that lets a guide come first
    // is for questions written in words. (A method alone, "POST v3 memories", does not: a guide
    // quoting the call may be what is asked for.)
    let forEndpoint = false;
    for (const w of this.endpointWords) forEndpoint ||= asked.has(w);
    // A page below full weight takes it when it names the query's words or path (`PagePriors`).
    // One the question names by title or path is lifted above full weight (`namedOperationWeight`).
    // A page giving an identifier the question names a place of its own (a heading, a table
    // row, a field) is its reference (`documented-identifiers.ts`).
    const documents = this.documented.lift(queryIdentifiers(req.query), this.ranking.documentsWeight, this.byId.length);
    const prior: PagePriors = {
      base: priors,
      named: this.ranking.namedOperationWeight,
      ...(documents !== undefined ? { documents } : {}),
      lift: (id: number): number => {
        const byTitle = namesTitle(id);
        if (byTitle === NAMED) return NAMED;
        if (named.size > 0) {
          const op = this.operationPaths.get(apiPageKey((this.byId[id] as UnitOf).entry.page));
          if (op !== undefined && named.has(op)) return NAMED;
        }
        return forEndpoint || byTitle === FULL ? FULL : BASE;
      },
    };
    // Without a version filter on a versioned site, the same page in several versions is one
    // hit (see `foldVersionTwins`): rank more candidates so that folding still fills the page.
    // Likewise without a language filter on a site in several languages, for its translations.
    const foldLanguages = this.foldVersions && req.language === undefined && this.navConfig.languages.length > 1;
    const fold = (this.foldVersions && req.version === undefined && this.branched) || foldLanguages;
    const branches = fold ? this.branchesFor(readerClass, foldLanguages) : undefined;
    const preferred = branches !== undefined ? (namedVersion(words, branches.versionWords) ?? this.defaultVersion) : undefined;
    // Without a version filter on a versioned site, the same page in several versions is one
    // hit (see `foldVersionTwins`): rank more candidates so that folding still fills the page,
    // and twice as many again while it does not (and more pages match).
    let limit = fold ? Math.max(pageSize * 2, LIMITS.search.minTwinCandidates) : pageSize;
    let folded = this.rankAndFold(stats, query, accepted, prior, limit, branches, preferred);
    while (folded.hits.length < pageSize && folded.top >= limit) {
      limit *= 2;
      folded = this.rankAndFold(stats, query, accepted, prior, limit, branches, preferred);
    }
    // The threshold applies to each result's own score, after folding: a result is the same
    // with or without it (its twins may score lower; they are shown as its other versions).
    const lifted = this.liftCompanions(folded.hits, readerClass, req, accepted);
    const hits = this.byVectors(req, lifted.filter((r) => r.score >= threshold).slice(0, pageSize));
    const matched = this.matched.reset(query.flatMap((q) => q.matches.map((m) => m.entry.id)));
    const versionTwin = (t: { entry: IndexedPage; score: number }): VersionTwin => ({ page: t.entry.page, placement: this.placed(t.entry, readerClass?.key), score: Math.min(1, t.score) });
    return hits.map(({ entry, variant, section: sid, score, twins, languageTwins }) => {
      const stored = (sid !== undefined ? storedSection(variant, sid) : undefined) ?? (sectionCount(variant.sections) > 0 ? sectionAt(variant.sections, 0) : EMPTY_SECTION);
      const { heading, parents, anchor } = stored;
      const text = this.textOf(sid ?? -1 - variant.id, () => variant.expanded?.body ?? entry.page.body, stored);
      const section: Section = { heading, parents, anchor, text: text.text };
      return {
        page: entry.page,
        section,
        // A page lifted above full weight (`namedOperationWeight`) may rank above 1; shown as 1.
        score: Math.min(1, score),
        snippet: makeSnippet(text.text !== "" ? (text.snippet ??= snippetSource(text.text, this.analyzer)) : snippetSource(readerText(entry.page.meta.description ?? ""), this.analyzer), matched),
        placement: this.placed(entry, readerClass?.key),
        otherVersions: twins.slice(0, LIMITS.search.shownVersionTwins).map(versionTwin),
        moreVersions: Math.max(0, twins.length - LIMITS.search.shownVersionTwins),
        otherLanguages: languageTwins.slice(0, LIMITS.search.shownLanguageTwins).map(versionTwin),
        moreLanguages: Math.max(0, languageTwins.length - LIMITS.search.shownLanguageTwins),
      };
    });
  }

  /**
   * The hits with each of the first `companionGuides` guides' endpoint page (`endpoint-companions.ts`)
   * at `companionWeight` of the guide's score when it scored less or was not among them, in order
   * again (score, then path). Only a page the search may score (`accepted`: its version, language
   * and reader), and never one already shown, as a hit's other version or language included.
   */
  private liftCompanions<T extends FoldedUnit>(hits: T[], readerClass: ReaderClass | undefined, req: SearchRequest, accepted: Uint8Array): (T | FoldedUnit)[] {
    const weight = this.ranking.companionWeight;
    if (weight === 0 || hits.length === 0) return hits;
    const scope = JSON.stringify([readerClass?.key ?? null, req.version ?? null, req.language ?? null]);
    const shown = new Map<number, number>();
    hits.forEach((h, at) => {
      shown.set(h.variant.id, at);
      for (const t of h.twins) shown.set(t.variant.id, -1);
      for (const t of h.languageTwins) shown.set(t.variant.id, -1);
    });
    const out: (T | FoldedUnit)[] = [...hits];
    // An endpoint page's place for this reader (the index's units hold every reader's).
    const placeOf =
      readerClass === undefined
        ? undefined
        : (id: number) => {
            const unit = this.byId[id];
            const placement = unit === undefined ? undefined : this.placed(unit.entry, readerClass.key);
            return { versions: placement?.versions, languages: placement?.languages };
          };
    let guides = 0;
    let changed = false;
    for (const guide of hits) {
      if (guides >= this.ranking.companionGuides) break;
      if (isApiPage(guide.entry.page)) continue;
      guides++;
      const id = this.companions.companionOf(companionUnit(guide.variant.id, guide.entry, this.placed(guide.entry, readerClass?.key)), scope, accepted, placeOf);
      if (id === undefined) continue;
      const score = round3(weight * Math.min(1, guide.score));
      const at = shown.get(id);
      if (at === -1) continue;
      if (at !== undefined) {
        const hit = out[at] as T | FoldedUnit;
        if (hit.score >= score) continue;
        out[at] = { ...hit, score };
      } else {
        const { entry, variant } = this.byId[id] as UnitOf;
        shown.set(id, out.length);
        out.push({ section: undefined, score, entry, variant: entry.variants[variant] as IndexedVariant, twin: undefined, top: true, place: this.pathOrderOf()[id] as number, twins: [], languageTwins: [] });
      }
      changed = true;
    }
    return changed ? out.sort((a, b) => b.score - a.score || a.place - b.place) : hits;
  }

  /** Every page unit as `EndpointCompanions` reads them. */
  private *companionUnits(): Generator<CompanionUnit> {
    for (let id = 0; id < this.byId.length; id++) {
      const unit = this.byId[id];
      if (unit !== undefined) yield companionUnit(id, unit.entry);
    }
  }

  /** Whether site vectors are to be learned: the weight is on and none are learned for the pages as they are. */
  get vectorsWanted(): boolean {
    return this.ranking.siteVectorWeight !== 0 && this.siteVectors === undefined;
  }

  /** Whether searches re-order by site vectors now (`vectorSteps` has finished since the last change). */
  get vectorsLearned(): boolean {
    return this.siteVectors !== undefined;
  }

  /**
   * Learn the site vectors of the pages as they are, a page at a time (`SiteVectors.learn`): the
   * caller runs the steps in slices between requests (`DocsRuntime.learnVectors`) or at once
   * (`learnVectors`, tests and benches). Searches before the last step re-order by nothing; at the
   * last step the vectors take effect and the kept results are dropped, so every answer after it
   * uses them. A sync that changes pages meanwhile makes the steps end without effect.
   * Learned only from pages every reader of unrestricted pages may read (`teachesVectors`).
   */
  *vectorSteps(): Generator<undefined, boolean> {
    const of = this.vectorsOf;
    const sources: VectorSource[] = [];
    for (const { page } of this.byPath.values()) if (teachesVectors(page.file.access)) sources.push({ title: page.title, description: page.meta.description ?? "", body: page.body });
    const learning = SiteVectors.learn(sources, (line) => this.analyzer.terms(line));
    let step = learning.next();
    while (step.done !== true) {
      yield;
      if (of !== this.vectorsOf) return false;
      step = learning.next();
    }
    if (of !== this.vectorsOf) return false;
    this.siteVectors = step.value;
    this.results?.clear();
    return true;
  }

  /** `vectorSteps` run to the end at once: for tests and benches, which then search with the vectors. */
  learnVectors(): void {
    const steps = this.vectorSteps();
    while (steps.next().done !== true);
  }

  private dropVectors(): void {
    this.siteVectors = undefined;
    this.vectorsOf++;
  }

  /**
   * The page of hits re-ordered by site vectors (`siteVectorWeight`, `site-vectors.ts`) when the
   * first hit's title holds none of the question's words, for a reader who may read every page the
   * vectors are learned from (an unrestricted page: `canRead({})`); otherwise `hits` as they are.
   * Each hit's score becomes its score (at most 1) plus the weight times the cosine of the
   * question's and its title and description vectors (at least 0), so the order and the scores
   * shown agree.
   */
  private byVectors<T extends { readonly entry: IndexedPage; readonly score: number }>(req: SearchRequest, hits: T[]): T[] {
    const weight = this.ranking.siteVectorWeight;
    const first = hits[0];
    const vectors = this.siteVectors;
    // Not learned yet (or since the last change): the order as ranked, never a wait on the search's path.
    if (weight === 0 || vectors === undefined || first === undefined || hits.length < 2 || !req.canRead({})) return hits;
    const asked = new Set(this.analyzer.terms(req.query));
    // A page's title terms and title and description vector, once per page until the next change.
    const ofPage = (entry: IndexedPage): PageVector =>
      vectors.pageCache(entry, () => {
        const title = this.analyzer.terms(entry.page.title);
        return { title, vector: vectors.meanOf([...title, ...this.analyzer.terms(entry.page.meta.description ?? "")]) };
      });
    if (ofPage(first.entry).title.some((t) => asked.has(t))) return hits;
    const question = vectors.meanOf([...asked]);
    if (question === undefined) return hits;
    return hits
      .map((h) => {
        const v = ofPage(h.entry).vector;
        return { ...h, score: Math.max(0, Math.min(1, h.score) + (v === undefined ? 0 : weight * cosine(question, v))) };
      })
      .sort((a, b) => b.score - a.score);
  }

  /**
   * What a search of `query` scores and how much work resolving it took, for a reader who may read
   * everything: its kept terms (`keptTerms`), each with the dictionary terms it matches, and the
   * bounded work (`QueryWork`). For tests and benches; `search` does the same.
   */
  queryPlan(query: string): { terms: string[]; query: QueryTerm[]; work: QueryWork } {
    return this.resolveQuery(query, this.queryWords.of(query), this.base);
  }

  /**
   * The query's terms, resolved, within the bounds of `LIMITS.search` (issue 25): at most
   * `maxQueryTerms`, the most informative (`keptTerms`), resolved rarest first so that the
   * dictionary scans for typos (`maxTypoScans`) and the prefix and typo forms added
   * (`maxQueryExpansions`) go to the terms that count most; then in the query's order, as ranking
   * reads them. A question within the bounds resolves as it did before them.
   */
  private resolveQuery(text: string, words: readonly QueryWord[], stats: IndexStatistics): { terms: string[]; query: QueryTerm[]; work: QueryWork } {
    // Each term's pages looked up once a search: the sort below asked for them at every comparison.
    const pages = new Map<string, number>();
    const df = (t: string): number => {
      let n = pages.get(t);
      if (n === undefined) {
        const entry = this.index.entry(t);
        n = entry === undefined ? 0 : stats.df(entry);
        pages.set(t, n);
      }
      return n;
    };
    const analysed: string[] = [];
    for (const w of words) {
      for (const t of w.terms) analysed.push(t);
      appendAll(analysed, this.unwrittenCjkWords(w.raw, df));
    }
    const terms = keptTerms([...new Set(analysed.flatMap((t) => this.compoundParts(t, df) ?? [t]))], LIMITS.search.maxQueryTerms, df);
    const work = new QueryWork(LIMITS.search.maxTypoScans, LIMITS.search.maxQueryExpansions);
    if (terms.length === 0) return { terms, query: [], work };
    // Rarest first for the budget: terms the pages hold by fewest pages, then the others in order.
    const dfs = terms.map(df);
    const order = terms.map((_, at) => at).sort((a, b) => rarer(dfs[a] as number, dfs[b] as number) || a - b);
    const resolved = resolveTerms(this.index, stats, order.map((at) => terms[at] as string), this.ranking, this.joinedWords(words, stats), this.abbreviations, this.paraphrases, this.resolved.terms(stats, this.index.version), work, this.translations);
    const query: QueryTerm[] = new Array<QueryTerm>(terms.length);
    order.forEach((at, i) => (query[at] = resolved[i] as QueryTerm));
    const negated = this.negatedTerms(text);
    // A new term, not the resolved one: `resolved` keeps those for later questions.
    if (negated.size > 0) query.forEach((q, at) => negated.has(terms[at] as string) && (query[at] = { ...q, titleFactor: this.ranking.negatedTitleWeight }));
    return { terms, query, work };
  }

  /**
   * The translation table's Chinese, Japanese and Korean words in a query word (`cjkTableWords`)
   * that the reader's pages never write, as terms, after the word's own: each then stands in for
   * its English words (`resolveTerms`). A word is written when the site has its term, or every
   * term the analyzer makes of it (the segmenter cuts 密钥 as 密 + 钥 on pages as in questions):
   * a site in the question's language answers in its own words, as before the table had them.
   */
  private unwrittenCjkWords(raw: string, df: (term: string) => number): string[] {
    const out: string[] = [];
    for (const word of cjkTableWords(raw)) {
      const t = this.analyzer.term(word);
      if (t === null || !this.translations.has(t) || df(t) > 0 || this.analyzer.terms(word).every((p) => df(p) > 0)) continue;
      out.push(t);
    }
    return out;
  }

  /** The terms only the question's negations hold (`negation.ts`): none for most questions. */
  private negatedTerms(text: string): ReadonlySet<string> {
    const { negated, rest } = negationScopes(text);
    if (negated === "") return NONE;
    const kept = new Set(this.analyzer.terms(rest));
    return new Set(this.analyzer.terms(negated).filter((t) => !kept.has(t)));
  }

  /**
   * The page units a search may score, one flag per unit id: those in the request's version and
   * language whose variant is the one the reader's class gets (`variantFor`, which also says
   * whether the class may read the page: a class is what the reader's `canRead` says of every
   * access rule). Made at the first search of a kind after a change and kept until the next:
   * ranking then reads a byte per candidate page instead of following its entry, placement and
   * rule, which were a third of a search's time at 10,000 pages.
   */
  private acceptedUnits(req: SearchRequest, readerClass: ReaderClass | undefined): Uint8Array {
    const key = JSON.stringify([readerClass?.key ?? null, req.version ?? null, req.language ?? null]);
    let flags = this.scopes.get(key);
    if (flags !== undefined) return flags;
    const readable = readerClass?.readable;
    flags = new Uint8Array(this.byId.length);
    for (let id = 0; id < this.byId.length; id++) {
      const unit = this.byId[id];
      if (unit !== undefined && inScope(this.placed(unit.entry, readerClass?.key), req.version, req.language) && variantFor(unit.entry, readable) === unit.variant) flags[id] = 1;
    }
    this.scopes.set(key, flags);
    return flags;
  }

  /** A page's place for a reader class (`ReaderPlacements`; undefined: a reader of everything). */
  private placed(entry: IndexedPage, readerKey: string | undefined): PagePlacement | undefined {
    return this.placements.of(readerKey, entry.page.path, entry.placement);
  }

  /** A stamp for this search's title decisions, the arrays grown to every unit id. */
  private nextTitleStamp(): number {
    if (this.titleStamps.length < this.byId.length) {
      this.titleStamps = new Uint32Array(Math.max(this.byId.length, 2 * this.titleStamps.length));
      this.titleNamed = new Uint8Array(this.titleStamps.length);
      this.titleStamp = 0;
    }
    if (++this.titleStamp === 0xffffffff) {
      this.titleStamps.fill(0);
      this.titleStamp = 1;
    }
    return this.titleStamp;
  }

  /** Counts `entry`'s outline (`template-pages.ts`) when it has one, is no endpoint page and
   *  every reader of it reads the same text. */
  private countTemplate(entry: IndexedPage): void {
    const only = entry.variants[0];
    if (this.templates === undefined || only === undefined || entry.variants.length > 1 || !entry.complete || entry.above.length > 0 || isApiPage(entry.page)) return;
    const outline = outlineOf(only.sections);
    if (outline !== undefined) this.templates.add(entry, entry.rule, outline, entry.page.title);
  }

  /**
   * Each page's weight as a template's or not (`template-pages.ts`), once the pages of a sync are
   * indexed: whether an outline is a template's is the whole site's count. Only the pages of the
   * outlines the sync added to or removed from are weighed again; after a restore, every page is
   * counted once first. Endpoint pages keep their own weight.
   */
  private weighTemplates(): void {
    if (this.templates === undefined) {
      this.templates = new TemplatePages();
      for (const entry of this.byPath.values()) this.countTemplate(entry);
    }
    const weight = this.ranking.templatePageWeight;
    for (const [entry, template] of this.templates.changed(this.ranking.templatePages)) {
      for (const v of entry.variants) this.setPrior(v.id, template ? weight : 1);
    }
  }

  private setPrior(id: number, value: number): void {
    if (id >= this.priors.length) {
      const grown = new Float64Array(Math.max(id + 1, this.priors.length * 2));
      grown.set(this.priors);
      this.priors = grown;
    }
    this.priors[id] = value;
  }

  /**
   * The top `limit` pages (ties with the last included) as hits, best first, each with its other
   * versions folded in when `branches` is given: the top's twins are scored whatever they score
   * (`twinCandidates`), so a hit lists every version the query matches, not only those the top's
   * cut happens to keep; a group of such twins alone is no hit (better pages were cut for the
   * top). `top` is how many pages the top held.
   */
  private rankAndFold(stats: IndexStatistics, query: QueryTerm[], accepted: Uint8Array, prior: PagePriors, limit: number, branches: ReaderBranches | undefined, preferred: string | undefined) {
    let top: ReadonlySet<number> | undefined;
    let scoredTop: readonly RankedPage[] = [];
    const also =
      branches !== undefined
        ? (scored: readonly RankedPage[]) => {
            scoredTop = scored;
            const kept = this.firstClasses(scored, limit, classes as Int32Array);
            const pages = kept.map((r) => r.page);
            top = new Set(pages);
            return { top: kept, more: this.twinCandidates(pages, branches) };
          }
        : undefined;
    // Folding, the top is of classes (the copies of a page in every branch, `twinIndex`): each
    // takes one place, so a top of `limit` holds about `limit` hits after folding.
    const table = branches !== undefined ? this.twinIndex(branches) : undefined;
    const classes = table?.classes;
    const all = rankPages(this.index, stats, query, accepted, this.ranking, this.scratch, prior, limit, also, classes);
    // The top's last place (0 when it holds every class the query matches): other versions are
    // listed down to `twinWindow` below it.
    // Of the whole top, before `firstClasses` kept its first classes: the window below its last
    // place is the same whichever of the tied classes were kept.
    const classBest = new Map<number, number>();
    if (classes !== undefined) {
      for (const r of scoredTop) {
        const cls = classes[r.page] as number;
        classBest.set(cls, Math.max(classBest.get(cls) ?? 0, r.score));
      }
    }
    const topSize = classBest.size;
    const last = topSize >= limit ? ([...classBest.values()].sort((a, b) => b - a)[limit - 1] as number) : 0;
    const floor = last - this.ranking.twinWindow;
    // Sorted by score, then path: by each unit's place in path order (`pathOrderOf`), not by
    // comparing paths (thousands of copies tie on a versioned site).
    const order = this.pathOrderOf();
    const ranked = all
      .filter((r) => top?.has(r.page) !== false || r.score >= floor)
      .map((r) => {
        const { entry, variant } = this.byId[r.page] as UnitOf;
        const v = entry.variants[variant] as IndexedVariant;
        const twin = branches !== undefined ? this.twinOfUnit(r.page, branches) : undefined;
        return { section: r.section, score: round3(r.score), entry, variant: v, twin, top: top?.has(r.page) !== false, place: order[r.page] as number } satisfies RankedUnit;
      })
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score || a.place - b.place);
    // Written out: `{ ...r, twins, languageTwins }` made each hit ~1 KB (the copied shape grown by two).
    if (branches === undefined) return { hits: ranked.map((r) => ({ section: r.section, score: r.score, entry: r.entry, variant: r.variant, twin: r.twin, top: r.top, place: r.place, twins: [], languageTwins: [] })), top: all.length };
    const hits = foldVersionTwins(ranked, preferred, this.ranking.versionTwinTolerance, this.navConfig.defaultLanguage).filter(
      (r) => r.top || r.twins.some((t) => t.top) || r.languageTwins.some((t) => t.top),
    );
    if (branches.twins.languages) for (const hit of hits) this.listUnmatchedLanguages(hit, accepted, branches);
    return { hits, top: topSize };
  }

  /**
   * The top's pages of its first `limit` classes in the order results are shown (shown score,
   * then path), with every page of those classes. The top holds every page whose shown score ties
   * the last place's (`rankPages`): a question matching one common word of an unrelated site
   * ties hundreds of pages at 0.01, and folding them all was most of the slowest searches' time.
   * Those past the first `limit` classes come after the page of results in either order.
   */
  private firstClasses(scored: readonly RankedPage[], limit: number, classes: Int32Array): RankedPage[] {
    const distinct = new Set<number>();
    for (const r of scored) distinct.add(classes[r.page] as number);
    if (distinct.size <= limit) return [...scored];
    const order = this.pathOrderOf();
    const sorted = [...scored].sort((a, b) => round3(b.score) - round3(a.score) || (order[a.page] as number) - (order[b.page] as number));
    const taken = new Set<number>();
    for (const r of sorted) {
      if (taken.size >= limit) break;
      taken.add(classes[r.page] as number);
    }
    return scored.filter((r) => taken.has(classes[r.page] as number));
  }

  /** Each page unit's place when units are sorted by page path, as results are. */
  private pathOrderOf(): Int32Array {
    if (this.pathOrder !== undefined) return this.pathOrder;
    const ids = this.byId.flatMap((unit, id) => (unit !== undefined ? [id] : []));
    const pathOf = (id: number): string => (this.byId[id] as UnitOf).entry.page.path;
    ids.sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : a - b));
    const order = new Int32Array(this.byId.length);
    ids.forEach((id, place) => (order[id] = place));
    return (this.pathOrder = order);
  }

  /**
   * Add to a hit's other languages the copies at its place that match none of the query's words
   * (a Korean question rarely matches the English copy, which the asker may still want), at
   * score 0, after those that match: only copies the reader's search accepts (`accepted`), so a
   * restricted copy is never listed or counted.
   */
  private listUnmatchedLanguages(hit: RankedUnit & { languageTwins: RankedUnit[] }, accepted: Uint8Array, branches: ReaderBranches): void {
    const key = hit.twin?.language ?? -1;
    if (key < 0) return;
    const listed = new Set([hit, ...hit.languageTwins].map((m) => String(this.placed(m.entry, branches.reader)?.languages ?? "")));
    // In path order, as the matching ones tie: not in the order units were added, which an
    // edit changes (a language folder removed and put back came last; a fresh start listed it
    // in its place).
    const order = this.pathOrderOf();
    const ids = [...unitsWithKey(this.twinIndex(branches), key)].sort((a, b) => (order[a] as number) - (order[b] as number));
    for (const id of ids) {
      const unit = this.byId[id];
      if (accepted[id] !== 1 || unit === undefined) continue;
      const language = String(this.placed(unit.entry, branches.reader)?.languages ?? "");
      if (listed.has(language)) continue;
      listed.add(language);
      hit.languageTwins.push({ section: undefined, score: 0, entry: unit.entry, variant: unit.entry.variants[unit.variant] as IndexedVariant, twin: undefined, top: false, place: order[id] as number });
    }
  }

  /**
   * The page units that may be twins of the pages `top` (unit ids): those sharing a twin key or a
   * title key with one (`foldVersionTwins` decides which are), each once. The keys of every unit
   * are indexed at the first fold after a change, per reader class.
   */
  private twinCandidates(top: readonly number[], branches: ReaderBranches): number[] {
    const table = this.twinIndex(branches);
    const out: number[] = [];
    // The top's copies share their keys (35 versions of a page, one key each way): each key's
    // units are listed once.
    if (++table.stamp === 0xffffffff) {
      table.keySeen.fill(0);
      table.unitSeen.fill(0);
      table.stamp = 1;
    }
    const stamp = table.stamp;
    const take = (key: number): void => {
      if (key >= table.keySeen.length || table.keySeen[key] === stamp) return;
      table.keySeen[key] = stamp;
      for (const other of unitsWithKey(table, key)) {
        if (table.unitSeen[other] === stamp) continue;
        table.unitSeen[other] = stamp;
        out.push(other);
      }
    };
    for (const id of top) {
      const info = this.twinOfUnit(id, branches);
      if (info === undefined) continue;
      const keys = info.ids.keys;
      for (let k = 0; k < keys.length; k++) take(keys[k] as number);
      take(info.ids.title);
    }
    return out;
  }

  /**
   * Each reader class's branches depend on the navigation and its pages' rules alone: where
   * neither changed (an edit of pages' text), they are kept, and their twin tables made again
   * from the units' information where a unit is unchanged (`twinIndex`). Made afresh, an edit
   * of one page of a site of 35 versions x 4 languages cost the next search 0.3-0.9 s of
   * every caller's time, its twin rules and 25,000 units' information made again.
   */
  private keepBranches(sameNavigation: boolean, navRules: Map<string, readonly number[]>): void {
    const same = sameNavigation && sameRules(this.navRules, navRules);
    const kept = same ? [...this.branches] : [];
    if (!same) this.placements.reset(this.navConfig.navPages, navRules);
    this.navRules = navRules;
    this.branches.clear();
    for (const [key, b] of kept) {
      // A restored table numbers its keys again from the units it was made of (`replayKeys`): not kept.
      if (b.replay !== true && b.table?.made !== undefined) this.branches.set(key, { twins: b.twins, versionWords: b.versionWords, twinInfos: new Map(), before: b.table, ...(b.reader !== undefined ? { reader: b.reader } : {}) });
    }
  }

  /** The twin table of a reader's branches (`TwinTable`), made at its first fold. */
  private twinIndex(branches: ReaderBranches): TwinTable {
    if (branches.table !== undefined) return branches.table;
    const size = this.byId.length;
    const classes = new Int32Array(size);
    const infos: (TwinInfo | undefined)[] = new Array(size);
    const unitsOfKey: (number[] | undefined)[] = [];
    const file = (key: number, id: number): void => {
      const ids = unitsOfKey[key];
      if (ids === undefined) unitsOfKey[key] = [id];
      else ids.push(id);
    };
    const known = branches.twinInfos.size > 0;
    // The table of the index before this sync, under the same rules (`syncSteps`): a unit made of
    // the same variant of the same page at the same place has the same information.
    const before = branches.before;
    branches.before = undefined;
    let reused = false;
    const made: TwinTableUnits = { variants: new Array(size), pages: new Array(size), placements: new Array(size) };
    for (let id = 0; id < size; id++) {
      // Not kept by variant as well (`twinOf`): the table is what later searches read, and a map
      // entry per unit was a tenth of this pass.
      const unit = this.byId[id];
      const variant = unit === undefined ? undefined : (unit.entry.variants[unit.variant] as IndexedVariant);
      let info: TwinInfo | undefined;
      if (unit !== undefined && variant !== undefined) {
        made.variants[id] = variant;
        made.pages[id] = unit.entry.page;
        const placement = this.placed(unit.entry, branches.reader);
        made.placements[id] = placement;
        if (before?.made !== undefined && id < before.size && before.made.variants[id] === variant && before.made.pages[id] === unit.entry.page && before.made.placements[id] === placement) {
          info = twinInfoAt(before, id);
          reused = true;
        } else info = known && branches.twinInfos.has(variant) ? branches.twinInfos.get(variant) : twinInfo(unit.entry.page.path, readerTitle(unit.entry.page), placement, variant.sketch, branches.twins);
      }
      infos[id] = info;
      // Classes are compared, never counted: a unit's is its class key's number, and one without
      // twins has one of its own below 0.
      if (info === undefined) {
        classes[id] = -1 - id;
        continue;
      }
      classes[id] = info.ids.cls;
      const keys = info.ids.keys;
      for (let k = 0; k < keys.length; k++) file(keys[k] as number, id);
      file(info.ids.title, id);
    }
    // A table with units' information of a table before numbers its keys in another order than one made alone would.
    branches.table = { size, infos, classes, unitsOfKey, keySeen: new Uint32Array(branches.twins.keys.size), unitSeen: new Uint32Array(size), stamp: 0, fresh: !known && !reused, made };
    return branches.table;
  }

  private twinOfUnit(id: number, branches: ReaderBranches): TwinInfo | undefined {
    const table = branches.table;
    if (table !== undefined && id < table.size) return twinInfoAt(table, id);
    const unit = this.byId[id];
    return unit === undefined ? undefined : this.twinOf(unit.entry, unit.entry.variants[unit.variant] as IndexedVariant, branches);
  }

  /** A variant's twin information under a reader's rules, made at its first fold. */
  private twinOf(entry: IndexedPage, variant: IndexedVariant, branches: ReaderBranches): TwinInfo | undefined {
    if (branches.twinInfos.has(variant)) return branches.twinInfos.get(variant);
    if (branches.replay === true) this.replayKeys(branches);
    const info = twinInfo(entry.page.path, readerTitle(entry.page), this.placed(entry, branches.reader), variant.sketch, branches.twins);
    branches.twinInfos.set(variant, info);
    return info;
  }

  /**
   * Number a restored table's keys again (`ReaderBranches.replay`): its units' information made
   * in the order `twinIndex` made it, on a table that was `fresh`, gives each key the number it
   * had, so a unit made after the table is numbered as it would have been without the cache.
   */
  private replayKeys(branches: ReaderBranches): void {
    branches.replay = false;
    const size = branches.table?.size ?? 0;
    for (let id = 0; id < size; id++) {
      const unit = this.byId[id];
      const variant = unit === undefined ? undefined : unit.entry.variants[unit.variant];
      if (unit !== undefined && variant !== undefined) twinInfo(unit.entry.page.path, readerTitle(unit.entry.page), this.placed(unit.entry, branches.reader), variant.sketch, branches.twins);
    }
    if (branches.twins.keys.size !== branches.table?.keySeen.length) throw new Error("a restored twin table's keys were numbered otherwise");
  }

  /**
   * A reader class's versions and twin rules, from the navigation pages it may read: a version
   * holding no page it may read is not one a query can name for it, and where such pages sit
   * does not move the path segments its pages fold by (either would tell them apart from made-up
   * ones). Readers of everything share one, as do readers of the same class.
   */
  private branchesFor(readerClass: ReaderClass | undefined, languages: boolean): ReaderBranches {
    const key = branchKey(readerClass, languages);
    let branches = this.branches.get(key);
    if (branches !== undefined) return branches;
    const readable = readerClass?.readable;
    const visible = (path: string): boolean => {
      const rules = this.navRules.get(path);
      return rules !== undefined && (readable === undefined || rules.some((rule) => readable[rule] === 1));
    };
    const twins = twinRules(this.navConfig, visible, languages);
    const present = new Set<string>();
    for (const [path, placement] of this.navConfig.navPages) if (visible(path)) for (const v of scopeNames(placement, "versions")) present.add(v);
    const versionWords = this.navConfig.versions
      .filter((version) => present.has(version))
      .map((version) => {
        const segment = twins.versions.get(version)?.segment;
        // The label, its `v` form (`v6` for `v6.x`) and the path segment; not a bare number (a
        // query's "6 items" names no version).
        return { version, words: new Set([version.toLowerCase(), `v${versionKey(version)}`, ...(segment !== undefined ? [segment.toLowerCase()] : [])]) };
      });
    branches = { twins, versionWords, twinInfos: new Map(), ...(readerClass !== undefined ? { reader: readerClass.key } : {}) };
    // Few classes search a versioned site; bounded all the same.
    if (this.branches.size >= LIMITS.search.maxReaderClasses) this.branches.delete(this.branches.keys().next().value as string);
    this.branches.set(key, branches);
    return branches;
  }

  /** A section's text, and its snippet source once made (`key`: its id, or a negative key for
   *  a page with no matched section). */
  private textOf(key: number, body: () => string, stored: StoredSection): { readonly text: string; snippet?: SnippetSource } {
    let text = this.sectionTexts.get(key);
    if (text === undefined) {
      // The body only when the section is not cached: a page's text may be read from bytes (`held-text.ts`).
      text = { text: sectionText(body(), stored.start, stored.end) };
      this.sectionTexts.set(key, text);
    }
    return text;
  }

  /**
   * Words of the query that the docs write as one ("log in" -> `login`, "set up" -> `setup`,
   * "web hook" -> `webhook`): for each query term, the site's terms formed by joining it with
   * its neighbour.
   */
  /**
   * A query word the site never writes, made of two words it does (`Zugriffstoken` on a page
   * saying "Zugriff" and "Token"; German writes compounds as one word that docs often write
   * apart, and the reverse of `joinedWords`): the two words, or undefined. Each part has 4+
   * letters; a linking `s` between them is dropped (`Zugriff|s|token`); of several splits the
   * most even one. A word the site writes is never split.
   */
  private compoundParts(term: string, df: (term: string) => number): string[] | undefined {
    if (term.length < 2 * MIN_COMPOUND_PART + 1 || term.length > LIMITS.search.maxCompoundLength || !/^\p{L}+$/u.test(term)) return undefined;
    const live = (t: string | null): boolean => t !== null && df(t) > 0;
    if (live(term)) return undefined;
    let best: { parts: string[]; even: number } | undefined;
    for (let i = MIN_COMPOUND_PART; i + MIN_COMPOUND_PART <= term.length; i++) {
      const left = this.analyzer.term(term.slice(0, i));
      if (!live(left)) continue;
      for (const rest of term[i] === "s" && term.length - i - 1 >= MIN_COMPOUND_PART ? [term.slice(i), term.slice(i + 1)] : [term.slice(i)]) {
        const right = this.analyzer.term(rest);
        const even = Math.min(i, rest.length);
        if (live(right) && (best === undefined || even > best.even)) best = { parts: [left as string, right as string], even };
      }
    }
    return best?.parts;
  }

  private joinedWords(query: readonly QueryWord[], stats: IndexStatistics): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const words = query.filter((w) => w.letters);
    // Bounded by the query (issue 25): at most `maxJoinedWords` distinct joined words, each given
    // once to each of its words, however often the pair repeats.
    const seen = new Set<string>();
    for (let i = 0; i + 1 < words.length; i++) {
      const a = words[i] as QueryWord;
      const b = words[i + 1] as QueryWord;
      const joined = this.queryWords.joined(a, b);
      const entry = joined === null ? undefined : this.index.entry(joined);
      if (joined === null || entry === undefined || stats.df(entry) <= 0) continue;
      if (!seen.has(joined)) {
        if (seen.size >= LIMITS.search.maxJoinedWords) continue;
        seen.add(joined);
      }
      for (const w of [a, b]) {
        const t = w.term;
        if (t === null || t === joined) continue;
        const forms: readonly string[] = out.get(t) ?? [];
        if (!forms.includes(joined)) out.set(t, [...forms, joined]);
      }
    }
    return out;
  }

  /** Index a page: each of its variants is a page unit, the first counted in the base statistics. */
  private add(key: string, page: Page, placement: PagePlacement | undefined, above: readonly number[], fileAt: (path: string) => SiteFile | undefined): void {
    this.indexPage(this.readPage(key, page, placement, above, fileAt));
  }

  /** A page's variants and rules, its sections recorded as boilerplate candidates (`RepeatedSections`):
   *  what indexing it needs the whole site's records for (`syncSteps`). */
  private readPage(key: string, page: Page, placement: PagePlacement | undefined, above: readonly number[], fileAt: (path: string) => SiteFile | undefined): ReadPage {
    const { variants, uses, missing, complete } = this.variantsAhead?.variants.get(page) ?? pageVariants(page, fileAt, this.importsOf(page));
    const rule = this.rules.id(page.file.access);
    // Numbered now, after the page's own rule, as when a page was read and indexed at once.
    const conditions = variants.map((v) => v.condition.map((c) => ({ rule: this.rules.id(c.access), readable: c.readable })));
    // Boilerplate is counted on the page as every reader of it reads it: with no snippet of another
    // rule inlined. Counted on the first variant (every snippet in), a restricted snippet's text
    // changed how other readers' pages were indexed, and their scores told what it said.
    const everyReaders = variants.find((v) => v.condition.every((a) => !a.readable)) ?? (variants[0] as (typeof variants)[number]);
    this.repeated.record(key, readerTitle(page), placeOf(page.path, placement), rule, this.analyseVariant(page, everyReaders.expanded).analysis.prints);
    return { key, page, placement, rule, above, variants, conditions, uses, missing, complete };
  }

  /** Index a page read by `readPage`. */
  private indexPage({ key, page, placement, rule, above, variants, conditions, uses, missing, complete }: ReadPage): void {
    const entry: IndexedPage = { key, page, placement, rule, above, variants: [], conditions: [], inlined: { uses, missing }, complete, eager: variants.length };
    this.byPath.set(key, entry);
    if (!complete) this.open.add(entry);
    const pageFields = this.pageFields(page, placement);
    // The base statistics are a reader of everything's: the whole page, never one another file took the place of.
    const ids = variants.map((v, i) => this.addVariant(entry, v.expanded, conditions[i] as Condition, pageFields, i === 0 && above.length === 0));
    // Copied to their size: pushed to from empty, each had room for 17 (two arrays a page, most
    // of one item; issue 22).
    entry.variants = entry.variants.slice();
    entry.conditions = entry.conditions.slice();
    // Once all are in: which variant a class gets is decided among them all.
    for (const id of ids) this.classes.track(id, 1);
    this.countTemplate(entry);
  }

  /** A page's own fields (title, description, place) as a term sequence: each field's terms in
   *  schema order, -1 between them. */
  private pageFields(page: Page, placement: PagePlacement | undefined): Int32Array {
    // Titles and descriptions as readers see them (`&#x5F;meta` is `_meta`).
    const title = [readerTitle(page)];
    const sidebar = page.frontMatter.sidebarTitle;
    if (typeof sidebar === "string" && sidebar !== page.title) title.push(readerText(sidebar));
    const meta = [readerText(page.meta.description ?? ""), ...keywordsOf(page.frontMatter.keywords)];
    const context = [...(placement?.breadcrumbs ?? []), page.path.replaceAll("/", " "), this.apiPages.has(apiPageKey(page)) || typeof page.meta.openapi !== "string" ? "" : operationWords(page.meta.openapi, page.body)];
    const texts = { title: title.join("\n"), meta: meta.join("\n"), context: context.join("\n") };
    // A page's copies (its versions and products) share its title and description: their terms
    // are looked up once per text in a sync. The context holds the page's own path.
    const buf = this.buffer;
    buf.clear();
    PAGE_FIELDS.forEach(({ name }, i) => {
      if (i > 0) buf.push(-1);
      const text = texts[name];
      if (name === "context") {
        this.analyzer.appendTermIds(text, buf);
        return;
      }
      let ids = this.fieldTerms.get(text);
      if (ids === undefined) {
        const own = this.fieldBuffer;
        own.clear();
        this.analyzer.appendTermIds(text, own);
        this.fieldTerms.set(text, (ids = own.copy()));
      }
      for (let k = 0; k < ids.length; k++) buf.push(ids[k] as number);
    });
    return buf.copy();
  }

  /** Index one variant of a page as a page unit of its own (its id; the caller tells the reader
   *  classes, `ReaderClasses.track`). */
  private addVariant(entry: IndexedPage, expanded: Expanded | undefined, condition: Condition, pageFields: Int32Array, counted: boolean): number {
    const { page } = entry;
    const analysed = this.analyseVariant(page, expanded);
    const { sections } = analysed;
    const { sequences, sketch } = this.sequencesOf(analysed, entry.rule);
    const { page: id, sections: sectionIds } = this.index.addPage(pageFields, sequences, counted);
    const variant = entry.variants.length;
    const { documents } = analysed.analysis;
    entry.variants.push({ expanded, id, sections, sectionIds, sketch, documents });
    this.documented.add(id, documents);
    entry.conditions.push(condition);
    this.byId[id] = { entry, variant };
    this.unitChanges++;
    // A template's pages take their weight once the sync's pages are all in (`weighTemplates`).
    this.setPrior(id, isApiPage(page) ? this.ranking.generatedPageWeight : 1);
    return id;
  }

  /**
   * Index the variant of each page whose variants are not all indexed (past
   * `LIMITS.search.maxPageVariants`) that this reader gets, when it has none yet: made from what
   * the reader may read alone, so what it gets never depends on how many outcomes other readers
   * have (such a reader was searched on a fallback text, which told it other groups' snippets
   * were there). Each is a leaf of the page's decision tree, so no other reader's variant
   * changes. Past `LIMITS.search.maxReaderVariants` such variants of one page, the oldest is
   * dropped (and made again when its readers search). Returns whether any was added.
   */
  private ensureVariants(canRead: (access: Access) => boolean, readerClass: ReaderClass): boolean {
    if (this.open.size === 0 || this.complete.has(readerClass.key)) return false;
    let added = false;
    for (const entry of this.open) {
      const { readable } = readerClass;
      if (readable[entry.rule] !== 1 || entry.above.some((rule) => readable[rule] === 1) || pickVariant(entry.conditions, readable) !== -1) continue;
      const seen = { uses: new Map(entry.inlined.uses.map((f) => [f.path, f])), missing: new Set(entry.inlined.missing) };
      const variant = readerVariant(entry.page, this.fileAt, canRead, seen);
      // Files a reader's own expansion reached (rare: only a budget freed by a snippet left out
      // reaches more) count for whether the page is current.
      entry.inlined.uses = [...seen.uses.values()];
      entry.inlined.missing = [...seen.missing];
      if (entry.variants.length - entry.eager >= LIMITS.search.maxReaderVariants) this.dropVariant(entry, entry.eager);
      const condition = variant.condition.map((c) => ({ rule: this.rules.id(c.access), readable: c.readable }));
      this.classes.track(this.addVariant(entry, variant.expanded, condition, this.pageFields(entry.page, entry.placement), false), 1);
      added = true;
    }
    if (added) {
      this.index.prepare();
      this.forgetAnalyses();
      // Other classes' flags and hits cannot hold the new units (leaves are disjoint); this
      // class's are made after this.
      this.scopes.clear();
      this.scopeSizes = undefined;
      this.pathOrder = undefined;
      this.companions.clear();
    }
    this.complete.add(readerClass.key);
    return added;
  }

  /** Remove one variant of a page made for readers (`ensureVariants`): readers of it make it again. */
  private dropVariant(entry: IndexedPage, variant: number): void {
    const v = entry.variants[variant] as IndexedVariant;
    this.documented.remove(v.id, v.documents);
    this.classes.track(v.id, -1);
    this.index.removePage(v.id);
    this.byId[v.id] = undefined;
    this.unitChanges++;
    entry.variants.splice(variant, 1);
    entry.conditions.splice(variant, 1);
    entry.variants.forEach((w, i) => {
      this.byId[w.id] = { entry, variant: i };
    });
    // Whichever classes read it, and what was made of their searches, are to be made again.
    this.complete.clear();
    this.scopes.clear();
    this.scopeSizes = undefined;
    this.pathOrder = undefined;
    this.companions.clear();
    this.results?.clear();
    this.branches.clear();
  }

  /** Drop the bodies' analyses of a `sync` (or of `ensureVariants`), and the vocabulary of those
   *  made on this thread: nothing refers to its ids any more. */
  private forgetAnalyses(): void {
    this.analysed = new Map();
    this.analysedApi = new Map();
    this.bodies = new BodyAnalyzer();
    this.bodyTerms = new LocalTerms();
    this.fieldTerms = new Map();
  }

  /** One page of `body` added: drop its analysis after the last (see `remaining`). */
  private release(body: BodyKey): void {
    const left = (this.remaining.get(body) ?? 0) - 1;
    if (left > 0) {
      this.remaining.set(body, left);
      return;
    }
    this.remaining.delete(body);
    // Not what was indexed from it (its term sequences, as large again): made again if needed.
    if (this.analysed.delete(body) || this.analysedApi.delete(body)) this.released.add(body);
  }

  /** The bodies a page's variants are analysed as: its own, or those `bodiesToAnalyse` expanded. */
  private bodyKeysOf(page: Page): BodyKey[] {
    const ahead = this.variantsAhead?.variants.get(page);
    return ahead === undefined ? [bodyKeyOf(page)] : ahead.variants.map((v) => v.expanded?.body ?? bodyKeyOf(page));
  }

  /** Whether a page's body imports MDX (`importsMdx`), asked once per distinct body in a `sync`. */
  private importsOf(page: Page): boolean {
    return this.imports.of(page);
  }

  /** Answers to whether bodies import MDX already asked (the load's, `AnalysisDuringLoad`), for
   *  the next `bodiesToAnalyse` and `sync` to use: they hold for any site (`BodyImports`). */
  takeImports(known: BodyImports): void {
    this.imports = known;
  }

  /** The analysis of a page as a variant reads it: its body, or `expanded`'s (snippets inlined). */
  private analyseVariant(page: Page, expanded: { readonly body: string } | undefined): AnalysedBody {
    const api = isApiPage(page);
    return expanded !== undefined ? this.analyse(expanded.body, api, () => expanded.body) : this.analyse(bodyKeyOf(page), api, () => page.body);
  }

  /** A body's sections, their term sequences and its sketch: made once per distinct text in a
   *  `sync` (see `analysed`). Only what search returns is kept of a section; prose and code
   *  were needed for indexing alone. */
  private analyse(body: BodyKey, api: boolean, read: () => string): AnalysedBody {
    const cache = api ? this.analysedApi : this.analysed;
    let done = cache.get(body);
    if (done === undefined) {
      let made = this.feed?.take(body, api);
      if (made === undefined) {
        made = { analysis: this.bodies.analyse(read(), api), local: this.bodyTerms };
        this.bodyTerms.learn(this.bodies.newTerms());
      }
      const { analysis, local } = made;
      // The table is kept with the page (the rest of the analysis goes after indexing): its ints
      // in the index's blocks, not a buffer each (issue 22: ~50,000 at 50,000 distinct pages).
      const sections = { ints: this.arena.copy(analysis.table.ints) as Int32Array, strings: analysis.table.strings };
      done = { analysis, local, sections, indexed: new Map() };
      cache.set(body, done);
      if (!this.released.has(body)) this.distinct++;
    }
    return done;
  }

  /** A body's section term sequences and sketch as a page in `rule` indexes them: they differ only
   *  where a section is repeated boilerplate (`RepeatedSections`), so copies under one rule with
   *  the same sections repeated share them. */
  private sequencesOf(analysed: AnalysedBody, rule: number): { readonly sequences: readonly Int32Array[]; readonly sketch: Uint32Array } {
    const { prints, errorResponses } = analysed.analysis;
    const generation = this.repeated.generation;
    let key: string;
    if (analysed.last !== undefined && analysed.last.rule === rule && analysed.last.generation === generation) key = analysed.last.key;
    else {
      key = `${rule}:`;
      for (let i = 0; i < prints.length; i++) key += this.repeated.isRepeated(rule, prints[i] as number) ? "1" : "0";
      // Read after the answers: the first answer after a restore builds them (and moves it).
      analysed.last = { rule, generation: this.repeated.generation, key };
    }
    let done = analysed.indexed.get(key);
    if (done === undefined) {
      // One array for the text, each section's sequence a view of it: a text's sections are
      // made, indexed (copied into the index's array) and let go together, and an array each was
      // an allocation and a buffer for the collector per section (164,892 at 10,000 distinct pages).
      const { ends } = analysed.analysis;
      const n = prints.length;
      const all = new Int32Array((n === 0 ? 0 : (ends[3 * n - 1] as number)) + 2 * n);
      let at = 0;
      const sequences: Int32Array[] = [];
      // A section is indexed whole in the `code` field (its heading, prose and code in turn, not
      // in its three fields: `SECTION_FIELDS`) when it is an error response or repeated. Whether
      // it is repeated is read from the key (made of the same answers, unchanged since:
      // `generation`), not asked again (issue 22: a second lookup per section of every text).
      const marks = key.length - n;
      for (let i = 0; i < n; i++) {
        const out = this.sectionSequence(analysed, i, errorResponses[i] === 1 || key.charCodeAt(marks + i) === 49, all, at);
        at += out.length;
        sequences.push(out);
      }
      done = { sequences, sketch: this.arena.copy(sketchOf(sequences)) as Uint32Array };
      analysed.indexed.set(key, done);
    }
    return done;
  }

  /** Section `i`'s term sequence (its fields in schema order, -1 between them), its terms mapped
   *  to this index's ids in order (`LocalTerms`). Whole in the `code` field: the three texts in
   *  turn, when `sequencesOf` says. */
  private sectionSequence({ analysis: { ids, ends }, local }: AnalysedBody, i: number, codeOnly: boolean, into: Int32Array, from: number): Int32Array {
    const vocabulary = this.vocabulary;
    let at = i === 0 ? 0 : (ends[3 * i - 1] as number);
    // Its size is known (its ids and two field marks): written in place (a view of `into` from
    // `from`), not pushed to the shared buffer and copied out, which was a tenth of the index
    // thread's build.
    const out = into.subarray(from, from + (ends[3 * i + 2] as number) - at + 2);
    let o = 0;
    if (codeOnly) {
      out[o++] = -1;
      out[o++] = -1;
    }
    for (let k = 0; k < 3; k++) {
      if (k > 0 && !codeOnly) out[o++] = -1;
      const end = ends[3 * i + k] as number;
      for (; at < end; at++) out[o++] = local.global(ids[at] as number, vocabulary);
    }
    return out;
  }

  private remove(entry: IndexedPage): void {
    this.open.delete(entry);
    this.templates?.remove(entry);
    for (const v of entry.variants) {
      this.documented.remove(v.id, v.documents);
      this.classes.track(v.id, -1);
      this.index.removePage(v.id);
      this.byId[v.id] = undefined;
      this.unitChanges++;
    }
    this.byPath.delete(entry.key);
  }
}

/**
 * The variant of a page a reader with these rule flags gets (undefined: it may read every rule,
 * so the whole page), or -1 when it may not read the page.
 */
function variantFor(entry: IndexedPage, readable: Uint8Array | undefined): number {
  if (readable === undefined) return entry.above.length === 0 ? 0 : -1;
  if (readable[entry.rule] !== 1) return -1;
  if (entry.above.some((rule) => readable[rule] === 1)) return -1;
  return entry.variants.length === 1 ? 0 : pickVariant(entry.conditions, readable);
}

/** A page's key in the index: its path, or for the `k`th page of its path (one another file
 *  took the place of) its path and its file's, which no page path can equal. */
function entryKey(page: Page, k: number): string {
  return k === 0 ? page.path : `${page.path}\u0000${page.file.path}`;
}

/** The stored section of a variant's section id: its sections have consecutive ids (`InvertedIndex.addPage`),
 *  so no map from every section id is kept (820,000 entries at 50,000 pages). */
function storedSection(variant: IndexedVariant, sid: number): StoredSection | undefined {
  const k = sid - (variant.sectionIds[0] ?? 0);
  return variant.sectionIds[k] === sid && k < sectionCount(variant.sections) ? sectionAt(variant.sections, k) : undefined;
}

/** A page's path without its version and language segments (`/v2/en/webhooks` -> `/webhooks`). */
function placeOf(path: string, placement: PagePlacement | undefined): string {
  const drop = new Set([...(placement?.versions ?? []), ...(placement?.languages ?? [])].map((s) => s.toLowerCase()));
  return drop.size === 0 ? path : path.split("/").filter((seg) => !drop.has(seg.toLowerCase())).join("/");
}

/** `keywords` front matter: a list of phrases, or one comma-separated string. */
function keywordsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

/** A page's title as readers see it: character references decoded (`Files &amp; folders` is
 *  `Files & folders`). Front matter is not MDX, so `Array<string>` in a title stays as written. */
export function readerTitle(page: Page): string {
  return readerText(page.title);
}

/** Front matter text (a title, a description) with its character references decoded, and its
 *  line breaks (`<br/>`: descriptions scraped from an API spec hold them, dodo's "...pricing
 *  tiers.<br/><br/>Note&colon; ...") read as the spaces a reader sees; any other `<...>` stays. */
function readerText(text: string): string {
  const s = text.includes("<") ? text.replace(BREAK_TAG_RE, " ").replace(/ {2,}/g, " ").trim() : text;
  return s.includes("&") ? decodeHTML(s).replaceAll("\u00a0", " ") : s;
}

const BREAK_TAG_RE = /\s*<br\s*\/?>\s*/gi;

/** A stand-in for a page the cache did not keep (`restore`): never equal to a loaded page. */
function gonePage(path: string): Page {
  const file = goneFile(`${path}.gone`);
  return { file, path, title: "", meta: {} as Page["meta"], frontMatter: {}, body: "", bodyLine: 1, generated: true };
}

/** A stand-in for a file the cache did not keep: never equal to a loaded file. */
function goneFile(path: string): SiteFile {
  return { path, text: "", size: 0, mtime: new Date(0), access: {} };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * A page generated from a spec, or an MDX page documenting an operation through front matter
 * `openapi` (the platform's endpoint page, with the spec's reference shown on it): both repeat
 * the words of every guide about their endpoint (firecrawl's 21 endpoint pages came after the
 * guides until their spec was found, then crowded them), so both take the generated weight.
 */
/** An operation path as a query names it: case and trailing slashes or punctuation aside. */
function operationPathKey(path: string): string {
  return path.toLowerCase().replace(/[/.,;:?!)]+$/, "");
}

/** Letters of each part of a compound query word split by `compoundParts`. */
const MIN_COMPOUND_PART = 4;

/** `keptTerms`' order as a comparison of two terms' page counts: held terms by fewest pages, then unheld ones. */
function rarer(a: number, b: number): number {
  return (a > 0 ? 0 : 1) - (b > 0 ? 0 : 1) || a - b;
}


/** A page's place for search: navigation's, else its folder's versions and languages (`folderPlacement`). */
function searchPlacement(site: Site, page: Page): PagePlacement | undefined {
  return placementOf(site, page) ?? folderPlacement(site.config.navPages, page.path);
}

function inScope(p: PagePlacement | undefined, version: string | undefined, language: string | undefined): boolean {
  if (version !== undefined && p?.versions !== undefined && !p.versions.includes(version)) return false;
  if (language !== undefined && p?.languages !== undefined && !p.languages.includes(language)) return false;
  return true;
}

function samePlacement(a: PagePlacement | undefined, b: PagePlacement | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return (
    String(a.versions) === String(b.versions) &&
    String(a.languages) === String(b.languages) &&
    String(a.products) === String(b.products) &&
    a.hidden === b.hidden &&
    a.breadcrumbs.join("\u0000") === b.breadcrumbs.join("\u0000")
  );
}

/** Verbs naming an action an endpoint performs (`SearchIndex.actionVerbs`): not the read verbs, which
 *  questions use in other senses, nor words that are also nouns of a resource ("map", "batch"). */
const ACTION_VERBS = ["create", "add", "delete", "remove", "cancel", "update", "edit", "upload", "send", "start", "stop", "restart", "pause", "resume", "enable", "disable", "revoke", "rotate", "reset", "register", "invite", "archive", "restore", "retry", "trigger", "submit", "approve", "reject", "refund", "import", "export", "rename", "duplicate", "publish", "unpublish", "assign", "unassign", "attach", "detach", "connect", "disconnect", "subscribe", "unsubscribe"];

/**
 * The question length the ranking's scratch is sized for before a first search
 * (`RankScratch.presize`): an agent's long question, its words and their variants, is 10-16
 * terms. Its page accumulators are then made once, at the start: at 50,000 pages 26 MB, which a
 * first long question grew by doubling to 64 MB, 0.15 s of that search on this machine.
 */
const PRESIZED_QUESTION_TERMS = 16;

/** Whether an indexed page is as the site has it now: its object, its place and the snippets it
 *  inlines all are (`syncSteps` leaves it as indexed). */
function unchanged(next: WantedPage, entry: IndexedPage, fileAt: (path: string) => SiteFile | undefined): boolean {
  return next.page === entry.page && samePlacement(next.placement, entry.placement) && String(next.above) === String(entry.above) && isCurrent(entry.inlined, fileAt);
}

/** Whether two navigations' pages have the same rules (`SearchIndex.navRules`). */
function sameRules(a: ReadonlyMap<string, readonly number[]>, b: ReadonlyMap<string, readonly number[]>): boolean {
  if (a.size !== b.size) return false;
  for (const [path, rules] of a) {
    const other = b.get(path);
    if (other === undefined || other.length !== rules.length || rules.some((r, i) => other[i] !== r)) return false;
  }
  return true;
}

/** Searches ranked over which what a search made per query term (`SearchIndex.madePerTerm`) fades
 *  to a third or so: what is searched now weighs most, so that a flood of terms no page holds
 *  lifts its own estimate within a few hundred searches. Counted in searches, as `CallerTurns`'s
 *  charges halve. */
const TERM_WORK_SPAN = 256;
