import { LIMITS } from "../../limits.js";
import { type Analyzer, tokenize } from "./terms.js";

const WORD_RE = /[\p{L}\p{N}]+(?:[_.\-'][\p{L}\p{N}]+)*/gu;

/**
 * The part of a text that best shows why it matched: the window of about
 * `LIMITS.search.snippetChars` characters holding the most distinct matched terms (ties go to
 * the earliest), cut at word boundaries, with `…` where text was left out.
 */
export function makeSnippet(text: string, matched: ReadonlySet<string>, analyzer: Analyzer): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const max = LIMITS.search.snippetChars;
  if (flat.length <= max) return flat;
  const hits: { at: number; term: string }[] = [];
  for (const m of flat.matchAll(WORD_RE)) {
    for (const tok of tokenize(m[0])) {
      const term = analyzer.term(tok);
      if (term !== null && matched.has(term)) {
        hits.push({ at: m.index, term });
        break;
      }
    }
  }
  let start = 0;
  let best = 0;
  const span = max * 0.8;
  for (let i = 0; i < hits.length; i++) {
    const from = (hits[i] as { at: number }).at;
    const terms = new Set<string>();
    for (let j = i; j < hits.length && (hits[j] as { at: number }).at < from + span; j++) terms.add((hits[j] as { term: string }).term);
    if (terms.size > best) {
      best = terms.size;
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
