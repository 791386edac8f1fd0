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

/** A fenced code block's opening line, as CommonMark reads it. */
export interface Fence {
  readonly char: "`" | "~";
  readonly length: number;
  /** Block quotes around it: a line with fewer ends the quote, and the code with it. */
  readonly quotes: number;
  /** The column its content starts at when it opens in a list item on the same line (`- ```js`): a line indented less ends the item, and the code with it. */
  readonly item?: number;
  /** Columns between its container's content (or the line's start) and the fence. */
  readonly indent: number;
}

const OPEN_RE = /^((?:[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$))*)([ \t]*)(`{3,}|~{3,})(.*)$/;

/**
 * The fence a line opens, if any: after block quotes and list markers, a run of 3 or more of one
 * mark, and for backticks an info string with no backtick (```` ```x` ```` opens nothing: it is
 * paragraph text with a code span).
 */
export function fenceOpening(line: string): Fence | undefined {
  const { quotes, rest } = quotePrefix(line);
  const m = OPEN_RE.exec(rest.replace(/\r$/, ""));
  if (m === null) return undefined;
  const run = m[3] as string;
  if (run[0] === "`" && (m[4] as string).includes("`")) return undefined;
  const items = m[1] as string;
  return { char: run[0] as "`" | "~", length: run.length, quotes, indent: columns(m[2] as string), ...(items !== "" ? { item: columns(items) } : {}) };
}

/** Whether `line`, inside `fence`, is still its code (or its closing line): false once a container around it ends. */
export function inFence(line: string, fence: Fence): boolean {
  // A blank line ends a block quote (and the code in it), not a list item.
  if (isBlank(line)) return fence.quotes === 0;
  const { quotes, rest } = quotePrefix(line);
  if (quotes < fence.quotes) return false;
  if (fence.item !== undefined && columns(/^[ \t]*/.exec(rest)?.[0] ?? "") < fence.item) return false;
  return true;
}

/** Whether `line` closes `fence`: a run of its mark at least as long, then only white space. */
export function fenceCloses(line: string, fence: Fence, markdown = false): boolean {
  // Only the fence's own quotes are containers: a `>` past them is the code's text.
  const { rest } = quotePrefix(line, fence.quotes);
  const m = /^([ \t]*)(`+|~+)[ \t]*\r?$/.exec(rest);
  if (m !== null && markdown && columns(m[1] as string) - (fence.item ?? 0) > 3) return false;
  return m !== null && (m[2] as string)[0] === fence.char && (m[2] as string).length >= fence.length;
}

/**
 * Which lines of a page are fenced code (the fences included) in both of the parser's readings:
 * MDX (fences at any indent, no HTML blocks) and Markdown, which a page MDX refuses is read as
 * (a fence at most 3 columns in; a line in an HTML block opens none: `<div>` then ```` ``` ````).
 * Only for counts where a code line read as text would be a false alarm (tags, emphasis depth):
 * the cost scan reads code as text.
 */
export function fencedLines(lines: readonly string[]): boolean[] {
  const mdx = fencesIn(lines, false);
  const markdown = fencesIn(lines, true);
  return mdx.map((code, i) => code && markdown[i] === true);
}

/** Where an HTML block ends (CommonMark's kinds 1-5 at their end mark, the others at a blank line). */
const HTML_ENDS: readonly [RegExp, RegExp][] = [
  [/^<(?:script|pre|style|textarea)(?:\s|>|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^<!--/, /-->/],
  [/^<\?/, /\?>/],
  [/^<!\[CDATA\[/, /\]\]>/],
  [/^<![A-Za-z]/, />/],
];

function fencesIn(lines: readonly string[], markdown: boolean): boolean[] {
  const code: boolean[] = new Array<boolean>(lines.length).fill(false);
  let fence: Fence | undefined;
  /** In Markdown, the HTML block open: what ends it (`blank` for a blank line). */
  let html: RegExp | "blank" | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (fence !== undefined && !inFence(line, fence)) fence = undefined;
    if (fence !== undefined) {
      code[i] = true;
      if (fenceCloses(line, fence, markdown)) fence = undefined;
      continue;
    }
    if (markdown) {
      if (html === undefined) {
        const tag = /^ {0,3}(<.*)$/.exec(quotePrefix(line).rest)?.[1];
        if (tag !== undefined) html = HTML_ENDS.find(([start]) => start.test(tag))?.[1] ?? "blank";
      }
      if (html !== undefined) {
        if (html === "blank" ? isBlank(line) : html.test(line)) html = undefined;
        continue;
      }
    }
    fence = fenceOpening(line);
    if (fence !== undefined && markdown && fence.indent > 3) fence = undefined;
    code[i] = fence !== undefined;
  }
  return code;
}

/** Width of leading white space (and list markers), a tab to the next multiple of 4 as Markdown counts it. */
export function columns(space: string): number {
  let width = 0;
  for (const ch of space) width = ch === "\t" ? width + 4 - (width % 4) : width + 1;
  return width;
}
