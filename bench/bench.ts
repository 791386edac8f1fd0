/** One measured figure, printed as a row of the `npm run bench` table. */
export interface BenchRow {
  /** Area, e.g. "search", "shell", "config". */
  readonly area: string;
  /** What was measured, e.g. "search p50 (spree, 60 queries)". */
  readonly metric: string;
  /** Our figure. */
  readonly value: number;
  readonly unit: string;
  /** The same figure for a baseline measured in the same run (e.g. Fuse.js, stock just-bash). */
  readonly baseline?: { readonly name: string; readonly value: number };
  /** The target the issue names, as text (`<= 5 ms`), and whether `value` meets it. */
  readonly target?: string;
  readonly ok?: boolean;
}

/** A benchmark suite: `run` measures and returns rows. Suites are listed in `bench/suites.ts`. */
export interface BenchSuite {
  readonly name: string;
  readonly run: (log: (message: string) => void) => Promise<BenchRow[]>;
}

/** Percentile of a sample (nearest-rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Time an async function `n` times; returns milliseconds per call. */
export async function timeMany(n: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}
