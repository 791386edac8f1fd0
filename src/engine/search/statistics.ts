import { FIELDS_PER_UNIT, type InvertedIndex, type TermEntry } from "./inverted-index.js";
import { type Averages, averages, Totals } from "./totals.js";

/**
 * The collection statistics ranking uses (page count, document frequencies, field length
 * averages), for one reader class. A reader's scores, typo corrections and prefix matches must
 * come from what it may read: statistics over the whole site would tell, by a score moving,
 * whether a restricted page holds a word. The index's own statistics are those of a reader who
 * may read everything (`BaseStatistics`); a class that may read less keeps only its difference
 * from them (`ReaderStatistics`), so a site where nothing is restricted costs nothing more.
 */
export interface IndexStatistics {
  /** Pages the class may read. */
  readonly pageCount: number;
  /** Of those, how many contain the term (0: the term does not exist for this class). */
  df(entry: TermEntry): number;
  /** Every unit's field scales under this class's length averages. */
  scales(f: FieldScaling): UnitScales;
}

/** What field scales are made of: weights and BM25 `b` per field of each kind. */
export interface FieldScaling {
  readonly pageWeights: readonly number[];
  readonly pageB: readonly number[];
  readonly sectionWeights: readonly number[];
  readonly sectionB: readonly number[];
  readonly pageSectionB: readonly number[];
}

/**
 * Field weight over BM25 length normalisation, per unit and field: `section[3 id + k]` for a
 * section's heading, body, code; `page[6 id + k]` for a page's title, meta, context, then its
 * summed section fields. Flat arrays, indexed by unit id: the ranking loop reads one per posting.
 */
export interface UnitScales {
  readonly section: Float64Array;
  readonly page: Float64Array;
  /** `sectionMax[3 id + k]`: the largest scale of field k among page `id`'s sections, which
   *  bounds what any one of them can score from the page's summed frequencies. */
  readonly sectionMax: Float64Array;
}

/** The statistics of a reader who may read everything: the index's own counts. */
export class BaseStatistics implements IndexStatistics {
  private readonly memo = new ScaleMemo();

  constructor(private readonly index: InvertedIndex) {}

  get pageCount(): number {
    return this.index.totals.pages;
  }

  df(entry: TermEntry): number {
    return entry.df;
  }

  scales(f: FieldScaling): UnitScales {
    return this.memo.get(this.index, [this.index.totals], f);
  }
}

/**
 * The statistics of a class of readers who may read less than everything: the index's counts
 * plus the difference made by the page units whose visibility differs (`visible` against
 * `PageUnit.counted`). Built once per class, then kept current unit by unit (`track`).
 */
export class ReaderStatistics implements IndexStatistics {
  private readonly delta = new Totals();
  private dfDelta = new Int32Array(0);
  private readonly memo = new ScaleMemo();

  constructor(
    private readonly index: InvertedIndex,
    private readonly visible: (page: number) => boolean,
  ) {
    for (let id = 0; id < index.pageCapacity; id++) this.track(id, 1);
  }

  get pageCount(): number {
    return this.index.totals.pages + this.delta.pages;
  }

  df(entry: TermEntry): number {
    return entry.df + (this.dfDelta[entry.id] ?? 0);
  }

  scales(f: FieldScaling): UnitScales {
    return this.memo.get(this.index, [this.index.totals, this.delta], f);
  }

  /** A page unit entered the index (sign 1, after `addPage`) or is leaving it (-1, before `removePage`). */
  track(page: number, sign: 1 | -1): void {
    const unit = this.index.page(page);
    if (unit === undefined) return;
    const differs = (this.visible(page) ? 1 : 0) - (unit.counted ? 1 : 0);
    if (differs === 0) return;
    const s = differs === sign ? 1 : -1;
    this.delta.add(unit, s);
    if (this.dfDelta.length < this.index.vocabularySize) {
      const grown = new Int32Array(Math.max(this.index.vocabularySize, this.dfDelta.length * 2));
      grown.set(this.dfDelta);
      this.dfDelta = grown;
    }
    for (const t of unit.shared.terms) this.dfDelta[t]! += s;
    for (const t of unit.ownTerms) this.dfDelta[t]! += s;
  }
}

/** Field scales, recomputed at the first query after a change (averages move with every one):
 *  a pass over units, well under a millisecond, instead of divisions for every posting. */
class ScaleMemo {
  private version = -1;
  private scaledFor: FieldScaling | undefined;
  private value: UnitScales = { section: new Float64Array(0), page: new Float64Array(0), sectionMax: new Float64Array(0) };

  get(index: InvertedIndex, parts: readonly Totals[], f: FieldScaling): UnitScales {
    if (this.version === index.version && this.scaledFor === f) return this.value;
    this.value = computeScales(index, averages(parts), f, this.value);
    this.version = index.version;
    this.scaledFor = f;
    return this.value;
  }
}

function computeScales(index: InvertedIndex, avg: Averages, f: FieldScaling, previous: UnitScales): UnitScales {
  const norm = (len: number, mean: number, b: number): number => (mean > 0 ? 1 - b + (b * len) / mean : 1);
  const section = atLeast(previous.section, index.sectionCapacity * FIELDS_PER_UNIT);
  const page = atLeast(previous.page, index.pageCapacity * 2 * FIELDS_PER_UNIT);
  const sectionMax = atLeast(previous.sectionMax, index.pageCapacity * FIELDS_PER_UNIT);
  const lengths = index.sectionFieldLengths;
  for (let id = 0; id < index.sectionCapacity; id++) {
    if (!index.hasSection(id)) continue;
    for (let k = 0; k < FIELDS_PER_UNIT; k++) {
      section[id * FIELDS_PER_UNIT + k] = (f.sectionWeights[k] as number) / norm(lengths[id * FIELDS_PER_UNIT + k] as number, avg.section[k] as number, f.sectionB[k] as number);
    }
  }
  for (let id = 0; id < index.pageCapacity; id++) {
    const p = index.page(id);
    if (p === undefined) continue;
    const o = id * 2 * FIELDS_PER_UNIT;
    const m = id * FIELDS_PER_UNIT;
    for (let k = 0; k < FIELDS_PER_UNIT; k++) {
      page[o + k] = (f.pageWeights[k] as number) / norm(p.lengths[k] as number, avg.page[k] as number, f.pageB[k] as number);
      page[o + FIELDS_PER_UNIT + k] = (f.sectionWeights[k] as number) / norm(p.sectionLengths[k] as number, avg.pageSection[k] as number, f.pageSectionB[k] as number);
      sectionMax[m + k] = 0;
    }
    // Each field's largest section scale, in one pass over the page's sections (a first search
    // makes these for every page unit: 25,000 on a versioned site, issue 22).
    const sections = p.sections;
    for (let i = 0; i < sections.length; i++) {
      const s = (sections[i] as number) * FIELDS_PER_UNIT;
      for (let k = 0; k < FIELDS_PER_UNIT; k++) sectionMax[m + k] = Math.max(sectionMax[m + k] as number, section[s + k] as number);
    }
  }
  return { section, page, sectionMax };
}

/** `array` if it holds `n` numbers, else a new one with room for edits to come (each adds units,
 *  and ids are not reused). */
function atLeast(array: Float64Array, n: number): Float64Array {
  return array.length >= n ? array : new Float64Array(Math.ceil(n * 1.25));
}
