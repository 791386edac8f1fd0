/**
 * Look-ups over one text that the search's text extraction asks in increasing order of position
 * (`stripTags`, `linkTexts`). Each is answered from what earlier ones read, so a page is read a
 * bounded number of times whatever it holds: asked afresh, a page of 200,000 unclosed `{` or
 * 100,000 `[a](` was read once per mark, and one such page stalled the index's build for
 * minutes (issue 25, adversary finding 39).
 */

/** The first index of `needle` at or after a position, for positions that mostly increase. */
export function nextIndexOf(s: string, needle: string): (from: number) => number {
  let searchedFrom = 0;
  let found = -2;
  return (from: number): number => {
    // The first occurrence at or after `searchedFrom` is also the first at or after any
    // position up to it: each stretch of the text is searched once while positions increase.
    if (from >= searchedFrom && (found === -1 || found >= from)) return found;
    searchedFrom = from;
    found = s.indexOf(needle, from);
    return found;
  };
}

/** Characters scans that found no closing `}` may read, as a multiple of the text's length (see `BraceMatches`). */
const UNCLOSED_READS = 4;

/**
 * Where each `{` of a text closes, honouring nesting, quotes (`{a: "}"}`) and block comments, as a scan from
 * it reads: the first `}` that brings the depth back. One scan answers for every `{` it meets
 * outside quotes (a scan from one of them, starting outside quotes too, would read the same
 * characters the same way), so most `{` are answered without reading again. A `{` met only
 * inside quotes is scanned afresh; scans that find no `}` may read `UNCLOSED_READS` times the
 * text in all, past which a `{` not yet answered is taken as unclosed, as it nearly always is
 * then: an apostrophe in prose after a stray `{` opened a "string" the rest of the page is in.
 */
export class BraceMatches {
  /** Per position: its `}` + 1, 0 for unclosed, -1 not known yet (`{` positions only). */
  private known: Int32Array | undefined;
  private unclosedReads = 0;

  constructor(private readonly s: string) {}

  /** Index of the `}` closing the `{` at `start`; -1 if none. */
  close(start: number): number {
    const known = (this.known ??= new Int32Array(this.s.length).fill(-1));
    const hit = known[start] as number;
    if (hit >= 0) return hit - 1;
    const s = this.s;
    if (this.unclosedReads > UNCLOSED_READS * s.length) return -1;
    const open: number[] = [];
    let quote = 0;
    for (let j = start; j < s.length; j++) {
      const ch = s.charCodeAt(j);
      if (quote !== 0) {
        if (ch === 92 /* \ */) j++;
        else if (ch === quote) quote = 0;
        continue;
      }
      if (ch === 34 || ch === 39 || ch === 96) quote = ch;
      else if (ch === 47 /* / */ && s.charCodeAt(j + 1) === 42 /* * */) {
        // A comment (`{/* ... */}`, how MDX pages leave notes): its prose is no code, and an
        // apostrophe in it (`If you've...`) opened a "string" that hid the closing `}`, so the
        // note was searched as the page's text (clickhouse's generated-table notes).
        const end = s.indexOf("*/", j + 2);
        j = end === -1 ? s.length : end + 1;
      } else if (ch === 123 /* { */) open.push(j);
      else if (ch === 125 /* } */) {
        known[open.pop() as number] = j + 1;
        if (open.length === 0) return j;
      }
    }
    for (const at of open) known[at] = 0;
    this.unclosedReads += s.length - start;
    return -1;
  }
}

/**
 * Where a code span may open in the backtick run at `at` (CommonMark): a backslash escapes the
 * run's first backtick, which is then literal text, and the rest of the run (if any) may open one.
 * Inside a span a backslash is literal, so closing runs take no such care.
 */
export function openingRun(s: string, at: number, length: number): { readonly at: number; readonly length: number } {
  let slashes = 0;
  while (at - slashes - 1 >= 0 && s.charCodeAt(at - slashes - 1) === 92 /* \ */) slashes++;
  return slashes % 2 === 1 ? { at: at + 1, length: length - 1 } : { at, length };
}

/**
 * Where a code span that opens with the backtick run at a position closes: at the next run of
 * the same length (CommonMark's rule) within its paragraph. Runs are listed once by length and
 * each list read forward, for positions that increase.
 */
export class CodeSpans {
  private runs: Map<number, { starts: number[]; next: number }> | undefined;
  private readonly blank: (from: number) => number;

  constructor(private readonly s: string) {
    this.blank = nextIndexOf(s, "\n\n");
  }

  /** Length of the backtick run starting at `at`. */
  runLength(at: number): number {
    let end = at;
    while (this.s.charCodeAt(end) === 96) end++;
    return end - at;
  }

  /** Index just past the run closing the span opened at `at` (a run of `length`), or -1. */
  closeAfter(at: number, length: number): number {
    const list = this.listed().get(length);
    if (list === undefined) return -1;
    while (list.next < list.starts.length && (list.starts[list.next] as number) <= at) list.next++;
    const close = list.starts[list.next];
    if (close === undefined) return -1;
    const blank = this.blank(at);
    return blank !== -1 && blank + 2 <= close ? -1 : close + length;
  }

  private listed(): Map<number, { starts: number[]; next: number }> {
    if (this.runs !== undefined) return this.runs;
    const runs = new Map<number, { starts: number[]; next: number }>();
    const s = this.s;
    for (let at = s.indexOf("`"); at !== -1; ) {
      const length = this.runLength(at);
      const list = runs.get(length);
      if (list === undefined) runs.set(length, { starts: [at], next: 0 });
      else list.starts.push(at);
      at = s.indexOf("`", at + length);
    }
    this.runs = runs;
    return runs;
  }
}

/** Whether `s[start, end)` holds `needle` (one character) at least `n` times: a native scan that
 *  stops at the `n`th, for look-ups that need that many to find anything. */
export function holdsAtLeast(s: string, needle: string, start: number, end: number, n: number): boolean {
  if (n <= 0) return true;
  // Within the range only: `indexOf` reads on to the end of the text when the needle is not in
  // it, and a page of many sections (a 2 MB page of headings) was read to its end for each
  // (adversary, 2026-12-05: every caller held 24 s at a save).
  const code = needle.charCodeAt(0);
  const stop = Math.min(end, s.length);
  let found = 0;
  for (let at = Math.max(0, start); at < stop; at++) if (s.charCodeAt(at) === code && ++found >= n) return true;
  return false;
}
