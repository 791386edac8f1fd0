import { ImportType, type ImportSpecifier, initSync, parse as parseModule } from "es-module-lexer";
import { mdxNameUses, type NameUses } from "./mdx-name-uses.js";
import { lookNameUses } from "./mdx-name-uses-by-look.js";
import { appendAll } from "../arrays.js";
import { scanTag } from "./jsx-tag-scan.js";
/**
 * ESM `import` (and `export ... from`) statements of an MDX page, and removing some of them
 * with every use of the names they bind. A page that imports a file some readers may not read
 * is shown to them without the statement and without every use of the names it binds (tags,
 * expressions, attributes: `mdxNameUses`), so the file's path and component name never reach
 * them. Statements count where MDX reads them: in an ESM block (a paragraph whose first line
 * starts with `import` or `export`), outside the front matter and fenced code blocks (an
 * `import` line shown in a code sample is text); a block may hold several statements, on one
 * line or over several. A statement or use alone on its line takes the line with it.
 */

/** One statement that loads another module. */
export interface MdxImport {
  /** The statement (its line too, when nothing else is written on it). */
  readonly start: number;
  readonly end: number;
  /** The module path as written (`/snippets/secret.mdx`). */
  readonly source: string;
  /** Names it binds in the page: `Secret`, `{ A as B }` -> `B`, `* as NS` -> `NS`. */
  readonly names: readonly string[];
  /** An `import` statement the matcher could not read: `source` is empty, and the file it names
   *  could be any; `names` are the names written in it (a guess). Callers remove it for readers
   *  who may not read every file it could name (fail closed). */
  readonly unread?: true;
}

