import { ImportType, type ImportSpecifier, initSync, parse as parseModule } from "es-module-lexer";
/**
 * ESM `import` (and `export ... from`) statements of an MDX page, and removing some of them
 * with every use of the names they bind. A page that imports a file some readers may not read
 * is shown to them without the statement and without the tags that use it (`<Secret />`,
 * `<Secret>...</Secret>`, `<Secret.Part />`), so the file's path and component name never reach
 * them. Statements count where MDX reads them: in an ESM block (a paragraph whose first line
 * starts with `import` or `export`), outside the front matter and fenced code blocks (an
 * `import` line shown in a code sample is text); a block may hold several statements, on one
 * line or over several. Tags are removed outside fenced code too; a statement or tag alone on
 * its line takes the line with it.
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
  if (!/^(?:import|export)\b/m.test(text)) return [];
  const out: MdxImport[] = [];
  for (const block of esmBlocks(text)) {
    const lexed = lexStatements(text, block.start, block.end) ?? statementsOf(text, block).flatMap((st) => lexStatements(text, st.start, st.end) ?? []);
    const read = [...lexed, ...lookalikeStatements(text, block, lexed)];
    out.push(...read, ...unreadStatements(text, block, read));
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
  LOOKALIKE_RE.lastIndex = block.start;
  for (let m = LOOKALIKE_RE.exec(text); m !== null && m.index < block.end; m = LOOKALIKE_RE.exec(text)) {
    const at = m.index;
    if (lexed.some((r) => at >= r.start && at < r.end)) continue;
    const [whole, keyword, bindings, double, single, bareDouble, bareSingle] = m as unknown as [string, ...(string | undefined)[]];
    const source = decodeEscapes(double ?? single ?? bareDouble ?? bareSingle ?? "");
    const names = keyword === "import" && bindings !== undefined ? boundNames(bindings) : [];
    out.push({ ...wholeLines(text, at, statementEnd(text, at + whole.length)), source, names });
  }
  return out;
}

/** Where a statement ending at `end` ends with what goes with it: a `//` comment after it is about it. */
function statementEnd(text: string, end: number): number {
  return /^[ \t]*\/\//.test(text.slice(end, lineEnd(text, end))) ? lineEnd(text, end) : end;
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
    const names = statement.startsWith("import") ? boundNames(code.slice(imp.ss + "import".length, imp.s - 1)) : [];
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
  for (const statement of statementsOf(text, block)) {
    const start = statement.start;
    if (!/^import(?![\p{ID_Continue}$])/u.test(text.slice(start, start + 7))) continue;
    if (read.some((r) => start >= r.start && start < r.end)) continue;
    let end = statement.end;
    for (const r of read) if (r.start > start && r.start < end) end = r.start;
    // Prose in a `.md` page may start with the word (`import twice and...`): only what names a
    // module as a string (`from "..."`, `import "..."`) can name a file.
    if (!UNREAD_SOURCE_RE.test(text.slice(start, end))) continue;
    const written = text.slice(start, end).replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\[\s\S]|[^"\\])*"|'(?:\\[\s\S]|[^'\\])*'/g, " ");
    const names = [...new Set(decodeEscapes(written).match(/[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*/gu) ?? [])].filter((n) => !IMPORT_WORDS.has(n));
    out.push({ ...wholeLines(text, start, end), source: "", names, unread: true });
  }
  return out;
}

/** `text` without `imports` and without the tags that use the names they bind. */
export function removeImports(text: string, imports: readonly MdxImport[]): string {
  if (imports.length === 0) return text;
  const cuts: { start: number; end: number }[] = imports.map((i) => ({ start: i.start, end: i.end }));
  const names = [...new Set(imports.flatMap((i) => i.names))];
  if (names.length > 0) {
    cuts.push(...aliasExports(text, names));
    cuts.push(...tagUses(text, names));
  }
  cuts.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const c of cuts) {
    if (c.start < at) {
      at = Math.max(at, c.end);
      continue;
    }
    out += text.slice(at, c.start);
    at = c.end;
  }
  return out + text.slice(at);
}

