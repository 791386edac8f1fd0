/**
 * Line-oriented search over a whole file at once: the regex runs over the full text (it can
 * never match across a line end, see regex/classes.ts), and only lines with a match are cut
 * out. This is what makes `rg`/`grep` over a few thousand pages take milliseconds.
 */

/** One selected line: offsets into the text (end excludes the `\n`) and its 1-based number. */
export interface SelectedLine {
  readonly start: number;
  readonly end: number;
  readonly line: number;
}

/** True when `index` is the phantom position after a final newline (not a line). */
function isPhantom(text: string, index: number): boolean {
  return index === text.length && (text.length === 0 || text.charCodeAt(text.length - 1) === 10);
}

/**
 * True when `index` falls between the two halves of a surrogate pair. V8 tries such positions
 * even with the `u` flag, and assertions that only look around (`\B`, `(?<!x)`) can hold
 * there: a match in the middle of an emoji is never a real one.
 */
function midPair(text: string, index: number): boolean {
  if (index === 0 || index >= text.length) return false;
  const lo = text.charCodeAt(index);
  const hi = text.charCodeAt(index - 1);
  return lo >= 0xdc00 && lo <= 0xdfff && hi >= 0xd800 && hi <= 0xdbff;
}

/** The next match at or after `regex.lastIndex` that does not start inside a surrogate pair. */
export function nextMatch(text: string, regex: RegExp): RegExpExecArray | null {
  for (;;) {
    const m = regex.exec(text);
    if (m === null || !midPair(text, m.index)) return m;
    regex.lastIndex = m.index + 1;
  }
}

/** Whether any line matches (`-l`, `-q`): one regex call. */
export function anyLineMatches(text: string, regex: RegExp): boolean {
  regex.lastIndex = 0;
  const m = nextMatch(text, regex);
  return m !== null && !isPhantom(text, m.index);
}

/** Count `\n` in text[from, to). */
function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * Lines containing a match (or, with `invert`, lines without one), in order, at most `max`.
 */
export function selectLines(text: string, regex: RegExp, invert: boolean, max = Number.POSITIVE_INFINITY): SelectedLine[] {
  const out: SelectedLine[] = [];
  if (max <= 0) return out;
  if (!invert) {
    forEachMatchingLine(text, regex, (start, end, line) => {
      out.push({ start, end, line });
      return out.length < max;
    });
    return out;
  }
  // Invert: walk every line, skipping the matching ones.
  const matching: number[] = [];
  forEachMatchingLine(text, regex, (start) => {
    matching.push(start);
    return true;
  });
  let next = 0;
  let line = 1;
  for (let start = 0; start < text.length; line++) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (matching[next] === start) next++;
    else {
      out.push({ start, end, line });
      if (out.length >= max) break;
    }
    start = end + 1;
  }
  return out;
}

/** Whether a file has a line -l / -L / -q would count: a match, or with -v a line without one. */
export function hasSelectedLine(text: string, regex: RegExp, invert: boolean, maxCount: number): boolean {
  return maxCount > 0 && (invert ? selectLines(text, regex, true, 1).length > 0 : anyLineMatches(text, regex));
}

/** Call `visit(start, end, lineNo)` for each line with a match; stop when it returns false. */
export function forEachMatchingLine(
  text: string,
  regex: RegExp,
  visit: (start: number, end: number, line: number) => boolean,
): void {
  regex.lastIndex = 0;
  let line = 1;
  let counted = 0; // newlines counted up to here
  while (regex.lastIndex <= text.length) {
    const m = nextMatch(text, regex);
    if (m === null || isPhantom(text, m.index)) return;
    const start = m.index === 0 ? 0 : text.lastIndexOf("\n", m.index - 1) + 1;
    let end = text.indexOf("\n", m.index);
    if (end === -1) end = text.length;
    line += countNewlines(text, counted, start);
    counted = start;
    if (!visit(start, end, line)) return;
    if (end >= text.length) return;
    regex.lastIndex = end + 1;
  }
}