const ESM_START_RE = /^(?:import|export)\b/;
/** A code fence opening or closing line (CommonMark: three or more backticks or tildes). */
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * The import statements of a page's text, in order. Each ESM block is read by a real ES module
 * lexer (`es-module-lexer`, the one Vite and Node's tooling use): it knows strings, template
 * literals, comments, escapes, string names (`import { "a b" as X }`) and import attributes as
 * JavaScript does. What it cannot read (a block with a syntax error, JSX the lexer does not
 * know) is read statement by statement. Then, fail closed, since a statement missed is a
 * restricted snippet's path shown to a reader who may not read it: whatever looks like an
 * import statement and the lexer did not read as one (text in a string, a line after an
 * unterminated one) is taken as one (`lookalikeStatements`), and an `import` line still unread
 * is returned as such (`unreadStatements`).
 */
export function mdxImports(text: string): MdxImport[] {
  // A byte order mark is no text to MDX: an import on the first line after one is an import.
  if (text.charCodeAt(0) === 0xfeff) return mdxImports(text.slice(1)).map((i) => ({ ...i, start: i.start + 1, end: i.end + 1 }));
  if (!/^(?:import|export)\b/m.test(text)) return [];
  const out: MdxImport[] = [];
  for (const block of esmBlocks(text)) {
    const lexed = lexStatements(text, block.start, block.end) ?? statementsOf(text, block).flatMap((st) => lexStatements(text, st.start, st.end) ?? []);
    const read = [...lexed, ...lookalikeStatements(text, block, lexed)];
    appendAll(appendAll(out, read), unreadStatements(text, block, read));
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Space between tokens: white space and comments, block or line. */
const GAP = String.raw`(?:\s|/\*[\s\S]*?\*/|//[^\n]*(?:\n|$))*`;
/** A string literal, escapes included (`"/snippets/secr\u0065t.mdx"`): decoded by `decodeEscapes`. */
const STRING = String.raw`(?:"((?:\\[\s\S]|[^"\\\n])*)"|'((?:\\[\s\S]|[^'\\\n])*)')`;
/** What may stand between `import` and `from`: names (any script, escapes too), `*`, braces,
 *  commas, `as`, space and comments. */
const BINDINGS = String.raw`(?:[\p{ID_Continue}$\u200c\u200d*{},\s\\]|/\*[\s\S]*?\*/|//[^\n]*\n)*?`;

/**
 * What looks like a statement anywhere in a block: `import X from '...'`, `import { A, B as C }
 * from "..."` (over several lines too), `export ... from '...'`, or `import '...'`, with its `;`.
 */
const LOOKALIKE_RE = new RegExp(
  String.raw`(?<![\p{ID_Continue}$])(?:(import|export)${GAP}(?:type\s+)?(${BINDINGS})${GAP}(?<![\p{ID_Continue}$])from${GAP}${STRING}|import${GAP}${STRING})[ \t]*;?`,
  "gu",
);

/**
 * What looks like an import statement in `block` where the lexer read none: read by its look,
 * as the regular expression this file used before the lexer did. On the corpora it finds
 * nothing the lexer missed; it is there for the text that is not JavaScript.
 */
function lookalikeStatements(text: string, block: { start: number; end: number }, lexed: readonly MdxImport[]): MdxImport[] {
  const out: MdxImport[] = [];
  const spans = new Spans(lexed);
  LOOKALIKE_RE.lastIndex = block.start;
  for (let m = LOOKALIKE_RE.exec(text); m !== null && m.index < block.end; m = LOOKALIKE_RE.exec(text)) {
    const at = m.index;
    if (spans.covers(at)) continue;
    const [whole, _keyword, bindings, double, single, bareDouble, bareSingle] = m as unknown as [string, ...(string | undefined)[]];
    const source = decodeEscapes(double ?? single ?? bareDouble ?? bareSingle ?? "");
    const names = bindings !== undefined ? boundNames(bindings) : [];
    out.push({ ...wholeLines(text, at, statementEnd(text, at + whole.length)), source, names });
  }
  return out;
}

/** Where a statement ending at `end` ends with what goes with it: a comment after it on its line
 *  (`// why`, `/* why *\/`) is about it. */
function statementEnd(text: string, end: number): number {
  const rest = text.slice(end, lineEnd(text, end)).replace(/\/\*[\s\S]*?\*\//g, "");
  return rest.trim() === "" || /^[ \t]*\/\//.test(rest) ? lineEnd(text, end) : end;
}

let lexerReady = false;

/** Which static imports: `import … from`, `import "…"`, `export … from`, source and defer phases (not `import()` or `import.meta`). */
const STATIC_IMPORTS: ReadonlySet<ImportType> = new Set([ImportType.Static, ImportType.StaticSourcePhase, ImportType.StaticDeferPhase]);

/** The statements of `text[start, end)` that load a module, as the lexer reads them; `undefined` when it cannot. */
function lexStatements(text: string, start: number, end: number): MdxImport[] | undefined {
  if (!lexerReady) {
    // The lexer is WebAssembly, compiled on first use: a site without ESM blocks never pays it.
    initSync();
    lexerReady = true;
  }
  const code = text.slice(start, end);
  let found: readonly ImportSpecifier[];
  try {
    [found] = parseModule(code);
  } catch {
    return undefined;
  }
  const out: MdxImport[] = [];
  for (const imp of found) {
    if (!STATIC_IMPORTS.has(imp.t) || imp.n === undefined) continue;
    const statement = code.slice(imp.ss, imp.se);
    // `export { default as Secret } from` binds `Secret` for the page as an import does (MDX
    // imports what a page re-exports); `export * from` binds nothing.
    const names = boundNames(code.slice(imp.ss + (statement.startsWith("import") ? "import" : "export").length, imp.s - 1));
    // With its `;` and its comment.
    const stop = statementEnd(text, start + imp.se + (/^[ \t]*;?/.exec(text.slice(start + imp.se)) as RegExpExecArray)[0].length);
    out.push({ ...wholeLines(text, start + imp.ss, stop), source: imp.n, names });
  }
  return out;
}

/** The statements of an ESM block as lines show them: each from a line starting `import`/`export` to the next one. */
function statementsOf(text: string, block: { start: number; end: number }): { start: number; end: number }[] {
  const starts: number[] = [];
  for (let at = block.start; at < block.end; at = lineEnd(text, at) + 1) if (ESM_START_RE.test(text.slice(at, at + 7))) starts.push(at);
  return starts.map((start, i) => ({ start, end: i + 1 < starts.length ? (starts[i + 1] as number) - 1 : block.end }));
}

/** An import statement naming a module: `from` or the leading `import`, then a string. */
const UNREAD_SOURCE_RE = /(?:^import|(?<![\p{ID_Continue}$])from)(?:\s|\/\*[\s\S]*?\*\/)*["']/u;

/** Keywords an import statement may hold besides the names it binds. */
const IMPORT_WORDS = new Set(["import", "from", "as", "type", "typeof", "defer", "source", "with", "assert", "default"]);

/**
 * Lines of an ESM block that start an `import` no statement read covers: each is an unread
 * statement up to the next line starting a statement (or the next one read, or the block's end).
 */
function unreadStatements(text: string, block: { start: number; end: number }, read: readonly MdxImport[]): MdxImport[] {
  const out: MdxImport[] = [];
  const spans = new Spans(read);
  for (const statement of statementsOf(text, block)) {
    const start = statement.start;
    if (!/^import(?![\p{ID_Continue}$])/u.test(text.slice(start, start + 7))) continue;
    if (spans.covers(start)) continue;
    const end = Math.min(statement.end, spans.nextStart(start));
    // Prose in a `.md` page may start with the word (`import twice and...`): only what names a
    // module as a string (`from "..."`, `import "..."`) can name a file.
    if (!UNREAD_SOURCE_RE.test(text.slice(start, end))) continue;
    const written = text.slice(start, end).replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\[\s\S]|[^"\\])*"|'(?:\\[\s\S]|[^'\\])*'/g, " ");
    const names = [...new Set(decodeEscapes(written).match(/[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*/gu) ?? [])].filter((n) => !IMPORT_WORDS.has(n));
    out.push({ ...wholeLines(text, start, end), source: "", names, unread: true });
  }
  return out;
}

/**
 * Statements read, for the two questions asked of them at every statement of a block: does one
 * cover an offset, and where does the next one start. In time logarithmic in their number: asked
 * of every statement read so far, a page of 16,000 `import` lines took a minute on the thread that
 * answers every reader (adversary, 2026-12-05).
 */
class Spans {
  private readonly starts: number[];
  /** The furthest end of the statements up to each one, in the order of their starts. */
  private readonly reach: number[];

  constructor(spans: readonly { start: number; end: number }[]) {
    const sorted = [...spans].sort((a, b) => a.start - b.start);
    this.starts = sorted.map((r) => r.start);
    let furthest = -1;
    this.reach = sorted.map((r) => (furthest = Math.max(furthest, r.end)));
  }

  /** Whether a statement holds `at` (its start up to, not with, its end). */
  covers(at: number): boolean {
    const last = this.lastAtOrBefore(at);
    return last !== -1 && (this.reach[last] as number) > at;
  }

  /** The start of the first statement after `at`, or Infinity. */
  nextStart(at: number): number {
    return this.starts[this.lastAtOrBefore(at) + 1] ?? Infinity;
  }

  /** The index of the last start at or before `at`, or -1. */
  private lastAtOrBefore(at: number): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.starts[mid] as number) <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }
}

/**
 * `text` without `imports` and without the uses of the names they bind (`mdxNameUses`: tags,
 * expressions, attributes, and what only they filled), laid out as the page would be had it been
 * written without them (the site without the files they import): a reader who may not read an
 * imported file must not tell from the bytes left (a size, a blank line, a space before a full
 * stop) that something was there. So what is removed is each statement's or use's own text,
 * and the space around it goes as it would in a page written without it:
 *
 * - A removal that leaves its lines empty takes them, with the blank lines between it and the
 *   next removal (consecutive ones go as one). Of the blank lines around it, one run stays: the
 *   one before when it was a block of its own or the first of the body (the next block keeps
 *   the gap the page had before the removed one), the one after when it ended a block (that
 *   block keeps its gap to the next), none inside a block. At the end of the page the blank
 *   lines after stay, and a page that ended without a line break still does.
 * - An ESM block left with nothing but comments goes whole (outside the block a `//` line is
 *   prose, shown on the page).
 * - Within a line, one run of spaces goes with the element: the one after it at the start of
 *   a line, the one before it at the end or before closing punctuation (`See <Secret />.` gives
 *   `See.`), both after an opening bracket, else the one after; brackets it leaves empty go.
 *
 * `elements` are more elements to remove the same way, each as a use: the `<Snippet file>` tags
 * naming files the reader may not read (`vfs/snippet-target.ts`).
 */
export function removeImports(text: string, imports: readonly MdxImport[], elements: readonly Range[] = []): string {
  if (imports.length === 0 && elements.length === 0) return text;
  // After a byte order mark (`mdxImports`), the page without it, the mark kept.
  if (text.charCodeAt(0) === 0xfeff) {
    const shift = <T extends Range>(r: T): T => ({ ...r, start: r.start - 1, end: r.end - 1 });
    return `\ufeff${removeImports(text.slice(1), imports.map(shift), elements.map(shift))}`;
  }
  const cores: Range[] = [...imports.map((i) => ({ start: i.start, end: i.end })), ...elements];
  const names = [...new Set(imports.flatMap((i) => i.names))];
  let uses: NameUses | undefined;
  if (names.length > 0) {
    appendAll(cores, aliasExports(text, names));
    const esm = esmBlocks(text);
    // The statements removed are not read for uses; what else an ESM block holds is (a tag on a
    // line of the block, one in a comment), by look: MDX's parse reads a block as JavaScript.
    const look = lookNameUses(text, names, frontMatterEnd(text), [...layout(text).fenced, ...imports.map((i) => ({ start: i.start, end: i.end }))]);
    // Uses that each stand as a block of their own read the same either way, and need no parse.
    // A page MDX refuses is shown as Markdown to every reader: its uses are read by their look.
    const parsed = look.plain ? undefined : mdxNameUses(text, names, frontMatterEnd(text), esm);
    const inEsm = (r: Range): boolean => esm.some((b) => r.start >= b.start && r.start < b.end);
    uses =
      parsed === undefined
        ? look
        : { cores: [...parsed.cores, ...look.cores.filter(inEsm)], direct: [...parsed.direct, ...look.direct.filter(inEsm)], edits: parsed.edits };
    appendAll(cores, uses.cores);
  }
  const merged = mergeCores(text, cores.map((c) => trimmed(text, c)).filter((c) => c.end > c.start));
  for (const block of esmBlocks(text)) {
    if (!merged.some((c) => c.start < block.end && c.end > block.start)) continue;
    let left = "";
    let at = block.start;
    for (const c of merged) {
      if (c.end <= block.start || c.start >= block.end) continue;
      left += text.slice(at, Math.max(at, c.start));
      at = Math.max(at, c.end);
    }
    left += text.slice(at, block.end);
    if (left.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "").trim() === "") merged.push({ start: block.start, end: block.end });
  }
  const final = mergeCores(text, merged);
  // Attributes, columns and list numbers inside what goes anyway are not cut twice.
  const outside = (r: Range): boolean => !final.some((c) => r.start >= c.start && r.end <= c.end);
  const extra = [...(uses?.direct ?? []).filter(outside).map((a) => ({ ...a, keep: "" })), ...(uses?.edits ?? []).filter(outside).map((e) => ({ start: e.start, end: e.end, keep: e.text }))];
  return cutOut(text, final, extra);
}

export interface Range {
  readonly start: number;
  readonly end: number;
}

/** `range` without the white space at its ends: the statement or element itself. */
function trimmed(text: string, range: Range): Range {
  let { start, end } = range;
  while (start < end && /\s/.test(text[start] as string)) start++;
  while (end > start && /\s/.test(text[end - 1] as string)) end--;
  return { start, end };
}

/** Ranges in order, those that overlap or stand apart only by spaces on one line made one. */
function mergeCores(text: string, ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last !== undefined && (r.start <= last.end || /^[ \t]*$/.test(text.slice(last.end, r.start)))) out[out.length - 1] = { start: last.start, end: Math.max(last.end, r.end) };
    else out.push(r);
  }
  return out;
}

