import { LIMITS } from "../limits.js";
import { rawBlockLines, type Reading } from "./code-block-lines.js";
import { deepMarkup } from "./markup-depth.js";
import { columns, isBlank, quotePrefix } from "./markup-lines.js";

/** Where a page holds more inline markup than the preview's parser reads in time. */
export interface CostlyMarkup {
  /** What, as a reader reads it: "unclosed code spans would have the parser re-read 9,000,000 characters". */
  readonly what: string;
  /** 1-based line of the text scanned where the paragraph (or table) that passes the limit starts. */
  readonly line: number;
}

/** A table's delimiter row (`| --- | :-: |`), one way to match each character. */
const DELIMITER_ROW_RE = /^[ \t]*(?:\|[ \t]*)?:?-+(?:(?=[^-]):?[ \t]*(?:\|[ \t]*)?:?-+)*:?[ \t]*(?:\|[ \t]*)?\r?$/;
/** Block quotes and list markers before a table's row (`> | a |`, `- | a |`). */
const CONTAINERS_RE = /^(?:[ \t]*(?:>|[-*+][ \t]|\d{1,9}[.)][ \t]))*/;

/** A line starting a block quote or a list item. */
const CONTAINER_START_RE = /^[ \t]*(?:>|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))/;

const number = (n: number): string => n.toLocaleString("en-US");

/**
 * The first place a page's inline markup would cost the MDX parser far more than its length:
 * shapes that are slow without nesting (issue 25, adversary findings 39 and 41). Estimated from
 * the text alone, in one pass, so the same page gets the same answer on any machine:
 * - a backtick run that no run of its length closes has the parser read to the end of its
 *   paragraph looking for one (a page of runs of every length: no answer in 8 s). The
 *   characters so re-read are summed over the page;
 * - the parser pairs emphasis runs and brackets by walking back over the ones still open in the
 *   paragraph (30,000 unclosed links `[a](`: 7.4 s; `*_*_` 3,000 deep: 2.3 s): the squares of
 *   each paragraph's marks are summed over the page. A list item and a table cell are
 *   paragraphs of their own to the parser (`pairingSteps`), so a long list of links is not one
 *   long paragraph;
 * - a table's every cell is parsed as text of its own, slowly (300 x 300: 7.7 s): the cells of
 *   a page are limited.
 * Blocks are the lines between blank lines (spaces and tabs only, as the parser reads them).
 * Code blocks are first counted as text: a line a scan took for a fence the parser does not
 * open (```` ```x` ````) hid everything after it (finding 41). Only a page past a limit so
 * counted has its code, `$$` math and (read as Markdown) raw HTML blocks found by the parser
 * itself (`rawBlockLines`: the preview's reader, inline constructs off) and blanked,
 * and is counted again: a real page with a long JSON dashboard in a code block (1,070 brackets
 * and underscores in one block: 1,149,244 steps) is no longer shown as text, and no line is
 * left uncounted that the parser reads as inline text. `reading` is the parser the text goes
 * to (a page MDX refuses is read as Markdown: `parseMdx` asks again). Text nested past
 * `deepMarkup`'s limit, larger, longer, nested deeper or with more pipes than that parse reads in time
 * (`LIMITS.preview.maxCodeScanBytes`), or that the reader refuses, is counted as it is. Any
 * over-count only errs on the side of showing text.
 */
export function costlyMarkup(text: string, reading: Reading = "mdx"): CostlyMarkup | undefined {
  const lines = text.split("\n");
  const plain = estimate(lines);
  if (plain === undefined || !scannable(text, lines)) return plain;
  const raw = rawBlockLines(text, reading);
  if (raw === undefined || raw.size === 0) return plain;
  return estimate(lines.map((line, i) => (raw.has(i + 1) ? "" : line)));
}

/**
 * Whether the parse of a text's blocks (`rawBlockLines`) is cheap (see
 * `LIMITS.preview.maxCodeScanBytes`): its cost grows with its lines times the square of how deep
 * they nest in block quotes and lists (2,000 lines of `> > > > > > > > > - - - - - - [a](`,
 * 70 KB: 7.5 s), the depth being the least nesting limit `deepMarkup` finds nothing past.
 */
function scannable(text: string, lines: readonly string[]): boolean {
  const limits = LIMITS.preview;
  if (text.length > limits.maxCodeScanBytes || lines.length > limits.maxCodeScanLines) return false;
  let pipes = 0;
  for (let at = text.indexOf("|"); at !== -1; at = text.indexOf("|", at + 1)) if (++pipes > limits.maxCodeScanPipes) return false;
  // Only block quotes and lists nest blocks: emphasis, brackets and tags are taken out first.
  const blocks = text.replace(/[_[\]<]|\*(?=\S)/g, " ");
  let low = 0;
  let high: number = limits.maxMarkupNesting;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (deepMarkup(blocks, mid) === undefined) high = mid;
    else low = mid + 1;
  }
  // Items of lists nested in lists cost with the square of their number (2,500 lines `- - - x`:
  // 2.2 s; 5,000: 10 s): lines starting a block quote or an item are bounded apart.
  const work = (low + 1) ** 2;
  if (low >= 2 && lines.filter((line) => CONTAINER_START_RE.test(line)).length * work > limits.maxCodeScanWork / 4) return false;
  return lines.length * work <= limits.maxCodeScanWork;
}

