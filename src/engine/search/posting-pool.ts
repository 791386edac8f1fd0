import { MAX_TF, packTf, packWideTf, sumFields, wideFieldTf } from "./postings-codec.js";

/**
 * Every posting list of one kind (sections, pages, or pages' summed sections) in two flat typed
 * arrays: unit ids and, parallel, packed term frequencies (`postings-codec.ts`). A term's list is
 * the range `start[t] .. start[t] + length[t]`.
 *
 * One array per term (as plain JS arrays, before) cost 16 bytes a posting plus an array's header
 * and spare capacity per term: on a 25,000-page site over half of the search index's memory. Here
 * a posting is 8 bytes, and a list that must grow past its room moves to the end of the pool,
 * leaving a hole that `compact` reclaims.
 *
 * Summed frequencies (`wide`: a page's over its sections) can pass what a small integer packs
 * (`MAX_TF` a field). They are packed as the others when they fit, and otherwise kept in the
 * pool's `overflow` (`packWideTf`) with the posting's value `-(its index + 1)`: a double per
 * posting, before, was 121 MB of a 50,000-page site's index (issue 22), for frequencies that
 * fit in 10 bits in all but a few postings. `sumFields` reads either form as the same numbers.
 */
/** A `PostingPool` as data (`state`, `restore`). */
export interface PostingPoolState {
  readonly ids: Int32Array;
  readonly values: Int32Array;
  /** A wide pool's summed frequencies that do not fit a value (`PostingPool`); empty otherwise. */
  readonly overflow: Float64Array;
  readonly start: Int32Array<ArrayBuffer>;
  readonly length: Int32Array<ArrayBuffer>;
  readonly capacity: Int32Array<ArrayBuffer>;
  readonly used: number;
  readonly spare: number;
}

export class PostingPool {
  ids: Int32Array;
  values: Int32Array;
  /** Wide packed sums (`packWideTf`) of the postings whose value is `-(index + 1)`: append-only
   *  between compactions (a moved list keeps its values), rewritten by `compact`. */
  overflow: Float64Array = new Float64Array(0);
  private overflowUsed = 0;
  start = new Int32Array(0);
  length = new Int32Array(0);
  private capacity = new Int32Array(0);
  /** Slots in use, holes included. */
  private used = 0;
  /** Slots in holes (lists moved away) and in lists' unused room. */
  private spare = 0;

  constructor(private readonly wide: boolean) {
    this.ids = new Int32Array(1024);
    this.values = new Int32Array(1024);
  }

  /**
   * The value of a posting of summed frequencies `a`, `b`, `c` (a wide pool's): packed as a
   * section's when each fits (`packTf`), else an index into `overflow`.
   */
  sumValue(a: number, b: number, c: number): number {
    if (a <= MAX_TF && b <= MAX_TF && c <= MAX_TF) return packTf(a, b, c);
    return this.overflowValue(packWideTf(a, b, c));
  }

  /** The value of a posting whose sums are `wide` (`packWideTf`). */
  wideValue(wide: number): number {
    return this.sumValue(wideFieldTf(wide, 0), wideFieldTf(wide, 1), wideFieldTf(wide, 2));
  }

  private overflowValue(wide: number): number {
    if (this.overflowUsed === this.overflow.length) {
      const grown = new Float64Array(Math.max(64, this.overflow.length * 2));
      grown.set(this.overflow);
      this.overflow = grown;
    }
    this.overflow[this.overflowUsed] = wide;
    return -++this.overflowUsed;
  }

  /** Postings held, in all lists. */
  get size(): number {
    return this.used - this.spare;
  }

  /**
   * Room for `extra` more postings at the end of term `t`'s list; returns where the first goes.
   * A list that has no room moves to the end of the pool with half again what it needs (edits
   * add to the same lists again); a new list gets exactly what it needs (a site's first build
   * adds each list's postings in one go, `InvertedIndex.commit`).
   */
  reserve(t: number, extra: number): number {
    this.coverTerm(t);
    const len = this.length[t] as number;
    const cap = this.capacity[t] as number;
    if (len + extra <= cap) {
      this.spare -= extra;
      return (this.start[t] as number) + len;
    }
    const room = this.roomFor(t, extra);
    this.coverSlots(this.used + room);
    const from = this.start[t] as number;
    const to = this.used;
    this.ids.copyWithin(to, from, from + len);
    this.values.copyWithin(to, from, from + len);
    // The old place is a hole now (its unused room was spare already); the new one has
    // `room - len - extra` unused.
    this.spare += len + (room - len - extra);
    this.start[t] = to;
    this.capacity[t] = room;
    this.used += room;
    return to + len;
  }

  /** The slots `reserve(t, extra)` takes at the end of the pool (0 when the list has room). */
  roomFor(t: number, extra: number): number {
    const len = t < this.length.length ? (this.length[t] as number) : 0;
    const cap = t < this.capacity.length ? (this.capacity[t] as number) : 0;
    if (len + extra <= cap) return 0;
    return len === 0 ? extra + editRoom(extra) : Math.ceil((len + extra) * 1.5);
  }

  /** Room for `count` more slots at the end of the pool, in one allocation (a commit asks for all
   *  it will write before writing, rather than growing the pool step by step). */
  ensure(count: number): void {
    this.coverSlots(this.used + count);
  }

  /** Note that `count` postings were written at the end of `t`'s list (after `reserve`). */
  grew(t: number, count: number): void {
    this.length[t]! += count;
  }