/**
 * `text` without `cores` (in order, apart), and the space around each as `removeImports` says.
 * The body is read as blocks (runs of lines that are not blank) between gaps (runs of blank
 * lines). A core alone on its lines removes those lines; a block left with no line goes, and
 * with it the gaps that separated it from what stays: for a run of such blocks, the gap before
 * the run stays when a block stays after it, else the gap after the run.
 */
function cutOut(text: string, cores: readonly Range[], extra: readonly { start: number; end: number; keep: string }[] = []): string {
  const body = frontMatterEnd(text);
  const lineStartOf = (i: number): number => Math.max(body, text.lastIndexOf("\n", i - 1) + 1);
  const lineEndOf = (i: number): number => {
    const nl = text.indexOf("\n", i);
    return nl === -1 ? text.length : nl;
  };
  // Whole lines: a core with nothing but spaces beside it on its first and last lines.
  const removed: Range[] = [];
  const inline: Range[] = [];
  for (const c of cores) {
    const from = lineStartOf(c.start);
    const to = lineEndOf(c.end);
    // A blockquote's markers before it are the line's container, not its text (adversary round 50 F4).
    if (QUOTE_MARKERS_RE.test(text.slice(from, c.start)) && /^[ \t\r]*$/.test(text.slice(c.end, to))) removed.push({ start: from, end: to === text.length ? to : to + 1 });
    else inline.push(c);
  }
  // The body's lines: removed, blank, or kept (a line inside an element removed within its
  // lines is kept: its text goes with the element).
  // Both lists are in order and apart, as the lines are: each is walked once beside them (a test
  // of every line against every use held every caller 51 s on a 600 KB page of uses; adversary,
  // 2026-12-05).
  const lines: Line[] = [];
  let r = 0;
  let c = 0;
  for (let at = body; at < text.length; ) {
    const end = Math.min(text.length, lineEndOf(at) + 1);
    while (r < removed.length && (removed[r] as Range).end <= at) r++;
    while (c < inline.length && (inline[c] as Range).end <= at) c++;
    const inRemoved = r < removed.length && (removed[r] as Range).start <= at;
    const inInline = c < inline.length && (inline[c] as Range).start < at;
    const kind = inRemoved ? "removed" : blankLine(text, at, end) && !inInline ? "blank" : "kept";
    lines.push({ start: at, end, kind });
    at = end;
  }
  // Blocks and the gaps between them, in order.
  const runs: Run[] = [];
  lines.forEach((line, n) => {
    const gap = line.kind === "blank";
    const last = runs.at(-1);
    if (last !== undefined && last.gap === gap) {
      last.end = line.end;
      last.to = n + 1;
      if (line.kind === "kept") last.gone = false;
    } else runs.push({ start: line.start, end: line.end, from: n, to: n + 1, gap, gone: !gap && line.kind === "removed" });
  });
  const cuts: { start: number; end: number; keep: string }[] = [...extra];
  for (let i = 0; i < runs.length; i++) {
    if (!(runs[i] as Run).gone) continue;
    // A run of blocks that go: from block i to block j, gaps between.
    let j = i;
    while (j + 2 < runs.length && (runs[j + 2] as Run).gone) j += 2;
    const before = runs[i - 1];
    const after = runs[j + 1];
    const stays = (k: number): boolean => runs.slice(k).some((r) => !r.gap && !r.gone);
    // A run last in a blockquote, a gap inside the quote before it and the quote's end after it:
    // the gap inside goes, as the quote is written without the run (`> a\n>\n> <Secret />\n\nb`).
    const quoteEnds =
      before !== undefined && after !== undefined && after.gap && stays(j + 1) && quoteDepth(text, lines, after.from) < quoteDepth(text, lines, (runs[j] as Run).to - 1) && quoteDepth(text, lines, before.to - 1) >= quoteDepth(text, lines, (runs[j] as Run).to - 1);
    if (quoteEnds) cuts.push({ start: before.start, end: (runs[j] as Run).end, keep: "" });
    else if (stays(j + 1) || before === undefined || runs.slice(0, i).every((r) => r.gap)) {
      // Keep the gap before the run: the run and the gap after it go.
      cuts.push({ start: (runs[i] as Run).start, end: (after ?? (runs[j] as Run)).end, keep: "" });
    } else {
      // At the end: the gap before the run goes, the blank lines after it stay.
      cuts.push({ start: before.start, end: (runs[j] as Run).end, keep: "" });
    }
    i = j;
  }
  appendAll(cuts, elementEdgeCuts(text, lines, runs));
  // Lines removed inside blocks that stay.
  for (const line of lines) if (line.kind === "removed" && !cuts.some((c) => line.start >= c.start && line.start < c.end)) cuts.push({ start: line.start, end: line.end, keep: "" });
  for (const c of inline) {
    let start = c.start;
    let end = c.end;
    let core = c;
    for (;;) {
      start = core.start;
      while (start > 0 && (text[start - 1] === " " || text[start - 1] === "\t")) start--;
      end = core.end;
      while (end < text.length && (text[end] === " " || text[end] === "\t")) end++;
      // Brackets left holding nothing go with what they held: `(<Secret />)`.
      if (text[start - 1] === "(" && text[end] === ")") core = { start: start - 1, end: end + 1 };
      else break;
    }
    const atLineStart = start === 0 || text[start - 1] === "\n";
    const atLineEnd = /^\r?(?:\n|$)/.test(text.slice(end, end + 2));
    const spaceBefore = text.slice(start, core.start);
    const spaceAfter = text.slice(core.end, end);
    // No space before closing punctuation or after an opening bracket, as an author writes.
    const tight = /^[.,;:!?)\]]/.test(text.slice(end, end + 1)) || /[([]$/.test(text.slice(0, start));
    const keep = atLineEnd || tight ? (atLineEnd ? spaceAfter : "") : atLineStart || spaceBefore !== "" ? spaceBefore : spaceAfter;
    cuts.push({ start, end, keep });
  }
  cuts.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const c of cuts) {
    out += text.slice(at, Math.max(at, c.start)) + (c.start >= at ? c.keep : "");
    at = Math.max(at, c.end);
  }
  out += text.slice(at);
  // A page that ended without a line break still does, when its last line went.
  if (!text.endsWith("\n") && at === text.length && /[^\s][ \t]*\r?\n$/.test(out.slice(body))) out = out.slice(0, out.endsWith("\r\n") ? -2 : -1);
  return out;
}

