import { posix } from "node:path";
import { frontMatterEnd, type MdxImport, mdxImports, removeImports } from "../config/mdx-imports.js";
import { type SnippetTag, snippetTags } from "../config/snippet-tags.js";
import { type Access, accessKey } from "./access.js";
import { distinctRules, FileVariants, reuse } from "./file-variants.js";
import { heldTextOf } from "./held-text.js";
import { mayHaveImportLine } from "./import-lines.js";
import { pageOfFile } from "./page-routes.js";
import { pagePathOf, type Site } from "./site.js";
import type { SiteFile } from "./site-file.js";
import { snippetTarget } from "./snippet-target.js";
import type { VariantTimes } from "./variant-times.js";

/** Files MDX imports can name as text (a `.jsx` component is code, and not in the site). */
/** A page file's name (what may import a snippet). */
export const MDX_FILE_RE = /\.mdx?$/i;

/**
 * A page (or snippet, or skill) that imports a file some of its readers may not read (a
 * restricted snippet or page) is, for those readers, the page without that import statement
 * and without the uses of its names (see `removeImports`). The imported file's own rule decides;
 * an import of a file every reader of the page may read (`public: true`, or the same rule as the
 * page) needs no variant. An import of a file that is not in the site (ignored, missing) stays
 * as written: there is nothing of it to keep from anyone. A `<Snippet file>` tag is an import by
 * another spelling: it goes for a reader who may read none of the files at its paths, by the
 * rule search and the HTML page resolve it with (`snippetTarget`). Each file's variants are dated from
 * `timesBefore` its path (`siteVariants`; none at a start).
 */
export async function importVariants(site: Pick<Site, "files" | "pages" | "shadowed">, previous: ReadonlyMap<string, FileVariants> | undefined, timesBefore: (path: string) => VariantTimes | undefined = () => undefined): Promise<FileVariants[]> {
  // Every file an import can name (an MDX file) and every importer then has the reader's rule
  // the page has: no text need be looked at. Most sites are so (issue 22: a start of a 25,000-page
  // site from the persistent cache scanned each distinct text's bytes for import lines, ~0.1 s).
  if (oneMdxRule(site)) return [];
  const generated = new Set<SiteFile>();
  for (const page of site.pages.values()) if (page.generated) generated.add(page.file);
  const out: FileVariants[] = [];
  // Each distinct text's statements once: a versioned site's copies of a page are one text (one
  // string, when the persistent cache loaded them), and looking for statements in each of 25,000
  // pages was a second of a start.
  // A text held as bytes is known by what holds it (its copies share it, `ParsedTexts`): keyed by
  // the strings, this map held every text of a 50,000-page site read back at once (issue 22).
  const found = new Map<string | object, Includes>();
  for (const file of site.files.values()) {
    // Generated pages import nothing, and their text is rendered only when read.
    if (!MDX_FILE_RE.test(file.path) || generated.has(file)) continue;
    const restricted: { statement: MdxImport; access: Access }[] = [];
    const held = heldTextOf(file);
    const stored = held?.storedForm;
    const key = held !== undefined && stored !== undefined ? held : file.text;
    let includes = found.get(key);
    // A text held as bytes is decoded for this only when a line may start with an import, or a `<Snippet` tag is in it.
    if (includes === undefined) found.set(key, (includes = stored !== undefined && !mayHaveImportLine(stored) ? NO_INCLUDES : includesOf(file.text)));
    for (const statement of includes.statements) {
      if (statement.unread === true) {
        // Fail closed: it could name any file, so it is one entry per rule a file could need,
        // and removed for a reader who fails any of them.
        for (const access of mdxRules(site, file)) restricted.push({ statement, access });
        continue;
      }
      const target = importedFile(site, file.path, statement.source);
      if (target === undefined || target === file || !restricts(target, file)) continue;
      restricted.push({ statement, access: target.access });
    }
    const tags = restrictedTags(site, file, includes.tags);
    if (restricted.length === 0 && tags.length === 0) continue;
    const { rules, index } = distinctRules([...restricted.map((r) => r.access), ...tags.flatMap((t) => t.candidates.flatMap((c) => (c === undefined ? [] : [c])))]);
    // Each tag's candidates as rule indexes (after the imports' ones), -1 for a file every reader of the page may read.
    let next = restricted.length;
    const tagRules = tags.map((t) => t.candidates.map((c) => (c === undefined ? -1 : (index[next++] as number))));
    const signature = JSON.stringify([
      ...restricted.map((r) => [r.statement.start, accessKey(r.access)]),
      ...tags.map((t) => [t.tag.start, ...t.candidates.map((c) => (c === undefined ? "" : accessKey(c)))]),
    ]);
    const page = pageOfFile(site, pagePathOf(file.path), file.path);
    const render = (allowed: readonly boolean[]): string =>
      removeImports(
        file.text,
        [...new Set(restricted.filter((_, i) => allowed[index[i] as number] !== true).map((r) => r.statement))],
        // A tag goes for a reader who may read none of the files at its paths (`snippetTarget`).
        tags.filter((_, i) => !(tagRules[i] as number[]).some((r) => r === -1 || allowed[r] === true)).map((t) => t.tag),
      );
    const before = previous?.get(file.path);
    out.push(reuse(before, file, signature) ?? (await FileVariants.of(file, rules, render, page?.file === file ? page : undefined, signature, undefined, timesBefore(file.path))));
  }
  return out;
}

