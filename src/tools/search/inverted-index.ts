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

/** Fields per unit: heading, body, code for a section; title, meta, context for a page. */
export const FIELDS_PER_UNIT = 3;

/**
 * Posting list: unit ids and, parallel, the unit's term frequencies in its three fields packed
 * into one small integer (10 bits each; see `packTf`). One number instead of three per posting
 * halves the work of building the index.
 */
export interface Postings {
  ids: number[];
  tf: number[];
}

/**
 * Postings waiting to join their lists (see `InvertedIndex.commit`): unit ids and packed
 * frequencies by term, in the order they were added.
 */
class StagedPostings {
  readonly term = new IdBuffer();
  readonly unit = new IdBuffer();
  readonly tf = new IdBuffer();
}

/** Frequencies above this count the same: BM25 saturates long before. */
const MAX_TF = 1023;

/** Three field frequencies in one SMI. */
function packTf(a: number, b: number, c: number): number {
  return Math.min(a, MAX_TF) | (Math.min(b, MAX_TF) << 10) | (Math.min(c, MAX_TF) << 20);
}

export interface TermEntry {
  readonly id: number;
  readonly term: string;
  readonly sections: Postings;
  readonly pages: Postings;
  /** Number of live pages containing the term in any field. */
  df: number;
}

export interface SectionUnit {
  readonly page: number;
  /** Field weight over BM25 length normalisation, per field: filled in by `prepare`. */
  readonly scale: Float64Array;
  /** Field lengths in terms: heading, body, code. */
  readonly lengths: readonly number[];
  /** The section's term ids in reading order, for proximity: four bytes per word, and no
   *  re-reading of text at query time. */
  readonly sequence: TermSequence;
}

export interface PageUnit {
  /** Field lengths in terms: title, meta, context. */
  readonly lengths: readonly number[];
  /** Weight over length normalisation for the page fields, then the summed section fields. */
  readonly scale: Float64Array;
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

/** What `prepare` needs to weigh fields: weights and BM25 `b` per field of each kind. */
export interface FieldScaling {
  readonly pageWeights: readonly number[];
  readonly pageB: readonly number[];
  readonly sectionWeights: readonly number[];
  readonly sectionB: readonly number[];
  readonly pageSectionB: readonly number[];
}

export class InvertedIndex {
  private readonly entries: (TermEntry | undefined)[] = [];
  /** Units by id (arrays, not maps: the ranking loop looks one up per posting). */
  private readonly sectionUnits: (SectionUnit | undefined)[] = [];
  private readonly pageUnits: (PageUnit | undefined)[] = [];
  private liveSections = 0;
  private livePages = 0;
  /** Bumped on every change; `prepare` recomputes field scales when it moved. */
  private version = 0;
  private scaledVersion = -1;
  private scaledFor: FieldScaling | undefined;
  private nextSection = 0;
  private nextPage = 0;
  private readonly sectionLengthSum = [0, 0, 0];
  private readonly pageLengthSum = [0, 0, 0];
  private readonly pageSectionLengthSum = [0, 0, 0];
  /** Postings of removed units still in the lists; compacted once they are a third of all. */
  private dead = 0;
  private live = 0;
  /** Terms in sorted order for prefix lookups, rebuilt lazily after new terms arrive. */
  private sorted: TermEntry[] | undefined;
  /** Scratch space for counting one unit's terms by id (no allocation per unit). */
  private counts = new Int32Array(0);
  private pageMark = new Int32Array(0);
  private touched: number[] = [];
  /** Postings added since the last `commit`, by kind (undefined: none). */
  private staged: { sections: StagedPostings; pages: StagedPostings } | undefined;

  constructor(private readonly vocabulary: Vocabulary) {}

  /** Number of live pages. */
  get pageCount(): number {
    return this.livePages;
  }

  /** Number of live sections. */
  get sectionCount(): number {
    return this.liveSections;
  }

  /** One past the highest section id ever used (sizes per-query scratch arrays). */
  get sectionCapacity(): number {
    return this.nextSection;
  }

  get pageCapacity(): number {
    return this.nextPage;
  }

  section(id: number): SectionUnit | undefined {
    return this.sectionUnits[id];
  }

  page(id: number): PageUnit | undefined {
    return this.pageUnits[id];
  }