/** A blockquote's markers (`> `, `> > `) and the spaces around them, or nothing: what may stand before a use alone on its line. */
const QUOTE_MARKERS_RE = /^(?:[ \t]*>)*[ \t]*$/;

/** A line of nothing but blockquote markers. */
const QUOTE_BLANK_RE = /^(?:[ \t]*>)+[ \t\r]*\n?$/;

/**
 * Whether the line `[at, end)` is blank: empty, or a blockquote's empty line (`>`), which is a gap
 * inside the quote as an empty line is outside it. A `>` alone also ends a tag written over lines
 * (`<Card\n  title="Run"\n>`): it is the quote's only where a line beside it is quoted.
 */
function blankLine(text: string, at: number, end: number): boolean {
  const line = text.slice(at, end);
  if (/^[ \t\r]*\n?$/.test(line)) return true;
  if (!QUOTE_BLANK_RE.test(line)) return false;
  const previous = at === 0 ? "" : text.slice(text.lastIndexOf("\n", at - 2) + 1, at);
  return /^[ \t]*>/.test(previous) || /^[ \t]*>/.test(text.slice(end, end + 64));
}

/** How many blockquotes hold line `n` (its leading `>` markers). */
function quoteDepth(text: string, lines: readonly Line[], n: number): number {
  const line = lines[n];
  if (line === undefined) return 0;
  const prefix = /^(?:[ \t]*>)*/.exec(text.slice(line.start, line.end)) as RegExpExecArray;
  return prefix[0].split(">").length - 1;
}

