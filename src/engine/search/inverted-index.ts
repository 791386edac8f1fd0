import { FIELDS_PER_UNIT } from "./fields.js";
import { MAX_TF, TF_BITS } from "./postings-codec.js";
import { packTf, packWideTf } from "./postings-codec.js";
import { PostingPool, type PostingPoolState } from "./posting-pool.js";
import type { PageUnit, SharedSections, TermSequence } from "./index-units.js";
import { Totals } from "./totals.js";
import { IdBuffer, type Vocabulary } from "./vocabulary.js";
import { ChunkedIds } from "./chunked-ids.js";
import { SequenceStore, type SequenceStoreState } from "./sequence-store.js";
import { InlineArena } from "../inline-arena.js";

/**
 * The data structure under search: an inverted index from terms to the sections and pages
 * that contain them, with per-field term frequencies and lengths for BM25F. Pages are added
 * and removed one at a time (an edit re-indexes one page, not the site).
 *
 * Two kinds of unit share one term dictionary:
 * - sections carry the fields `heading`, `body` and `code`;
 * - pages carry `title`, `meta` (description and keywords) and `context` (navigation
 *   breadcrumbs and path words), which describe the whole page.
 */

/** An `InvertedIndex` as data (`state`, `restore`). */
export interface InvertedIndexState {
  readonly entries: readonly (TermEntry | undefined)[];
  readonly pools: Readonly<Record<PostingKind, PostingPoolState>>;
  readonly sectionUnits: SectionUnitsState;
  readonly pageUnits: PageUnitsState;
  readonly titleLengths: Int32Array<ArrayBuffer>;
  /** Plain data once read back: `Totals`' fields. */
  readonly totals: Totals;
  readonly changes: number;
  readonly nextSection: number;
  readonly nextPage: number;
  readonly dead: number;
  readonly live: number;
  /**
   * The terms' ids in the order of their terms (`sortedTerms`), as made when the state was taken:
   * a start from the persistent cache takes this order instead of sorting every term again (~50
   * ms of a warm start's thread at 25,000 pages, issue 22). Checked when restored (each id a term,
   * each term after the one before); absent or not so, the terms are sorted as before.
   */
  readonly sortedIds?: Int32Array<ArrayBuffer>;
}

/**
 * Section units in columns (`InvertedIndex.state`), as page units: one term array per section
 * (24,000 at 25,000 pages) took half a second to write and as long to read back.
 */
export interface SectionUnitsState {
  readonly count: number;
  /** Per section id: its page, -1 for a removed section. */
  readonly page: Int32Array;
  /** Three per section: heading, body, code. */
  readonly lengths: Int32Array;
  /** Sections' term sequences (`SequenceStore`). */
  readonly sequences: SequenceStoreState;
}

/** `SharedSections` as data: its units by id (`SectionUnitsState`). */
export type SharedSectionsState = Omit<SharedSections, "ids"> & { readonly ids: Int32Array };

/**
 * Page units in columns (`InvertedIndex.state`): 25,000 objects with a term array each took
 * seconds to read back, flat arrays take milliseconds. A page's terms are its sections' (kept
 * once per text, in `groups`) and then its own.
 */
export interface PageUnitsState {
  readonly count: number;
  /** Per page id: its `groups` index, -1 for a removed page. */
  readonly group: Int32Array;
  readonly groups: readonly SharedSectionsState[];
  readonly counted: Uint8Array;
  /** Three per page: title, meta, context. */
  readonly lengths: Int32Array;
  /** Titles' term ids one after another, each ending at `titleEnds[page]`. */
  readonly titles: Int32Array;
  readonly titleEnds: Int32Array;
  /** The terms of a page beyond its sections', likewise. */
  readonly own: Int32Array;
  readonly ownEnds: Int32Array;
}

/** Fields per unit (the schema's, `fields.ts`): heading, body, code for a section; title, meta,
 *  context for a page. */
export { FIELDS_PER_UNIT };

/** The three kinds of posting list (see `TermEntry`). */
export type PostingKind = "sections" | "pages" | "pageSections";

/**
 * A page's own-field postings waiting to join their lists (see `InvertedIndex.commit`): terms and
 * packed frequencies, in the order they were added, and their units as runs (a unit's postings
 * are staged together: `runUnit[r]`'s end at `runEnd[r]`).
 */
class StagedPostings {
  readonly term = new ChunkedIds();
  readonly tf = new ChunkedIds();
  readonly runUnit = new IdBuffer();
  readonly runEnd = new IdBuffer();
}

/**
 * Section postings and pages' summed section postings (`pageSections`) waiting to join their
 * lists, as what makes them rather than as postings: each page added, in order, with the sections
 * it made (its text's first page) or its text's sums (a copy), and per kind the terms in the
 * order their first posting came (the order their lists are placed in; their counts are the
 * index's `pendingSections` and `pendingSums`). `commit` makes the postings again from the
 * sections' term sequences, which the index keeps anyway. Staged as postings (three ids a section
 * posting, and every text's sums held to the end) they were ~370 MB at 50,000 distinct pages,
 * held at the end of the build with the pools the commit makes: its peak (issue 22).
 */
class StagedTexts {
  readonly pages = new IdBuffer();
  /** Per staged page: the sections it made, or (a copy of a text) its text's sums. */
  readonly of: (SharedSections | SectionSums)[] = [];
  readonly sectionTerms = new IdBuffer();
  readonly sumTerms = new IdBuffer();
}

/**
 * A term of the index. Its postings are in the index's pools (`InvertedIndex.postings`), by kind:
 * - `sections`: the sections holding it, with its frequencies in their fields;
 * - `pages`: the pages holding it in their own fields (title, meta, context);
 * - `pageSections`: per page, its frequencies summed over the page's sections (`packWideTf`), so
 *   that ranking can score whole pages from one posting per page and read section postings only
 *   for the few pages that may reach the top.
 */
export interface TermEntry {
  readonly id: number;
  readonly term: string;
  /** Number of counted pages (see `PageUnit.counted`) containing the term in any field. */
  df: number;
}

