import { LIMITS } from "../limits.js";
import { columns, fencedLines, isBlank } from "./markup-lines.js";

/** Where a page nests one kind of markup past `LIMITS.preview.maxMarkupNesting`. */
export interface DeepMarkup {
  /** What nests, as a reader names it: "block quotes", "lists", "tags", "emphasis", "brackets". */
  readonly what: string;
  readonly depth: number;
  /** 1-based line of the text scanned where the depth first passes the limit. */
  readonly line: number;
}

/** A list item's marker and the space after it (or the line's end), at the start of what is read. */
const ITEM_RE = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
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
  const code = fencedLines(lines);
  const lists: number[] = [];
  let tags = 0;
  /** An opening tag whose `>` is on a later line. */
  let unended = false;
  /** The emphasis runs open in this block, each by its number of marks. */
  let open: number[] = [];
  let brackets = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const at = (what: string, depth: number): DeepMarkup => ({ what, depth, line: i + 1 });
    // Containers are counted on every line, fenced code too: a line taken for a fence the parser
    // does not open (```` ```x` ````) must not hide 3,000 block quotes after it (finding 41).
    const opened = containers(line);
    if (opened.quotes + opened.items > limit) return at(opened.items > 0 ? "lists" : "block quotes", opened.quotes + opened.items);
    if (code[i] === true) continue;
    if (isBlank(line)) {
      open = [];
      brackets = 0;
      continue;
    }
    const item = LIST_RE.exec(line);
    const indent = columns(item?.[1] ?? /^[ \t]*/.exec(line)?.[0] ?? "");
    while (lists.length > 0 && (lists.at(-1) as number) >= indent && (item !== null || indent === 0)) lists.pop();
    if (item !== null) lists.push(indent);
    if (lists.length + Math.max(0, opened.items - 1) > limit) return at("lists", lists.length + opened.items - 1);
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
        const run = emphasisRun(ch, line[c - 1], line[end + 1]);
        // As the parser pairs them (CommonMark's flanking rules): a run that may close ends open
        // ones, else one that may open waits for a closer. Each open run is a level; a closing
        // run matching many marks at once closes one level per two (`******x******`).
        let length = end - c + 1;
        if (run.closes && open.length > 0) {
          // Closing pairs with the open runs, innermost first: `******` after `******x` closes
          // three strong emphases at once.
          let matched = 0;
          while (length > 0 && open.length > 0) {
            const top = open.pop() as number;
            const take = Math.min(top, length);
            matched += take;
            length -= take;
            if (top > take) open.push(top - take);
          }
          if (Math.ceil(matched / 2) > limit) return at("emphasis", Math.ceil(matched / 2));
        } else if (run.opens) {
          open.push(length);
          if (open.length > limit) return at("emphasis", open.length);
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

/**
 * The block quotes and list items that open the line, one inside the other (`> > text`,
 * `- - - x`, `1. > - x`): each is a level of nesting for the parser, written on one line.
 */
function containers(line: string): { quotes: number; items: number } {
  let quotes = 0;
  let items = 0;
  let at = 0;
  for (;;) {
    while (line[at] === " " || line[at] === "\t") at++;
    if (line[at] === ">") {
      quotes++;
      at++;
      continue;
    }
    const item = ITEM_RE.exec(line.slice(at, at + 12));
    if (item === null) return { quotes, items };
    items++;
    at += item[0].length;
  }
}

/** Whether a run of `*` or `_` between `before` and `after` may open or close emphasis, by CommonMark's rules. */
function emphasisRun(mark: string, before: string | undefined, after: string | undefined): { opens: boolean; closes: boolean } {
  const space = (c: string | undefined): boolean => c === undefined || /\s/.test(c);
  const punct = (c: string | undefined): boolean => c !== undefined && /[\p{P}\p{S}]/u.test(c);
  const left = !space(after) && (!punct(after) || space(before) || punct(before));
  const right = !space(before) && (!punct(before) || space(after) || punct(after));
  if (mark === "*") return { opens: left, closes: right };
  return { opens: left && (!right || punct(before)), closes: right && (!left || punct(after)) };
}
