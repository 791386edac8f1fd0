import { LIMITS } from "../limits.js";

/** Where a page nests one kind of markup past `LIMITS.preview.maxMarkupNesting`. */
export interface DeepMarkup {
  /** What nests, as a reader names it: "block quotes", "lists", "tags", "emphasis", "brackets". */
  readonly what: string;
  readonly depth: number;
  /** 1-based line of the text scanned where the depth first passes the limit. */
  readonly line: number;
}

const FENCE_RE = /^[ \t>]*(`{3,}|~{3,})/;
const LIST_RE = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
/** `tagStep`'s answer for a tag whose `>` is not on its line. */
const UNENDED = 2;
/** The name of a tag after its `<` or `</` (`Card`, `div`, `Tabs.Tab`). */
const TAG_NAME_RE = /[A-Za-z][\w.:-]*/y;
/** HTML elements that never have a closing tag. */
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

/**
 * The first place a page nests markup deeper than the preview parses: block quotes (`>>>`),
 * lists, tags, emphasis (`*a *b ... c* d*`) or brackets (`[[[`). A linear scan of the text
 * outside fenced code, decided by the text alone: the same page gets the same answer on any
 * machine. Code spans are skipped. Emphasis and brackets are counted within one block (the lines between blank lines),
 * where the parser pairs them; block quotes and lists by each line's own prefix; tags across the
 * page, as a component spans blocks. An over-count (a `*` in a code span) only errs on the side
 * of showing text.
 */
export function deepMarkup(text: string, limit: number = LIMITS.preview.maxMarkupNesting): DeepMarkup | undefined {
  const lines = text.split("\n");
  let fence: string | undefined;
  const lists: number[] = [];
  let tags = 0;
  /** An opening tag whose `>` is on a later line. */
  let unended = false;
  let emphasis = 0;
  let brackets = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const at = (what: string, depth: number): DeepMarkup => ({ what, depth, line: i + 1 });
    const f = FENCE_RE.exec(line);
    if (f !== null) {
      const marker = f[1] as string;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    if (line.trim() === "") {
      emphasis = 0;
      brackets = 0;
      continue;
    }
    const quotes = quoteDepth(line);
    if (quotes > limit) return at("block quotes", quotes);
    const item = LIST_RE.exec(line);
    const indent = columns(item?.[1] ?? /^[ \t]*/.exec(line)?.[0] ?? "");
    while (lists.length > 0 && (lists.at(-1) as number) >= indent && (item !== null || indent === 0)) lists.pop();
    if (item !== null) lists.push(indent);
    if (lists.length > limit) return at("lists", lists.length);
    let start = 0;
    if (unended) {
      // A tag's attributes over several lines (`<path\n  d="..."\n/>`): where it ends decides
      // whether it closed itself after all.
      const end = line.indexOf(">");
      if (end === -1) continue;
      if (line[end - 1] === "/") tags = Math.max(0, tags - 1);
      unended = false;
      start = end + 1;
    }
    for (let c = start; c < line.length; c++) {
      const ch = line[c];
      if (ch === "\\") {
        c++;
      } else if (ch === "`") {
        // A code span is text, whatever it holds (`<Card>`, `**`): skipped to its closing run.
        let end = c;
        while (line[end + 1] === "`") end++;
        const run = line.slice(c, end + 1);
        const close = line.indexOf(run, end + 1);
        c = close === -1 ? end : close + run.length - 1;
      } else if (ch === "<") {
        const step = tagStep(line, c);
        if (step === UNENDED) unended = true;
        tags = Math.max(0, tags + (step === UNENDED ? 1 : step));
        if (tags > limit) return at("tags", tags);
      } else if (ch === "[") {
        if (++brackets > limit) return at("brackets", brackets);
      } else if (ch === "]") {
        brackets = Math.max(0, brackets - 1);
      } else if (ch === "*" || ch === "_") {
        let end = c;
        while (line[end + 1] === ch) end++;
        const before = line[c - 1] ?? " ";
        const after = line[end + 1] ?? " ";
        const opens = !/\s/.test(after);
        const closes = !/\s/.test(before);
        // As the parser pairs them: a run that can only open waits for a closer; one that can
        // close ends the innermost open one.
        if (opens && !closes) {
          if (++emphasis > limit) return at("emphasis", emphasis);
        } else if (closes) {
          emphasis = Math.max(0, emphasis - 1);
        }
        c = end;
      }
    }
  }
  return undefined;
}

/**
 * What the tag whose `<` is at `at` does to the depth: +1 an opening tag, -1 a closing one, 0 one
 * that closes itself (`<Icon />`), a void HTML element (`<br>`) or no tag (`a < b`), `UNENDED`
 * an opening tag whose `>` is on a later line. Its end is looked for only up to the next `<`, so
 * a line of many `<` is still read once.
 */
function tagStep(line: string, at: number): number {
  const closing = line[at + 1] === "/";
  TAG_NAME_RE.lastIndex = at + (closing ? 2 : 1);
  const name = TAG_NAME_RE.exec(line)?.[0];
  if (name === undefined) return 0;
  if (closing) return -1;
  if (VOID.has(name.toLowerCase())) return 0;
  // The last `>` before the next `<` (each stretch of the line is read once), if any.
  let end = -1;
  let c = at + 1;
  for (; c < line.length && line[c] !== "<"; c++) if (line[c] === ">") end = c;
  if (end === -1) return c === line.length ? UNENDED : 1;
  return line[end - 1] === "/" ? 0 : 1;
}

/** How many `>` open the line (spaces between them allowed, as Markdown does). */
function quoteDepth(line: string): number {
  let depth = 0;
  for (const ch of line) {
    if (ch === ">") depth++;
    else if (ch !== " " && ch !== "\t") break;
  }
  return depth;
}

/** Width of leading white space, a tab to the next multiple of 4 as Markdown counts it. */
function columns(space: string): number {
  let width = 0;
  for (const ch of space) width = ch === "\t" ? width + 4 - (width % 4) : width + 1;
  return width;
}
