import { FIELDS_PER_UNIT, type InvertedIndex, type TermEntry } from "./inverted-index.js";
import { MAX_TF, weightedSumTf, weightedTf } from "./postings-codec.js";
import type { UnitScales } from "./statistics.js";

/**
 * Per dictionary term, the most one of its page postings adds to a page's accumulators in
 * ranking (`accumulatePages`): of its own fields (`fields`), of its sections summed (`sums`), and
 * to the bound of one section (`one`, the sums under the page's largest section scales); and
 * whether any page holds it in its title (`titled`). They bound what a page holding only some
 * query terms can score (`rankPages`' `reach`): the bound with every saturation taken as 1 was
 * so loose that the most common words of a long question were read in full for every page.
 *
 * Kept per `UnitScales` (a reader class's scales at one index version: any change makes new
 * ones), so a term's peaks cost one pass over its page postings the first time a search uses it,
 * then nothing: the words of questions recur.
 */
export class TermPeaks {
  private readonly tables = new WeakMap<UnitScales, PeakTable>();
  /** Replaced whole when the section peaks of all reader classes together pass
   *  `SECTION_PEAKS_HELD`: a site with many reader classes keeps one budget, not one each. */
  private sectionTables = new WeakMap<UnitScales, SectionPeaks>();
  private sectionsHeld = 0;

  /** `budget`: section peaks kept, in numbers (`SECTION_PEAKS_HELD`; tests give a few). */
  constructor(private readonly budget: number = SECTION_PEAKS_HELD) {}

  /** The peaks of `entry` under `scales`: `[fields, sums, one, titled (0 or 1)]`. */
  of(index: InvertedIndex, scales: UnitScales, entry: TermEntry): Float64Array {
    let table = this.tables.get(scales);
    if (table === undefined) this.tables.set(scales, (table = new PeakTable()));
    return table.of(index, scales, entry);
  }

  /** Per summed posting of `entry` (`pageSections`, in its list's order), the term's largest
   *  weighted frequency in one of that page's sections, under `scales`. */
  sections(index: InvertedIndex, scales: UnitScales, entry: TermEntry): Float32Array {
    let table = this.sectionTables.get(scales);
    if (table === undefined) this.sectionTables.set(scales, (table = new SectionPeaks()));
    const known = table.known(entry.id);
    if (known !== undefined) return known.peaks;
    return this.make(index, scales, entry, table).peaks;
  }

  /**
   * The largest of `sections` (`entry`'s largest weighted frequency in any one section, under
   * `scales`): a bound of one section's part tighter than `of`'s third number (the summed
   * postings under the page's largest section scales), for `rankPages`' `reach`. Made with the
   * section peaks and kept beside them: ranking reads the section peaks of every term of a
   * question anyway (`accumulatePages`).
   */
  sectionPeak(index: InvertedIndex, scales: UnitScales, entry: TermEntry): number {
    let table = this.sectionTables.get(scales);
    if (table === undefined) this.sectionTables.set(scales, (table = new SectionPeaks()));
    return (table.known(entry.id) ?? this.make(index, scales, entry, table)).peak;
  }

  private make(index: InvertedIndex, scales: UnitScales, entry: TermEntry, table: SectionPeaks): KeptPeaks {
    const kept = table.keep(entry.id, sectionPeaks(index, scales, entry.id));
    this.sectionsHeld += kept.peaks.length;
    if (this.sectionsHeld > this.budget) this.evict(scales, table);
    return kept;
  }

  /**
   * Back within three quarters of the budget (so that this is seldom done): the terms
   * of `current` least recently used first (never the one just made), then every other scales'
   * table. Before, all were forgotten at once: at 50,000 distinct pages a stream of questions
   * passed the budget every few hundred searches and the next ones made the peaks of every
   * common word again (29% of the stream's CPU, and 1.4 s for the search that passed it).
   */
  private evict(scales: UnitScales, current: SectionPeaks): void {
    this.sectionsHeld -= current.dropOldest(this.sectionsHeld - (this.budget * 3) / 4);
    if (this.sectionsHeld <= this.budget) return;
    this.sectionTables = new WeakMap([[scales, current]]);
    this.sectionsHeld = current.held;
  }
}

