import { LIMITS } from "../../limits.js";
import { analyzeTerm, tokenize } from "./terms.js";

/**
 * The part of a section that best shows why it matched: the window of about
 * `LIMITS.search.snippetChars` characters holding the most distinct query terms, cut at word
 * boundaries, with `…` where text was left out.
 */
export function makeSnippet(text: string, queryTerms: readonly string[]): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const max = LIMITS.search.snippetChars;
  if (flat.length <= max) return flat;
  const wanted = new Set(queryTerms);
  // Positions of matching words.
  const hits: { at: number; term: string }[] = [];
  for (const m of flat.matchAll(/[\p{L}\p{N}_.-]+/gu)) {
    for (const tok of tokenize(m[0])) {
      const term = analyzeTerm(tok);
      if (term !== null && (wanted.has(term) || [...wanted].some((w) => w.length >= 3 && term.startsWith(w)))) {
        hits.push({ at: m.index ?? 0, term });
        break;
      }
    }
  }
  let start = 0;
  let bestCount = -1;
  for (let i = 0; i < hits.length; i++) {
    const from = (hits[i] as { at: number }).at;
    const terms = new Set<string>();
    for (let j = i; j < hits.length && (hits[j] as { at: number }).at < from + max * 0.8; j++) terms.add((hits[j] as { term: string }).term);
    if (terms.size > bestCount) {
      bestCount = terms.size;
      start = Math.max(0, from - Math.floor(max * 0.2));
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
