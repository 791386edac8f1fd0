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
 * `MatchedTerms` as flags in an array by term id, set anew for each search (`reset`) by a stamp
 * rather than cleared: `makeSnippet` asks about every token of each hit's section, and a `Set`'s
 * hashed look-up was most of its time.
 */
export class TermFlags implements MatchedTerms {
  private flags = new Uint32Array(0);
  private stamp = 0;

  /** Start over with `ids` as the only ones set. */
  reset(ids: Iterable<number>): this {
    if (++this.stamp === 0xffffffff) {
      this.flags.fill(0);
      this.stamp = 1;
    }
    for (const id of ids) {
      if (id >= this.flags.length) {
        const grown = new Uint32Array(Math.max(id + 1, this.flags.length * 2, 1024));
        grown.set(this.flags);
        this.flags = grown;
      }
      this.flags[id] = this.stamp;
    }
    return this;
  }

  has(id: number): boolean {
    return this.flags[id] === this.stamp;
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