/**
 * One scales' section peaks by term id, made the first time a search uses the term (one pass
 * over the term's section list beside its summed postings), then kept, least recently used
 * first out once `TermPeaks` is past its budget.
 */
/** One term's section peaks (`TermPeaks.sections`), their largest, and its last use. */
interface KeptPeaks {
  readonly peaks: Float32Array;
  readonly peak: number;
  used: number;
}

class SectionPeaks {
  private readonly byTerm = new Map<number, KeptPeaks>();
  /** Numbers held, and a count of uses (each term's last use is stamped with it). */
  held = 0;
  private uses = 0;

  known(id: number): KeptPeaks | undefined {
    const kept = this.byTerm.get(id);
    if (kept === undefined) return undefined;
    kept.used = ++this.uses;
    return kept;
  }

  keep(id: number, peaks: Float32Array): KeptPeaks {
    let peak = 0;
    for (let r = 0; r < peaks.length; r++) if ((peaks[r] as number) > peak) peak = peaks[r] as number;
    const kept = { peaks, peak, used: ++this.uses };
    this.byTerm.set(id, kept);
    this.held += peaks.length;
    return kept;
  }

  /** Forget the least recently used terms' peaks, at least `count` numbers of them (never the
   *  last one used); how many numbers they were. */
  dropOldest(count: number): number {
    const oldest = [...this.byTerm].sort((a, b) => a[1].used - b[1].used);
    let dropped = 0;
    for (let k = 0; k < oldest.length - 1 && dropped < count; k++) {
      const [id, { peaks }] = oldest[k] as [number, KeptPeaks];
      this.byTerm.delete(id);
      dropped += peaks.length;
    }
    this.held -= dropped;
    return dropped;
  }
}

/** Section peaks kept for all reader classes together: 8 M numbers (32 MB: single precision,
 *  each rounded up), the summed postings of the words of thousands of questions on a
 *  50,000-page site (the query stream's 788 terms there: 4.75 M). Past it the least recently
 *  used are forgotten and made again as asked (one pass over a term's postings each). */
const SECTION_PEAKS_HELD = 8_000_000;

/**
 * Per summed posting of term `id`, its largest weighted frequency in one of the page's sections
 * (the page's sections have consecutive ids, `InvertedIndex.textKey` to `lastSection`). Pages
 * come in the order of the summed list and their sections mostly in the same order, so each
 * page's first section is sought forward from where the last page's ended (`seek`: steps
 * doubling, then halving); one whose sections lie before that (copies of one text share section
 * ids) is found by binary search from the list's start. A binary search over the whole list per
 * page, before, cost several passes over it at 50,000 pages.
 */
function sectionPeaks(index: InvertedIndex, scales: UnitScales, id: number): Float32Array {
  const sums = index.postings("pageSections");
  const from = sums.start[id] ?? 0;
  const out = new Float32Array(sums.length[id] ?? 0);
  const pool = index.postings("sections");
  const { ids, values } = pool;
  const start = pool.start[id] ?? 0;
  const end = start + (pool.length[id] ?? 0);
  const scale = scales.section;
  let at = start;
  for (let r = 0; r < out.length; r++) {
    const pid = sums.ids[from + r] as number;
    const first = index.textKey(pid);
    if (first < 0) continue;
    const last = index.lastSection(pid);
    at = at > start && (ids[at - 1] as number) >= first ? firstAtLeast(ids, first, start, at) : seek(ids, first, at, end);
    let peak = 0;
    for (; at < end && (ids[at] as number) <= last; at++) {
      const x = weightedTf(values[at] as number, scale, (ids[at] as number) * FIELDS_PER_UNIT);
      if (x > peak) peak = x;
    }
    out[r] = roundedUp(peak);
  }
  return out;
}

