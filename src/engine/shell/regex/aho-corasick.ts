/**
 * An Aho-Corasick automaton over UTF-16 code units: finds every place any of many fixed strings
 * occurs in one pass over a text, in time proportional to the text plus the matches, whatever
 * the number of strings (a JS alternation `a|b|...` tries each at every position: 10,000
 * strings took 5.4 s over one 28 KB page, 140,000 never finished). Hand-written, not a library:
 * see docs/dependencies.md ("Fixed strings"). States are numbers and every table a typed array
 * (a trie of a million states in tens of MB, built without a Map).
 */
export class AhoCorasick {
  /** States made so far; state 0 is the root. */
  private states = 1;
  /** Per state: its depth (the length of the string it spells). */
  private depth = new Int32Array(64);
  /** Per state: the pattern ending here (the lowest index among equal strings), or -1. */
  private output = new Int32Array(64).fill(-1);
  /** Per state: its first child and next sibling (to walk the trie breadth first), or -1. */
  private firstChild = new Int32Array(64).fill(-1);
  private nextSibling = new Int32Array(64).fill(-1);
  /** Per state: the unit on the edge into it. */
  private unit = new Uint16Array(64);
  /** Per state: the longest proper suffix that is also a state. */
  private fail = new Int32Array(0);
  /** Per state: the nearest state on its fail chain with an output, or -1. */
  private nextOutput = new Int32Array(0);
  /** Trie edges: an open-addressing table from (parent, unit) to child; -1 is empty. */
  private edgeParent = new Int32Array(128).fill(-1);
  private edgeUnit = new Uint16Array(128);
  private edgeChild = new Int32Array(128);
  /** Length of the longest pattern. */
  readonly longest: number;

  constructor(patterns: readonly string[]) {
    let longest = 0;
    for (let p = 0; p < patterns.length; p++) {
      const s = patterns[p] as string;
      if (s.length > longest) longest = s.length;
      let state = 0;
      for (let i = 0; i < s.length; i++) {
        const u = s.charCodeAt(i);
        let next = this.child(state, u);
        if (next < 0) next = this.addState(state, u, i + 1);
        state = next;
      }
      if ((this.output[state] as number) < 0) this.output[state] = p;
    }
    this.longest = longest;
    this.link();
  }

  private slot(parent: number, u: number): number {
    const mask = this.edgeParent.length - 1;
    let h = (Math.imul(parent, 0x9e3779b1) ^ Math.imul(u + 1, 0x85ebca77)) & mask;
    for (;;) {
      const at = this.edgeParent[h] as number;
      if (at < 0 || (at === parent && this.edgeUnit[h] === u)) return h;
      h = (h + 1) & mask;
    }
  }

  /** The child of `parent` by `u`, or -1. */
  private child(parent: number, u: number): number {
    const h = this.slot(parent, u);
    return (this.edgeParent[h] as number) < 0 ? -1 : (this.edgeChild[h] as number);
  }

  private addState(parent: number, u: number, depth: number): number {
    const s = this.states++;
    if (s >= this.depth.length) {
      const grow = <T extends Int32Array | Uint16Array>(a: T, fill: number): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.fill(fill);
        b.set(a);
        return b;
      };
      this.depth = grow(this.depth, 0);
      this.output = grow(this.output, -1);
      this.firstChild = grow(this.firstChild, -1);
      this.nextSibling = grow(this.nextSibling, -1);
      this.unit = grow(this.unit, 0);
    }
    this.depth[s] = depth;
    this.unit[s] = u;
    this.nextSibling[s] = this.firstChild[parent] as number;
    this.firstChild[parent] = s;
    // Keep the edge table at most half full.
    if (this.states * 2 > this.edgeParent.length) this.rehash();
    const h = this.slot(parent, u);
    this.edgeParent[h] = parent;
    this.edgeUnit[h] = u;
    this.edgeChild[h] = s;
    return s;
  }

  private rehash(): void {
    const parents = this.edgeParent;
    const units = this.edgeUnit;
    const children = this.edgeChild;
    const size = parents.length * 2;
    this.edgeParent = new Int32Array(size).fill(-1);
    this.edgeUnit = new Uint16Array(size);
    this.edgeChild = new Int32Array(size);
    for (let i = 0; i < parents.length; i++) {
      const p = parents[i] as number;
      if (p < 0) continue;
      const h = this.slot(p, units[i] as number);
      this.edgeParent[h] = p;
      this.edgeUnit[h] = units[i] as number;
      this.edgeChild[h] = children[i] as number;
    }
  }

  /** Fail and output links, breadth first: a state's are found from its parent's, which is shallower. */
  private link(): void {
    const n = this.states;
    this.fail = new Int32Array(n);
    this.nextOutput = new Int32Array(n).fill(-1);
    const queue = new Int32Array(n);
    let head = 0;
    let tail = 0;
    for (let c = this.firstChild[0] as number; c >= 0; c = this.nextSibling[c] as number) queue[tail++] = c;
    while (head < tail) {
      const parent = queue[head++] as number;
      for (let c = this.firstChild[parent] as number; c >= 0; c = this.nextSibling[c] as number) {
        const f = parent === 0 ? 0 : this.step(this.fail[parent] as number, this.unit[c] as number);
        this.fail[c] = f;
        this.nextOutput[c] = (this.output[f] as number) >= 0 ? f : (this.nextOutput[f] as number);
        queue[tail++] = c;
      }
    }
  }

  /** The state after reading `u` in `state`. */
  private step(state: number, u: number): number {
    for (;;) {
      const next = this.child(state, u);
      if (next >= 0) return next;
      if (state === 0) return 0;
      state = this.fail[state] as number;
    }
  }

  /**
   * Every occurrence in `text` that starts at or after `from`, in order of their ends (longest
   * first among those ending together): `visit(start, end, pattern)` for each, which returns
   * false to stop; the scan also stops before reading the unit at `stopAt()`.
   */
  scan(text: string, from: number, visit: (start: number, end: number, pattern: number) => boolean, stopAt: () => number): void {
    let state = 0;
    for (let i = from; i < text.length; i++) {
      if (i >= stopAt()) return;
      state = this.step(state, text.charCodeAt(i));
      for (let s = (this.output[state] as number) >= 0 ? state : (this.nextOutput[state] as number); s >= 0; s = this.nextOutput[s] as number) {
        // Read from `from` on, no state is deeper than what was read: every start is at or after it.
        if (!visit(i + 1 - (this.depth[s] as number), i + 1, this.output[s] as number)) return;
      }
    }
  }
}
