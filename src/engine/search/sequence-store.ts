import type { TermSequence } from "./index-units.js";

/**
 * Sections' term sequences (term ids, -1 between a section's fields), kept for proximity scoring
 * of the final candidates and for summing a text's sections, coded as variable-length bytes
 * (each id + 1 in 7-bit groups, low first; 0 is a field mark) in blocks of `BLOCK` bytes.
 *
 * As one `Int32Array` they were 162 MB of a 50,000-page site's ~1.9 GB (40 M slots, issue 22);
 * most ids are those of common words, numbered first, and take one or two bytes. In blocks
 * rather than one array: the array was reserved for a build's slots before the terms had ids
 * (`SearchIndex.syncSteps`), which bytes cannot be, and growing one array copied it whole, the
 * old one held until collected. A block is never copied to grow; a sequence is never split
 * across two (one longer than a block starts a block of its own, numbered as the blocks it
 * spans, so that an offset's block is always `offset >>> BLOCK_BITS`).
 */

const BLOCK_BITS = 20;
const BLOCK = 1 << BLOCK_BITS;

/** `SequenceStore` as data (`InvertedIndex.state`): the blocks as they are (views, no copy), and
 *  each section's start and end offset. */
export interface SequenceStoreState {
  readonly blocks: readonly Uint8Array[];
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

const EMPTY = new Uint8Array(0);

/** Bytes `sequence` takes coded. */
function codedLength(sequence: TermSequence): number {
  let n = 0;
  for (let i = 0; i < sequence.length; i++) {
    const v = (sequence[i] as number) + 1;
    n += v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
  }
  return n;
}

export class SequenceStore {
  private blocks: Uint8Array[] = [];
  /** By section id: where its sequence starts and ends (offsets over all blocks; equal for none). */
  private starts: Int32Array = new Int32Array(0);
  private ends: Int32Array = new Int32Array(0);
  /** The next free offset, and bytes of removed sequences below it. */
  private used = 0;
  private holes = 0;
  /** Where `terms` decodes into. */
  private scratch = new Int32Array(256);

  /** Bytes held, blocks' unused tails included. */
  get bytes(): number {
    let sum = 0;
    for (const b of this.blocks) sum += b.byteLength;
    return sum + 8 * this.starts.length;
  }

  /** Bytes of removed sequences not yet reclaimed (`compact`). */
  get holeBytes(): number {
    return this.holes;
  }