/** A line of a page's body, and whether a removal takes it (`cutOut`). */
interface Line {
  readonly start: number;
  readonly end: number;
  readonly kind: "removed" | "blank" | "kept";
}

/** Lines of a body that are all blank (a gap) or none (a block), `from` to `to` (`cutOut`); `gone`: a block of removed lines only. */
interface Run {
  start: number;
  end: number;
  from: number;
  to: number;
  readonly gap: boolean;
  gone: boolean;
}

/**
 * Lines removed at the start of a block that stays, followed there by a closing tag (`</Tab>`),
 * or at its end, after an opening tag, take the gap between them and the element's other
 * content, as an author writes the element without them (`text\n</Tab>\n<Tab title="B">`); else
 * one blank line told that something stood there (adversary rounds 48 N2, 49 F2). One test of a
 * line or two a block: a page of many blocks costs no more than its length.
 */
function elementEdgeCuts(text: string, lines: readonly Line[], runs: readonly Run[]): { start: number; end: number; keep: string }[] {
  const cuts: { start: number; end: number; keep: string }[] = [];
  const kept = (run: Run): boolean => !run.gap && !run.gone;
  const lineText = (n: number): string => text.slice((lines[n] as Line).start, (lines[n] as Line).end);
  // The element's content on both sides and the lines removed are in one blockquote: a gap at a
  // quote's edge separates the quote from what is outside it, and stays. Blocks are compared by
  // their first lines: a `>` alone may end a tag written over lines.
  const oneQuote = (...at: number[]): boolean => at.every((n) => quoteDepth(text, lines, n) === quoteDepth(text, lines, at[0] as number));
  let before = -1;
  runs.forEach((run, i) => {
    if (!kept(run)) return;
    // The block that stays before it, past the gaps and the blocks that go.
    const previous = before;
    before = i;
    if (previous < 0 || previous === i - 1) return;
    let lead = run.from;
    while (lead < run.to && (lines[lead] as Line).kind === "removed") lead++;
    if (lead > run.from && lead < run.to && oneQuote((runs[previous] as Run).from, run.from, lead) && CLOSING_TAG_LINE_RE.test(lineText(lead))) cuts.push({ start: (runs[previous + 1] as Run).start, end: (lines[lead - 1] as Line).end, keep: "" });
  });
  let after = -1;
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i] as Run;
    if (!kept(run)) continue;
    // The block that stays after it, past the gaps and the blocks that go.
    const next = after;
    after = i;
    if (next < 0 || next === i + 1) continue;
    let tail = run.to;
    while (tail > run.from && (lines[tail - 1] as Line).kind === "removed") tail--;
    if (tail === run.to || tail === run.from) continue;
    if (oneQuote(run.from, tail, (runs[next] as Run).from) && endsWithOpeningTag(text, lines, run.from, tail)) cuts.push({ start: (lines[tail] as Line).start, end: (runs[next] as Run).start, keep: "" });
  }
  return cuts;
}

