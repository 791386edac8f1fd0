import { FIELDS_PER_UNIT } from "./fields.js";
import { MAX_TF, TF_BITS } from "./postings-codec.js";
import { packTf, packWideTf } from "./postings-codec.js";
import { PostingPool } from "./posting-pool.js";
import { Totals } from "./totals.js";
import { IdBuffer, type Vocabulary } from "./vocabulary.js";

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

/** Fields per unit (the schema's, `fields.ts`): heading, body, code for a section; title, meta,
 *  context for a page. */
export { FIELDS_PER_UNIT };

/** The three kinds of posting list (see `TermEntry`). */
export type PostingKind = "sections" | "pages" | "pageSections";

/**
 * Postings waiting to join their lists (see `InvertedIndex.commit`): unit ids and packed
 * frequencies by term, in the order they were added.
 */
class StagedPostings {
  readonly term = new IdBuffer();
  readonly unit = new IdBuffer();
  readonly tf = new IdBuffer();
  /** Wide frequencies (`pageSections`), which do not fit an id buffer's 32 bits: a plain array
   *  of doubles (V8 keeps it unboxed). */
  readonly wide: number[] = [];
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

export interface SectionUnit {
  readonly page: number;
  /** Field lengths in terms: heading, body, code. */
  readonly lengths: readonly number[];
  /** The section's term ids in reading order, for proximity: four bytes per word, and no
   *  re-reading of text at query time. */
  readonly sequence: TermSequence;
}

export interface PageUnit {
  /** Field lengths in terms: title, meta, context. */
  readonly lengths: readonly number[];
  /** Whether the unit counts in the index's own statistics (`df`, `totals`): those are the
   *  statistics of a reader who may read everything, and a page indexed in several variants
   *  for readers who may read less (see `variants.ts`) counts only in its full one. */
  readonly counted: boolean;
  /** Term ids of the title, in order. */
  readonly title: TermSequence;
  /** Summed section field lengths: heading, body, code (the page read as one document). */
  readonly sectionLengths: readonly number[];
  readonly sections: readonly number[];
  /** Distinct term ids of the page, to undo its document frequencies on removal. */
  readonly terms: readonly number[];
}

/**
 * A unit's term ids: its three fields in order, separated by -1 (`title -1 meta -1 context`
 * for a page, `heading -1 body -1 code` for a section). One array per unit, kept for proximity.
 */
export type TermSequence = Int32Array;

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
  private readonly pools: Record<PostingKind, PostingPool> = { sections: new PostingPool(false), pages: new PostingPool(false), pageSections: new PostingPool(true) };
  /** Units by id (arrays, not maps: the ranking loop looks one up per posting). */
  private readonly sectionUnits: (SectionUnit | undefined)[] = [];
  private readonly pageUnits: (PageUnit | undefined)[] = [];
  /** Title lengths by page id (`titleLength`). */
  private titleLengths = new Int32Array(0);
  /** Counted pages and sections, and their field lengths. */
  readonly totals = new Totals();
  /** Bumped on every change: field scales computed before it are stale. */
  private changes = 0;
  private nextSection = 0;
  private nextPage = 0;
  /** Postings of removed units still in the lists; compacted once they are a third of all. */
  private dead = 0;
  private live = 0;
  /** Terms in sorted order for prefix lookups, rebuilt lazily after new terms arrive. */
  private sorted: TermEntry[] | undefined;
  /** Terms by length with their letter masks, for fuzzy lookups; rebuilt likewise. */
  private byLength: TermsOfLength[] | undefined;
  /** Scratch space for counting one unit's terms by id (no allocation per unit). */
  private counts = new Int32Array(0);
  private pageMark = new Int32Array(0);
  private touched: number[] = [];
  /** Postings added since the last `commit`, by kind (undefined: none). */
  private staged: { sections: StagedPostings; pages: StagedPostings; pageSections: StagedPostings } | undefined;
  /** Scratch for one page's section frequencies summed by term (see `TermEntry.pageSections`). */
  private sums = new Float64Array(0);
  private summed: number[] = [];

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

