import { posix } from "node:path";
import { frontMatterEnd, type MdxImport, mdxImports, removeImports } from "../../config/mdx-imports.js";
import { mayHaveSnippetTag, snippetTags } from "../../config/snippet-tags.js";
import { LIMITS } from "../../limits.js";
import { type BodyKey, bodyBytesOf, knownMayImport, rememberMayImport } from "../../vfs/body-key.js";
import { mayHaveImportLine } from "../../vfs/import-lines.js";
import type { Page } from "../../vfs/page.js";
import type { SiteFile } from "../../vfs/site-file.js";
import { snippetTarget } from "../../vfs/snippet-target.js";

/**
 * Reusable MDX snippets, inlined for search. A page that writes
 *
 *     import Auth from '/snippets/auth.mdx';
 *     <Auth product="Cloud" />
 *
 * shows the snippet's text where `<Auth />` stands, so a reader finds it on that page; the
 * snippet file alone is not a page. Search indexes the page with each such use replaced by the
 * snippet's body (front matter dropped, `{product}` filled from the tag's string attributes,
 * nested snippets inlined too). The filesystem keeps the files as written: `cat` shows the
 * `<Auth />` tag, and `/snippets/auth.mdx` is a file of its own.
 *
 * Only default imports of `.md`/`.mdx` files are inlined: named imports (`import { Since } from
 * '/snippets/since.mdx'`) are components defined in code, whose output is not text we know.
 * The platform's older `<Snippet file="auth.mdx" />` (`config/snippet-tags.ts`) is inlined as a
 * default import of `/snippets/auth.mdx` would be: the first file at its paths the reader may
 * read, and a tag with files none of which they may read is left out as the import of such a
 * file is (`vfs/snippet-target.ts`, the one rule of the reader's copy, search and the HTML page).
 * A page generated from a spec inlines nothing: its descriptions are Markdown, rendered so on
 * its HTML page, where an `import` line or a tag is text (adversary round 55 F4).
 *
 * An import of a file the reader may not read (`include` refuses it) is left out as the reader's
 * own view of the file leaves it out (`removeImports`, the shell's rule): the statement and every
 * tag that uses it, children and attributes included; so what search holds of a page for a
 * reader is what that reader can `cat`, with the snippets it may read inlined.
 */

/** Where the files an expansion used came from: the index re-expands when one of them changes. */
export interface Expanded {
  readonly body: string;
  /** The imported files whose tags the text uses, inlined or not (each once), to tell whether
   *  an expansion is still current. */
  readonly uses: readonly SiteFile[];
  /** Imported paths no file answered (yet): when one appears, the page is expanded again. */
  readonly missing: readonly string[];
}

