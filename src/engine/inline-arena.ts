// Small typed arrays packed into shared blocks: the persistent cache's reader (inline arrays of
// its body) and the search index's cold build (a page's title and own terms, a text's terms)
// make tens of thousands of them, each otherwise an ArrayBuffer of its own.

/** Bytes per block of `InlineArena`: inline arrays are under `RAW_MIN_BYTES`, so several fit one. */
const ARENA_BYTES = 1024 * 1024;

/**
 * Small typed arrays copied one after another into blocks of their own (8-byte aligned), each a
 * view of its block: one allocation per megabyte instead of an `ArrayBuffer` (and its ~100 bytes
 * of bookkeeping) per array.
 */
export class InlineArena {
  private block: ArrayBuffer | undefined;
  private used = 0;

  copy(view: ArrayBufferView): ArrayBufferView {
    const bytes = view.byteLength;
    if (this.block === undefined || this.used + bytes > this.block.byteLength) {
      this.block = new ArrayBuffer(Math.max(ARENA_BYTES, bytes));
      this.used = 0;
    }
    const at = this.used;
    new Uint8Array(this.block, at, bytes).set(new Uint8Array(view.buffer, view.byteOffset, bytes));
    this.used = at + bytes + ((8 - (bytes % 8)) % 8);
    if (view instanceof DataView) return new DataView(this.block, at, bytes);
    if (Buffer.isBuffer(view)) return Buffer.from(this.block, at, bytes);
    const Ctor = view.constructor as new (buffer: ArrayBuffer, byteOffset: number, length: number) => ArrayBufferView;
    return new Ctor(this.block, at, bytes / (view as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT);
  }

  /** `values` as an `Int32Array` in a block (`copy`'s form of `Int32Array.from`). */
  ints(values: ArrayLike<number>): Int32Array {
    const bytes = values.length * 4;
    if (this.block === undefined || this.used + bytes > this.block.byteLength) {
      this.block = new ArrayBuffer(Math.max(ARENA_BYTES, bytes));
      this.used = 0;
    }
    const out = new Int32Array(this.block, this.used, values.length);
    for (let i = 0; i < values.length; i++) out[i] = values[i] as number;
    this.used += bytes + ((8 - (bytes % 8)) % 8);
    return out;
  }
}