/** What may stand before a tag at the start of its line: blockquote markers and list item markers (`> - <Tab>`, `1. <Tab>`). */
const LINE_CONTAINERS_RE = /^(?:[ \t]*(?:>|(?:[-*+]|\d{1,9}[.)])(?=[ \t])))*[ \t]*/;

/**
 * Whether lines `[from, to)` end with an opening tag alone (`<Tab title="A">`, over lines too,
 * not self-closing), starting at a line's start after its containers. The lines are read forward
 * once, each tag read whole (`scanTag`): a line of an attribute starting with `<` is inside its
 * tag, not a tag's start (adversary round 50 F4). A continuation line's markers of the quote
 * holding the block are taken off, as MDX reads the tag inside it.
 */
function endsWithOpeningTag(text: string, lines: readonly Line[], from: number, to: number): boolean {
  const depth = quoteDepth(text, lines, from);
  let s = "";
  const starts: number[] = [];
  for (let n = from; n < to; n++) {
    starts.push(s.length);
    let line = text.slice((lines[n] as Line).start, (lines[n] as Line).end);
    for (let d = 0; d < depth; d++) line = line.replace(/^[ \t]*>/, "");
    s += line;
  }
  const lineOf = (k: number, at: number): number => {
    while (k + 1 < starts.length && (starts[k + 1] as number) <= at) k++;
    return k;
  };
  for (let k = 0; k < starts.length; ) {
    const at = (starts[k] as number) + (LINE_CONTAINERS_RE.exec(s.slice(starts[k], starts[k + 1])) as RegExpExecArray)[0].length;
    if (s[at] !== "<" || s[at + 1] === "/") {
      k++;
      continue;
    }
    const tag = scanTag(s, at);
    // A tag not closed in the block: what follows is inside it or unread, and no line opens an element.
    if (tag === undefined) return false;
    const last = lineOf(k, tag.end - 1);
    const alone = /^[ \t\r]*\n?$/.test(s.slice(tag.end, starts[last + 1]));
    if (last === starts.length - 1) return alone && !tag.selfClosing;
    k = last + 1;
  }
  return false;
}

