import { decodeDoubleQuoted, flowCollection, flowEnd } from "./flow-source.js";
import { type SourceCollection, type SourceMember, type TextEdit, UnsupportedSource } from "./source-nodes.js";

/**
 * The root collection of a YAML document written in block style (how specs are written), read
 * by lines and indentation. A member of a block collection is whole lines: its key line, the
 * lines indented below it, the blank lines after it, and the comment lines just above it at its
 * own indentation (a comment introducing a removed entry goes with it). Flow collections inside
 * are read by `flowCollection`. Anything this does not follow (anchors, aliases, tags, explicit
 * `?` keys, several documents) is an `UnsupportedSource`.
 */
export function yamlRoot(text: string): SourceCollection {
  const lines = new Lines(text);
  let first = 0;
  while (first < lines.count && lines.skippable(first)) first++;
  if (first < lines.count && /^---[ \t]*\r?$/.test(lines.text(first))) {
    first++;
    while (first < lines.count && lines.skippable(first)) first++;
  }
  if (first >= lines.count) throw new UnsupportedSource("empty YAML document");
  if (/^(%|---|\.\.\.)/.test(lines.text(first))) throw new UnsupportedSource("YAML directives or several documents");
  for (let i = first + 1; i < lines.count; i++) {
    if (/^(---|\.\.\.)([ \t]|\r?$)/.test(lines.text(i))) throw new UnsupportedSource("several YAML documents");
  }
  const region: Region = { firstLine: first, col: lines.indent(first), endLine: lines.count, start: 0, end: text.length, emptyAt: undefined };
  return lines.isSeqItem(first) ? blockSeq(lines, region) : blockMap(lines, region);
}

/** Where a block collection is written. */
interface Region {
  /** The line of its first member, and that member's column (after `- ` for a compact map). */
  readonly firstLine: number;
  readonly col: number;
  /** The line after its last (exclusive). */
  readonly endLine: number;
  /** Offsets its members cover: the first member starts at `start`, the last ends at `end`. */
  readonly start: number;
  readonly end: number;
  /** Just after the `key:` this collection is the value of (where ` {}` goes when it empties). */
  readonly emptyAt: number | undefined;
}

class Lines {
  readonly starts: number[] = [0];
  readonly count: number;

  constructor(readonly source: string) {
    for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) this.starts.push(i + 1);
    // A final newline does not start a line of its own.
    if (this.starts.at(-1) === source.length) this.starts.pop();
    this.count = this.starts.length;
  }

  start(line: number): number {
    return line < this.count ? (this.starts[line] as number) : this.source.length;
  }

  /** The line without its newline. */
  text(line: number): string {
    const end = line + 1 < this.count ? (this.starts[line + 1] as number) - 1 : this.source.length;
    return this.source.slice(this.start(line), end);
  }

  indent(line: number): number {
    const s = this.start(line);
    let i = s;
    while (this.source[i] === " ") i++;
    return i - s;
  }

  /** The first character after the line's indentation (spaces and tabs), or "" at its end. */
  private first(line: number, offset = 0): string {
    let i = this.start(line);
    const s = this.source;
    while (s[i] === " " || s[i] === "\t") i++;
    const c = s[i + offset];
    return c === undefined || c === "\n" || (c === "\r" && (s[i + offset + 1] === "\n" || i + offset + 1 === s.length)) ? "" : c;
  }

  /** Blank or comment only: not part of the structure. */
  skippable(line: number): boolean {
    const c = this.first(line);
    return c === "" || c === "#";
  }

  isComment(line: number): boolean {
    return this.first(line) === "#";
  }

  /** A `- ` (or bare `-`) sequence entry at the line's indentation. */
  isSeqItem(line: number): boolean {
    if (this.first(line) !== "-") return false;
    const next = this.first(line, 1);
    return next === "" || next === " " || next === "\t";
  }

  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

function blockMap(lines: Lines, region: Region): SourceCollection {
  const keyLines = memberLines(lines, region, (line) => !lines.isSeqItem(line), (line, col) => restOfLine(lines.source, readKey(lines.source, lines.start(line) + col).end).at);
  const members = keyLines.map((line, j): SourceMember => {
    const col = j === 0 ? region.col : lines.indent(line);
    const at = lines.start(line) + col;
    const key = readKey(lines.source, at);
    const { start, end } = memberSpan(lines, region, keyLines, j);
    return { key: key.key, start, end, at, cuttable: start === lines.start(lines.lineOf(start)), value: once(() => valueAfter(lines, key.end, line, end)) };
  });
  return { kind: "map", style: "block", members, empty: () => emptyEdits(lines, region, "{}") };
}

