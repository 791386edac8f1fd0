import { isAscii } from "node:buffer";
import { serialize } from "node:v8";
import type { FrontMatterData } from "../config/frontmatter.js";
import type { PageMeta } from "../config/page-meta.js";
import type { Access } from "../vfs/access.js";
import type { KnownPages, LoadedSite, PageStat } from "../vfs/load-site.js";
import type { Page } from "../vfs/page.js";
import { withBodyKey } from "../vfs/body-key.js";
import { HeldText, heldFile, heldPage, heldTextOf } from "../vfs/held-text.js";
import type { SiteFile } from "../vfs/site-file.js";
import type { StoredText } from "../vfs/stored-text.js";
import type { IndexedPageState } from "./search/search-index.js";
import { unpackTexts } from "./site-cache-texts.js";
import { INDEX_PAGE_INTS, type IndexedVariant, type IndexedVariantShape, type IndexPageColumns, PAGE_INTS, PAGE_NUMBERS, type PageColumns, type Utf8Texts } from "./site-cache-format.js";

/**
 * The site cache's columns (`PageColumns`, `IndexPageColumns`): made from the site and its
 * index by the writer, a step at a time (`step` gives the thread back), and turned back into
 * pages and index pages by the reader in one quick pass.
 */

/** How `SharedObjects` keys an `undefined` inside a plain value: a string no title, path or
 *  group name holds (a NUL). */
const UNDEFINED = "\u0000undefined";

/** Page records and index pages per step of a write. */
const PER_STEP = 256;

/** Values stored once each in `Body.objects`, by their serialized form (which tells a date from its text). */
export class SharedObjects {
  readonly objects: unknown[] = [];
  /** Ids by a hash of their key (`keyOf`), the keys themselves not held: most values (a page's
   *  meta and front matter) are their page's own, and their keys were ~35 MB of the heap
   *  through a 50,000-page site's cache write, at its peak (issue 22). */
  private readonly byHash = new Map<number, number | number[]>();
  /** Keys of values met again by hash (the few that many pages share), kept to compare with. */
  private readonly keys = new Map<number, string>();
  /** Per id, whether its key was made as a plain value's (`id`). */
  private readonly plain: boolean[] = [];
  // Copies of one text share their parse (`ParsedTexts`): the same object is serialized once.
  private readonly byIdentity = new Map<unknown, number>();

  /**
   * The number of `value` (-1 for undefined). `plain` values (placements, access, conditions,
   * file lists: strings, numbers, booleans, arrays and plain objects only) are told apart by
   * their JSON, an `undefined` marked as such; others (meta and front matter, which may hold
   * dates) by V8's serialized form. Each `serialize` holds native memory until a collection
   * frees it: five a page were 300 MB at 25,000 pages.
   */
  id(value: unknown, plain = false): number {
    if (value === undefined) return -1;
    let id = this.byIdentity.get(value);
    if (id !== undefined) return id;
    const key = keyOf(value, plain);
    const hash = hashOf(key);
    const found = this.byHash.get(hash);
    for (const candidate of found === undefined ? [] : typeof found === "number" ? [found] : found) {
      let known = this.keys.get(candidate);
      if (known === undefined) {
        // The key of a value stored before, made again as it was made then.
        known = keyOf(this.objects[candidate], this.plain[candidate] === true);
        this.keys.set(candidate, known);
      }
      if (known === key) id = candidate;
    }
    if (id === undefined) {
      id = this.objects.length;
      this.objects.push(value);
      this.plain.push(plain);
      if (found === undefined) this.byHash.set(hash, id);
      else if (typeof found === "number") this.byHash.set(hash, [found, id]);
      else found.push(id);
    }
    this.byIdentity.set(value, id);
    return id;
  }
}

/** A value's key in `SharedObjects` (see `id`): equal keys, equal values. */
function keyOf(value: unknown, plain: boolean): string {
  return plain ? `j${JSON.stringify(value, (_key, v: unknown) => (v === undefined ? UNDEFINED : v))}` : (dataKey(value) ?? `v${serialize(value).toString("latin1")}`);
}

/** A 32-bit FNV-1a hash of a key's code units: candidates, told apart by their keys. */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A mark no key of a page's meta or front matter holds (a NUL first): a date in `dataKey`. */
const DATE = "\u0000date";

/**
 * A key telling `value` (a page's meta or front matter: YAML's plain data) from any other, without
 * V8's serializer: strings, finite numbers, booleans, null, dates, arrays and plain objects, as
 * JSON with each date marked; undefined when it holds anything else (then `id` serializes it).
 * Why: each `serialize` left ~4.6 KB of the process's memory behind once freed (the allocator
 * keeps it; measured: 20,000 calls on small objects, +93 MB of resident memory with the heap and
 * buffers back where they were); two a page were ~60 MB at 10,000 pages and stayed after the
 * cache's write (issue 22). Values equal as data get equal keys (a number is a number, however V8
 * holds it), and values that differ get different ones.
 */