  /** Drop postings whose unit `alive` rejects, and every hole: the lists are rewritten in term order. */
  compact(alive: (id: number) => boolean): void {
    // Each list's room for edits, as a build leaves it, at most what its postings now ask.
    let room = 0;
    for (let t = 0; t < this.start.length; t++) room += editRoom(this.length[t] as number);
    const ids = new Int32Array(Math.max(1024, this.size + room + tailRoom(this.size + room)));
    const values = new Int32Array(ids.length);
    // The kept postings' overflow, in their new order; the dropped ones' goes.
    const overflow = this.overflow;
    this.overflow = new Float64Array(0);
    this.overflowUsed = 0;
    let w = 0;
    let spare = 0;
    for (let t = 0; t < this.start.length; t++) {
      const from = this.start[t] as number;
      const to = from + (this.length[t] as number);
      this.start[t] = w;
      for (let r = from; r < to; r++) {
        const id = this.ids[r] as number;
        if (!alive(id)) continue;
        ids[w] = id;
        const value = this.values[r] as number;
        values[w] = value >= 0 ? value : this.overflowValue(overflow[-value - 1] as number);
        w++;
      }
      const len = w - (this.start[t] as number);
      const extra = len === 0 ? 0 : editRoom(len);
      this.length[t] = len;
      this.capacity[t] = len + extra;
      w += extra;
      spare += extra;
    }
    this.ids = ids;
    this.values = values;
    this.used = w;
    this.spare = spare;
  }

  /** Whether the holes are worth a `compact`: over a third of the pool. */
  get wasteful(): boolean {
    return this.spare > this.used / 3;
  }

  /** Bytes the pool holds (the bench's memory breakdown). */
  get bytes(): number {
    return this.ids.byteLength + this.values.byteLength + this.overflow.byteLength + 3 * this.start.byteLength;
  }

  /** Term `t`'s postings as plain arrays (tests and diagnostics; ranking reads the pool): a
   *  wide pool's frequencies as `packWideTf` packs them, whichever form the pool holds. */
  list(t: number): { ids: number[]; tf: number[] } {
    if (t >= this.start.length) return { ids: [], tf: [] };
    const from = this.start[t] as number;
    const to = from + (this.length[t] as number);
    const values = [...this.values.subarray(from, to)];
    return { ids: [...this.ids.subarray(from, to)], tf: this.wide ? values.map((v) => sumFields(v, this.overflow, packWideTf)) : values };
  }

  /** The pool as data, its arrays cut to the slots in use and the room at their end a build
   *  leaves (`tailRoom`), so a pool restored from the persistent cache (`site-cache.ts`) takes a
   *  first edit's moved lists without a copy of all of it, as a built one does. */
  state(): PostingPoolState {
    // Views, not copies (the serializer stores a view's part of its buffer): writing the cache
    // of a large site must not hold its postings twice.
    const end = Math.min(this.ids.length, this.used + tailRoom(this.used));
    return {
      ids: this.ids.subarray(0, end),
      values: this.values.subarray(0, end),
      overflow: this.overflow.subarray(0, this.overflowUsed),
      start: this.start,
      length: this.length,
      capacity: this.capacity,
      used: this.used,
      spare: this.spare,
    };
  }

  /** Take a `state()` of a pool of the same kind. */
  restore(state: PostingPoolState): void {
    if (!this.wide && state.overflow.length > 0) throw new Error("a posting pool is restored from one of another kind");
    this.ids = state.ids;
    this.values = state.values;
    // Its own copy's room to grow is taken at the next overflow (`overflowValue` copies).
    this.overflow = state.overflow;
    this.overflowUsed = state.overflow.length;
    this.start = state.start;
    this.length = state.length;
    this.capacity = state.capacity;
    this.used = state.used;
    this.spare = state.spare;
  }

  private coverTerm(t: number): void {
    if (t < this.start.length) return;
    const size = Math.max(t + 1, this.start.length * 2, 1024);
    for (const key of ["start", "length", "capacity"] as const) {
      const grown = new Int32Array(size);
      grown.set(this[key]);
      this[key] = grown;
    }
  }

  private coverSlots(need: number): void {
    if (need <= this.ids.length) return;
    // A first build asks for its size (`ensure`), and gets room at the end for the short lists
    // edits move there; later growth is by half again.
    const size = this.used === 0 ? need + tailRoom(need) : Math.max(need, Math.ceil(this.ids.length * 1.5));
    const ids = new Int32Array(size);
    ids.set(this.ids.subarray(0, this.used));
    const values = new Int32Array(size);
    values.set(this.values.subarray(0, this.used));
    this.ids = ids;
    this.values = values;
  }
}

/**
 * Room a list of `n` postings is made with for the postings edits add, past its own: saving a page
 * re-indexes it, adding one posting to each list of its terms, and a list without room moves to
 * the end of the pool, so one edit moved every common term's list (a one-line edit of a page of a
 * 25,000-page site moved 35% of a pool), and the pool, made at its exact size, grew by a copy of
 * all of it (0.9 s of the thread answering callers, security row 143). A long list gets 1/32 more
 * (~30 edits of its pages per thousand postings before it moves); a short one moves, cheaply, into
 * the pool's own room at its end (`tailRoom`). ~3% of a site's postings each.
 */
function editRoom(n: number): number {
  return n >= EDIT_ROOM_FROM ? Math.ceil(n / 32) : 0;
}

/** Room at a built or compacted pool's end for the short lists edits move there (`editRoom`). */
function tailRoom(n: number): number {
  return Math.ceil(n / 32);
}

/** Lists shorter than this move on an edit rather than keep room (most lists hold a few postings). */
const EDIT_ROOM_FROM = 64;

