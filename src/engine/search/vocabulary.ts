/**
 * Index terms as small integers. Postings and per-unit counting work on ids (array indexing)
 * rather than strings (hashing), which is most of what makes indexing fast.
 */
export class Vocabulary {
  private readonly ids = new Map<string, number>();
  private readonly strings: string[] = [];

  /** The id of a term, assigning the next one if it is new. */
  id(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.strings.length;
      this.ids.set(term, id);
      this.strings.push(term);
    }
    return id;
  }

  /** The id of a known term, without assigning one (queries must not grow the vocabulary). */
  find(term: string): number | undefined {
    return this.ids.get(term);
  }

  term(id: number): string {
    return this.strings[id] as string;
  }

  get size(): number {
    return this.strings.length;
  }

  /** The terms in id order: all the persistent cache keeps (`site-cache.ts`). */
  state(): readonly string[] {
    return this.strings;
  }

  /** Take the terms of a `state()` (an empty vocabulary only: ids must not move under postings). */
  restore(strings: readonly string[]): void {
    if (this.strings.length > 0) throw new Error("a vocabulary is restored only while empty");
    for (const term of strings) this.id(term);
  }
}

/** A growable buffer of term ids: analysis appends to it, and units keep an exact-size copy. */
export class IdBuffer {
  private data = new Int32Array(4096);
  length = 0;

  push(id: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = id;
  }

  /** The id at `i` (below `length`). */
  get(i: number): number {
    return this.data[i] as number;
  }

  /** Append `ids[from, to)`. */
  append(ids: Int32Array, from: number, to: number): void {
    const need = this.length + to - from;
    if (need > this.data.length) {
      const next = new Int32Array(Math.max(need, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data.set(ids.subarray(from, to), this.length);
    this.length = need;
  }

  /** Bytes held, spare room included. */
  get bytes(): number {
    return this.data.byteLength;
  }

  /** An exact-size copy of the contents. */
  copy(): Int32Array {
    return this.data.slice(0, this.length);
  }

  /** An exact-size copy of the contents from `from` on. */
  copyFrom(from: number): Int32Array {
    return this.data.slice(from, this.length);
  }

  /** An exact-size copy of the contents at `[from, to)`. */
  copyRange(from: number, to: number): Int32Array {
    return this.data.slice(from, to);
  }

  clear(): void {
    this.length = 0;
  }
}
