import { LIMITS } from "../limits.js";

/**
 * How Markdown splits a page into lines and blocks, for the scans that decide whether a page is
 * parsed at all (`markup-cost.ts`, `markup-depth.ts`). The scans err toward counting: a line they
 * take for code or a break where the parser sees paragraph text would let that text through
 * unscanned (adversary finding 41: a fence the parser does not open, a line of no-break spaces
 * the parser does not take for blank).
 */

/** Blank as the parser reads it: spaces and tabs only (`\u00a0`, which `trim()` drops, is text). */
export function isBlank(line: string): boolean {
  return /^[ \t]*\r?$/.test(line);
}

/** The block quote markers that open a line (`> > x`), and the rest. */
export function quotePrefix(line: string, most = Infinity): { quotes: number; rest: string } {
  let quotes = 0;
  let at = 0;
  for (;;) {
    if (quotes === most) return { quotes, rest: line.slice(at) };
    let c = at;
    while (c - at < 3 && line[c] === " ") c++;
    if (line[c] !== ">") return { quotes, rest: line.slice(at) };
    quotes++;
    at = c + 1;
    if (line[at] === " " || line[at] === "\t") at++;
  }
}

/**
 * Which lines of a page are fenced code (the fences included) in both of the parser's readings:
 * MDX (fences, block quotes and list items at any indent, no indented code, no HTML blocks) and
 * Markdown, which a page MDX refuses is read as (each at most 3 columns into its container; a
 * line in an HTML block opens none: `<div>` then ```` ``` ````). Only for counts where a code
 * line read as text would be a false alarm (tags, emphasis depth): the cost scan reads code as
 * text.
 */
export function fencedLines(lines: readonly string[]): boolean[] {
  const mdx = fencesIn(lines, false);
  const markdown = fencesIn(lines, true);
  return mdx.map((code, i) => code && markdown[i] === true);
}

/** A container block open around the line being read (CommonMark's block structure). */
type Container =
  | { readonly kind: "quote" }
  /** A list item: the column its content starts at; `empty` while it has had no content line (it then ends at a blank line). */
  | { readonly kind: "item"; readonly content: number; empty: boolean };

/** An open fenced code block: its mark, and how many of the open containers hold it. */
interface Fence {
  readonly char: "`" | "~";
  readonly length: number;
  readonly depth: number;
}

/** Where the reading of a line stands: its index, its column (tabs to the next multiple of 4), and the column the innermost container's content starts at. */
interface At {
  pos: number;
  col: number;
  base: number;
}

