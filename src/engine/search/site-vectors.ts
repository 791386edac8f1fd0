import type { Access } from "../../vfs/access.js";

/**
 * Word vectors learned from the site itself (issue 24, twenty-second round): words used in like
 * places ("remove" and "delete" both sit between "to" and "the key") get near vectors, in any
 * language, with no word list and nothing to download. Random indexing: each term has a sparse
 * random index vector (`NONZERO` signed positions of `DIMENSIONS`, from a hash of the term); a
 * term's vector sums the index vectors of the terms at most `WINDOW` places from it on its line,
 * weighted 1 / distance times the neighbour's ln(pages / pages holding it). Terms seen at least
 * `MIN_USES` times get a row; rows are normalised, their mean taken away (every term shares it)
 * and normalised again.
 *
 * Learned only from pages every reader who may read the site's unrestricted pages may read (no
 * `groups`, or `public`), and used only for such readers (`SearchIndex.rank`), so no reader's
 * results reflect what a page outside their groups says. A body copied into several versions or
 * languages counts once.
 */
const DIMENSIONS = 256;
const NONZERO = 6;
const WINDOW = 2;
const MIN_USES = 10;
/** Rows normalised between two pauses of `SiteVectors.learn`. */
const ROWS_A_STEP = 1024;

/** Whether a page with this rule may teach the vectors: every reader of unrestricted pages reads it. */
export function teachesVectors(access: Access): boolean {
  return access.public === true || access.groups === undefined || access.groups.length === 0;
}

export interface VectorSource {
  readonly title: string;
  readonly description: string;
  readonly body: string;
}

function hash(s: string, seed: number): number {
  let h = 2166136261 ^ seed;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

function normalise(v: Float32Array, at: number): void {
  let s = 0;
  for (let i = 0; i < DIMENSIONS; i++) s += (v[at + i] as number) ** 2;
  const n = Math.sqrt(s) || 1;
  for (let i = 0; i < DIMENSIONS; i++) v[at + i] = (v[at + i] as number) / n;
}

/** A page's title terms and the mean vector of its title and description (`SiteVectors.pageCache`). */
export interface PageVector {
  readonly title: readonly string[];
  readonly vector: Float32Array | undefined;
}

export class SiteVectors {
  private readonly pages = new WeakMap<object, PageVector>();

  private constructor(
    private readonly rowOf: ReadonlyMap<string, number>,
    private readonly rows: Float32Array,
  ) {}

  /**
   * Learn the vectors of `sources` a page at a time: the generator pauses after each page it reads
   * and each page it counts, so a caller can learn them in slices between requests
   * (`DocsRuntime.learnVectors`: 4-41 s of CPU on a large site, never on a search's path). The
   * result is the same however it is sliced. `terms` splits a line into index terms (the
   * analyzer's, so stems and CJK segments).
   */
  static *learn(sources: Iterable<VectorSource>, terms: (line: string) => readonly string[]): Generator<undefined, SiteVectors> {
    const docs: (readonly string[])[][] = [];
    const pagesWith = new Map<string, number>();
    const uses = new Map<string, number>();
    const seenBodies = new Set<string>();
    for (const src of sources) {
      if (seenBodies.has(src.body)) continue;
      seenBodies.add(src.body);
      const seen = new Set<string>();
      const lines: (readonly string[])[] = [];
      for (const text of [src.title, src.description, src.body]) {
        for (const line of text.split("\n")) {
          const ts = terms(line);
          if (ts.length === 0) continue;
          lines.push(ts);
          for (const t of ts) {
            seen.add(t);
            uses.set(t, (uses.get(t) ?? 0) + 1);
          }
        }
      }
      for (const t of seen) pagesWith.set(t, (pagesWith.get(t) ?? 0) + 1);
      docs.push(lines);
      yield;
    }
    const rowOf = new Map<string, number>();
    for (const [t, n] of uses) if (n >= MIN_USES) rowOf.set(t, rowOf.size);
    const rows = new Float32Array(rowOf.size * DIMENSIONS);
    const pages = docs.length;
    const weights = new Map<string, { readonly idf: number; readonly at: Int32Array }>();
    const weightOf = (t: string): { readonly idf: number; readonly at: Int32Array } => {
      let w = weights.get(t);
      if (w === undefined) {
        const at = new Int32Array(NONZERO);
        for (let i = 0; i < NONZERO; i++) {
          const h = hash(t, i * 7919 + 1);
          at[i] = ((h % DIMENSIONS) + 1) * ((h & 0x10000) !== 0 ? 1 : -1);
        }
        w = { idf: Math.log(pages / (pagesWith.get(t) ?? pages)), at };
        weights.set(t, w);
      }
      return w;
    };
    for (const lines of docs) {
      for (const ts of lines) {
        for (let i = 0; i < ts.length; i++) {
          const row = rowOf.get(ts[i] as string);
          if (row === undefined) continue;
          const base = row * DIMENSIONS;
          for (let j = Math.max(0, i - WINDOW); j <= Math.min(ts.length - 1, i + WINDOW); j++) {
            if (j === i) continue;
            const { idf, at } = weightOf(ts[j] as string);
            const w = idf / Math.abs(i - j);
            if (w <= 0) continue;
            for (const p of at) rows[base + Math.abs(p) - 1] = (rows[base + Math.abs(p) - 1] as number) + (p > 0 ? w : -w);
          }
        }
      }
      yield;
    }
    const count = rowOf.size;
    const mean = new Float64Array(DIMENSIONS);
    // The rows' passes pause too: tens of thousands of rows on a large site.
    for (let r = 0; r < count; r++) {
      normalise(rows, r * DIMENSIONS);
      for (let i = 0; i < DIMENSIONS; i++) mean[i] = (mean[i] as number) + (rows[r * DIMENSIONS + i] as number);
      if (r % ROWS_A_STEP === ROWS_A_STEP - 1) yield;
    }
    for (let i = 0; i < DIMENSIONS; i++) mean[i] = (mean[i] as number) / Math.max(1, count);
    for (let r = 0; r < count; r++) {
      for (let i = 0; i < DIMENSIONS; i++) rows[r * DIMENSIONS + i] = (rows[r * DIMENSIONS + i] as number) - (mean[i] as number);
      normalise(rows, r * DIMENSIONS);
      if (r % ROWS_A_STEP === ROWS_A_STEP - 1) yield;
    }
    return new SiteVectors(rowOf, rows);
  }

  /** `make()` for `page` the first time, the same object afterwards (these vectors are made again after a change). */
  pageCache(page: object, make: () => PageVector): PageVector {
    let v = this.pages.get(page);
    if (v === undefined) {
      v = make();
      this.pages.set(page, v);
    }
    return v;
  }

  /** How many terms have a vector. */
  get size(): number {
    return this.rowOf.size;
  }

  /** The normalised mean of the vectors of `terms` that have one, or undefined if none has. */
  meanOf(terms: readonly string[]): Float32Array | undefined {
    const out = new Float32Array(DIMENSIONS);
    let n = 0;
    for (const t of terms) {
      const row = this.rowOf.get(t);
      if (row === undefined) continue;
      n++;
      for (let i = 0; i < DIMENSIONS; i++) out[i] = (out[i] as number) + (this.rows[row * DIMENSIONS + i] as number);
    }
    if (n === 0) return undefined;
    normalise(out, 0);
    return out;
  }
}

/** Cosine of two normalised vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < DIMENSIONS; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}