/** A text's shared sections while its analysis is alive (`InvertedIndex.sharedBy`), with, once
 *  a second page takes them, their frequencies summed per term (`packWideTf`, by `group.terms`):
 *  the `pageSections` postings of each of its pages. A text's first page has its sums made at
 *  commit from the sections' sequences (`commitTexts`), so a text of one page (most of a site of
 *  distinct pages) never holds them: 12 bytes a page term, ~170 MB at 50,000 distinct pages,
 *  which the staged pages held to the end of the build (issue 22). */
interface SectionSums {
  readonly group: SharedSections;
  sums: Float64Array | undefined;
}

/** Page units as columns (`PageUnitsState`). */
function pageUnitsState(units: readonly (PageUnit | undefined)[]): PageUnitsState {
  const count = units.length;
  const groupIds = new Map<SharedSections, number>();
  const groups: SharedSectionsState[] = [];
  const group = new Int32Array(count).fill(-1);
  const counted = new Uint8Array(count);
  const lengths = new Int32Array(count * 3);
  const titleEnds = new Int32Array(count);
  const ownEnds = new Int32Array(count);
  let titleSize = 0;
  let ownSize = 0;
  let idsSize = 0;
  const sized = new Set<SharedSections>();
  for (const u of units) {
    if (u === undefined) continue;
    titleSize += u.title.length;
    ownSize += u.ownTerms.length;
    if (!sized.has(u.shared)) {
      sized.add(u.shared);
      idsSize += u.shared.ids.length;
    }
  }
  sized.clear();
  const titles = new Int32Array(titleSize);
  const own = new Int32Array(ownSize);
  // Each group's section ids a view of one array (the serializer writes a view's part alone, the
  // same bytes): 50,000 arrays of their own were ~10 MB more of a 50,000-page cache write's peak (issue 22).
  const allIds = new Int32Array(idsSize);
  let i = 0;
  let t = 0;
  let o = 0;
  for (let id = 0; id < count; id++) {
    const u = units[id];
    if (u !== undefined) {
      let g = groupIds.get(u.shared);
      if (g === undefined) {
        g = groups.length;
        const { lengths: summed, terms, users } = u.shared;
        allIds.set(u.shared.ids, i);
        groups.push({ ids: allIds.subarray(i, (i += u.shared.ids.length)), lengths: summed, terms, users });
        groupIds.set(u.shared, g);
      }
      group[id] = g;
      counted[id] = u.counted ? 1 : 0;
      for (let f = 0; f < 3; f++) lengths[id * 3 + f] = u.lengths[f] as number;
      titles.set(u.title, t);
      t += u.title.length;
      own.set(u.ownTerms, o);
      o += u.ownTerms.length;
    }
    titleEnds[id] = t;
    ownEnds[id] = o;
  }
  return { count, group, groups, counted, lengths, titles, titleEnds, own, ownEnds };
}

/** Page units from their columns, over the section units already restored (`hasSection`). */
function pageUnitsOf(s: PageUnitsState, hasSection: (id: number) => boolean): (PageUnit | undefined)[] {
  const out: (PageUnit | undefined)[] = new Array(s.count);
  // Each text's sections once, shared by its pages as when they were indexed.
  const groups = s.groups.map((g): SharedSections => {
    const ids = [...g.ids];
    for (const id of ids) if (!hasSection(id)) throw new Error("a page's section is missing from the index");
    return { ids, lengths: g.lengths, terms: g.terms, users: g.users };
  });
  let t = 0;
  let o = 0;
  for (let id = 0; id < s.count; id++) {
    const g = s.group[id] as number;
    const titleEnd = s.titleEnds[id] as number;
    const ownEnd = s.ownEnds[id] as number;
    if (g >= 0) {
      const shared = groups[g] as SharedSections;
      const lengths = [s.lengths[id * 3] as number, s.lengths[id * 3 + 1] as number, s.lengths[id * 3 + 2] as number];
      out[id] = { lengths, counted: s.counted[id] === 1, title: s.titles.subarray(t, titleEnd), sectionLengths: shared.lengths, sections: shared.ids, ownTerms: s.own.subarray(o, ownEnd), shared };
    }
    t = titleEnd;
    o = ownEnd;
  }
  return out;
}

/** Whether two term sequences are the same. */
function sameTerms(a: TermSequence, b: TermSequence): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Field lengths of a term sequence. */
function fieldLengths(seq: TermSequence): number[] {
  const lengths = [0, 0, 0];
  let f = 0;
  for (let i = 0; i < seq.length; i++) {
    if (seq[i] === -1) f++;
    else lengths[f]!++;
  }
  return lengths;
}