  /**
   * Make every unit's field scales (weight / BM25 length norm) current. Averages move with
   * every change, so this runs at the first query after one: a pass over units, well under a
   * millisecond, instead of divisions for every posting of every query.
   */
  prepare(f: FieldScaling): void {
    this.commit();
    if (this.scaledVersion === this.version && this.scaledFor === f) return;
    const norm = (len: number, avg: number, b: number): number => (avg > 0 ? 1 - b + (b * len) / avg : 1);
    const avgSec = [0, 1, 2].map((k) => this.avgSectionLength(k));
    const avgPage = [0, 1, 2].map((k) => this.avgPageLength(k));
    const avgPageSec = [0, 1, 2].map((k) => this.avgPageSectionLength(k));
    for (const s of this.sectionUnits) {
      if (s === undefined) continue;
      for (let k = 0; k < FIELDS_PER_UNIT; k++) s.scale[k] = (f.sectionWeights[k] as number) / norm(s.lengths[k] as number, avgSec[k] as number, f.sectionB[k] as number);
    }
    for (const p of this.pageUnits) {
      if (p === undefined) continue;
      for (let k = 0; k < FIELDS_PER_UNIT; k++) {
        p.scale[k] = (f.pageWeights[k] as number) / norm(p.lengths[k] as number, avgPage[k] as number, f.pageB[k] as number);
        p.scale[FIELDS_PER_UNIT + k] = (f.sectionWeights[k] as number) / norm(p.sectionLengths[k] as number, avgPageSec[k] as number, f.pageSectionB[k] as number);
      }
    }
    this.scaledVersion = this.version;
    this.scaledFor = f;
  }

  /** Number of vocabulary ids (some may belong to no live page). */
  get vocabularySize(): number {
    return this.vocabulary.size;
  }

  /** Mean length of a section field over live sections. */
  avgSectionLength(field: number): number {
    return this.liveSections === 0 ? 0 : (this.sectionLengthSum[field] as number) / this.liveSections;
  }

  /** Mean length of a page field over live pages. */
  avgPageLength(field: number): number {
    return this.livePages === 0 ? 0 : (this.pageLengthSum[field] as number) / this.livePages;
  }

  /** Mean summed section-field length of a page (the page read as one document). */
  avgPageSectionLength(field: number): number {
    return this.livePages === 0 ? 0 : (this.pageSectionLengthSum[field] as number) / this.livePages;
  }

  /** The entry of an exact term, if some live page contains it. */
  get(term: string): TermEntry | undefined {
    this.commit();
    const id = this.vocabulary.find(term);
    const e = id === undefined ? undefined : this.entries[id];
    return e !== undefined && e.df > 0 ? e : undefined;
  }

  /**
   * Add a page: its own fields and its sections' fields (term ids). Returns the page id and
   * the section ids, in order.
   */
  addPage(pageFields: TermSequence, sections: readonly TermSequence[]): { page: number; sections: number[] } {
    const pageId = this.nextPage++;
    const mark = pageId + 1;
    this.grow();
    const pageTerms: number[] = [];
    const sectionIds: number[] = [];
    const sectionLengths = [0, 0, 0];
    for (const sequence of sections) {
      const id = this.nextSection++;
      sectionIds.push(id);
      const lengths = fieldLengths(sequence);
      for (let f = 0; f < FIELDS_PER_UNIT; f++) {
        sectionLengths[f]! += lengths[f] as number;
        this.sectionLengthSum[f]! += lengths[f] as number;
      }
      this.sectionUnits[id] = { page: pageId, scale: new Float64Array(FIELDS_PER_UNIT), lengths, sequence };
      this.liveSections++;
      this.post(sequence, id, "sections", mark, pageTerms);
    }
    const lengths = fieldLengths(pageFields);
    for (let f = 0; f < FIELDS_PER_UNIT; f++) {
      this.pageLengthSum[f]! += lengths[f] ?? 0;
      this.pageSectionLengthSum[f]! += sectionLengths[f] ?? 0;
    }
    this.post(pageFields, pageId, "pages", mark, pageTerms);
    for (const t of pageTerms) (this.entries[t] as TermEntry).df++;
    const titleEnd = pageFields.indexOf(-1);
    const title = titleEnd === -1 ? pageFields : pageFields.subarray(0, titleEnd);
    this.pageUnits[pageId] = { lengths, scale: new Float64Array(2 * FIELDS_PER_UNIT), title, sectionLengths, sections: sectionIds, terms: pageTerms };
    this.livePages++;
    this.version++;
    return { page: pageId, sections: sectionIds };
  }