/** A line holding a closing tag (`</Tab>`, `</>`) alone, after the markers of blockquotes holding it. */
const CLOSING_TAG_LINE_RE = /^(?:[ \t]*>)*[ \t]*<\/[\w:.$-]*\s*>[ \t\r]*\n?$/;

/** `export const|let|var|function|class Name` at the start of a statement in an ESM block. */
const EXPORT_DECLARATION_RE = /^export\s+(?:const|let|var|function\*?|class)\s+([\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*)/u;

/** `export ... from "..."`: a statement that loads a module (`mdxImports` reads it), not one that uses the page's names. */
const EXPORT_FROM_RE = /^export\s*(?:\*(?:\s*as\s+[^\s]+)?|\{[^}]*\})\s*from\b/;

/**
 * Exports of the ESM blocks that use one of `names` (`export const Alias = Secret`, `export
 * default function Layout() { return <Secret /> }`, `export { Secret }`): they go with the
 * import, or the name would stay on the page (and a local export of a name no longer imported
 * is not valid MDX); what they declare goes too (adding their names to `names`), and so on. A
 * statement runs to the next line that starts one.
 */
function aliasExports(text: string, names: string[]): { start: number; end: number }[] {
  const statements: { start: number; end: number; declared: string | undefined }[] = [];
  for (const block of esmBlocks(text)) {
    for (const { start, end } of statementsOf(text, block)) {
      const written = text.slice(start, end);
      if (written.startsWith("export") && !EXPORT_FROM_RE.test(written)) statements.push({ start, end, declared: EXPORT_DECLARATION_RE.exec(written)?.[1] });
    }
  }
  // Which statements use a name, by the identifiers each is written with: one pass over each
  // statement, then each name's statements once (a worklist). Before, every name was a regular
  // expression tried on every statement not yet taken, pass after pass while the names grew: a
  // chain of 500 aliases written from its end held every reader 16 s (adversary, 2026-12-05).
  const users = new Map<string, number[]>();
  statements.forEach((st, i) => {
    for (const word of new Set(text.slice(st.start, st.end).match(IDENTIFIER_RUN_RE))) {
      const list = users.get(word);
      if (list === undefined) users.set(word, [i]);
      else list.push(i);
    }
  });
  // A name that is not one run of identifier characters (none MDX binds) is looked for as before.
  const usersOf = (name: string): number[] =>
    IDENTIFIER_RE.test(name) ? (users.get(name) ?? []) : statements.flatMap((st, i) => (usesName(text.slice(st.start, st.end), name) ? [i] : []));
  const out: { start: number; end: number }[] = [];
  const taken = new Set<number>();
  const known = new Set(names);
  for (let k = 0; k < names.length; k++) {
    const name = names[k] as string;
    for (const i of usersOf(name)) {
      const st = statements[i] as (typeof statements)[number];
      if (taken.has(i) || st.declared === name) continue;
      taken.add(i);
      out.push({ start: st.start, end: st.end });
      if (st.declared !== undefined && !known.has(st.declared)) {
        known.add(st.declared);
        names.push(st.declared);
      }
    }
  }
  return out;
}

const IDENTIFIER_RUN_RE = /[\p{ID_Continue}$]+/gu;
const IDENTIFIER_RE = /^[\p{ID_Continue}$]+$/u;

/** Whether `body` holds `name` with no identifier character either side. */
function usesName(body: string, name: string): boolean {
  return new RegExp(`(?<![\\p{ID_Continue}$])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{ID_Continue}$])`, "u").test(body);
}

/** ESM blocks: from a prose line starting with `import`/`export` to the next blank line. */
function esmBlocks(text: string): { start: number; end: number }[] {
  const { prose } = layout(text);
  const out: { start: number; end: number }[] = [];
  for (let i = 0; i < prose.length; i++) {
    const start = prose[i] as number;
    if (!ESM_START_RE.test(text.slice(start, start + 7))) continue;
    let j = i;
    // The block goes on over the following lines up to a blank one (or a fence).
    while (j + 1 < prose.length && isNextLine(text, prose[j] as number, prose[j + 1] as number) && text.slice(prose[j + 1], lineEnd(text, prose[j + 1] as number)).trim() !== "") j++;
    out.push({ start, end: lineEnd(text, prose[j] as number) });
    i = j;
  }
  return out;
}