export class InvertedIndex {
  private readonly entries: (TermEntry | undefined)[] = [];
  /** Section units by the `sections` array given to `addPage` (a text analysed once), with the
   *  sections' summed frequencies for the text's other pages (`stageSums`). Weak: once the caller
   *  drops its array (its analysis of the text, `SearchIndex`), no page can share them again, and
   *  the sums (12 bytes a page term) go with it. */
  private readonly sharedBy = new WeakMap<readonly TermSequence[], SectionSums>();
  /**
   * Where a page's title and own terms and a text's distinct terms are kept: three small arrays a
   * page, each an `ArrayBuffer` of its own before (~150,000 at 50,000 distinct pages, ~100 bytes
   * of bookkeeping each besides their memory allocator's; issue 22). A block is freed when no
   * array in it is left, so the pages an edit removes hold theirs until then: a few KB a page.
   */
  private readonly arena = new InlineArena();
  private readonly pools: Record<PostingKind, PostingPool> = { sections: new PostingPool(false), pages: new PostingPool(false), pageSections: new PostingPool(true) };
  /** Section units in columns by id (see `index-units.ts`): each one's page (-1: none, removed)
   *  and its field lengths (`FIELDS_PER_UNIT` a section); their term sequences (removed sections
   *  leave holes, reclaimed by `compact`). */
  private sectionPage: Int32Array = new Int32Array(0);
  private sectionLengths: Int32Array = new Int32Array(0);
  private sequences = new SequenceStore();
  /** Page units by id (an array, not a map: the ranking loop looks one up per candidate). */
  private readonly pageUnits: (PageUnit | undefined)[] = [];
  /** Title lengths by page id (`titleLength`). */
  private titleLengths = new Int32Array(0);
  /** By page id, its text's number (`textKey`) and its title's (`titleKey`); by section id, the
   *  pages using the text whose first section it is (`textUsers`). Ranking reads these per
   *  candidate copy instead of following the page's unit to its text and title (a cache miss
   *  each; thousands of copies a search on a site of 35 versions x 4 languages). */
  private textKeys = new Int32Array(0);
  private titleKeys = new Int32Array(0);
  private lastSections = new Int32Array(0);
  private textUsersAt = new Int32Array(0);
  /** Title numbers by title terms, made anew once it holds many titles no page has. */
  private titleNumbers = new Map<string, number>();
  /** The title last numbered for a text's pages, and its number: a text's copies (35 versions ×
   *  4 languages) nearly all share a title, and comparing its few terms beats joining them into
   *  a key for each of 25,000 pages (a start from the cache does it for every page). Made anew
   *  with `titleNumbers`. */
  private textTitles = new WeakMap<SharedSections, { readonly title: TermSequence; readonly n: number }>();
  /** Counted pages and sections, and their field lengths. */
  readonly totals = new Totals();
  /** Bumped on every change: field scales computed before it are stale. */
  private changes = 0;
  private nextSection = 0;
  private nextPage = 0;
  /** Postings of removed units still in the lists; compacted once they are a third of all. */
  private dead = 0;
  private live = 0;
  /** Counted pages added per text whose sections' terms' document frequencies are not yet
   *  counted (`countDf`): each copy of a text added one to each of its terms' entries, ~one
   *  object write per term and copy on a site whose every version copies its pages (issue 22). */
  private readonly dfPending = new Map<SharedSections, number>();
  /** Terms in sorted order for prefix lookups, made at the first lookup. */
  private sorted: TermEntry[] | undefined;
  /** Terms by length with their letter masks, for fuzzy lookups; made likewise. */
  private byLength: TermsOfLength[] | undefined;
  /** Terms that arrived since `sorted` or `byLength` was made, to be merged into them
   *  (`placeNewTerms`): a save that brought one new word (a typo, an identifier) sorted the whole
   *  vocabulary again, 0.12-0.5 s of the thread answering every caller at 25,000 pages. */
  private newTerms: TermEntry[] = [];
  /** Scratch space for counting one unit's terms by id (no allocation per unit). */
  private counts = new Int32Array(0);
  private pageMark = new Int32Array(0);
  private touched: number[] = [];
  /** Postings added since the last `commit` (undefined: none). */
  private staged: { pages: StagedPostings; texts: StagedTexts } | undefined;
  /** By term, its section postings and summed section postings staged (`StagedTexts`); during a
   *  commit, where its next posting goes. Zero between commits for terms with none staged. */
  private pendingSections = new Int32Array(0);
  private pendingSums = new Int32Array(0);
  /** Scratch for one page's section frequencies summed by term (see `TermEntry.pageSections`). */
  private sums = new Float64Array(0);

  constructor(private readonly vocabulary: Vocabulary) {}

  /** Number of counted pages. */
  get pageCount(): number {
    return this.totals.pages;
  }

  /** Number of counted sections. */
  get sectionCount(): number {
    return this.totals.sections;
  }

  /** One past the highest section id ever used (sizes per-query scratch arrays). */
  get sectionCapacity(): number {
    return this.nextSection;
  }

  get pageCapacity(): number {
    return this.nextPage;
  }

  /** Moves on every change (statistics derived from the index compare it to know they are stale). */
  get version(): number {
    return this.changes;
  }

  /** The postings of one kind: term `t`'s list is `ids`/`values` from `start[t]` for `length[t]`. */
  postings(kind: PostingKind): PostingPool {
    this.commit();
    return this.pools[kind];
  }

  /** Memory held by the posting pools, in bytes. */
  get postingBytes(): number {
    return this.pools.sections.bytes + this.pools.pages.bytes + this.pools.pageSections.bytes;
  }

  /** Memory held by the section postings and pages' summed section postings staged since the
   *  last commit (`StagedTexts`), in bytes: ids and arrays, not the texts' sections, which their
   *  pages hold anyway (tests, the bench's memory breakdown). */
  get stagedSectionBytes(): number {
    const texts = this.staged?.texts;
    if (texts === undefined) return 0;
    let bytes = texts.pages.bytes + texts.sectionTerms.bytes + texts.sumTerms.bytes + 8 * texts.of.length;
    for (const text of texts.of) if ("group" in text) bytes += text.sums?.byteLength ?? 0;
    return bytes;
  }

  /** Whether section `id` is in the index. */
  hasSection(id: number): boolean {
    // Ids past the last section are -1 (`coverSections`), or past the array.
    return id < this.sectionPage.length && (this.sectionPage[id] as number) >= 0;
  }

  /** Field lengths of every section id, `FIELDS_PER_UNIT` each (heading, body, code); those of a
   *  removed section are stale (`hasSection`). */
  get sectionFieldLengths(): Int32Array {
    return this.sectionLengths;
  }

  /** The term sequence of a section in the index (decoded into scratch: valid until the next call). */
  sectionSequence(id: number): TermSequence {
    return this.sequences.terms(id);
  }

  page(id: number): PageUnit | undefined {
    return this.pageUnits[id];
  }

  /** The number of words in a page unit's title, from a flat array (ranking asks it of every
   *  candidate page, where the unit itself would cost a cache miss). */
  titleLength(id: number): number {
    return this.titleLengths[id] as number;
  }

  /** A number the pages of one text share (`addPage`) and no other page has: its first
   *  section's id, or -1 - its page id when it has none. */
  textKey(id: number): number {
    return this.textKeys[id] as number;
  }

  /** How many pages use the text `key` (`textKey`): 1 for a text with no sections. */
  textUsers(key: number): number {
    return key < 0 ? 1 : (this.textUsersAt[key] as number);
  }

  /** Page `id`'s last section id (meaningful when `textKey` is one). */
  lastSection(id: number): number {
    return this.lastSections[id] as number;
  }