export function dataKey(value: unknown): string | undefined {
  let plain = true;
  const key = JSON.stringify(value, function (this: Record<string, unknown>, name: string, v: unknown) {
    const raw = this[name];
    if (raw instanceof Date) return { [DATE]: raw.getTime() };
    if (v === null || typeof v === "string" || typeof v === "boolean") return v;
    // Not plain data: said so, and not walked further (JSON cannot write a BigInt at all).
    if (typeof v === "number" && Number.isFinite(v) && !Object.is(v, -0)) return v;
    if (typeof v !== "object") {
      plain = false;
      return null;
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    const data = Array.isArray(v)
      ? proto === Array.prototype && Object.keys(v).length === v.length
      : (proto === Object.prototype || proto === null) && Object.getOwnPropertySymbols(v).length === 0 && !Object.keys(v).some((k) => k.startsWith("\u0000"));
    if (!data) plain = false;
    return data ? v : null;
  });
  return plain && key !== undefined ? `p${key}` : undefined;
}

/** The site's pages as columns, each distinct text once (`Body.texts`, `Body.utf8`); `utf8` is
 *  how many bytes the texts held as UTF-8 take. */
export async function pageColumns(loaded: LoadedSite, shared: SharedObjects, step: () => Promise<void>): Promise<{ texts: string[]; utf8: { parts: Uint8Array[]; ends: Int32Array; bodyStarts: Int32Array }; pages: PageColumns }> {
  const texts: string[] = [];
  // Texts the load holds as UTF-8 bytes are stored as those bytes (see `Body.utf8`), by their
  // `HeldText` (which copies of a text share), never read into a string to be written.
  const parts: Uint8Array[] = [];
  const ends: number[] = [];
  const bodyStarts: number[] = [];
  const heldIds = new Map<HeldText, number>();
  let utf8Bytes = 0;
  const heldId = (held: HeldText, stored: StoredText): number => {
    let id = heldIds.get(held);
    if (id === undefined) {
      id = -2 - parts.length;
      parts.push(new Uint8Array(stored.buffer, stored.offset, stored.length));
      utf8Bytes += stored.length;
      ends.push(utf8Bytes);
      bodyStarts.push(held.bodyOffset);
      heldIds.set(held, id);
    }
    return id;
  };
  const textIds = new Map<string, number>();
  const textId = (text: string): number => {
    let id = textIds.get(text);
    if (id === undefined) {
      id = texts.length;
      texts.push(text);
      textIds.set(text, id);
    }
    return id;
  };
  // The snapshot's pages, taken now: a reload replaces the map rather than changing it, and drops this write.
  const all = [...loaded.site.pages.values()];
  const rels: string[] = [];
  const paths: string[] = [];
  const titles: string[] = [];
  const reals: [number, string][] = [];
  // Made at their largest size, cut at the end: no arrays grown by copies, page by page.
  const ints = new Int32Array(all.length * PAGE_INTS);
  const numbers = new Float64Array(all.length * PAGE_NUMBERS);
  let n = 0;
  for (const shown of all) {
    if (++n % PER_STEP === 0) await step();
    // A page shown with an operation is kept as read: the load makes the shown page again.
    const page = shown.authored ?? shown;
    if (page.generated) continue;
    const rel = page.file.path.slice(1);
    const stat = loaded.pageStats?.get(rel);
    if (stat === undefined) continue;
    const held = heldTextOf(page.file);
    const stored = held?.storedForm;
    const i = rels.length;
    if (stat.real !== rel) reals.push([i, stat.real]);
    rels.push(rel);
    paths.push(page.path);
    titles.push(page.title);
    let at = i * PAGE_INTS;
    if (held !== undefined && stored !== undefined && held.bodyOffset >= 0 && (heldIds.has(held) || (utf8Bytes + stored.length < 2 ** 31 && asUtf8(stored)))) {
      ints[at++] = heldId(held, stored);
      ints[at++] = held.bodyOffset;
      ints[at++] = -1;
    } else {
      const text = page.file.text;
      const suffix = text.endsWith(page.body);
      ints[at++] = textId(text);
      ints[at++] = suffix ? text.length - page.body.length : -1;
      ints[at++] = suffix ? -1 : textId(page.body);
    }
    ints[at++] = shared.id(page.meta);
    ints[at++] = shared.id(page.frontMatter);
    ints[at++] = page.bodyLine;
    ints[at++] = shared.id(page.file.access, true);
    numbers.set([page.file.size, page.file.mtime.getTime(), stat.size, stat.mtimeMs, stat.ino, stat.ctimeMs], i * PAGE_NUMBERS);
  }
  return {
    texts,
    utf8: { parts, ends: Int32Array.from(ends), bodyStarts: Int32Array.from(bodyStarts) },
    pages: { rels, paths, titles, ints: ints.slice(0, rels.length * PAGE_INTS), numbers: numbers.slice(0, rels.length * PAGE_NUMBERS), reals },
  };
}

/**
 * Whether a held text's bytes are its UTF-8 as they are: held as UTF-8, or as Latin-1 with no
 * character past ASCII (the same bytes). Such a text is stored as its bytes (`Body.utf8`), never
 * read into a string to be written: a 50,000-page site's ~4,000 ASCII pages, read into strings
 * and serialized, were ~75 MB of the cache write's peak (issue 22).
 */
function asUtf8(stored: StoredText): boolean {
  return stored.encoding === "utf8" || (stored.encoding === "latin1" && isAscii(new Uint8Array(stored.buffer, stored.offset, stored.length)));
}

/** The index's pages as columns. */
export async function indexPageColumns(pages: readonly IndexedPageState[], shared: SharedObjects, step: () => Promise<void>): Promise<IndexPageColumns> {
  const paths: string[] = [];
  const keys: [number, string][] = [];
  const ints = new Int32Array(pages.length * INDEX_PAGE_INTS);
  const shapes: IndexedVariantShape[] = [];
  const shapeIds = new Map<IndexedVariant["sections"], number>();
  const others: (readonly IndexedVariant[])[] = [];
  let at = 0;
  for (const [n, p] of pages.entries()) {
    if ((n + 1) % PER_STEP === 0) await step();
    if (p.key !== p.path) keys.push([paths.length, p.key]);
    paths.push(p.path);
    ints[at++] = shared.id(p.placement, true);
    ints[at++] = shared.id(p.conditions, true);
    ints[at++] = shared.id(p.uses, true);
    ints[at++] = shared.id(p.missing, true);
    ints[at++] = p.rule;
    const v = p.variants.length === 1 ? (p.variants[0] as IndexedVariant) : undefined;
    // A variant of another shape (more fields than these) is kept whole: nothing of it is lost.
    let shape = v !== undefined && v.expanded === undefined && Object.keys(v).length === 6 ? shapeIds.get(v.sections) : undefined;
    if (v !== undefined && shape === undefined && v.expanded === undefined && Object.keys(v).length === 6) {
      shape = shapes.length;
      shapes.push({ expanded: undefined, sections: v.sections, sectionIds: v.sectionIds, sketch: v.sketch, documents: v.documents });
      shapeIds.set(v.sections, shape);
    }
    const same = v !== undefined && shape !== undefined && shapes[shape]?.sectionIds === v.sectionIds && shapes[shape]?.sketch === v.sketch && shapes[shape]?.documents === v.documents;
    if (v !== undefined && same) {
      ints[at++] = v.id;
      ints[at++] = shape as number;
    } else {
      ints[at++] = -1;
      ints[at++] = others.length;
      others.push(p.variants);
    }
    ints[at++] = shared.id(p.above, true);
    ints[at++] = p.complete ? 1 : 0;
    ints[at++] = p.eager;
  }
  return { paths, keys, ints, shapes, others };
}

/** The pages of stored columns, and the lookups a start needs. */
export function pagesOf(
  texts: readonly string[],
  utf8: Utf8Texts,
  objects: readonly unknown[],
  columns: PageColumns,
  trustedBefore: number,
): { known: KnownPages; pageAt: (path: string) => Page | undefined; fileAt: (path: string) => SiteFile | undefined } {
  const byRel = new Map<string, { page: Page; stat: PageStat; n: number }>();
  // Whether a file is told unchanged by its stat alone (`KnownPages.files`): `readPage`'s test.
  const trusted = new Uint8Array(columns.rels.length);
  const byPath = new Map<string, Page>();
  const byFile = new Map<string, SiteFile>();
  const reals = new Map(columns.reals);
  const { ints, numbers } = columns;
  if (ints.length !== columns.rels.length * PAGE_INTS || numbers.length !== columns.rels.length * PAGE_NUMBERS) throw new Error("page columns of different lengths");
  const { ends, bodyStarts } = utf8;
  if (ends.length !== bodyStarts.length || (ends.length > 0 ? ends[ends.length - 1] : 0) !== utf8.size) throw new Error("UTF-8 texts of different lengths");
  const bytes = unpackTexts(utf8.bytes, utf8.pieces, utf8.size);
  // Each text held as its bytes where the cache was read into (as the load holds them,
  // `ParsedTexts`): one `HeldText` and one body key for its copies.
  const helds: ({ readonly held: HeldText; readonly key: object } | undefined)[] = [];
  const heldOf = (k: number): { readonly held: HeldText; readonly key: object } => {
    let made = helds[k];
    if (made === undefined) {
      const from = k === 0 ? 0 : (ends[k - 1] as number);
      const to = ends[k];
      const start = bodyStarts[k];
      if (to === undefined || start === undefined || to < from || start < 0) throw new Error("a UTF-8 text out of range");
      const stored: StoredText = { buffer: bytes.buffer, offset: from, length: to - from, encoding: "utf8" };
      made = { held: HeldText.fromStored(stored, start), key: {} };
      helds[k] = made;
    }
    return made;
  };
  columns.rels.forEach((rel, i) => {
    const n = i * PAGE_INTS;
    const f = i * PAGE_NUMBERS;
    const textId = ints[n] as number;
    if (textId <= -2) {
      const { held, key } = heldOf(-2 - textId);
      if (ints[n + 1] !== held.bodyOffset) throw new Error("a UTF-8 text's body start differs");
      const file = heldFile(`/${rel}`, held, numbers[f] as number, new Date(numbers[f + 1] as number), objects[ints[n + 6] as number] as Access);
      const path = columns.paths[i] as string;
      const page = heldPage({ file, path, title: columns.titles[i] as string, meta: objects[ints[n + 3] as number] as PageMeta, frontMatter: objects[ints[n + 4] as number] as FrontMatterData, bodyLine: ints[n + 5] as number }, held);
      const stat: PageStat = { size: numbers[f + 2] as number, mtimeMs: numbers[f + 3] as number, ino: numbers[f + 4] as number, ctimeMs: numbers[f + 5] as number, real: reals.get(i) ?? rel };
      byRel.set(rel, { page: withBodyKey(page, key), stat, n: i });
      if (stat.mtimeMs < trustedBefore && stat.real === rel) trusted[i] = 1;
      byPath.set(path, page);
      byFile.set(file.path, file);
      return;
    }
    const text = texts[textId] as string;
    const bodyStart = ints[n + 1] as number;
    const file: SiteFile = { path: `/${rel}`, text, size: numbers[f] as number, mtime: new Date(numbers[f + 1] as number), access: objects[ints[n + 6] as number] as Access };
    const path = columns.paths[i] as string;
    const page: Page = {
      file,
      path,
      title: columns.titles[i] as string,
      meta: objects[ints[n + 3] as number] as PageMeta,
      frontMatter: objects[ints[n + 4] as number] as FrontMatterData,
      // A slice shares the text's characters: a copy's body costs no memory of its own.
      body: bodyStart >= 0 ? text.slice(bodyStart) : (texts[ints[n + 2] as number] as string),
      bodyLine: ints[n + 5] as number,
      generated: false,
    };
    const stat: PageStat = { size: numbers[f + 2] as number, mtimeMs: numbers[f + 3] as number, ino: numbers[f + 4] as number, ctimeMs: numbers[f + 5] as number, real: reals.get(i) ?? rel };
    byRel.set(rel, { page, stat, n: i });
    if (stat.mtimeMs < trustedBefore && stat.real === rel) trusted[i] = 1;
    byPath.set(path, page);
    byFile.set(file.path, file);
  });
  return { known: { get: (rel) => byRel.get(rel), files: { rels: columns.rels, trusted }, trustedBefore }, pageAt: (path) => byPath.get(path), fileAt: (path) => byFile.get(path) };
}

/** The index's pages of stored columns. */
export function indexPagesOf(objects: readonly unknown[], columns: IndexPageColumns): IndexedPageState[] {
  const { ints, shapes, others } = columns;
  if (ints.length !== columns.paths.length * INDEX_PAGE_INTS) throw new Error("index page columns of different lengths");
  const object = <T>(id: number): T => (id < 0 ? undefined : objects[id]) as T;
  const keys = new Map(columns.keys);
  return columns.paths.map((path, i) => {
    const n = i * INDEX_PAGE_INTS;
    const id = ints[n + 5] as number;
    const at = ints[n + 6] as number;
    const shape = id >= 0 ? shapes[at] : undefined;
    const variants = shape !== undefined ? [{ expanded: shape.expanded, id, sections: shape.sections, sectionIds: shape.sectionIds, sketch: shape.sketch, documents: shape.documents }] : others[at];
    if (variants === undefined) throw new Error("an index page's variants are missing");
    return {
      path,
      key: keys.get(i) ?? path,
      above: object(ints[n + 7] as number),
      complete: ints[n + 8] === 1,
      eager: ints[n + 9] as number,
      placement: object(ints[n] as number),
      conditions: object(ints[n + 1] as number),
      uses: object(ints[n + 2] as number),
      missing: object(ints[n + 3] as number),
      rule: ints[n + 4] as number,
      variants,
    };
  });
}