function lineEnd(text: string, start: number): number {
  const nl = text.indexOf("\n", start);
  return nl === -1 ? text.length : nl;
}

function isNextLine(text: string, line: number, next: number): boolean {
  return lineEnd(text, line) + 1 === next;
}

/** A name as JavaScript reads it (any script; `\u` escapes decoded separately). */
const NAME_RE = /(?:\*\s+as\s+)?([\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*)\s*$/u;

/**
 * `A`, `A, { B as C }`, `* as NS`, `{ default as D }`, `{ "a name" as E }` -> the local names,
 * from what stands between `import` and the module's string (the lexer gives no bindings).
 */
function boundNames(written: string): string[] {
  const bare = written.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\[\s\S]|[^"\\])*"|'(?:\\[\s\S]|[^'\\])*'/g, " ");
  const bindings = decodeEscapes(bare.replace(/(?<![\p{ID_Continue}$])from\s*$/u, ""));
  const out: string[] = [];
  const braces = /\{([^}]*)\}/.exec(bindings);
  const outside = braces === null ? bindings : bindings.replace(braces[0], "");
  for (const part of outside.split(",")) {
    const m = NAME_RE.exec(part.trim());
    if (m !== null) out.push(m[1] as string);
  }
  for (const part of braces?.[1]?.split(",") ?? []) {
    const m = NAME_RE.exec(part.trim());
    if (m !== null) out.push(m[1] as string);
  }
  return out;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" };

function decodeEscapes(raw: string): string {
  if (!raw.includes("\\")) return raw;
  return raw.replace(/\\(?:u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(\r\n|[\s\S]))/g, (_, braced?: string, four?: string, two?: string, other?: string) => {
    const hex = braced ?? four ?? two;
    if (hex !== undefined) {
      const code = Number.parseInt(hex, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    // A line continuation stands for nothing; any other escaped character for itself.
    if (other === "\n" || other === "\r\n" || other === "\r" || other === "\u2028" || other === "\u2029") return "";
    return SIMPLE_ESCAPES[other as string] ?? (other as string);
  });
}

/** Starts of the lines MDX reads as prose (after the front matter, outside fences), and the fenced ranges. */
function layout(text: string): { prose: number[]; fenced: { start: number; end: number }[] } {
  const prose: number[] = [];
  const fenced: { start: number; end: number }[] = [];
  let start = frontMatterEnd(text);
  let open: { char: string; length: number; start: number } | undefined;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl;
    const f = FENCE_RE.exec(text.slice(start, end).replace(/\r$/, ""));
    if (f !== null) {
      const marker = f[1] as string;
      if (open === undefined) open = { char: marker[0] as string, length: marker.length, start };
      else if (marker[0] === open.char && marker.length >= open.length && (f[2] as string).trim() === "") {
        fenced.push({ start: open.start, end });
        open = undefined;
      }
    } else if (open === undefined) prose.push(start);
    start = end + 1;
  }
  if (open !== undefined) fenced.push({ start: open.start, end: text.length });
  return { prose, fenced };
}

/** Where the text after a file's front matter starts (0 without one); an empty block
 *  (`---` straight after `---`) is front matter too. */
export function frontMatterEnd(text: string): number {
  const m = /^\uFEFF?---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(text);
  return m === null ? 0 : m[0].length;
}

/**
 * Widen `[start, end)` to its whole lines when nothing else is written on them (and to the blank
 * line after, when one is before: a paragraph of its own leaves no double gap); within a line,
 * take one of the spaces around it.
 */
function wholeLines(text: string, start: number, end: number): { start: number; end: number } {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const nl = text.indexOf("\n", end);
  const lineEnd = nl === -1 ? text.length : nl;
  if (text.slice(lineStart, start).trim() !== "" || text.slice(end, lineEnd).trim() !== "") {
    return { start, end: text[start - 1] === " " && text[end] === " " ? end + 1 : end };
  }
  let after = nl === -1 ? text.length : nl + 1;
  const blankBefore = lineStart === 0 || /\n[ \t\r]*\n$/.test(text.slice(Math.max(0, lineStart - 64), lineStart));
  const next = /^[ \t\r]*(?:\n|$)/.exec(text.slice(after));
  if (blankBefore && next !== null && after < text.length) after += next[0].length;
  // The page's last lines: the blank line before goes too, so the page does not end in a gap.
  else if (blankBefore && after === text.length && lineStart > 0) return { start: text.lastIndexOf("\n", lineStart - 2) + 1, end: after };
  return { start: lineStart, end: after };
}
