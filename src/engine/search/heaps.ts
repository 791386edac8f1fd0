/**
 * The two orders ranking needs over candidate pages without sorting them all: the `limit`-th best
 * of many scores (`TopScores`), and pages best first when only the first few are usually taken
 * (`LargestFirst`).
 */

/** The `limit` best of the numbers added, as a min-heap: `add` returns the `limit`-th best so far
 *  (0 while there are fewer, and never below 0). Typed storage and a bulk `addAll`: a double
 *  passed to or returned from a call that is not inlined is a heap object, and the floor of the
 *  top is taken over every candidate page of a search (~10,000 at 10,000 pages: ~150 KB a search). */
export class TopScores {
  private readonly heap: Float64Array;
  private size = 0;
  constructor(readonly limit: number) {
    this.heap = new Float64Array(limit);
  }

  /** Empty, to be used again (`RankScratch.scoreTop`): a typed array made per use cost more than its use. */
  reset(): this {
    this.size = 0;
    return this;
  }

  add(x: number): number {
    this.push(x);
    return this.last();
  }

  /** `add` of `values[0 .. count)` in order; the `limit`-th best after the last. */
  addAll(values: Float64Array, count: number): number {
    for (let i = 0; i < count; i++) this.push(values[i] as number);
    return this.last();
  }

  /** `push` of `values[at]`: a fraction passed to a call not inlined is a heap object, an index is not. */
  pushAt(values: Float64Array, at: number): void {
    this.push(values[at] as number);
  }

  /** `add` without its answer (`last` when wanted): a fraction returned per call is a heap object. */
  push(x: number): void {
    const heap = this.heap;
    if (this.size < this.limit) {
      let c = this.size++;
      heap[c] = x;
      while (c > 0) {
        const parent = (c - 1) >> 1;
        const p = heap[parent] as number;
        if (p <= (heap[c] as number)) break;
        heap[parent] = heap[c] as number;
        heap[c] = p;
        c = parent;
      }
    } else if (x > (heap[0] as number)) {
      heap[0] = x;
      const size = this.size;
      for (let c = 0; ; ) {
        const l = 2 * c + 1;
        const r = l + 1;
        let m = c;
        if (l < size && (heap[l] as number) < (heap[m] as number)) m = l;
        if (r < size && (heap[r] as number) < (heap[m] as number)) m = r;
        if (m === c) break;
        const v = heap[m] as number;
        heap[m] = heap[c] as number;
        heap[c] = v;
        c = m;
      }
    }
  }

  /** The `limit`-th best so far (0 while there are fewer, never below 0). */
  last(): number {
    return this.size < this.limit ? 0 : Math.max(0, this.heap[0] as number);
  }
}

/**
 * The `limit` best classes by their best score: like `TopScores` where each class counts once, at
 * the best of the scores added for it. `add` returns the `limit`-th best class score so far (0
 * while there are fewer classes, never below 0). A class's score only rises; one outside the top
 * is at or below its last place, so it enters only by passing it. Typed storage and a bulk
 * `addAll`, as `TopScores`.
 */
export class ClassTop {
  /** The top's classes and scores, best first (`size` of them). */
  private readonly classes: Int32Array;
  private readonly scores: Float64Array;
  private size = 0;
  constructor(readonly limit: number) {
    this.classes = new Int32Array(limit);
    this.scores = new Float64Array(limit);
  }

  /** Empty, to be used again (`RankScratch.classTop`), as `TopScores.reset`. */
  reset(): this {
    this.size = 0;
    return this;
  }

  add(cls: number, x: number): number {
    this.push(cls, x);
    return this.last();
  }

  /** `add` of `classOf[ids[i]]` at `values[i]` for `i` in `0 .. count`, in order; the `limit`-th
   *  best class score after the last. */
  addAll(values: Float64Array, ids: Int32Array, classOf: Int32Array, count: number): number {
    for (let i = 0; i < count; i++) this.push(classOf[ids[i] as number] as number, values[i] as number);
    return this.last();
  }

  /** `push` of `values[at]` for `cls`, as `TopScores.pushAt`. */
  pushAt(cls: number, values: Float64Array, at: number): void {
    this.push(cls, values[at] as number);
  }

  /** `add` without its answer (`last` when wanted), as `TopScores.push`. */
  push(cls: number, x: number): void {
    const { classes, scores, limit } = this;
    // Full, and at or below the last place: whether its class is in the top or not, nothing
    // changes (a class in it scores at least the last place). Most candidates of a search end
    // here, before the look for their class among the top's.
    if (this.size >= limit && x <= (scores[this.size - 1] as number)) return;
    let at = -1;
    for (let k = 0; k < this.size; k++) {
      if (classes[k] === cls) {
        at = k;
        break;
      }
    }
    if (at >= 0) {
      if (x <= (scores[at] as number)) return;
    } else {
      if (this.size >= limit && x <= (scores[this.size - 1] as number)) return;
      if (this.size >= limit) this.size--;
      at = this.size++;
    }
    // Move it up to its place.
    while (at > 0 && (scores[at - 1] as number) < x) {
      classes[at] = classes[at - 1] as number;
      scores[at] = scores[at - 1] as number;
      at--;
    }
    classes[at] = cls;
    scores[at] = x;
  }

  /** The `limit`-th best class score so far (0 while there are fewer, never below 0). */
  last(): number {
    return this.size < this.limit ? 0 : Math.max(0, this.scores[this.size - 1] as number);
  }
}

/**
 * Ids taken largest key first: a binary max-heap made in one pass over the ids (`fill`), so that
 * taking the best few hundred of many costs less than sorting them all. Reused across queries:
 * it allocates only to grow.
 */
export class LargestFirst {
  private ids = new Int32Array(256);
  private size = 0;
  private key: Float64Array = new Float64Array(0);

  /** Start over with the ids `0..count` whose key is at least `min`. */
  fill(key: Float64Array, count: number, min: number): void {
    this.key = key;
    if (this.ids.length < count) this.ids = new Int32Array(Math.max(count, this.ids.length * 2));
    let size = 0;
    for (let id = 0; id < count; id++) if ((key[id] as number) >= min) this.ids[size++] = id;
    this.size = size;
    for (let i = (size >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  /** The id with the largest key left (-1 when none is), taken out. */
  take(): number {
    if (this.size === 0) return -1;
    const top = this.ids[0] as number;
    this.size--;
    if (this.size > 0) {
      this.ids[0] = this.ids[this.size] as number;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(at: number): void {
    const { ids, key, size } = this;
    const id = ids[at] as number;
    const k = key[id] as number;
    let i = at;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const c = r < size && (key[ids[r] as number] as number) > (key[ids[l] as number] as number) ? r : l;
      if ((key[ids[c] as number] as number) <= k) break;
      ids[i] = ids[c] as number;
      i = c;
    }
    ids[i] = id;
  }
}