  /** Remove a page and its sections. Their postings become garbage, compacted in bulk. */
  removePage(pageId: number): void {
    const page = this.pageUnits[pageId];
    if (page === undefined) return;
    for (const t of page.terms) (this.entries[t] as TermEntry).df--;
    for (const id of page.sections) {
      const s = this.sectionUnits[id] as SectionUnit;
      for (let f = 0; f < FIELDS_PER_UNIT; f++) this.sectionLengthSum[f]! -= s.lengths[f] ?? 0;
      this.sectionUnits[id] = undefined;
      this.liveSections--;
    }
    for (let f = 0; f < FIELDS_PER_UNIT; f++) {
      this.pageLengthSum[f]! -= page.lengths[f] ?? 0;
      this.pageSectionLengthSum[f]! -= page.sectionLengths[f] ?? 0;
    }
    this.pageUnits[pageId] = undefined;
    this.livePages--;
    this.version++;
    // Roughly the postings just orphaned: one per page term, plus repeats across sections.
    this.dead += page.terms.length + page.sections.length * 8;
    if (this.dead > this.live / 3) this.compact();
  }

  /** Live terms starting with `prefix` (excluding `prefix` itself), in sorted order, at most `limit`. */
  withPrefix(prefix: string, limit: number): TermEntry[] {
    this.commit();
    if (this.sorted === undefined) {
      this.sorted = this.entries.filter((e): e is TermEntry => e !== undefined).sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
    }
    const sorted = this.sorted;
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
      if (e.term !== prefix && e.df > 0) out.push(e);
    }
    return out;
  }

  /** Visit every term some live page contains (fuzzy matching must scan them). */
  forEachLiveTerm(visit: (entry: TermEntry) => void): void {
    this.commit();
    for (let i = 0; i < this.entries.length; i++) {
      const e = this.entries[i];
      if (e !== undefined && e.df > 0) visit(e);
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
    this.staged ??= { sections: new StagedPostings(), pages: new StagedPostings() };
    const staged = this.staged[kind];
    for (let i = 0; i < touched.length; i++) {
      const t = touched[i] as number;
      let e = this.entries[t];
      if (e === undefined) {
        e = { id: t, term: this.vocabulary.term(t), sections: { ids: [], tf: [] }, pages: { ids: [], tf: [] }, df: 0 };
        this.entries[t] = e;
        this.sorted = undefined;
      }
      const base = t * FIELDS_PER_UNIT;
      staged.term.push(t);
      staged.unit.push(id);
      staged.tf.push(packTf(counts[base] as number, counts[base + 1] as number, counts[base + 2] as number));
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
    for (const kind of ["sections", "pages"] as const) {
      const { term, unit, tf } = staged[kind];
      for (let i = 0; i < term.length; i++) pending[term.get(i)]!++;
      for (let i = 0; i < term.length; i++) {
        const t = term.get(i);
        const p = (this.entries[t] as TermEntry)[kind];
        const count = pending[t] as number;
        if (count > 0) {
          // First posting of this term in the batch: size its list for all of them.
          const have = p.ids.length;
          if (have === 0) {
            p.ids = listOfLength(count);
            p.tf = listOfLength(count);
          } else {
            grow(p.ids, count);
            grow(p.tf, count);
          }
          cursor[t] = have;
          pending[t] = 0;
        }
        const at = cursor[t]!++;
        p.ids[at] = unit.get(i);
        p.tf[at] = tf.get(i);
      }
    }
  }

  /** Drop postings of removed units. */
  private compact(): void {
    this.commit();
    let live = 0;
    for (const e of this.entries) {
      if (e === undefined) continue;
      live += compactList(e.sections, (id) => this.sectionUnits[id] !== undefined);
      live += compactList(e.pages, (id) => this.pageUnits[id] !== undefined);
    }
    this.live = live;
    this.dead = 0;
  }
}

/** Lists up to this long are allocated at their size; V8 makes longer `new Array(n)` slow
 *  dictionaries, so those grow by pushing (the rare term in tens of thousands of units). */
const PREALLOCATED_LIST = 16_384;

/** A list of `n` numbers, to be filled in. */
function listOfLength(n: number): number[] {
  if (n <= PREALLOCATED_LIST) return new Array<number>(n);
  const list: number[] = [];
  grow(list, n);
  return list;
}

/** Lengthen a list by `n` (pushing: setting a larger `length` can turn it into a dictionary). */
function grow(list: number[], n: number): void {
  for (let k = 0; k < n; k++) list.push(0);
}

function compactList(p: Postings, alive: (id: number) => boolean): number {
  let w = 0;
  for (let r = 0; r < p.ids.length; r++) {
    const id = p.ids[r] as number;
    if (!alive(id)) continue;
    p.ids[w] = id;
    p.tf[w] = p.tf[r] as number;
    w++;
  }
  p.ids.length = w;
  p.tf.length = w;
  return w;
}