function blockSeq(lines: Lines, region: Region): SourceCollection {
  const itemLines = memberLines(lines, region, (line) => lines.isSeqItem(line), (line, col) => restOfLine(lines.source, lines.start(line) + col + 1).at);
  const members = itemLines.map((line, j): SourceMember => {
    const { start, end } = memberSpan(lines, region, itemLines, j);
    const dash = lines.start(line) + (j === 0 ? region.col : lines.indent(line));
    return { key: j, start, end, at: dash, cuttable: true, value: once(() => itemValue(lines, dash, line, end)) };
  });
  return { kind: "seq", style: "block", members, empty: () => emptyEdits(lines, region, "[]") };
}

/** A collection scanned when first asked for, then kept (several cuts may go through it). */
function once(scan: () => SourceCollection): () => SourceCollection {
  let value: SourceCollection | undefined;
  return () => (value ??= scan());
}

/**
 * The lines that start members: the first line, then content lines at the region's column. A
 * flow collection opened on a member's line may run over the next lines (its closing bracket at
 * any column): those lines are the member's.
 */
function memberLines(lines: Lines, region: Region, starts: (line: number) => boolean, valueAt: (line: number, col: number) => number): number[] {
  const out: number[] = [];
  let inside = -1;
  const add = (line: number, col: number): void => {
    out.push(line);
    const at = valueAt(line, col);
    const c = lines.source[at];
    if (c === "[" || c === "{") inside = lines.lineOf(flowEnd(lines.source, at, true) - 1);
  };
  add(region.firstLine, region.col);
  for (let i = region.firstLine + 1; i < region.endLine; i++) {
    if (i <= inside || lines.skippable(i)) continue;
    const indent = lines.indent(i);
    if (indent < region.col) throw new UnsupportedSource(`line ${i + 1} is indented less than its collection`);
    if (indent === region.col) {
      if (starts(i)) add(i, indent);
      // In a map, a `- ` line at the key's column is the previous key's sequence; anything else
      // at a sequence's column is not an entry.
      else if (!lines.isSeqItem(i)) throw new UnsupportedSource(`line ${i + 1} is not an entry of its collection`);
    }
  }
  return out;
}

/** Member `j`'s span: from its leading comments (at its column) to where the next one starts. */
function memberSpan(lines: Lines, region: Region, starts: readonly number[], j: number): { start: number; end: number } {
  const begin = (k: number): number => {
    if (k === 0) return region.start;
    const line = starts[k] as number;
    let top = line;
    while (top - 1 > (starts[k - 1] as number) && lines.isComment(top - 1) && lines.indent(top - 1) === region.col) top--;
    return lines.start(top);
  };
  return { start: begin(j), end: j + 1 < starts.length ? begin(j + 1) : contentEnd(lines, region) };
}

/**
 * Where the region's last member ends: blank lines after it (and comments less indented) stay,
 * as they separate what follows the region.
 */
function contentEnd(lines: Lines, region: Region): number {
  let line = region.end >= lines.source.length ? lines.count : lines.lineOf(region.end);
  while (line - 1 > region.firstLine && lines.skippable(line - 1) && (!lines.isComment(line - 1) || lines.indent(line - 1) < region.col)) line--;
  return Math.min(region.end, line >= lines.count ? lines.source.length : lines.start(line));
}

function emptyEdits(lines: Lines, region: Region, empty: string): TextEdit[] {
  if (region.emptyAt === undefined) throw new UnsupportedSource("the document itself cannot be emptied");
  const end = contentEnd(lines, region);
  const source = lines.source;
  // Its members ended a text without a final newline: the key's line end goes with them.
  const lineEnd = end === source.length && !source.endsWith("\n") && source[region.start - 1] === "\n" ? (source[region.start - 2] === "\r" ? 2 : 1) : 0;
  return [
    { start: region.emptyAt, end: region.emptyAt, text: ` ${empty}` },
    { start: region.start - lineEnd, end, text: "" },
  ];
}

