import { LIMITS } from "../limits.js";

/** Where a page holds more inline markup than the preview's parser reads in time. */
export interface CostlyMarkup {
  /** What, as a reader reads it: "unclosed code spans would have the parser re-read 9,000,000 characters". */
  readonly what: string;
  /** 1-based line of the text scanned where the paragraph (or table) that passes the limit starts. */
  readonly line: number;
}

const FENCE_RE = /^[ \t>]*(`{3,}|~{3,})/;
/** A table's delimiter row (`| --- | :-: |`), one way to match each character. */
const DELIMITER_ROW_RE = /^[ \t]*(?:\|[ \t]*)?:?-+(?:(?=[^-]):?[ \t]*(?:\|[ \t]*)?:?-+)*:?[ \t]*(?:\|[ \t]*)?$/;

const number = (n: number): string => n.toLocaleString("en-US");

/**
 * The first place a page's inline markup would cost the MDX parser far more than its length:
 * shapes that are slow without nesting (issue 25, adversary finding 39). Estimated from the
 * text alone, in one pass, so the same page gets the same answer on any machine:
 * - a backtick run that no run of its length closes has the parser read to the end of its
 *   paragraph looking for one (a page of runs of every length: no answer in 8 s). The
 *   characters so re-read are summed over the page;
 * - the parser pairs emphasis runs and brackets by walking back over the ones still open in the
 *   paragraph (30,000 unclosed links `[a](`: 7.4 s; `*_*_` 3,000 deep: 2.3 s): the squares of
 *   each paragraph's marks are summed over the page;
 * - a table's every cell is parsed as text of its own, slowly (300 x 300: 7.7 s): the cells of
 *   a page are limited.
 * Paragraphs are the lines between blank lines outside fenced code; an over-count (a mark in a
 * code span) only errs on the side of showing text.
 */
export function costlyMarkup(text: string): CostlyMarkup | undefined {
  const limits = LIMITS.preview;
  const lines = text.split("\n");
  let fence: string | undefined;
  let rereads = 0;
  let cells = 0;
  let pairing = 0;
  for (let i = 0; i < lines.length; ) {
    const f = FENCE_RE.exec(lines[i] as string);
    if (f !== null) {
      const marker = f[1] as string;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      i++;
      continue;
    }
    if (fence !== undefined || (lines[i] as string).trim() === "") {
      i++;
      continue;
    }
    // One paragraph: up to a blank line or a fence.
    let end = i;
    while (end < lines.length && (lines[end] as string).trim() !== "" && !FENCE_RE.test(lines[end] as string)) end++;
    const block = lines.slice(i, end).join("\n");
    const at = { line: i + 1 };
    if (end - i >= 2 && block.includes("|") && DELIMITER_ROW_RE.test(lines[i + 1] as string) && (lines[i + 1] as string).includes("-")) {
      for (const row of lines.slice(i, end)) cells += row.split("|").length;
      if (cells > limits.maxTableCells) return { what: `tables hold ${number(cells)} cells, more than the preview reads (${number(limits.maxTableCells)})`, ...at };
    }
    rereads += unclosedCodeRereads(block);
    if (rereads > limits.maxCodeSpanRereads) return { what: `unclosed code spans would have the parser re-read ${number(rereads)} characters, more than the preview allows (${number(limits.maxCodeSpanRereads)})`, ...at };
    pairing += pairedMarks(block) ** 2;
    if (pairing > limits.maxPairingSteps) return { what: `emphasis and link marks would take the parser ${number(pairing)} steps to pair, more than the preview allows (${number(limits.maxPairingSteps)})`, ...at };
    i = end;
  }
  return undefined;
}

/**
 * The characters the parser reads past a backtick run that opens no code span, looking for a
 * run of the same length, to the end of the paragraph: runs paired in order as the parser pairs
 * them (a run inside a span is its text), each length's runs listed once.
 */
export function unclosedCodeRereads(block: string): number {
  const byLength = new Map<number, number[]>();
  const runs: { at: number; length: number }[] = [];
  for (let at = block.indexOf("`"); at !== -1; ) {
    let end = at;
    while (block.charCodeAt(end) === 96) end++;
    const length = end - at;
    runs.push({ at, length });
    const list = byLength.get(length);
    if (list === undefined) byLength.set(length, [at]);
    else list.push(at);
    at = block.indexOf("`", end);
  }
  if (runs.length === 0) return 0;
  const next = new Map<number, number>();
  let rereads = 0;
  let from = 0;
  for (const run of runs) {
    if (run.at < from) continue;
    const list = byLength.get(run.length) as number[];
    let k = next.get(run.length) ?? 0;
    while (k < list.length && (list[k] as number) <= run.at) k++;
    next.set(run.length, k);
    const close = list[k];
    if (close === undefined) rereads += block.length - run.at;
    else from = close + run.length;
  }
  return rereads;
}

/** Emphasis runs (`*`, `_`) and brackets (`[`, `]`) of a paragraph (those in code spans too: an over-count only errs toward text). */
export function pairedMarks(block: string): number {
  let marks = 0;
  for (let c = 0; c < block.length; c++) {
    const ch = block.charCodeAt(c);
    if (ch === 92 /* \ */) c++;
    else if (ch === 91 || ch === 93) marks++;
    else if (ch === 42 || ch === 95) {
      marks++;
      while (block.charCodeAt(c + 1) === ch) c++;
    }
  }
  return marks;
}