  /** A number pages with the same title terms share, and no other page has. */
  titleKey(id: number): number {
    return this.titleKeys[id] as number;
  }

  /** Note page `id`'s text and title numbers (`textKey`, `titleKey`). */
  private keyPage(id: number, unit: PageUnit): void {
    if (id >= this.textKeys.length) {
      const size = Math.max(id + 1, this.textKeys.length * 2, 1024);
      const textKeys = new Int32Array(size);
      textKeys.set(this.textKeys);
      this.textKeys = textKeys;
      const titleKeys = new Int32Array(size);
      titleKeys.set(this.titleKeys);
      this.titleKeys = titleKeys;
      const lastSections = new Int32Array(size);
      lastSections.set(this.lastSections);
      this.lastSections = lastSections;
    }
    const first = unit.shared.ids[0];
    this.textKeys[id] = first === undefined ? -1 - id : first;
    this.lastSections[id] = unit.shared.ids[unit.shared.ids.length - 1] ?? -1;
    if (first !== undefined) this.countUsers(first, unit.shared.users);
    // Titles of pages gone are forgotten now and then: the map stays within the live pages' few.
    if (this.titleNumbers.size > 2 * this.pageUnits.length + 1024) {
      this.titleNumbers = new Map();
      this.textTitles = new WeakMap();
      this.pageUnits.forEach((u, other) => {
        if (u !== undefined && other !== id) this.titleKeys[other] = this.titleNumber(u.title);
      });
    }
    this.titleKeys[id] = this.titleNumberOf(unit);
  }

  /** `titleNumber` of a unit's title: compared with the title last numbered for its text
   *  (`textTitles`) before it is joined into a key. */
  private titleNumberOf(unit: PageUnit): number {
    const last = this.textTitles.get(unit.shared);
    if (last !== undefined && sameTerms(last.title, unit.title)) return last.n;
    const n = this.titleNumber(unit.title);
    this.textTitles.set(unit.shared, { title: unit.title, n });
    return n;
  }

  private titleNumber(title: TermSequence): number {
    const key = title.join(",");
    let n = this.titleNumbers.get(key);
    if (n === undefined) this.titleNumbers.set(key, (n = this.titleNumbers.size));
    return n;
  }

  private countUsers(firstSection: number, users: number): void {
    if (firstSection >= this.textUsersAt.length) {
      const grown = new Int32Array(Math.max(firstSection + 1, this.textUsersAt.length * 2, 1024));
      grown.set(this.textUsersAt);
      this.textUsersAt = grown;
    }
    this.textUsersAt[firstSection] = users;
  }

  /**
   * The index as data, for the persistent cache (`site-cache.ts`): terms, pools, units and
   * counts. Section units shared by pages of one text stay one object each (V8's serializer keeps
   * identity within one graph). Scratch space and lazy lookups are not kept.
   */
  state(): InvertedIndexState {
    this.commit();
    return {
      entries: this.entries,
      pools: { sections: this.pools.sections.state(), pages: this.pools.pages.state(), pageSections: this.pools.pageSections.state() },
      sectionUnits: this.sectionUnitsState(),
      pageUnits: pageUnitsState(this.pageUnits),
      titleLengths: this.titleLengths,
      totals: this.totals,
      changes: this.changes,
      nextSection: this.nextSection,
      nextPage: this.nextPage,
      dead: this.dead,
      live: this.live,
      sortedIds: Int32Array.from(this.sortedTerms(), (e) => e.id),
    };
  }

  /** Take a `state()` (into an empty index whose vocabulary was restored with it). */
  restore(state: InvertedIndexState): void {
    if (this.nextPage > 0 || this.entries.length > 0) throw new Error("an inverted index is restored only while empty");
    for (const e of state.entries) this.entries.push(e);
    for (const kind of ["sections", "pages", "pageSections"] as const) this.pools[kind].restore(state.pools[kind]);
    this.restoreSections(state.sectionUnits);
    for (const u of pageUnitsOf(state.pageUnits, (id) => this.hasSection(id))) this.pageUnits.push(u);
    this.pageUnits.forEach((u, id) => {
      if (u !== undefined) this.keyPage(id, u);
    });
    this.titleLengths = state.titleLengths;
    this.totals.restore(state.totals);
    // Later statistics must not take their memo of before for current.
    this.changes = state.changes + 1;
    this.nextSection = state.nextSection;
    this.nextPage = state.nextPage;
    this.dead = state.dead;
    this.live = state.live;
    this.sorted = state.sortedIds !== undefined ? sortedBy(this.entries, state.sortedIds) : undefined;
    this.byLength = undefined;
    this.newTerms = [];
  }

  /** Section units as columns (`SectionUnitsState`); their sequences' blocks as they are (views:
   *  a copy held 160 MB more while a 50,000-page site's cache was written, issue 22), or a copy
   *  without holes when sections were removed. */
  private sectionUnitsState(): SectionUnitsState {
    const count = this.nextSection;
    const page = this.sectionPage.slice(0, count);
    const lengths = this.sectionLengths.slice(0, count * FIELDS_PER_UNIT);
    return { count, page, lengths, sequences: this.sequences.state(count, (id) => this.hasSection(id)) };
  }

  /** Take section units' columns (`restore`): the arrays themselves, no copy. */
  private restoreSections(s: SectionUnitsState): void {
    if (s.page.length !== s.count || s.sequences.starts.length !== s.count) throw new Error("section units of different lengths");
    this.sectionPage = s.page;
    this.sectionLengths = s.lengths;
    this.sequences.restore(s.sequences);
  }

  /** Room for section ids up to `id`. */
  private coverSections(id: number): void {
    if (id >= this.sectionPage.length) {
      const size = Math.max(id + 1, this.sectionPage.length * 2, 1024);
      const grow = (a: Int32Array, per: number): Int32Array => {
        const out = new Int32Array(size * per);
        out.set(a);
        return out;
      };
      this.sectionPage = grow(this.sectionPage, 1);
      this.sectionPage.fill(-1, id);
      this.sectionLengths = grow(this.sectionLengths, FIELDS_PER_UNIT);
    }
  }