/** `import Name from '<path>.mdx'` (single or double quotes, optional `;`), at column 0. */
const DEFAULT_IMPORT_RE = /^import[ \t]+([A-Z][\w$]*)[ \t]+from[ \t]+(['"])([^'"\n]+\.mdx?)\2[ \t]*;?[ \t]*$/gm;

/** Attributes of a tag written as strings: `name="x"`, `name='x'`, `name={"x"}`, `name={'x'}`. */
const ATTRIBUTE_RE = /([A-Za-z_][\w-]*)=(?:"([^"]*)"|'([^']*)'|\{"([^"]*)"\}|\{'([^']*)'\})/g;

/**
 * The body of `page` with its snippet uses inlined, or `undefined` when it imports no MDX (most
 * pages: the caller keeps using `page.body`). `fileAt` looks a file up by its absolute path.
 * `include` is asked about each imported file the body (or an inlined snippet) uses, in
 * reading order: a file it refuses is left out with its uses, and the snippets it would have
 * brought in are not reached (see `variants.ts`).
 */
export function expandIncludes(page: Page, fileAt: (path: string) => SiteFile | undefined, include: (file: SiteFile) => boolean = () => true): Expanded | undefined {
  if (page.generated || !importsMdx(page.body)) return undefined;
  const uses = new Map<string, SiteFile>();
  const missing = new Set<string>();
  const body = expand(page.body, posix.dirname(page.file.path), { fileAt, include }, { uses, missing }, [page.file.path], 0);
  return { body, uses: [...uses.values()], missing: [...missing] };
}

/** How `expand` finds the files a body imports, and which of them it may inline. */
interface Resolver {
  readonly fileAt: (path: string) => SiteFile | undefined;
  readonly include: (file: SiteFile) => boolean;
}

/** Whether a body imports an MDX file at all, by any kind of statement (`expandIncludes` tells which resolve). */
export function importsMdx(body: string): boolean {
  return (QUICK_IMPORT_RE.test(body) && mdxImports(body).some((s) => s.unread === true || MDX_SOURCE_RE.test(s.source))) || mayHaveSnippetTag(body);
}

/** Whether a page's body (of key `key`, `bodyKeyOf`) imports an MDX file (`importsMdx`): a body
 *  held as bytes is decoded for this only when a line of it may start with an import. Never for
 *  a page generated from a spec (`expandIncludes`). */
export function bodyImportsMdx(key: BodyKey, page: Page): boolean {
  if (page.generated) return false;
  const bytes = bodyBytesOf(key);
  if (bytes === undefined) return importsMdx(page.body);
  const mayImport = knownMayImport(key as object) ?? rememberMayImport(key as object, mayHaveImportLine(bytes));
  return mayImport && importsMdx(page.body);
}

/** A line starting an import or export: most pages have none, and skip the parse. */
const QUICK_IMPORT_RE = /^(?:import|export)\b/m;
const MDX_SOURCE_RE = /\.mdx?$/i;

/** Whether every file an expansion used is still the one the site holds. */
export function isCurrent(expanded: Pick<Expanded, "uses" | "missing">, fileAt: (path: string) => SiteFile | undefined): boolean {
  return expanded.uses.every((file) => fileAt(file.path) === file) && expanded.missing.every((path) => fileAt(path) === undefined);
}

function expand(
  body: string,
  dir: string,
  files: Resolver,
  seen: { readonly uses: Map<string, SiteFile>; readonly missing: Set<string> },
  chain: readonly string[],
  size: number,
): string {
  const text = withoutRefused(body, dir, files, seen, chain);
  const imports = new Map<string, SiteFile>();
  for (const m of text.matchAll(DEFAULT_IMPORT_RE)) {
    const path = m[1] !== undefined && m[3] !== undefined ? resolveImport(dir, m[3]) : undefined;
    if (path === undefined) continue;
    const file = files.fileAt(path);
    // A missing file, or one already being inlined above (a cycle), stays a tag: search skips it.
    if (file === undefined) seen.missing.add(path);
    else if (!chain.includes(file.path)) imports.set(m[1] as string, file);
  }
  // What MDX would not read as an import (a statement in a code sample) was not removed above;
  // it must not be inlined either when `include` refuses its file (asked again: same answer).
  for (const [name, file] of imports) {
    if (!text.includes(`<${name}`)) continue;
    seen.uses.set(file.path, file);
    if (!files.include(file)) imports.delete(name);
  }
  let budget = LIMITS.search.maxInlinedBytes - size;
  const inline = (file: SiteFile, attrs: string): string => {
    seen.uses.set(file.path, file);
    const props = new Map<string, string>();
    for (const a of attrs.matchAll(ATTRIBUTE_RE)) props.set(a[1] as string, a[2] ?? a[3] ?? a[4] ?? a[5] ?? "");
    const own = fillProps(stripFrontMatter(file.text), props);
    const inner = expand(own, posix.dirname(file.path), files, seen, [...chain, file.path], LIMITS.search.maxInlinedBytes - budget);
    const text = inner.length > budget ? inner.slice(0, budget) : inner;
    budget -= text.length;
    // On lines of their own, so the snippet's headings and paragraphs stay headings and paragraphs.
    return `\n${text.trim()}\n`;
  };
  const imported = imports.size === 0 ? text : inlineImports(text, imports, (file, attrs) => (budget <= 0 ? undefined : inline(file, attrs)));
  // The tags `snippetTags` reads: one written as code stays as written, as the page shows it.
  let out = "";
  let done = 0;
  for (const tag of snippetTags(imported)) {
    const file = snippetFile(tag.attributes, files, seen, chain);
    if (file === undefined || budget <= 0) continue;
    out += imported.slice(done, tag.start) + inline(file, tag.attributes);
    done = tag.end;
  }
  return done === 0 ? imported : out + imported.slice(done);
}

/** The file a `<Snippet file>` tag shows (`snippetTarget`: the first at its paths `include`
 *  allows), unless it is being inlined above (a cycle); every path tried is a dependency (`Expanded`). */
function snippetFile(attrs: string, files: Resolver, seen: Seen, chain: readonly string[]): SiteFile | undefined {
  const target = snippetTarget(attrs, files.fileAt, readableIn(files, chain), recordIn(seen));
  return target.kind === "file" && !chain.includes(target.file.path) ? target.file : undefined;
}

/** What the files an expansion used are kept in (`Expanded`). */
interface Seen {
  readonly uses: Map<string, SiteFile>;
  readonly missing: Set<string>;
}

/** Whether a file is the reader's to inline: one being inlined above is (a cycle, not asked about). */
function readableIn(files: Resolver, chain: readonly string[]): (file: SiteFile) => boolean {
  return (file) => chain.includes(file.path) || files.include(file);
}

/** A path tried is a dependency: the file there, or a missing path that may appear. */
function recordIn(seen: Seen): (path: string, file: SiteFile | undefined) => void {
  return (path, file) => {
    if (file === undefined) seen.missing.add(path);
    else seen.uses.set(file.path, file);
  };
}

/** Each use of an imported snippet, `<Name ... />` or `<Name ...>` ... `</Name>`, replaced by
 *  `inline`'s text (the children are dropped: a snippet that uses them is rare, and its own text
 *  is what a reader sees); a use `inline` declines (out of budget) stays. */
function inlineImports(text: string, imports: ReadonlyMap<string, SiteFile>, inline: (file: SiteFile, attrs: string) => string | undefined): string {
  const names = [...imports.keys()].map((n) => n.replace(/\$/g, "\\$")).join("|");
  // `<Name ... />`, or `<Name ...>` ... `</Name>` (the children are dropped: a snippet that uses
  // them is rare, and its own text is what a reader sees).
  const useRe = new RegExp(`<(${names})((?:\\s[^<>]*?)?)(?:/>|>[\\s\\S]*?</\\1\\s*>)`, "g");
  return text.replace(useRe, (tag: string, name: string, attrs: string) => {
    const file = imports.get(name);
    return file === undefined ? tag : (inline(file, attrs) ?? tag);
  });
}

/**
 * `body` without the imports of files `include` refuses, and without the tags that use them. It
 * is asked only about files whose names the body uses as tags (an unused import changes no text
 * search keeps, so it adds no variant; but see `COMMENT_RE`), and not about the files being
 * inlined above (a cycle).
 * Every file asked about, named imports included, is one the expansion depends on: a change to
 * its rule changes the text (`isCurrent`).
 */
function withoutRefused(
  body: string,
  dir: string,
  files: Resolver,
  seen: { readonly uses: Map<string, SiteFile>; readonly missing: Set<string> },
  chain: readonly string[],
): string {
  // A `<Snippet file>` tag none of whose files the reader may read goes as such an import does
  // (`snippetTarget`: the rule the reader's copy of the page is cut by, `import-variants.ts`).
  const tags = snippetTags(body).filter((tag) => snippetTarget(tag.attributes, files.fileAt, readableIn(files, chain), recordIn(seen)).kind === "refused");
  if (!QUICK_IMPORT_RE.test(body)) return tags.length === 0 ? body : removeImports(body, [], tags);
  const refused: MdxImport[] = [];
  for (const statement of mdxImports(body)) {
    // One the matcher cannot read could name any file: left out of search for every reader
    // (fail closed; the statement itself is no text a reader searches for).
    if (statement.unread === true) {
      refused.push(statement);
      continue;
    }
    // An import whose names nothing uses (no tag, expression or attribute) changes no text search keeps (no variant for it), unless
    // the body has comments: left out, it can take its ESM block's comments with it
    // (`removeImports`), and search holds what the reader can `cat`.
    if (!MDX_SOURCE_RE.test(statement.source) || (!usesAny(body, statement) && !COMMENT_RE.test(body))) continue;
    const path = resolveImport(dir, statement.source);
    if (path === undefined) continue;
    const file = files.fileAt(path);
    if (file === undefined) seen.missing.add(path);
    if (file === undefined || chain.includes(file.path)) continue;
    seen.uses.set(file.path, file);
    if (!files.include(file)) refused.push(statement);
  }
  return refused.length === 0 && tags.length === 0 ? body : removeImports(body, refused, tags);
}

/** Whether the body names one of the statement's bindings outside it: as a tag, and in an
 *  expression or attribute too (`{Secret}`, `icon={Secret}`), which go with the import. */
function usesAny(body: string, statement: MdxImport): boolean {
  const rest = body.slice(0, statement.start) + body.slice(statement.end);
  return statement.names.some((n) => new RegExp(`(?<![\\p{ID_Continue}$])${n.replace(/\$/g, "\\$")}(?![\\p{ID_Continue}$])`, "u").test(rest));
}

/** A comment could share an ESM block with an unused import, and go with it. */
const COMMENT_RE = /\/\/|\/\*/;

/** An import path as a file of the site: `/snippets/a.mdx` from the root, `./a.mdx` from the page's folder. */
function resolveImport(dir: string, spec: string): string | undefined {
  if (/^[a-z][\w+.-]*:/i.test(spec)) return undefined;
  return spec.startsWith("/") ? posix.normalize(spec) : posix.join(dir, spec);
}

function stripFrontMatter(text: string): string {
  return text.slice(frontMatterEnd(text));
}

/** `{name}` in a snippet's text becomes the tag's `name="..."` value; other braces stay. */
function fillProps(text: string, props: ReadonlyMap<string, string>): string {
  if (props.size === 0) return text;
  return text.replace(/\{([A-Za-z_][\w]*)\}/g, (whole, name: string) => props.get(name) ?? whole);
}
