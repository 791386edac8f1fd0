import { FIELDS_PER_UNIT, type InvertedIndex, type TermEntry } from "./inverted-index.js";
import { MAX_TF, weightedTf, weightedWideTf } from "./postings-codec.js";
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

  /** The peaks of `entry` under `scales`: `[fields, sums, one, titled (0 or 1)]`. */
  of(index: InvertedIndex, scales: UnitScales, entry: TermEntry): Float64Array {
    let table = this.tables.get(scales);
    if (table === undefined) this.tables.set(scales, (table = new PeakTable()));
    return table.of(index, scales, entry);
  }

  /** Per summed posting of `entry` (`pageSections`, in its list's order), the term's largest
   *  weighted frequency in one of that page's sections, under `scales`. */
  sections(index: InvertedIndex, scales: UnitScales, entry: TermEntry): Float64Array {
    let table = this.sectionTables.get(scales);
    if (table === undefined) this.sectionTables.set(scales, (table = new SectionPeaks()));
    const known = table.known(entry.id);
    if (known !== undefined) return known;
    const peaks = sectionPeaks(index, scales, entry.id);
    if (this.sectionsHeld + peaks.length > SECTION_PEAKS_HELD) {
      this.sectionTables = new WeakMap();
      this.sectionsHeld = 0;
      this.sectionTables.set(scales, (table = new SectionPeaks()));
    }
    table.keep(entry.id, peaks);
    this.sectionsHeld += peaks.length;
    return peaks;
  }
}

/**
 * One scales' section peaks by term id, made the first time a search uses the term (a binary
 * search per summed posting in the term's section list, as `accumulateSectionsOf` reads one
 * page's), then kept until `TermPeaks` forgets them all (its budget).
 */
class SectionPeaks {
  private readonly byTerm = new Map<number, Float64Array>();

  known(id: number): Float64Array | undefined {
    return this.byTerm.get(id);
  }

  keep(id: number, peaks: Float64Array): void {
    this.byTerm.set(id, peaks);
  }
}

/** Section peaks kept for all reader classes together: 4 M numbers (32 MB), the summed postings
 *  of the words of thousands of questions on a 50,000-page site. Past it all are forgotten and
 *  made again as asked (one pass over a term's postings each). */
const SECTION_PEAKS_HELD = 4_000_000;

/** Per summed posting of term `id`, its largest weighted frequency in one of the page's sections
 *  (the page's sections have consecutive ids, `InvertedIndex.textKey` to `lastSection`). */
function sectionPeaks(index: InvertedIndex, scales: UnitScales, id: number): Float64Array {
  const sums = index.postings("pageSections");
  const from = sums.start[id] ?? 0;
  const out = new Float64Array(sums.length[id] ?? 0);
  const pool = index.postings("sections");
  const { ids, values } = pool;
  const start = pool.start[id] ?? 0;
  const end = start + (pool.length[id] ?? 0);
  const scale = scales.section;
  for (let r = 0; r < out.length; r++) {
    const pid = sums.ids[from + r] as number;
    const first = index.textKey(pid);
    if (first < 0) continue;
    const last = index.lastSection(pid);
    let lo = start;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((ids[mid] as number) < first) lo = mid + 1;
      else hi = mid;
    }
    let peak = 0;
    for (let j = lo; j < end && (ids[j] as number) <= last; j++) {
      const x = weightedTf(values[j] as number, scale, (ids[j] as number) * FIELDS_PER_UNIT);
      if (x > peak) peak = x;
    }
    out[r] = peak;
  }
  return out;
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
    const s = weightedWideTf(packed, pageScale, pid * 2 * FIELDS_PER_UNIT + FIELDS_PER_UNIT);
    if (s > sums) sums = s;
    const o = weightedWideTf(packed, sectionMax, pid * FIELDS_PER_UNIT);
    if (o > one) one = o;
  }
  out[at] = fields;
  out[at + 1] = sums;
  out[at + 2] = one;
  out[at + 3] = titled;
}