  /** Number of vocabulary ids (some may belong to no live page). */
  get vocabularySize(): number {
    return this.vocabulary.size;
  }

  /** The entry of an exact term, if any unit ever held it: whether a reader's pages still do is
   *  for its statistics to say (`IndexStatistics.df`). */
  entry(term: string): TermEntry | undefined {
    this.commit();
    const id = this.vocabulary.find(term);
    return id === undefined ? undefined : this.entries[id];
  }

  /**
   * Add a page: its own fields and its sections' fields (term ids). Returns the page id and
   * the section ids, in order. `counted`: whether it counts in the index's own statistics.
   *
   * Pages given the same `sections` array (the same text: `SearchIndex` analyses a body once per
   * sync) share their section units and section postings: a site whose every version copies the
   * same pages holds each text's sections once. What is per page stays per page: its own fields,
   * its summed section postings (copied from the first), its statistics and its hits (ranking
   * scores a page's sections right after reading them, so pages sharing them never mix).
   */
  addPage(pageFields: TermSequence, sections: readonly TermSequence[], counted = true): { page: number; sections: readonly number[] } {
    const pageId = this.nextPage++;
    const mark = pageId + 1;
    this.grow();
    const pageTerms: number[] = [];
    let built = this.sharedBy.get(sections);
    // A text whose last page left had its sections removed with it: made anew.
    if (built === undefined || built.group.users === 0) {
      const group = this.addSections(sections, pageId, mark, pageTerms);
      built = { group, sums: undefined };
      this.sharedBy.set(sections, built);
      pageTerms.length = 0;
      this.stageSums(group, group, pageId);
    } else {
      for (let i = 0; i < built.group.terms.length; i++) this.pageMark[built.group.terms[i] as number] = mark;
      built.sums ??= this.sumSections(built.group);
      this.stageSums(built.group, built, pageId);
    }
    const group = built.group;
    group.users++;
    this.post(pageFields, pageId, "pages", mark, pageTerms);
    const titleEnd = pageFields.indexOf(-1);
    // Copies (a view would keep the caller's whole array), in the index's blocks.
    const title = this.arena.ints(titleEnd === -1 ? pageFields : pageFields.subarray(0, titleEnd));
    const unit: PageUnit = { lengths: fieldLengths(pageFields), counted, title, sectionLengths: group.lengths, sections: group.ids, ownTerms: this.arena.ints(pageTerms), shared: group };
    this.pageUnits[pageId] = unit;
    if (pageId >= this.titleLengths.length) {
      const grown = new Int32Array(Math.max(pageId + 1, this.titleLengths.length * 2, 1024));
      grown.set(this.titleLengths);
      this.titleLengths = grown;
    }
    this.titleLengths[pageId] = title.length;
    this.keyPage(pageId, unit);
    if (counted) {
      this.dfPending.set(group, (this.dfPending.get(group) ?? 0) + 1);
      for (const t of pageTerms) (this.entries[t] as TermEntry).df++;
      this.totals.add(unit, 1);
    }
    this.changes++;
    return { page: pageId, sections: group.ids };
  }

  /** A text's section units and postings, made for its first page; its distinct terms are
   *  marked as `pageId`'s (`mark`). */
  private addSections(sections: readonly TermSequence[], pageId: number, mark: number, pageTerms: number[]): SharedSections {
    const ids: number[] = [];
    const lengths = [0, 0, 0];
    for (const sequence of sections) {
      const id = this.nextSection++;
      ids.push(id);
      this.coverSections(id);
      const unitLengths = fieldLengths(sequence);
      for (let f = 0; f < FIELDS_PER_UNIT; f++) {
        lengths[f]! += unitLengths[f] as number;
        this.sectionLengths[id * FIELDS_PER_UNIT + f] = unitLengths[f] as number;
      }
      this.sectionPage[id] = pageId;
      this.sequences.set(id, sequence);
      this.post(sequence, id, "sections", mark, pageTerms);
    }
    // `ids` copied to its size: pushed to, it had room for up to twice its sections (a text's, kept
    // for as long as it is indexed).
    return { ids: ids.slice(), lengths, terms: this.arena.ints(pageTerms), users: 0 };
  }

  /** A text's sections' frequencies summed per term (`packWideTf`), by `group.terms`: its pages'
   *  `pageSections` postings. */
  private sumSections(group: SharedSections): Float64Array {
    const sums = this.sums;
    for (let s = 0; s < group.ids.length; s++) this.sumSection(group.ids[s] as number, undefined, undefined, undefined);
    const out = new Float64Array(group.terms.length);
    for (let i = 0; i < group.terms.length; i++) {
      const base = (group.terms[i] as number) * FIELDS_PER_UNIT;
      out[i] = packWideTf(sums[base] as number, sums[base + 1] as number, sums[base + 2] as number);
      sums[base] = 0;
      sums[base + 1] = 0;
      sums[base + 2] = 0;
    }
    return out;
  }

  /**
   * Count section `id`'s terms from its sequence as `post` did and add its postings' frequencies
   * (capped, as the posting holds them) to `sums`; with `cursor`, also write its postings to
   * `ids` and `values` where `cursor` says (`commitTexts`).
   */
  private sumSection(id: number, cursor: Int32Array | undefined, ids: Int32Array | undefined, values: Int32Array | undefined): void {
    const { counts, touched, sums } = this;
    // The sequence decoded as `SequenceStore.terms` does, in this loop (once per section of every
    // text a build indexes).
    const block = this.sequences.blockOf(id);
    let f = 0;
    for (let i = this.sequences.startOf(id), end = this.sequences.endOf(id); i < end; ) {
      let b = block[i++] as number;
      let v = b & 0x7f;
      for (let shift = 7; b >= 0x80; shift += 7) {
        b = block[i++] as number;
        v |= (b & 0x7f) << shift;
      }
      if (v === 0) {
        f++;
        continue;
      }
      const t = v - 1;
      const base = t * FIELDS_PER_UNIT;
      if (counts[base] === 0 && counts[base + 1] === 0 && counts[base + 2] === 0) touched.push(t);
      counts[base + f]!++;
    }
    for (let i = 0; i < touched.length; i++) {
      const t = touched[i] as number;
      const base = t * FIELDS_PER_UNIT;
      const packed = packTf(counts[base] as number, counts[base + 1] as number, counts[base + 2] as number);
      if (cursor !== undefined) {
        const at = cursor[t]!++;
        ids![at] = id;
        values![at] = packed;
      }
      sums[base]! += packed & MAX_TF;
      sums[base + 1]! += (packed >>> TF_BITS) & MAX_TF;
      sums[base + 2]! += packed >>> (2 * TF_BITS);
      counts[base] = 0;
      counts[base + 1] = 0;
      counts[base + 2] = 0;
    }
    touched.length = 0;
  }

