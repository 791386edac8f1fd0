import { LIMITS } from "../../limits.js";
import type { Analyzer } from "./terms.js";

/** How much of a section is searched for the snippet window. */
const SNIPPET_SCAN_CHARS = 16_000;

/**
 * A text prepared for snippets: whitespace folded, and the start and term ids of its tokens (of
 * its first `SNIPPET_SCAN_CHARS`), so a section returned by many queries is tokenized once.
 * Tokens with several ids (`tools/call` is `tools/call`, `tools` and `call`) repeat their start.
 */
export interface SnippetSource {
  readonly flat: string;
  readonly at: Int32Array;
  readonly ids: Int32Array;
}

/** Prepare a text for `makeSnippet`. */
export function snippetSource(text: string, analyzer: Analyzer): SnippetSource {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= LIMITS.search.snippetChars) return { flat, at: new Int32Array(0), ids: new Int32Array(0) };
  const at: number[] = [];
  const ids: number[] = [];
  // The first matches of a very long section (a generated reference table) are enough to place a
  // snippet; scanning all of it would cost more than the ranking.
  analyzer.scan(flat.length > SNIPPET_SCAN_CHARS ? flat.slice(0, SNIPPET_SCAN_CHARS) : flat, (start, id) => {
    at.push(start);
    ids.push(id);
  });
  return { flat, at: Int32Array.from(at), ids: Int32Array.from(ids) };
}

/** The term ids a query matched, as `makeSnippet` asks about them (a `Set`, or `TermFlags`). */
export interface MatchedTerms {
  has(id: number): boolean;
}

/**
 * `MatchedTerms` as one bit per term id, set anew for each search (`reset`): `makeSnippet` asks
 * about every token of each hit's section, and a `Set`'s hashed look-up was most of its time.
 * Bits, not a stamp per id: the ids asked about are spread over the whole vocabulary, and a bit
 * each keeps the array small enough to stay in the CPU's cache (8 KB for 64,000 terms, where a
 * stamp each took 256 KB and a look-up was a cache miss: a third of `makeSnippet` on spree).
 * A reset clears the bits the last one set.
 */
export class TermFlags implements MatchedTerms {
  private bits = new Int32Array(0);
  private readonly set: number[] = [];

  /** Start over with `ids` as the only ones set. */
  reset(ids: Iterable<number>): this {
    for (const id of this.set) this.bits[id >>> 5] = 0;
    this.set.length = 0;
    for (const id of ids) {
      const word = id >>> 5;
      if (word >= this.bits.length) {
        const grown = new Int32Array(Math.max(word + 1, this.bits.length * 2, 32));
        grown.set(this.bits);
        this.bits = grown;
      }
      this.bits[word]! |= 1 << (id & 31);
      this.set.push(id);
    }
    return this;
  }

  has(id: number): boolean {
    const word = id >>> 5;
    return word < this.bits.length && ((this.bits[word] as number) & (1 << (id & 31))) !== 0;
  }
}

/**
 * The part of a text that best shows why it matched: the window of about
 * `LIMITS.search.snippetChars` characters holding the most distinct matched terms (ties go to
 * the earliest), cut at word boundaries, with `…` where text was left out.
 */
export function makeSnippet(source: SnippetSource, matched: MatchedTerms): string {
  const { flat } = source;
  const max = LIMITS.search.snippetChars;
  if (flat.length <= max) return flat;
  // A token's first matched id only, each matched id as a small number (its first hit's index).
  const at: number[] = [];
  const term: number[] = [];
  const small = new Map<number, number>();
  let taken = -1;
  for (let k = 0; k < source.at.length; k++) {
    const pos = source.at[k] as number;
    if (pos === taken) continue;
    const id = source.ids[k] as number;
    if (matched.has(id)) {
      let t = small.get(id);
      if (t === undefined) small.set(id, (t = small.size));
      at.push(pos);
      term.push(t);
      taken = pos;
    }
  }
  let start = 0;
  let best = 0;
  const span = max * 0.8;
  // Distinct terms of each window counted with stamps (window i stamps i + 1), not a set per window.
  const seen = new Int32Array(small.size);
  for (let i = 0; i < at.length; i++) {
    const from = at[i] as number;
    let distinct = 0;
    for (let j = i; j < at.length && (at[j] as number) < from + span; j++) {
      const t = term[j] as number;
      if (seen[t] === i + 1) continue;
      seen[t] = i + 1;
      distinct++;
    }
    if (distinct > best) {
      best = distinct;
      // A little lead-in before the first matched word reads better than starting on it.
      start = Math.max(0, from - Math.floor(max * 0.15));
    }
  }
  if (start > 0) {
    const space = flat.indexOf(" ", start);
    start = space === -1 || space - start > 20 ? start : space + 1;
  }
  let end = Math.min(flat.length, start + max);
  if (end < flat.length) {
    const space = flat.lastIndexOf(" ", end);
    if (space > start + max * 0.6) end = space;
  }
  return `${start > 0 ? "…" : ""}${flat.slice(start, end)}${end < flat.length ? "…" : ""}`;
}
