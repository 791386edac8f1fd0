/** `#` to `######` after up to three spaces (any indentation inside a component), then space. */
const START_RE = /^ {0,3}(#{1,6})[ \t]+/;
const INDENTED_START_RE = /^[ \t]+(#{1,6})[ \t]+/;

const isSpace = (c: number): boolean => c === 32 || c === 9;

/**
 * An ATX heading line's level (its `#`s) and text, without a closing run of `#` and the spaces
 * around it: what `/^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/` captures, found by reading
 * the line's end once. That expression tried its ending at every character of the text, each
 * try reading the rest of a run of spaces: a heading of 100,000 spaces then a letter stalled the
 * index's build (issue 25). `indented` reads a heading indented inside a component.
 */
export function headingLine(line: string, indented = false): { hashes: string; text: string } | null {
  const m = (indented ? INDENTED_START_RE : START_RE).exec(line);
  if (m === null) return null;
  const hashes = m[1] as string;
  const start = m[0].length;
  let end = line.length;
  while (end > start && isSpace(line.charCodeAt(end - 1))) end--;
  if (end === start) {
    // Only spaces after the `#`s: the expression's text is its last one, if there were two.
    return start - hashes.length - (m[0].indexOf("#")) >= 2 ? { hashes, text: line.slice(-1) } : null;
  }
  let closing = end;
  while (closing > start && line.charCodeAt(closing - 1) === 35 /* # */) closing--;
  if (closing < end && closing > start && isSpace(line.charCodeAt(closing - 1))) {
    let text = closing;
    while (text > start && isSpace(line.charCodeAt(text - 1))) text--;
    if (text > start) return { hashes, text: line.slice(start, text) };
  }
  return { hashes, text: line.slice(start, end) };
}

/**
 * A heading's text without its custom id, and the id: `Options {#config}`, or escaped as MDX needs
 * it, `Options \{#config\}` (the platform's custom heading ids, casing kept). Search's anchors and
 * the page's renderer read it here alike, so every anchor search gives lands on the heading. Read
 * from the end by hand: a pattern trying the spaces before `{#` at every start re-read a run of
 * them (160,000 spaces in one heading held every caller 29 s; adversary, 2026-12-05).
 */
export function customHeadingId(text: string): { readonly text: string; readonly id?: string } {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  if (end === 0 || text.charCodeAt(end - 1) !== 125 /* } */) return { text };
  let close = end - 1;
  if (close > 0 && text.charCodeAt(close - 1) === 92 /* \ */) close--;
  const open = text.lastIndexOf("{#", close - 2);
  if (open === -1) return { text };
  const id = text.slice(open + 2, close);
  if (id === "" || !ID_RE.test(id)) return { text };
  let cut = open;
  if (cut > 0 && text.charCodeAt(cut - 1) === 92) cut--;
  while (cut > 0 && isSpace(text.charCodeAt(cut - 1))) cut--;
  return { text: text.slice(0, cut), id };
}

/** An id: no space, brace or backslash. */
const ID_RE = /^[^{}\s\\]+$/;