  /** Stage a page's summed section postings (`pageSections`): made at commit from its sections
   *  when it made them (`made` is its text's sections), else its text's sums (a copy). */
  private stageSums(group: SharedSections, made: SharedSections | SectionSums, pageId: number): void {
    const staged = this.stagedNow().texts;
    staged.pages.push(pageId);
    staged.of.push(made);
    const pending = this.pendingSums;
    const { terms } = group;
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i] as number;
      if ((pending[t]!++) === 0) staged.sumTerms.push(t);
    }
    this.live += terms.length;
  }

  private stagedNow(): { pages: StagedPostings; texts: StagedTexts } {
    this.staged ??= { pages: new StagedPostings(), texts: new StagedTexts() };
    return this.staged;
  }

  /** Remove a page, and its sections when no other page shares them. Their postings become
   *  garbage, compacted in bulk. Returns the ids of the sections removed with it. */
  removePage(pageId: number): readonly number[] {
    const page = this.pageUnits[pageId];
    if (page === undefined) return [];
    const group = page.shared;
    if (page.counted) {
      this.countDf();
      for (let i = 0; i < group.terms.length; i++) (this.entries[group.terms[i] as number] as TermEntry).df--;
      for (let i = 0; i < page.ownTerms.length; i++) (this.entries[page.ownTerms[i] as number] as TermEntry).df--;
      this.totals.add(page, -1);
    }
    this.pageUnits[pageId] = undefined;
    this.changes++;
    group.users--;
    if (group.ids.length > 0) this.countUsers(group.ids[0] as number, group.users);
    // Roughly the postings just orphaned: its own fields' and summed sections' (one per page
    // term), and the sections' when it was their last page.
    const terms = group.terms.length + page.ownTerms.length;
    this.dead += terms + (group.users === 0 ? terms + page.sections.length * 8 : 0);
    if (group.users === 0) {
      // A page added later with the same text makes its sections anew (`addPage`).
      for (const id of page.sections) {
        this.sectionPage[id] = -1;
        this.sequences.remove(id);
      }
    }
    if (this.dead > this.live / 3) this.compact();
    return group.users === 0 ? page.sections : [];
  }

  /**
   * Make what searches read now, not at the first search after a change: the staged postings
   * joined to their lists, the sorted terms (prefixes) and the terms by length (fuzzy matching).
   * On a 25,000-page site these took seconds, which the first search after start-up paid.
   */
  prepare(): void {
    this.commit();
    // The sequences' room for more (up to half again what a build wrote) is kept: it was never
    // written, and a large array is mapped memory whose pages are resident only once written,
    // so it costs address space, not memory. Cutting it to size was a copy of them all (165 MB
    // at 50,000 distinct pages) made at the end of the build, with the pools just made: the
    // build's peak (issue 22).
    this.sortedTerms();
    this.termsByLength();
  }

  private sortedTerms(): TermEntry[] {
    this.placeNewTerms();
    this.sorted ??= this.entries.filter((e): e is TermEntry => e !== undefined).sort(byTerm);
    return this.sorted;
  }

  private termsByLength(): TermsOfLength[] {
    this.placeNewTerms();
    this.byLength ??= groupByLength(this.entries);
    return this.byLength;
  }

  /** The terms that arrived since, placed where a sort of every entry would put them: in terms'
   *  order, and by id within their length (`groupByLength`), so lookups read what they read
   *  after a fresh build. Linear in the vocabulary, no sort of it. */
  private placeNewTerms(): void {
    if (this.newTerms.length === 0) return;
    const fresh = this.newTerms.sort(byTerm);
    this.newTerms = [];
    if (this.sorted !== undefined) this.sorted = mergeSorted(this.sorted, fresh);
    if (this.byLength === undefined) return;
    const byLength = this.byLength;
    const lists = new Map<number, TermEntry[]>();
    for (const e of fresh) {
      const list = lists.get(e.term.length);
      if (list === undefined) lists.set(e.term.length, [e]);
      else list.push(e);
    }
    for (const [len, added] of lists) byLength[len] = withEntries(byLength[len], added);
  }

  /** Terms starting with `prefix` (excluding `prefix` itself) that `live` keeps, in sorted
   *  order, at most `limit`. */
  withPrefix(prefix: string, limit: number, live: (entry: TermEntry) => boolean): TermEntry[] {
    this.commit();
    const sorted = this.sortedTerms();
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] as TermEntry).term < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: TermEntry[] = [];
    for (let i = lo; i < sorted.length && out.length < limit; i++) {
      const e = sorted[i] as TermEntry;
      if (!e.term.startsWith(prefix)) break;
      if (e.term !== prefix && live(e)) out.push(e);
    }
    return out;
  }

  /**
   * Visit every term entry that could be within `maxEdits` edits of `term` (fuzzy matching; the
   * caller measures the distance and keeps the live ones): its length differs by at most
   * `maxEdits`, and its letters by at most two per edit (an edit changes which of 32 letter
   * classes a word holds in two places at most), so most of the dictionary is skipped unread.
   */
  forEachTermNear(term: string, maxEdits: number, visit: (entry: TermEntry) => void): void {
    this.commit();
    const byLength = this.termsByLength();
    const mask = letterMask(term);
    for (let len = Math.max(1, term.length - maxEdits); len <= term.length + maxEdits; len++) {
      const group = byLength[len];
      if (group === undefined) continue;
      for (let i = 0; i < group.entries.length; i++) {
        if (popcount((group.masks[i] as number) ^ mask) <= 2 * maxEdits) visit(group.entries[i] as TermEntry);
      }
    }
  }

  /** Make the scratch arrays cover every vocabulary id. */
  private grow(): void {
    const need = this.vocabulary.size;
    if (this.pageMark.length >= need) return;
    const size = Math.max(need, this.pageMark.length * 2, 1024);
    const counts = new Int32Array(size * FIELDS_PER_UNIT);
    counts.set(this.counts);
    this.counts = counts;
    const sums = new Float64Array(size * FIELDS_PER_UNIT);
    sums.set(this.sums);
    this.sums = sums;
    const mark = new Int32Array(size);
    mark.set(this.pageMark);
    this.pageMark = mark;
    const pendingSections = new Int32Array(size);
    pendingSections.set(this.pendingSections);
    this.pendingSections = pendingSections;
    const pendingSums = new Int32Array(size);
    pendingSums.set(this.pendingSums);
    this.pendingSums = pendingSums;
  }

  private post(seq: TermSequence, id: number, kind: "sections" | "pages", mark: number, pageTerms: number[]): void {
    const counts = this.counts;
    const touched = this.touched;
    let f = 0;
    for (let i = 0; i < seq.length; i++) {
      const t = seq[i] as number;
      if (t === -1) {
        f++;
        continue;
      }
      const base = t * FIELDS_PER_UNIT;
      if (counts[base] === 0 && counts[base + 1] === 0 && counts[base + 2] === 0) touched.push(t);
      counts[base + f]!++;
    }
    const staged = this.stagedNow();
    const pending = this.pendingSections;
    for (let i = 0; i < touched.length; i++) {
      const t = touched[i] as number;
      let e = this.entries[t];
      if (e === undefined) {
        e = { id: t, term: this.vocabulary.term(t), df: 0 };
        this.entries[t] = e;
        if (this.sorted !== undefined || this.byLength !== undefined) this.newTerms.push(e);
      }
      const base = t * FIELDS_PER_UNIT;
      const packed = packTf(counts[base] as number, counts[base + 1] as number, counts[base + 2] as number);
      if (kind === "pages") {
        staged.pages.term.push(t);
        staged.pages.tf.push(packed);
      } else {
        // Counted only: the posting is made again from the section's sequence (`commitTexts`).
        if ((pending[t]!++) === 0) staged.texts.sectionTerms.push(t);
      }
      counts[base] = 0;
      counts[base + 1] = 0;
      counts[base + 2] = 0;
      if (this.pageMark[t] !== mark) {
        this.pageMark[t] = mark;
        pageTerms.push(t);
      }
    }
    if (kind === "pages" && touched.length > 0) {
      staged.pages.runUnit.push(id);
      staged.pages.runEnd.push(staged.pages.term.length);
    }
    this.live += touched.length;
    touched.length = 0;
  }

  /**
   * Move staged postings into their lists, in the order they were added. Adding a site's pages
   * stages their postings, and the lists are then made at their final size at once: pushing
   * posting by posting grew every list step by step, most of what indexing allocated (and left
   * room for 16 postings in each of the many lists that hold one or two). Every read of the
   * lists commits first.
   */
  private commit(): void {
    this.countDf();
    if (this.staged === undefined) return;
    const { pages, texts } = this.staged;
    this.staged = undefined;
    this.commitTexts(texts);
    this.commitPostings(this.pools.pages, pages);
    // Lists that moved (edits) leave holes; reclaimed once they are a third of a pool.
    if (this.pools.sections.wasteful || this.pools.pages.wasteful || this.pools.pageSections.wasteful) this.compact();
  }

  /** Count the document frequencies `addPage` left (`dfPending`), each text's terms once. Before
   *  anything reads them: every lookup of an entry commits first. */
  private countDf(): void {
    if (this.dfPending.size === 0) return;
    for (const [group, n] of this.dfPending) {
      const { terms } = group;
      for (let i = 0; i < terms.length; i++) (this.entries[terms[i] as number] as TermEntry).df += n;
    }
    this.dfPending.clear();
  }

  /** Move the staged own-field postings of pages into their lists (`commit`). */
  private commitPostings(pool: PostingPool, staged: StagedPostings): void {
    const { term, tf, runUnit, runEnd } = staged;
    const pending = new Int32Array(this.vocabulary.size);
    const cursor = new Int32Array(this.vocabulary.size);
    for (let i = 0; i < term.length; i++) pending[term.get(i)]!++;
    // The pool grows once, by what the lists that move or start here take.
    let room = 0;
    for (let i = 0; i < term.length; i++) {
      const t = term.get(i);
      if (cursor[t] !== -1) {
        room += pool.roomFor(t, pending[t] as number);
        cursor[t] = -1;
      }
    }
    pool.ensure(room);
    // Room for each list's new postings at once (a list moves at most once per commit), then
    // the postings in the order they were added.
    for (let i = 0; i < term.length; i++) {
      const t = term.get(i);
      const count = pending[t] as number;
      if (count === 0) continue;
      cursor[t] = pool.reserve(t, count);
      pool.grew(t, count);
      pending[t] = 0;
    }
    const { ids, values } = pool;
    let i = 0;
    for (let r = 0; r < runUnit.length; r++) {
      const unit = runUnit.get(r);
      for (const end = runEnd.get(r); i < end; i++) {
        const at = cursor[term.get(i)]!++;
        ids[at] = unit;
        values[at] = tf.get(i);
      }
    }
  }

  /**
   * Move the staged section postings and pages' summed section postings into their lists
   * (`StagedTexts`): room for each list's new postings, in the order its terms first came, then
   * the staged pages in order, each page that made its text's sections reading their sequences
   * again (section postings in section order, its sums as a copy's are made) and each copy
   * writing its text's sums. Sections removed since they were staged are posted too, as dead
   * postings (their sequences stay until `compact`, which commits first), as when they were
   * staged as postings: the lists are the same.
   */
  private commitTexts(staged: StagedTexts): void {
    const sectionCursor = this.pendingSections;
    const sumCursor = this.pendingSums;
    reserveLists(this.pools.sections, staged.sectionTerms, sectionCursor);
    reserveLists(this.pools.pageSections, staged.sumTerms, sumCursor);
    const { ids: sectionIds, values: sectionValues } = this.pools.sections;
    const sumPool = this.pools.pageSections;
    const { ids: sumIds, values: sumValues } = sumPool;
    const sums = this.sums;
    const { pages, of } = staged;
    for (let p = 0; p < pages.length; p++) {
      const page = pages.get(p);
      const text = of[p] as SharedSections | SectionSums;
      if ("group" in text) {
        const { terms } = text.group;
        const wide = text.sums as Float64Array;
        for (let i = 0; i < terms.length; i++) {
          const at = sumCursor[terms[i] as number]!++;
          sumIds[at] = page;
          sumValues[at] = sumPool.wideValue(wide[i] as number);
        }
        continue;
      }
      for (let s = 0; s < text.ids.length; s++) this.sumSection(text.ids[s] as number, sectionCursor, sectionIds, sectionValues);
      const { terms } = text;
      for (let i = 0; i < terms.length; i++) {
        const t = terms[i] as number;
        const base = t * FIELDS_PER_UNIT;
        const at = sumCursor[t]!++;
        sumIds[at] = page;
        sumValues[at] = sumPool.sumValue(sums[base] as number, sums[base + 1] as number, sums[base + 2] as number);
        sums[base] = 0;
        sums[base + 1] = 0;
        sums[base + 2] = 0;
      }
    }
    // Zero again for the next commit's counts.
    for (let i = 0; i < staged.sectionTerms.length; i++) sectionCursor[staged.sectionTerms.get(i)] = 0;
    for (let i = 0; i < staged.sumTerms.length; i++) sumCursor[staged.sumTerms.get(i)] = 0;
  }

  /** Drop postings of removed units. */
  private compact(): void {
    this.commit();
    const section = (id: number): boolean => this.hasSection(id);
    const page = (id: number): boolean => this.pageUnits[id] !== undefined;
    this.pools.sections.compact(section);
    this.pools.pages.compact(page);
    this.pools.pageSections.compact(page);
    this.live = this.pools.sections.size + this.pools.pages.size + this.pools.pageSections.size;
    this.dead = 0;
    if (this.sequences.holeBytes > 0) this.sequences.compact(this.nextSection, (id) => this.hasSection(id));
  }
}