  /** Store section `id`'s sequence (an id not stored before, or removed). */
  set(id: number, sequence: TermSequence): void {
    const n = codedLength(sequence);
    const at = this.place(id, n);
    const block = this.blocks[at >>> BLOCK_BITS] as Uint8Array;
    let o = at & (BLOCK - 1);
    for (let i = 0; i < sequence.length; i++) {
      let v = (sequence[i] as number) + 1;
      while (v >= 0x80) {
        block[o++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      block[o++] = v;
    }
  }

  /** Section `id`'s sequence removed (its bytes a hole until `compact`). */
  remove(id: number): void {
    this.holes += (this.ends[id] as number) - (this.starts[id] as number);
    this.ends[id] = this.starts[id] as number;
  }

  /** Section `id`'s terms, decoded into a scratch array: valid until the next call. */
  terms(id: number): TermSequence {
    const start = this.starts[id] as number;
    const length = (this.ends[id] as number) - start;
    if (this.scratch.length < length) this.scratch = new Int32Array(Math.max(length, 2 * this.scratch.length));
    const out = this.scratch;
    const block = this.blockOf(id);
    let n = 0;
    for (let i = start & (BLOCK - 1), to = i + length; i < to; ) {
      let b = block[i++] as number;
      let v = b & 0x7f;
      for (let shift = 7; b >= 0x80; shift += 7) {
        b = block[i++] as number;
        v |= (b & 0x7f) << shift;
      }
      out[n++] = v - 1;
    }
    return out.subarray(0, n);
  }

  /** The block section `id`'s bytes are in, from `startOf(id)` to `endOf(id)`: for callers that
   *  decode in their own loop (`InvertedIndex.sumSection`, once per section of every text a build
   *  indexes), as `terms` does. */
  blockOf(id: number): Uint8Array {
    return this.blocks[(this.starts[id] as number) >>> BLOCK_BITS] ?? EMPTY;
  }

  startOf(id: number): number {
    return (this.starts[id] as number) & (BLOCK - 1);
  }

  endOf(id: number): number {
    return ((this.starts[id] as number) & (BLOCK - 1)) + (this.ends[id] as number) - (this.starts[id] as number);
  }

  /** Drop the holes: the sequences of sections `0 .. count` that `live` keeps, in new blocks. */
  compact(count: number, live: (id: number) => boolean): void {
    const out = this.compacted(count, live);
    this.blocks = out.blocks;
    this.starts = out.starts;
    this.ends = out.ends;
    this.used = out.used;
    this.holes = 0;
  }

  /** What the store holds for sections `0 .. count`: views of its blocks when it has no holes,
   *  else of a compacted copy's (this store unchanged). */
  state(count: number, live: (id: number) => boolean): SequenceStoreState {
    if (this.holes > 0) return this.compacted(count, live).state(count, live);
    const n = this.used === 0 ? 0 : ((this.used - 1) >>> BLOCK_BITS) + 1;
    const blocks = this.blocks.slice(0, n).map((b, k) => (k === n - 1 ? b.subarray(0, Math.min(b.byteLength, this.used - k * BLOCK)) : b));
    return { blocks, starts: this.starts.slice(0, count), ends: this.ends.slice(0, count) };
  }

  /** Take a `state()` (an empty store only): its blocks as they are. */
  restore(state: SequenceStoreState): void {
    if (this.used > 0) throw new Error("a sequence store is restored only while empty");
    if (state.starts.length !== state.ends.length) throw new Error("sequence starts and ends of different lengths");
    this.blocks = [...state.blocks];
    this.starts = state.starts;
    this.ends = state.ends;
    for (let id = 0; id < state.starts.length; id++) {
      const block = this.blocks[(state.starts[id] as number) >>> BLOCK_BITS];
      if (state.ends[id] !== state.starts[id] && (block === undefined || this.endOf(id) > block.byteLength)) throw new Error("a term sequence out of its block");
    }
    // A restored block is only as long as its bytes: what comes next starts a block of its own.
    this.used = this.blocks.length * BLOCK;
    this.holes = 0;
  }

  private compacted(count: number, live: (id: number) => boolean): SequenceStore {
    const out = new SequenceStore();
    for (let id = 0; id < count; id++) {
      const n = live(id) ? (this.ends[id] as number) - (this.starts[id] as number) : 0;
      const at = out.place(id, n);
      if (n > 0) (out.blocks[at >>> BLOCK_BITS] as Uint8Array).set(this.blockOf(id).subarray(this.startOf(id), this.endOf(id)), at & (BLOCK - 1));
    }
    return out;
  }

  /** Room for section `id`'s `n` bytes, recorded as its place: after the last sequence, or at the
   *  next block's start when they do not fit what is left of its block. */
  private place(id: number, n: number): number {
    if (id >= this.starts.length) {
      const size = Math.max(id + 1, this.starts.length * 2, 1024);
      const grow = (a: Int32Array): Int32Array => {
        const out = new Int32Array(size);
        out.set(a);
        return out;
      };
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
    }
    let at = this.used;
    if (n > 0) {
      if ((at & (BLOCK - 1)) !== 0 && (at & (BLOCK - 1)) + n > BLOCK) at = ((at >>> BLOCK_BITS) + 1) * BLOCK;
      const k = at >>> BLOCK_BITS;
      if (this.blocks[k] === undefined) {
        while (this.blocks.length < k) this.blocks.push(EMPTY);
        const size = Math.max(BLOCK, n);
        this.blocks.push(new Uint8Array(size));
        // The offsets a long sequence spans past its block are blocks of their own, left empty.
        for (let extra = 1; extra < Math.ceil(size / BLOCK); extra++) this.blocks.push(EMPTY);
      }
    }
    this.starts[id] = at;
    this.ends[id] = at + n;
    // After a sequence longer than a block, the next starts past the blocks it spans.
    this.used = n > BLOCK ? Math.ceil((at + n) / BLOCK) * BLOCK : at + n;
    return at;
  }
}
