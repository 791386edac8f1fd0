import { LIMITS } from "../../limits.js";
import type { Analyzer } from "./terms.js";

/** How much of a section is searched for the snippet window. */
const SNIPPET_SCAN_CHARS = 16_000;

/**
 * The part of a text that best shows why it matched: the window of about
 * `LIMITS.search.snippetChars` characters holding the most distinct matched terms (ties go to
 * the earliest), cut at word boundaries, with `…` where text was left out.
 */
export function makeSnippet(text: string, matched: ReadonlySet<number>, analyzer: Analyzer): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const max = LIMITS.search.snippetChars;
  if (flat.length <= max) return flat;
  const hits: { at: number; term: number }[] = [];
  // The first matches of a very long section (a generated reference table) are enough to place a
  // snippet; scanning all of it would cost more than the ranking.
  analyzer.scan(flat.length > SNIPPET_SCAN_CHARS ? flat.slice(0, SNIPPET_SCAN_CHARS) : flat, (at, ids) => {
    for (const id of ids) {
      if (matched.has(id)) {
        hits.push({ at, term: id });
        break;
      }
    }
  });
  let start = 0;
  let best = 0;
  const span = max * 0.8;
  for (let i = 0; i < hits.length; i++) {
    const from = (hits[i] as { at: number }).at;
    const terms = new Set<number>();
    for (let j = i; j < hits.length && (hits[j] as { at: number }).at < from + span; j++) terms.add((hits[j] as { term: number }).term);
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