/** Room in `pool` for `pending[t]` more postings of each of `terms`, placed in that order (the
 *  pool grows once, by what the lists that move or start here take); `pending[t]` is then where
 *  term `t`'s first new posting goes (`InvertedIndex.commitTexts`). */
function reserveLists(pool: PostingPool, terms: IdBuffer, pending: Int32Array): void {
  let room = 0;
  for (let i = 0; i < terms.length; i++) {
    const t = terms.get(i);
    room += pool.roomFor(t, pending[t] as number);
  }
  pool.ensure(room);
  for (let i = 0; i < terms.length; i++) {
    const t = terms.get(i);
    const count = pending[t] as number;
    pending[t] = pool.reserve(t, count);
    pool.grew(t, count);
  }
}

/**
 * The entries in the order `ids` gives, when that is every entry once in its terms' order (what
 * `sortedTerms` makes); undefined when it is not (then they are sorted).
 */
function sortedBy(entries: readonly (TermEntry | undefined)[], ids: Int32Array): TermEntry[] | undefined {
  let count = 0;
  for (const e of entries) if (e !== undefined) count++;
  if (ids.length !== count) return undefined;
  const out: TermEntry[] = new Array<TermEntry>(count);
  let before: string | undefined;
  for (let i = 0; i < count; i++) {
    const e = entries[ids[i] as number];
    // Strictly after the one before: no term twice, none out of order.
    if (e === undefined || e.id !== ids[i] || (before !== undefined && !(before < e.term))) return undefined;
    out[i] = e;
    before = e.term;
  }
  return out;
}

