/**
 * The words of endpoint pages' titles as small numbers, for `SearchIndex.rank`'s question of
 * whether a query names a page's title word for word (issue 23). It is asked of every candidate
 * endpoint page of every search (~270 a question on spree, thousands at 10,000 pages), and with
 * the titles' words as strings each asking was a lookup in a sparse array and two or three in
 * sets of strings: ~10% of a search's CPU time. Here a title is an `Int32Array` of word numbers
 * in a dense array, and whether the query asks for a word, or the word is a read or action verb,
 * is a byte read by number. The answers are the strings' answers: a word's number stands for
 * its string alone, and a word first numbered during a search is marked against that search's
 * words when it is numbered.
 */
export class TitleWords {
  /** Each word's number, in the order first met. */
  private readonly numbers = new Map<string, number>();
  /** Per word number: `READ` and `ACTION` bits. */
  private kinds = new Uint8Array(64);
  /** Per word number, the `ask` that named it (its stamp). */
  private askedAt = new Uint32Array(64);
  private stamp = 0;
  private asked: ReadonlySet<string> = new Set();
  /** Per page unit id, its title's word numbers once asked; dense (`undefined` until then). */
  private byUnit: (Int32Array | undefined)[] = [];
  /**
   * Per page unit id, once its title is known, the bits (`wordBit`) of the words a question must
   * ask for it to name the title whatever its verbs: all but the first of two or more, the one
   * word of one, every bit for none (0: not known yet). A title holding a word whose bit no asked
   * word has is not named (`rejects`): one number read per candidate page, where deciding read
   * three arrays and their objects, at ~0.2 µs a page (1,600 pages a question at 10,000 pages).
   */
  private signatures = new Uint32Array(0);
  /** The bits of the words of the last `ask`. */
  private askedBits = 0;

  constructor(
    private readonly readVerbs: ReadonlySet<string>,
    private readonly actionVerbs: ReadonlySet<string>,
  ) {}

  /** Forget every title (after a change of pages: a unit id may be another page's). */
  clear(): void {
    this.byUnit = [];
    this.signatures.fill(0);
  }

  /** The words a search asks for (`asked`), until the next `ask`. */
  ask(asked: ReadonlySet<string>): void {
    if (++this.stamp === 0xffffffff) {
      this.askedAt.fill(0);
      this.stamp = 1;
    }
    this.asked = asked;
    let bits = 0;
    for (const word of asked) bits |= wordBit(word);
    this.askedBits = bits;
    for (const word of asked) {
      const at = this.numbers.get(word);
      if (at !== undefined) this.askedAt[at] = this.stamp;
    }
  }

  /**
   * The word numbers of unit `id`'s title, its words analysed by `words(id)` the first time. The
   * id is passed to `words`, so the caller hands one function for every unit: a function made
   * per call over the id (a closure and its context) was ~15 KB of garbage a search on spree,
   * ~270 calls a question (issue 23).
   */
  of(id: number, words: (id: number) => readonly string[]): Int32Array {
    // Grown by pushing, so that the array stays dense (written at a far id, it became a hash table).
    while (this.byUnit.length <= id) this.byUnit.push(undefined);
    let title = this.byUnit[id];
    if (title === undefined) {
      const list = words(id);
      title = new Int32Array(list.length);
      for (let i = 0; i < list.length; i++) title[i] = this.numberOf(list[i] as string);
      this.byUnit[id] = title;
      if (this.signatures.length <= id) {
        const grown = new Uint32Array(Math.max(id + 1, 2 * this.signatures.length));
        grown.set(this.signatures);
        this.signatures = grown;
      }
      let signature = list.length === 0 ? 0xffffffff : 0;
      for (let i = list.length > 1 ? 1 : 0; i < list.length; i++) signature |= wordBit(list[i] as string);
      this.signatures[id] = signature;
    }
    return title;
  }

  /**
   * Whether the last `ask`'s words cannot name unit `id`'s title (a word past its first, or its
   * one word, is not asked for, or it has none), known without reading the title; false when not
   * known, or when they may.
   */
  rejects(id: number): boolean {
    const signature = this.signatures[id];
    return signature !== undefined && signature !== 0 && (signature & ~this.askedBits) !== 0;
  }

  /** Whether the words of the last `ask` hold word number `at`. */
  isAsked(at: number): boolean {
    return this.askedAt[at] === this.stamp;
  }

  isReadVerb(at: number): boolean {
    return ((this.kinds[at] as number) & READ) !== 0;
  }

  isActionVerb(at: number): boolean {
    return ((this.kinds[at] as number) & ACTION) !== 0;
  }

  private numberOf(word: string): number {
    let at = this.numbers.get(word);
    if (at !== undefined) return at;
    at = this.numbers.size;
    this.numbers.set(word, at);
    if (at >= this.kinds.length) {
      const kinds = new Uint8Array(2 * this.kinds.length);
      kinds.set(this.kinds);
      this.kinds = kinds;
      const askedAt = new Uint32Array(2 * this.askedAt.length);
      askedAt.set(this.askedAt);
      this.askedAt = askedAt;
    }
    this.kinds[at] = (this.readVerbs.has(word) ? READ : 0) | (this.actionVerbs.has(word) ? ACTION : 0);
    // Numbered during a search: marked against its words now, as `ask` marked those numbered before.
    this.askedAt[at] = this.asked.has(word) ? this.stamp : 0;
    return at;
  }
}

/** A word's bit of 32, from a hash of its characters (FNV-1a): equal words have equal bits. */
function wordBit(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return 1 << (h >>> 27);
}

const READ = 1;
const ACTION = 2;