/** Non-empty matches within one line (`-o`), as [start, end) offsets into the line. */
export function matchesInLine(lineText: string, regex: RegExp): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  regex.lastIndex = 0;
  while (regex.lastIndex <= lineText.length) {
    const m = nextMatch(lineText, regex);
    if (m === null) break;
    const end = m.index + m[0].length;
    if (end > m.index) out.push([m.index, end]);
    // Step past an empty match (by a whole code point, as the `u` flag requires).
    if (m[0].length === 0) regex.lastIndex = m.index + ((lineText.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
    else regex.lastIndex = end;
  }
  return out;
}

/** Start offsets of every line (for context lines around matches). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1 && i + 1 < text.length; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  if (text.length === 0) return [];
  return starts;
}

/** How a line is introduced: `path:12:` for matches, `path-12-` for context. */
export type LinePrefix = (line: number, isMatch: boolean, start: number) => string;

export interface ContextOptions {
  readonly before: number;
  readonly after: number;
  readonly separator: string | null;
  /** ripgrep marks trailing-context lines that match (after `-m`) as matches; grep does not. */
  readonly markMatchingContext?: ((lineText: string) => boolean) | undefined;
  /** How a line's text is shown (ripgrep's --replace, --trim, --max-columns). */
  readonly render?: ((lineText: string, isMatch: boolean) => string) | undefined;
}

/**
 * Print selected lines with before/after context, `--` between groups that are not adjacent.
 * `state.printedGroup` carries across files (grep and ripgrep separate groups of different
 * files too).
 */
export function printWithContext(
  text: string,
  selected: readonly SelectedLine[],
  options: ContextOptions,
  prefix: LinePrefix,
  write: (s: string) => boolean,
  state: { printedGroup: boolean },
): void {
  const starts = lineStarts(text);
  const total = starts.length;
  const lineText = (n: number): string => {
    const s = starts[n - 1] as number;
    let e = text.indexOf("\n", s);
    if (e === -1) e = text.length;
    return text.slice(s, e);
  };
  const context = (n: number): boolean => {
    const t = lineText(n);
    const isMatch = options.markMatchingContext?.(t) ?? false;
    const shown = options.render === undefined ? t : options.render(t, isMatch);
    return write(`${prefix(n, isMatch, starts[n - 1] as number)}${shown}\n`);
  };
  let lastPrinted = 0;
  let afterUntil = 0;
  for (const sel of selected) {
    const L = sel.line;
    // Trailing context of the previous match, up to this one.
    for (let n = lastPrinted + 1; n <= Math.min(afterUntil, L - 1); n++) {
      if (!context(n)) return;
      lastPrinted = n;
    }
    const from = Math.max(L - options.before, lastPrinted + 1, 1);
    if (state.printedGroup && (lastPrinted === 0 || from > lastPrinted + 1) && options.separator !== null) {
      if (!write(`${options.separator}\n`)) return;
    }
    state.printedGroup = true;
    for (let n = from; n < L; n++) if (!context(n)) return;
    const t = text.slice(sel.start, sel.end);
    const shown = options.render === undefined ? t : options.render(t, true);
    if (!write(`${prefix(L, true, sel.start)}${shown}\n`)) return;
    lastPrinted = L;
    afterUntil = L + options.after;
  }
  for (let n = lastPrinted + 1; n <= Math.min(afterUntil, total); n++) if (!context(n)) return;
}

/** Byte offset (UTF-8) of character offsets, computed incrementally for ascending queries (`-b`). */
export function byteOffsets(text: string): (offset: number) => number {
  let lastChar = 0;
  let lastByte = 0;
  return (offset) => {
    if (offset < lastChar) {
      lastChar = 0;
      lastByte = 0;
    }
    lastByte += Buffer.byteLength(text.slice(lastChar, offset));
    lastChar = offset;
    return lastByte;
  };
}