/** The terms of one length, and each one's `letterMask`. */
interface TermsOfLength {
  readonly entries: TermEntry[];
  readonly masks: Int32Array;
}

function byTerm(a: TermEntry, b: TermEntry): number {
  return a.term < b.term ? -1 : a.term > b.term ? 1 : 0;
}

/** Two lists in terms' order (no term in both) as one. */
function mergeSorted(sorted: readonly TermEntry[], fresh: readonly TermEntry[]): TermEntry[] {
  const out = new Array<TermEntry>(sorted.length + fresh.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++) {
    out[k] = j >= fresh.length || (i < sorted.length && (sorted[i] as TermEntry).term < (fresh[j] as TermEntry).term) ? (sorted[i++] as TermEntry) : (fresh[j++] as TermEntry);
  }
  return out;
}

/** A length's terms with `added` among them, in ids' order as `groupByLength` makes it. */
function withEntries(group: TermsOfLength | undefined, added: readonly TermEntry[]): TermsOfLength {
  const entries = [...(group?.entries ?? []), ...added].sort((a, b) => a.id - b.id);
  const masks = new Int32Array(entries.length);
  const old = group?.entries ?? [];
  // The masks already worked out are copied by position; only the added terms' are made.
  for (let k = 0, i = 0; k < entries.length; k++) {
    const e = entries[k] as TermEntry;
    masks[k] = i < old.length && old[i] === e ? (group as TermsOfLength).masks[i++] as number : letterMask(e.term);
  }
  return { entries, masks };
}

function groupByLength(entries: readonly (TermEntry | undefined)[]): TermsOfLength[] {
  const lists: TermEntry[][] = [];
  for (const e of entries) if (e !== undefined) (lists[e.term.length] ??= []).push(e);
  const out: TermsOfLength[] = [];
  lists.forEach((list, len) => {
    out[len] = { entries: list, masks: Int32Array.from(list, (e) => letterMask(e.term)) };
  });
  return out;
}

/** Which of 32 classes (code unit mod 32) a word's letters fall in, one bit each. */
function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << (word.charCodeAt(i) & 31);
  return mask;
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
