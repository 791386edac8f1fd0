/**
 * What rendering a text is expected to cost, in characters of prose, counted before it renders
 * (never timed: the same on any machine): its characters, plus a price for each construct that
 * costs more than its characters. Measured with `renderMdx` in one thread on a quiet 2-core
 * machine (2026-12-08), prose renders at ~1.3 µs a character, but a non-blank line (each a block:
 * a heading, a list item, a paragraph, a quoted line) costs 50-210 µs, a table cell 62 µs, a code
 * span or a component tag ~50 µs, an emphasis ~16 µs. Counted in characters alone, a 60x60 table
 * of one-letter cells (7.5 K characters, 0.23-0.85 s) or a page of 6,400 `## a` headings weighed
 * as much as a page of prose rendered 10-30 times faster, and four addresses flooding such pages
 * held another reader's 8 KB page 10-20 s (adversary round 67 F1). Priced so, each of those
 * measured constructs is within a factor of three of its cost, which the pool's "half as much"
 * rule absorbs (`FairQueue`'s `tookMore`).
 */
export const RENDER_PRICES = {
  /** A page's fixed cost: a page of 14 characters took 1.4 ms, what ~130 characters of prose take. */
  page: 128,
  /** A line holding anything: a block of its own, or part of one (1 unit ≈ 1.3 µs). */
  line: 100,
  /** A `|`: a table cell. */
  pipe: 48,
  /** A `` ` ``, `<`, `{`, `[`, `*` or `_`: an inline node's delimiter, a component's or an expression's start. */
  mark: 12,
} as const;

const NEWLINE = 10;
const PIPE = 124;
/** `` ` `` `<` `{` `[` `*` `_` */
const MARKS = new Set([96, 60, 123, 91, 42, 95]);
const SPACE = 32;
const TAB = 9;
const RETURN = 13;

/** The cost of rendering `texts` as one job (a page's text, or an API page's descriptions). */
export function renderWeight(texts: readonly string[]): number {
  let weight = RENDER_PRICES.page;
  for (const text of texts) weight += textWeight(text);
  return weight;
}

function textWeight(text: string): number {
  let weight = text.length;
  let lineHasText = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === NEWLINE) {
      if (lineHasText) weight += RENDER_PRICES.line;
      lineHasText = false;
      continue;
    }
    if (c !== SPACE && c !== TAB && c !== RETURN) lineHasText = true;
    if (c === PIPE) weight += RENDER_PRICES.pipe;
    else if (MARKS.has(c)) weight += RENDER_PRICES.mark;
  }
  if (lineHasText) weight += RENDER_PRICES.line;
  return weight;
}
