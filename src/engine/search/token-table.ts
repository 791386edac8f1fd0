/**
 * Raw tokens and their term ids, for the tokenizer (`Analyzer`): an open-addressing hash table
 * whose slots, token characters and ids are three typed arrays. Indexing looks up every token of
 * every page here; with a string, an array and its elements per token, a lookup was five
 * dependent loads at scattered heap addresses, most of indexing's tokenizing time. Here it is a
 * slot, the token's characters and its ids, each in one flat array.
 *
 * Bounded: past `maxTokens` tokens the table starts afresh (a long-running server indexing edit
 * after edit must not grow without limit; what is looked up again is only analysed again).
 */

/** Int32s per slot: hash, where the characters start, length (0: empty), where the ids start. */
const SLOT = 4;
const FIRST_SLOTS = 1024;

export class TokenTable {
  private slots = new Int32Array(FIRST_SLOTS * SLOT);
  private capacity = FIRST_SLOTS;
  private size = 0;
  private chars = new Uint16Array(1 << 14);
  private charsUsed = 0;
  /** Per token, its number of ids then the ids (`idsAt` points at the number). */
  private idPool = new Int32Array(1 << 14);
  private idsUsed = 0;

  constructor(private readonly maxTokens: number) {}

  /** The ids' pool: a token's entry (`find`, `add`) is the index of its count, its ids follow. */
  get ids(): Int32Array {
    return this.idPool;
  }

  /** The entry of the token `text[start, end)` with hash `hash`, or -1. */
  find(text: string, start: number, end: number, hash: number): number {
    const len = end - start;
    const mask = this.capacity - 1;
    const slots = this.slots;
    let slot = hash & mask;
    for (;;) {
      const at = slot * SLOT;
      const l = slots[at + 2] as number;
      if (l === 0) return -1;
      if (slots[at] === hash && l === len && this.sameChars(text, start, slots[at + 1] as number, len)) return slots[at + 3] as number;
      slot = (slot + 1) & mask;
    }
  }

  /** Remember a token (not in the table) and its ids; returns its entry. */
  add(text: string, start: number, end: number, hash: number, ids: readonly number[]): number {
    if ((this.size + 1) * 2 > this.capacity) {
      if (this.capacity > this.maxTokens) this.clear();
      else this.rehash(this.capacity * 2);
    }
    const len = end - start;
    if (this.charsUsed + len > this.chars.length) this.chars = grown(this.chars, this.charsUsed + len);
    for (let j = 0; j < len; j++) this.chars[this.charsUsed + j] = text.charCodeAt(start + j);
    if (this.idsUsed + ids.length + 1 > this.idPool.length) this.idPool = grown(this.idPool, this.idsUsed + ids.length + 1);
    const entry = this.idsUsed;
    this.idPool[entry] = ids.length;
    for (let k = 0; k < ids.length; k++) this.idPool[entry + 1 + k] = ids[k] as number;
    this.idsUsed += ids.length + 1;
    this.place(hash, this.charsUsed, len, entry);
    this.charsUsed += len;
    this.size++;
    return entry;
  }

  /** Forget every token. */
  clear(): void {
    this.slots = new Int32Array(FIRST_SLOTS * SLOT);
    this.capacity = FIRST_SLOTS;
    this.size = 0;
    this.chars = new Uint16Array(1 << 14);
    this.charsUsed = 0;
    this.idPool = new Int32Array(1 << 14);
    this.idsUsed = 0;
  }

  private place(hash: number, charStart: number, len: number, entry: number): void {
    const mask = this.capacity - 1;
    let slot = hash & mask;
    while ((this.slots[slot * SLOT + 2] as number) !== 0) slot = (slot + 1) & mask;
    const at = slot * SLOT;
    this.slots[at] = hash;
    this.slots[at + 1] = charStart;
    this.slots[at + 2] = len;
    this.slots[at + 3] = entry;
  }

  private rehash(capacity: number): void {
    const old = this.slots;
    this.slots = new Int32Array(capacity * SLOT);
    this.capacity = capacity;
    for (let at = 0; at < old.length; at += SLOT) {
      if (old[at + 2] !== 0) this.place(old[at] as number, old[at + 1] as number, old[at + 2] as number, old[at + 3] as number);
    }
  }

  private sameChars(text: string, start: number, from: number, len: number): boolean {
    const chars = this.chars;
    for (let j = 0; j < len; j++) if (text.charCodeAt(start + j) !== chars[from + j]) return false;
    return true;
  }
}

/** A copy of `a` with room for at least `need` elements (doubling). */
function grown<T extends Int32Array | Uint16Array>(a: T, need: number): T {
  const out = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2));
  out.set(a);
  return out;
}
