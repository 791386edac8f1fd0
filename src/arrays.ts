// Array helpers that hold for any length. `a.push(...b)` and `Math.max(...b)` pass every element
// of `b` as an argument, and V8 throws "Maximum call stack size exceeded" past ~100,000 of them:
// `cat $(find / -name '*.mdx') | sort` on a real site (175,180 lines) failed that way. The lint
// forbids the spread forms in src/ (eslint.config.js); these are what to write instead.

/** Append every item of `items` to `target`, in order; returns `target`. */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The largest of `values` as `Math.max` gives it (NaN if any is NaN), or `empty` when there are none. */
export function maxOf(values: Iterable<number>, empty = -Infinity): number {
  let best = empty;
  let any = false;
  for (const v of values) {
    if (Number.isNaN(v)) return Number.NaN;
    if (!any || v > best) best = v;
    any = true;
  }
  return best;
}

/** The smallest of `values` as `Math.min` gives it (NaN if any is NaN), or `empty` when there are none. */
export function minOf(values: Iterable<number>, empty = Infinity): number {
  let best = empty;
  let any = false;
  for (const v of values) {
    if (Number.isNaN(v)) return Number.NaN;
    if (!any || v < best) best = v;
    any = true;
  }
  return best;
}