  section(id: number): SectionUnit | undefined {
    return this.sectionUnits[id];
  }

  page(id: number): PageUnit | undefined {
    return this.pageUnits[id];
  }

  /** The number of words in a page unit's title, from a flat array (ranking asks it of every
   *  candidate page, where the unit itself would cost a cache miss). */
  titleLength(id: number): number {
    return this.titleLengths[id] as number;
  }

  /** The sections of a page unit. */
  sectionsOf(page: PageUnit): SectionUnit[] {
    return page.sections.map((id) => this.sectionUnits[id] as SectionUnit);
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
   */
  addPage(pageFields: TermSequence, sections: readonly TermSequence[], counted = true): { page: number; sections: number[] } {
    const pageId = this.nextPage++;
    const mark = pageId + 1;
    this.grow();
    const pageTerms: number[] = [];
    const sectionIds: number[] = [];
    const sectionUnits: SectionUnit[] = [];
    const sectionLengths = [0, 0, 0];
    for (const sequence of sections) {
      const id = this.nextSection++;
      sectionIds.push(id);
      const lengths = fieldLengths(sequence);
      for (let f = 0; f < FIELDS_PER_UNIT; f++) sectionLengths[f]! += lengths[f] as number;
      const unit: SectionUnit = { page: pageId, lengths, sequence };
      this.sectionUnits[id] = unit;
      sectionUnits.push(unit);
      this.post(sequence, id, "sections", mark, pageTerms);
    }
    this.postSums(pageId);
    this.post(pageFields, pageId, "pages", mark, pageTerms);
    const titleEnd = pageFields.indexOf(-1);
    const title = titleEnd === -1 ? pageFields : pageFields.subarray(0, titleEnd);
    const unit: PageUnit = { lengths: fieldLengths(pageFields), counted, title, sectionLengths, sections: sectionIds, terms: pageTerms };
    this.pageUnits[pageId] = unit;
    if (pageId >= this.titleLengths.length) {
      const grown = new Int32Array(Math.max(pageId + 1, this.titleLengths.length * 2, 1024));
      grown.set(this.titleLengths);
      this.titleLengths = grown;
    }
    this.titleLengths[pageId] = title.length;
    if (counted) {
      for (const t of pageTerms) (this.entries[t] as TermEntry).df++;
      this.totals.add(unit, sectionUnits, 1);
    }
    this.changes++;
    return { page: pageId, sections: sectionIds };
  }

  /** Remove a page and its sections. Their postings become garbage, compacted in bulk. */
  removePage(pageId: number): void {
    const page = this.pageUnits[pageId];
    if (page === undefined) return;
    if (page.counted) {
      for (const t of page.terms) (this.entries[t] as TermEntry).df--;
      this.totals.add(page, this.sectionsOf(page), -1);
    }
    for (const id of page.sections) this.sectionUnits[id] = undefined;
    this.pageUnits[pageId] = undefined;
    this.changes++;
    // Roughly the postings just orphaned: two per page term (its fields, its sections' sums),
    // plus repeats across sections.
    this.dead += 2 * page.terms.length + page.sections.length * 8;
    if (this.dead > this.live / 3) this.compact();
  }

  /**
   * Make what searches read now, not at the first search after a change: the staged postings
   * joined to their lists, the sorted terms (prefixes) and the terms by length (fuzzy matching).
   * On a 25,000-page site these took seconds, which the first search after start-up paid.
   */
  prepare(): void {
    this.commit();
    this.sortedTerms();
    this.byLength ??= groupByLength(this.entries);
  }

  private sortedTerms(): TermEntry[] {
    this.sorted ??= this.entries.filter((e): e is TermEntry => e !== undefined).sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
    return this.sorted;
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
    this.byLength ??= groupByLength(this.entries);
    const mask = letterMask(term);
    for (let len = Math.max(1, term.length - maxEdits); len <= term.length + maxEdits; len++) {
      const group = this.byLength[len];
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
    this.staged ??= { sections: new StagedPostings(), pages: new StagedPostings(), pageSections: new StagedPostings() };
    const staged = this.staged[kind];
    const sums = this.sums;
    for (let i = 0; i < touched.length; i++) {
      const t = touched[i] as number;
      let e = this.entries[t];
      if (e === undefined) {
        e = { id: t, term: this.vocabulary.term(t), df: 0 };
        this.entries[t] = e;
        this.sorted = undefined;
        this.byLength = undefined;
      }
      const base = t * FIELDS_PER_UNIT;
      const packed = packTf(counts[base] as number, counts[base + 1] as number, counts[base + 2] as number);
      staged.term.push(t);
      staged.unit.push(id);
      staged.tf.push(packed);
      if (kind === "sections") {
        // The page's sums add the section's frequencies as its posting holds them (capped).
        if (sums[base] === 0 && sums[base + 1] === 0 && sums[base + 2] === 0) this.summed.push(t);
        sums[base]! += packed & MAX_TF;
        sums[base + 1]! += (packed >>> TF_BITS) & MAX_TF;
        sums[base + 2]! += packed >>> (2 * TF_BITS);
      }
      counts[base] = 0;
      counts[base + 1] = 0;
      counts[base + 2] = 0;
      if (this.pageMark[t] !== mark) {
        this.pageMark[t] = mark;
        pageTerms.push(t);
      }
    }
    this.live += touched.length;
    touched.length = 0;
  }

  /** Stage a page's summed section postings (`TermEntry.pageSections`) and clear the sums. */
  private postSums(pageId: number): void {
    this.staged ??= { sections: new StagedPostings(), pages: new StagedPostings(), pageSections: new StagedPostings() };
    const staged = this.staged.pageSections;
    const sums = this.sums;
    for (const t of this.summed) {
      const base = t * FIELDS_PER_UNIT;
      staged.term.push(t);
      staged.unit.push(pageId);
      staged.wide.push(packWideTf(sums[base] as number, sums[base + 1] as number, sums[base + 2] as number));
      sums[base] = 0;
      sums[base + 1] = 0;
      sums[base + 2] = 0;
    }
    this.live += this.summed.length;
    this.summed.length = 0;
  }

  /**
   * Move staged postings into their lists, in the order they were added. Adding a site's pages
   * stages their postings, and the lists are then made at their final size at once: pushing
   * posting by posting grew every list step by step, most of what indexing allocated (and left
   * room for 16 postings in each of the many lists that hold one or two). Every read of the
   * lists commits first.
   */
  private commit(): void {
    const staged = this.staged;
    if (staged === undefined) return;
    this.staged = undefined;
    const pending = new Int32Array(this.vocabulary.size);
    const cursor = new Int32Array(this.vocabulary.size);
    for (const kind of ["sections", "pages", "pageSections"] as const) {
      const pool = this.pools[kind];
      const { term, unit, tf, wide } = staged[kind];
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
      for (let i = 0; i < term.length; i++) {
        const at = cursor[term.get(i)]!++;
        ids[at] = unit.get(i);
        values[at] = kind === "pageSections" ? (wide[i] as number) : tf.get(i);
      }
    }
    // Lists that moved (edits) leave holes; reclaimed once they are a third of a pool.
    if (this.pools.sections.wasteful || this.pools.pages.wasteful || this.pools.pageSections.wasteful) this.compact();
  }

  /** Drop postings of removed units. */
  private compact(): void {
    this.commit();
    const section = (id: number): boolean => this.sectionUnits[id] !== undefined;
    const page = (id: number): boolean => this.pageUnits[id] !== undefined;
    this.pools.sections.compact(section);
    this.pools.pages.compact(page);
    this.pools.pageSections.compact(page);
    this.live = this.pools.sections.size + this.pools.pages.size + this.pools.pageSections.size;
    this.dead = 0;
  }
}

/** The terms of one length, and each one's `letterMask`. */
interface TermsOfLength {
  readonly entries: TermEntry[];
  readonly masks: Int32Array;
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