const single = new Float32Array(1);
const singleBits = new Int32Array(single.buffer);

/** The least single-precision number at or above `x` (>= 0): peaks are bounds, so never below. */
function roundedUp(x: number): number {
  single[0] = x;
  if ((single[0] as number) < x) singleBits[0]!++;
  return single[0] as number;
}

/** One scales' peaks by term id: four numbers each, and whether they are known. */
class PeakTable {
  private known = new Uint8Array(0);
  private values = new Float64Array(0);
  private readonly view = new Float64Array(4);

  of(index: InvertedIndex, scales: UnitScales, entry: TermEntry): Float64Array {
    const id = entry.id;
    if (id >= this.known.length) {
      const size = Math.max(id + 1, index.vocabularySize, this.known.length * 2, 1024);
      const known = new Uint8Array(size);
      known.set(this.known);
      const values = new Float64Array(4 * size);
      values.set(this.values);
      this.known = known;
      this.values = values;
    }
    if (this.known[id] !== 1) {
      measure(index, scales, id, this.values, 4 * id);
      this.known[id] = 1;
    }
    // Copied number by number: a `subarray` view per call was an object per query term.
    const { view, values } = this;
    const at = 4 * id;
    view[0] = values[at] as number;
    view[1] = values[at + 1] as number;
    view[2] = values[at + 2] as number;
    view[3] = values[at + 3] as number;
    return view;
  }
}

/** Scan term `id`'s page and summed postings for their largest contributions (as `accumulatePages` computes them). */
function measure(index: InvertedIndex, scales: UnitScales, id: number, out: Float64Array, at: number): void {
  const { page: pageScale, sectionMax } = scales;
  const pages = index.postings("pages");
  let fields = 0;
  let titled = 0;
  const pEnd = (pages.start[id] ?? 0) + (pages.length[id] ?? 0);
  for (let r = pages.start[id] ?? 0; r < pEnd; r++) {
    const pid = pages.ids[r] as number;
    const packed = pages.values[r] as number;
    const x = weightedTf(packed, pageScale, pid * 2 * FIELDS_PER_UNIT);
    if (x > fields) fields = x;
    if ((packed & MAX_TF) > 0) titled = 1;
  }
  const sumPool = index.postings("pageSections");
  let sums = 0;
  let one = 0;
  const sEnd = (sumPool.start[id] ?? 0) + (sumPool.length[id] ?? 0);
  for (let r = sumPool.start[id] ?? 0; r < sEnd; r++) {
    const pid = sumPool.ids[r] as number;
    const packed = sumPool.values[r] as number;
    const s = weightedSumTf(packed, sumPool.overflow, pageScale, pid * 2 * FIELDS_PER_UNIT + FIELDS_PER_UNIT);
    if (s > sums) sums = s;
    const o = weightedSumTf(packed, sumPool.overflow, sectionMax, pid * FIELDS_PER_UNIT);
    if (o > one) one = o;
  }
  out[at] = fields;
  out[at + 1] = sums;
  out[at + 2] = one;
  out[at + 3] = titled;
}

/** The first index in `from .. to` of a sorted range of `list` holding a value >= `value` (`to` if none). */
function firstAtLeast(list: Int32Array, value: number, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `firstAtLeast` from `from`, in steps doubling until one passes `value`: a few reads when the
 *  answer is near `from`, as it is for the next page's sections. */
function seek(list: Int32Array, value: number, from: number, to: number): number {
  if (from >= to || (list[from] as number) >= value) return from;
  let lo = from + 1;
  let step = 1;
  let hi = lo;
  while (hi < to && (list[hi] as number) < value) {
    lo = hi + 1;
    step *= 2;
    hi = lo + step;
  }
  return firstAtLeast(list, value, lo, Math.min(hi + 1, to));
}