/** Where an HTML block ends (CommonMark's kinds 1-5 at their end mark, the others at a blank line). */
const HTML_ENDS: readonly [RegExp, RegExp][] = [
  [/^<(?:script|pre|style|textarea)(?:\s|>|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^<!--/, /-->/],
  [/^<\?/, /\?>/],
  [/^<!\[CDATA\[/, /\]\]>/],
  [/^<![A-Za-z]/, />/],
];

const ITEM_MARK_RE = /^(?:[-*+]|(\d{1,9})[.)])(?=[ \t]|$)/;
const THEMATIC_RE = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const DELIMITER_ROW_RE = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const FENCE_RE = /^(`{3,}|~{3,})(.*)$/;

/**
 * CommonMark's reading of block structure, as far as fences need it: each line first continues
 * the open block quotes (a `>`) and list items (indented to their content, or blank), then may
 * open new ones, then holds a leaf (a fence, a paragraph line...). Fenced code ends with any
 * container around it that a line does not continue (no lazy lines in code); a paragraph's lazy
 * line keeps them open. Where it cannot be exact it errs toward fewer code lines: a code line
 * read as text is at worst a false alarm, text read as code would hide markup from the scan.
 */
function fencesIn(lines: readonly string[], markdown: boolean): boolean[] {
  const code: boolean[] = new Array<boolean>(lines.length).fill(false);
  let open: Container[] = [];
  let fence: Fence | undefined;
  /** The last line was paragraph text (so a line may continue it lazily, and some blocks cannot interrupt it). */
  let paragraph = false;
  /** The paragraph's line while it has one (a table's header row, if a delimiter row follows). */
  let header: string | undefined;
  /** In Markdown, the last line that was not blank was indented code: the parser lets a list item follow it only as one that could interrupt a paragraph. */
  let indented = false;
  /** In Markdown, the HTML block open: what ends it (`blank` for a blank line). */
  let html: RegExp | "blank" | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, "");
    const at: At = { pos: 0, col: 0, base: 0 };
    const above = header;
    header = undefined;
    const matched = continued(line, open, at);
    // The line ends containers it does not continue (a block quote without its `>`).
    const endsContainers = matched < open.length;
    const blank = skipSpace(line, at.pos, at.col).pos === line.length;
    if (fence !== undefined) {
      if (matched === fence.depth) {
        code[i] = true;
        if (closes(line, at, fence, markdown)) fence = undefined;
        continue;
      }
      fence = undefined;
      open = open.slice(0, matched);
      paragraph = false;
    }
    if (html !== undefined) {
      // An HTML block takes every line its containers continue, until its end (no lazy lines).
      if (matched === open.length) {
        if (html === "blank" ? blank : html.test(line)) html = undefined;
        continue;
      }
      html = undefined;
      paragraph = false;
    }
    const interrupts = (paragraph || indented) && matched === open.length;
    // Indented code lasts through blank lines (and what may follow it with it).
    if (!blank) indented = false;
    const started = opened(line, at, open.slice(0, matched), interrupts, markdown);
    if (started.length > matched || matched === open.length) open = started;
    else if (paragraph && lazy(line, at, markdown)) {
      // A paragraph's lazy continuation: the containers it did not continue stay open.
      continue;
    } else open = started;
    // The items the line continued have content now (one it opened has, unless only its marker is there).
    if (!blank) for (const c of open.slice(0, matched)) if (c.kind === "item") c.empty = false;
    const leaf = skipSpace(line, at.pos, at.col);
    const rest = line.slice(leaf.pos);
    const indent = leaf.col - at.base;
    if (rest === "") {
      paragraph = false;
      continue;
    }
    if (markdown) {
      if (indent <= 3 && rest.startsWith("<")) {
        // Its kinds 1-5 may end on the line that opens them (`<!-- x -->`).
        const end = HTML_ENDS.find(([start]) => start.test(rest))?.[1];
        html = end !== undefined && end.test(rest.slice(1)) ? undefined : (end ?? "blank");
        paragraph = false;
        continue;
      }
      if (indent > 3) {
        // Indented code, or the open paragraph's text. Code on a line that ended containers is
        // the parser's (micromark's) alone: it does not go on to the next line (a second such
        // line is a new code block) and does not keep a list item from starting there
        // (`> ```` / `    text` / `2. x` is a list), so it does not count here.
        indented = !paragraph && !endsContainers;
        continue;
      }
    }
    const run = fenceRun(rest);
    if (run !== undefined) {
      fence = { char: run[0] as "`" | "~", length: run.length, depth: open.length };
      code[i] = true;
      paragraph = false;
      continue;
    }
    // A setext underline ends the paragraph (a heading); so does a table's delimiter row under a
    // one-line paragraph with as many cells (a table, which any block may follow).
    const ends: boolean = THEMATIC_RE.test(rest) || /^#{1,6}(?:[ \t]|$)/.test(rest) || (paragraph && (/^(?:=+|-+)[ \t]*$/.test(rest) || (above !== undefined && isDelimiterRow(rest, above))));
    if (!ends && !paragraph) header = rest;
    paragraph = !ends;
  }
  return code;
}

/** Whether `row` is a table's delimiter row under `header` (GitHub's tables: as many cells). */
function isDelimiterRow(row: string, header: string): boolean {
  if (!row.includes("|") && !header.includes("|")) return false;
  return DELIMITER_ROW_RE.test(row) && cells(row) === cells(header);
}

/** A table row's cells: its unescaped pipes, less those that open and close it. */
function cells(row: string): number {
  const trimmed = row.trim();
  let pipes = 0;
  for (let c = 0; c < trimmed.length; c++) {
    if (trimmed[c] === "\\") c++;
    else if (trimmed[c] === "|") pipes++;
  }
  return pipes + 1 - (trimmed.startsWith("|") ? 1 : 0) - (trimmed.endsWith("|") && trimmed.length > 1 ? 1 : 0);
}

/** How many of the open containers the line continues; `at` is left after them. */
function continued(line: string, open: readonly Container[], at: At): number {
  let matched = 0;
  for (const c of open) {
    const ws = skipSpace(line, at.pos, at.col);
    if (c.kind === "quote") {
      if (line[ws.pos] !== ">") break;
      enterQuote(line, ws, at);
    } else {
      // A blank line continues an item, unless the item has had no content yet (it began blank).
      if (ws.pos === line.length ? c.empty : ws.col < c.content) break;
      at.base = c.content;
    }
    matched++;
  }
  return matched;
}