/** The value of a `key:` whose colon ends at `afterColon` on `line`; the member ends at `end`. */
function valueAfter(lines: Lines, afterColon: number, line: number, end: number): SourceCollection {
  const source = lines.source;
  const rest = restOfLine(source, afterColon);
  if (rest.text === "") return blockValue(lines, line, end, afterColon);
  return inlineValue(source, rest.at);
}

/** The value of the sequence entry whose `-` is at `dash`. */
function itemValue(lines: Lines, dash: number, line: number, end: number): SourceCollection {
  const source = lines.source;
  const rest = restOfLine(source, dash + 1);
  if (rest.text === "") return blockValue(lines, line, end, dash + 1);
  if (isKeyAt(source, rest.at)) {
    // `- name: x` starts a map at the column after the dash; its first member cannot be cut
    // alone (the dash would go with it), later ones can.
    const col = rest.at - lines.start(line);
    return blockMap(lines, { firstLine: line, col, endLine: lines.lineOf(end - 1) + 1, start: rest.at, end, emptyAt: undefined });
  }
  return inlineValue(source, rest.at);
}

/** A collection written on the lines after `line`, up to the member's end. */
function blockValue(lines: Lines, line: number, end: number, emptyAt: number): SourceCollection {
  const endLine = end >= lines.source.length ? lines.count : lines.lineOf(end);
  let first = line + 1;
  while (first < endLine && lines.skippable(first)) first++;
  if (first >= endLine) throw new UnsupportedSource(`no collection after line ${line + 1}`);
  const region: Region = { firstLine: first, col: lines.indent(first), endLine, start: lines.start(line + 1), end, emptyAt };
  return lines.isSeqItem(first) ? blockSeq(lines, region) : blockMap(lines, region);
}

function inlineValue(source: string, at: number): SourceCollection {
  const c = source[at];
  if (c === "{" || c === "[") return flowCollection(source, at, true);
  throw new UnsupportedSource(`not a collection at offset ${at}`);
}

/** What follows `from` on its line, comment dropped: its text and where it starts. */
function restOfLine(source: string, from: number): { text: string; at: number } {
  let at = from;
  while (source[at] === " " || source[at] === "\t") at++;
  const nl = source.indexOf("\n", at);
  const line = source.slice(at, nl === -1 ? source.length : nl).replace(/\r$/, "");
  return { text: line.startsWith("#") ? "" : line, at };
}

function isKeyAt(source: string, at: number): boolean {
  try {
    readKey(source, at);
    return true;
  } catch {
    return false;
  }
}

/** A block mapping key at `at` (plain, single- or double-quoted) and where its `:` ends. */
function readKey(source: string, at: number): { key: string; end: number } {
  const c = source[at];
  let key: string;
  let i: number;
  if (c === '"' || c === "'") {
    i = at + 1;
    for (; i < source.length && source[i] !== "\n"; i++) {
      if (c === '"' && source[i] === "\\") i++;
      else if (source[i] === c) {
        if (c === "'" && source[i + 1] === "'") i++;
        else break;
      }
    }
    if (source[i] !== c) throw new UnsupportedSource(`cannot read the key at offset ${at}`);
    i++;
    key = c === '"' ? decodeDoubleQuoted(source.slice(at, i)) : source.slice(at + 1, i - 1).replace(/''/g, "'");
    while (source[i] === " " || source[i] === "\t") i++;
    if (source[i] !== ":") throw new UnsupportedSource(`expected ":" after the key at offset ${at}`);
  } else {
    if (c === undefined || "?&*!|>-[]{}#%@`,".includes(c)) {
      if (!(c === "-" && /[^\s]/.test(source[at + 1] ?? ""))) throw new UnsupportedSource(`cannot read the key at offset ${at}`);
    }
    const m = /^[^\n#]*?(?=[ \t]*:(?:[ \t\r\n]|$))/.exec(source.slice(at, source.indexOf("\n", at) === -1 ? source.length : source.indexOf("\n", at)));
    if (m === null || m[0] === "") throw new UnsupportedSource(`cannot read the key at offset ${at}`);
    key = m[0];
    i = at + m[0].length;
    while (source[i] === " " || source[i] === "\t") i++;
  }
  const after = source[i + 1];
  if (after !== undefined && after !== " " && after !== "\t" && after !== "\n" && after !== "\r") throw new UnsupportedSource(`expected a space after ":" at offset ${i}`);
  return { key, end: i + 1 };
}
