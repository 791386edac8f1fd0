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
export function quotePrefix(line: string): { quotes: number; rest: string } {
  let quotes = 0;
  let at = 0;
  for (;;) {
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
  return { char: run[0] as "`" | "~", length: run.length, quotes, ...(items !== "" ? { item: columns(items) } : {}) };
}

/** Whether `line`, inside `fence`, is still its code (or its closing line): false once a container around it ends. */
export function inFence(line: string, fence: Fence): boolean {
  if (isBlank(line)) return true;
  const { quotes, rest } = quotePrefix(line);
  if (quotes < fence.quotes) return false;
  if (fence.item !== undefined && columns(/^[ \t]*/.exec(rest)?.[0] ?? "") < fence.item) return false;
  return true;
}

/** Whether `line` closes `fence`: a run of its mark at least as long, then only white space. */
export function fenceCloses(line: string, fence: Fence): boolean {
  const { rest } = quotePrefix(line);
  const m = /^[ \t]*(`+|~+)[ \t]*\r?$/.exec(rest);
  return m !== null && (m[1] as string)[0] === fence.char && (m[1] as string).length >= fence.length;
}

/**
 * Which lines of a page are fenced code (the fences included), reading fences as CommonMark
 * does. Only for counts where a code line read as text would be a false alarm (tags, emphasis
 * depth): the cost scan reads code as text.
 */
export function fencedLines(lines: readonly string[]): boolean[] {
  const code: boolean[] = new Array<boolean>(lines.length).fill(false);
  let fence: Fence | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (fence !== undefined && !inFence(line, fence)) fence = undefined;
    if (fence !== undefined) {
      code[i] = true;
      if (fenceCloses(line, fence)) fence = undefined;
      continue;
    }
    fence = fenceOpening(line);
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