/** `export const|let|var|function|class Name` at the start of a statement in an ESM block. */
const EXPORT_DECLARATION_RE = /^export\s+(?:const|let|var|function\*?|class)\s+([\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*)/u;

/**
 * Exports of the ESM blocks that use one of `names` (`export const Alias = Secret`): they go
 * with the import, or the name would stay on the page; what they declare goes too (adding
 * their names to `names`), and so on. A statement runs to the next line that starts one.
 */
function aliasExports(text: string, names: string[]): { start: number; end: number }[] {
  const statements: { start: number; end: number; declared: string | undefined }[] = [];
  for (const block of esmBlocks(text)) {
    for (const { start, end } of statementsOf(text, block)) statements.push({ start, end, declared: EXPORT_DECLARATION_RE.exec(text.slice(start, end))?.[1] });
  }
  const out: { start: number; end: number }[] = [];
  const uses = (body: string, name: string): boolean => new RegExp(`(?<![\\p{ID_Continue}$])${name.replace(/\$/g, "\\$")}(?![\\p{ID_Continue}$])`, "u").test(body);
  const taken = new Set<number>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const st of statements) {
      if (st.declared === undefined || taken.has(st.start)) continue;
      const body = text.slice(st.start, st.end);
      if (!names.some((n) => n !== st.declared && uses(body, n))) continue;
      taken.add(st.start);
      out.push(wholeLines(text, st.start, st.end));
      if (!names.includes(st.declared)) names.push(st.declared);
      grew = true;
    }
  }
  return out;
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
 * Where the page uses one of `names` as a tag: `<Name ... />`, or `<Name ...>` through its
 * matching `</Name>` (nested ones counted). An element alone on its lines takes the lines.
 */
function tagUses(text: string, names: readonly string[]): { start: number; end: number }[] {
  const { fenced } = layout(text);
  const inFence = (i: number): boolean => fenced.some((r) => i >= r.start && i < r.end);
  const alternation = names.map((n) => n.replace(/\$/g, "\\$")).join("|");
  const openRe = new RegExp(`<(${alternation})(?:\\.[\\w$.]+)?(?=[\\s/>])`, "g");
  const out: { start: number; end: number }[] = [];
  let from = frontMatterEnd(text);
  for (;;) {
    openRe.lastIndex = from;
    const m = openRe.exec(text);
    if (m === null) break;
    if (inFence(m.index)) {
      from = m.index + 1;
      continue;
    }
    const end = elementEnd(text, m.index, m[1] as string);
    out.push(wholeLines(text, m.index, end));
    from = end;
  }
  return out;
}

/** End of the element whose opening tag starts at `start` (only the opening tag when it never closes). */
function elementEnd(text: string, start: number, name: string): number {
  const open = tagEnd(text, start);
  if (open.selfClosing) return open.end;
  const escaped = name.replace(/\$/g, "\\$");
  const re = new RegExp(`<(/?)${escaped}(?:\\.[\\w$.]+)?(?=[\\s/>])`, "g");
  re.lastIndex = open.end;
  let depth = 1;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[1] === "/") {
      const close = text.indexOf(">", m.index);
      if (close === -1) break;
      if (--depth === 0) return close + 1;
      re.lastIndex = close + 1;
    } else {
      const inner = tagEnd(text, m.index);
      if (!inner.selfClosing) depth++;
      re.lastIndex = inner.end;
    }
  }
  return open.end;
}

/** The end of the tag at `start` (attributes with quotes and `{...}` expressions skipped). */
function tagEnd(text: string, start: number): { end: number; selfClosing: boolean } {
  let depth = 0;
  let quote = "";
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (quote !== "") {
      if (c === "\\" && depth > 0) i++;
      else if (c === quote) quote = "";
    } else if (c === '"' || c === "'" || (c === "`" && depth > 0)) quote = c;
    else if (c === "{") depth++;
    else if (c === "}") depth = Math.max(0, depth - 1);
    else if (depth === 0 && c === ">") return { end: i + 1, selfClosing: text[i - 1] === "/" };
  }
  return { end: text.length, selfClosing: true };
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