/** What a text brings in from other files: its import statements and its `<Snippet>` tags. */
interface Includes {
  readonly statements: readonly MdxImport[];
  readonly tags: readonly SnippetTag[];
}

const NO_INCLUDES: Includes = { statements: [], tags: [] };

function includesOf(text: string): Includes {
  return { statements: mdxImports(text), tags: snippetTags(text, frontMatterEnd(text)) };
}

/** Whether some reader of `from` may not read `target`: it is not public and has another rule. */
function restricts(target: SiteFile, from: SiteFile): boolean {
  return target.access.public !== true && accessKey(target.access) !== accessKey(from.access);
}

/**
 * The tags of `file` that some of its readers get no file for (`snippetTarget`: files at their
 * paths, none of which the reader may read), each with the files at its paths up to the first
 * every reader of the file may read: their rules, or undefined for that last one.
 */
function restrictedTags(site: Pick<Site, "files">, file: SiteFile, tags: readonly SnippetTag[]): { tag: SnippetTag; candidates: (Access | undefined)[] }[] {
  const out: { tag: SnippetTag; candidates: (Access | undefined)[] }[] = [];
  for (const tag of tags) {
    const candidates: (Access | undefined)[] = [];
    snippetTarget(tag.attributes, (path) => site.files.get(path), (target) => {
      const free = !restricts(target, file);
      candidates.push(free ? undefined : target.access);
      return free;
    });
    if (candidates.some((c) => c !== undefined)) out.push({ tag, candidates });
  }
  return out;
}

/** `accessKey` of a file open to every reader who may read the site (no groups, not public): most files. */
const OPEN = accessKey({});

/** Whether the site's MDX files all have one access rule (`accessKey`): then every import is of a
 *  file with its page's rule, or of none, and no file has import variants. */
function oneMdxRule(site: Pick<Site, "files">): boolean {
  let key: string | undefined;
  for (const file of site.files.values()) {
    if (!MDX_FILE_RE.test(file.path)) continue;
    const { access } = file;
    const own = access.groups === undefined && access.public !== true ? OPEN : accessKey(access);
    if (key === undefined) key = own;
    else if (own !== key) return false;
  }
  return true;
}

/** The rules of the site's MDX files that not every reader of `file` may read (see `importVariants`). */
function mdxRules(site: Pick<Site, "files">, file: SiteFile): Access[] {
  const out = new Map<string, Access>();
  for (const other of site.files.values()) {
    if (other === file || !MDX_FILE_RE.test(other.path) || other.access.public === true || accessKey(other.access) === accessKey(file.access)) continue;
    out.set(accessKey(other.access), other.access);
  }
  return [...out.values()];
}

/** The site file an import names: `/snippets/a.mdx` from the docs root, `./a.mdx` from the page's folder. */
function importedFile(site: Pick<Site, "files">, from: string, source: string): SiteFile | undefined {
  if (!MDX_FILE_RE.test(source) || /^[a-z][\w+.-]*:/i.test(source)) return undefined;
  const path = source.startsWith("/") ? posix.normalize(source) : posix.join(posix.dirname(from), source);
  return site.files.get(path);
}