/** `costlyMarkup`'s count of the lines given, code included. */
function estimate(lines: readonly string[]): CostlyMarkup | undefined {
  const limits = LIMITS.preview;
  let rereads = 0;
  let cells = 0;
  let pairing = 0;
  for (let i = 0; i < lines.length; ) {
    if (isBlank(lines[i] as string)) {
      i++;
      continue;
    }
    let end = i;
    while (end < lines.length && !isBlank(lines[end] as string)) end++;
    const blockLines = lines.slice(i, end);
    const at = { line: i + 1 };
    const table = tableRows(blockLines);
    if (table > 0) {
      for (const row of blockLines) cells += row.split("|").length;
      if (cells > limits.maxTableCells) return { what: `tables hold ${number(cells)} cells, more than the preview reads (${number(limits.maxTableCells)})`, ...at };
    }
    rereads += unclosedCodeRereads(blockLines.join("\n"));
    if (rereads > limits.maxCodeSpanRereads) return { what: `unclosed code spans would have the parser re-read ${number(rereads)} characters, more than the preview allows (${number(limits.maxCodeSpanRereads)})`, ...at };
    pairing += pairingSteps(blockLines, table);
    if (pairing > limits.maxPairingSteps) return { what: `emphasis and link marks would take the parser ${number(pairing)} steps to pair, more than the preview allows (${number(limits.maxPairingSteps)})`, ...at };
    i = end;
  }
  return undefined;
}

/**
 * How many of a block's first lines are a table's rows (0: no table): a header, a delimiter row,
 * then rows that hold a pipe and start no other block. A line after them is counted as a
 * paragraph's (the parser may read it as one, a block quote's lazy line).
 */
function tableRows(lines: readonly string[]): number {
  const strip = (line: string): string => line.replace(CONTAINERS_RE, "");
  const second = lines[1];
  if (second === undefined || !(lines[0] as string).includes("|") || !DELIMITER_ROW_RE.test(strip(second)) || !second.includes("-")) return 0;
  let rows = 2;
  while (rows < lines.length && /^ {0,3}[^\s>#`~<{*+\-\d]/.test(lines[rows] as string) && (lines[rows] as string).includes("|")) rows++;
  return rows;
}

/**
 * Steps to pair a block's marks: the square of each paragraph's, where a paragraph ends where
 * the parser ends it inside the block: at each table cell of its first `table` rows, and at each
 * list item's start. An item starts a paragraph only where the parser starts one (CommonMark):
 * its marker at most 3 columns past the content of an item still open (or of the page), and an
 * ordered list's first item numbered 1 unless it follows an item of its list; otherwise the line
 * continues the paragraph before it, and its marks add to that paragraph's.
 */
export function pairingSteps(lines: readonly string[], table: number): number {
  let steps = 0;
  for (let r = 0; r < table; r++) for (const cell of (lines[r] as string).split(/(?<!\\)\|/)) steps += pairedMarks(cell) ** 2;
  let marks = 0;
  /** The list items open, innermost last: where each marker is, its kind, where its content starts. */
  const items: { indent: number; kind: string; content: number }[] = [];
  for (let r = table; r < lines.length; r++) {
    const line = quotePrefix(lines[r] as string).rest;
    const m = /^([ \t]*)([-*+]|(\d{1,9})([.)]))([ \t]+)(?=\S)/.exec(line);
    if (m !== null) {
      const indent = columns(m[1] as string);
      const marker = m[2] as string;
      const kind = m[4] ?? marker;
      // The items this line is not inside end; the outermost of them may be its sibling.
      let sibling: { kind: string } | undefined;
      while (items.length > 0 && (items.at(-1) as { content: number }).content > indent) sibling = items.pop();
      const base = items.at(-1)?.content ?? 0;
      const first = m[3] === undefined || Number(m[3]) === 1 || r === 0;
      if (indent - base <= 3 && (first || sibling?.kind === kind)) {
        steps += marks ** 2;
        marks = 0;
        const spaces = columns(`${m[1] as string}${marker}${m[5] as string}`) - indent - marker.length;
        items.push({ indent, kind, content: indent + marker.length + (spaces > 4 ? 1 : spaces) });
      } else if (sibling !== undefined) {
        items.push(sibling as { indent: number; kind: string; content: number });
      }
    }
    marks += pairedMarks(line);
  }
  return steps + marks ** 2;
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