/** The containers open after the line's new block quotes and list items, which it may open after those it continued. */
function opened(line: string, at: At, open: Container[], inParagraph: boolean, markdown: boolean): Container[] {
  for (;;) {
    // Past the deepest nesting a page may have and still be parsed (`deepMarkup` shows a deeper
    // one as text), the rest of the line is read as text: each level re-reads the rest of the
    // line, and every later line walks the open containers, so a page of N nested markers
    // (`- - - ... y`) cost N squared (20,000 of them, 40 KB: 13 s per request; issue 25). Text
    // rather than containers only lessens the code lines found: the side these counts err on.
    if (open.length > LIMITS.preview.maxMarkupNesting) return open;
    const ws = skipSpace(line, at.pos, at.col);
    if (markdown && ws.col - at.base > 3) return open;
    if (line[ws.pos] === ">") {
      enterQuote(line, ws, at);
      open.push({ kind: "quote" });
      inParagraph = false;
      continue;
    }
    const rest = line.slice(ws.pos);
    const mark = ITEM_MARK_RE.exec(rest);
    if (mark === null || THEMATIC_RE.test(rest)) return open;
    const after = ws.col + mark[0].length;
    const content = skipSpace(line, ws.pos + mark[0].length, after);
    const empty = content.pos === line.length;
    // An empty item, or a numbered one not starting at 1, cannot interrupt a paragraph: it is its text.
    if (inParagraph && (empty || (mark[1] !== undefined && Number(mark[1]) !== 1))) return open;
    // Five or more spaces after the marker: the content starts one past it (the rest is indented code).
    const column = empty || content.col - after > 4 ? after + 1 : content.col;
    open.push({ kind: "item", content: column, empty });
    at.pos = column === content.col ? content.pos : Math.min(ws.pos + mark[0].length + 1, line.length);
    at.col = column;
    at.base = column;
    inParagraph = false;
    if (empty) return open;
  }
}

/** Past a `>` at `ws` and the one space (or tab column) after it. */
function enterQuote(line: string, ws: { pos: number; col: number }, at: At): void {
  at.pos = ws.pos + 1;
  at.col = ws.col + 1;
  if (line[at.pos] === " " || line[at.pos] === "\t") {
    at.base = at.col + 1;
    if (line[at.pos] === " ") {
      at.pos++;
      at.col++;
    }
  } else at.base = at.col;
}

/** Whether a line that did not continue every container is a paragraph's lazy continuation: text that starts no block. */
function lazy(line: string, at: At, markdown: boolean): boolean {
  const ws = skipSpace(line, at.pos, at.col);
  const rest = line.slice(ws.pos);
  if (rest === "") return false;
  if (markdown && ws.col - at.base > 3) return true;
  if (rest.startsWith(">") || fenceRun(rest) !== undefined || THEMATIC_RE.test(rest) || /^#{1,6}(?:[ \t]|$)/.test(rest)) return false;
  if (markdown && rest.startsWith("<")) return false;
  const mark = ITEM_MARK_RE.exec(rest);
  // An item that could interrupt the paragraph starts a block instead.
  return mark === null || skipSpace(line, ws.pos + mark[0].length, 0).pos === line.length || (mark[1] !== undefined && Number(mark[1]) !== 1);
}

/**
 * The mark run of the fence `rest` opens, if any: 3 or more of one mark, and for backticks an
 * info string with no backtick (```` ```x` ```` opens nothing: it is text with a code span).
 */
function fenceRun(rest: string): string | undefined {
  const f = FENCE_RE.exec(rest);
  if (f === null) return undefined;
  const run = f[1] as string;
  return run[0] === "`" && (f[2] as string).includes("`") ? undefined : run;
}

/** Whether the line (its containers read up to `at`) closes `fence`: a run of its mark at least as long, then only white space. */
function closes(line: string, at: At, fence: Fence, markdown: boolean): boolean {
  const ws = skipSpace(line, at.pos, at.col);
  if (markdown && ws.col - at.base > 3) return false;
  const m = /^(`+|~+)[ \t]*$/.exec(line.slice(ws.pos));
  return m !== null && (m[1] as string)[0] === fence.char && (m[1] as string).length >= fence.length;
}

/** Past the spaces and tabs at `pos` (at column `col`). */
function skipSpace(line: string, pos: number, col: number): { pos: number; col: number } {
  while (pos < line.length && (line[pos] === " " || line[pos] === "\t")) {
    col = line[pos] === "\t" ? col + 4 - (col % 4) : col + 1;
    pos++;
  }
  return { pos, col };
}

/** Width of leading white space (and list markers), a tab to the next multiple of 4 as Markdown counts it. */
export function columns(space: string): number {
  let width = 0;
  for (const ch of space) width = ch === "\t" ? width + 4 - (width % 4) : width + 1;
  return width;
}
