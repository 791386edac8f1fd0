import { createHash, randomBytes } from "node:crypto";
import { chmodSync, closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, realpathSync, renameSync, statSync, unlinkSync, utimesSync, writeSync } from "node:fs";
import { join } from "node:path";
import { DefaultDeserializer, DefaultSerializer, deserialize, serialize } from "node:v8";
import { crc32 } from "node:zlib";
import type { FrontMatterData } from "../config/frontmatter.js";
import type { PageMeta } from "../config/page-meta.js";
import { LIMITS } from "../limits.js";
import { codeFingerprint } from "../store/code-fingerprint.js";
import type { Access } from "../vfs/access.js";
import type { KnownPages, LoadedSite, PageStat } from "../vfs/load-site.js";
import type { Page } from "../vfs/page.js";
import type { SiteFile } from "../vfs/site-file.js";
import type { SearchIndexState } from "./search/search-index.js";

/**
 * The persistent cache of a large site (issue 22): its parsed pages and its built search index,
 * in one file per docs folder under the user's cache folder (`resolveCacheDir`, never inside
 * the docs), so that a second start of an unchanged site reads one file and stats its pages
 * instead of reading, parsing and indexing them all.
 *
 * The file is `MAGIC`, a header (its length and CRC-32 first) and a body. The header says which
 * code wrote it (`codeFingerprint`), for which folder, the SHA-256 of each configuration file the
 * load read (docs.json, ignore files, specs), and the body's length and CRC-32; a file whose
 * header does not match is stale, one whose checksums do not is corrupt: either is rebuilt, with a
 * line on the log, and never served. The body holds each distinct file text once (a versioned
 * site's copies share it), the pages parsed from them with the size, time and inode their file
 * was read with (`KnownPages`), and the index's state (`SearchIndex.state`).
 */

const MAGIC = Buffer.from("SVCSITE\n", "latin1");
/** Bump when the stored shape changes in a way the code fingerprint would not catch. */
const FORMAT = 5;
/** A file changed less than this before the load that read it may change again within the
 *  same timestamp (coarse file systems count in seconds): its text is compared (`KnownPages`). */
const RACY_MS = 2_000;

interface Header {
  readonly format: number;
  readonly code: string;
  readonly root: string;
  /** Repository-relative configuration files and the SHA-256 of their bytes ("" when missing). */
  readonly configs: readonly (readonly [string, string])[];
  readonly trustedBefore: number;
  readonly bodyBytes: number;
  readonly bodyCrc: number;
  /** The large typed arrays after the body (`RawArrays`): their kinds and lengths in bytes, and
   *  the CRC-32 of each. */
  readonly raw: readonly (readonly [RawKind, number, number])[];
}

/** A page as stored: its texts by number in `Body.texts`. */
interface PageRecord {
  readonly rel: string;
  readonly stat: PageStat;
  readonly text: number;
  /** Where the body starts in the text, or -1 when the body is `Body.texts[body]`. */
  readonly bodyStart: number;
  readonly body: number;
  readonly path: string;
  readonly title: string;
  /** Its meta and front matter by number in `Body.objects`: copies of a page share them. */
  readonly meta: number;
  readonly frontMatter: number;
  readonly bodyLine: number;
  readonly access: Access;
  readonly size: number;
  readonly mtimeMs: number;
}

interface Body {
  readonly texts: readonly string[];
  readonly objects: readonly (PageMeta | FrontMatterData)[];
  readonly pages: readonly PageRecord[];
  readonly index: SearchIndexState;
}

/** What a start takes from the cache. */
export interface CachedSite {
  /** For the site load: pages reused when their file is unchanged. */
  readonly known: KnownPages;
  /** For the search index (`SearchIndex.restore`). */
  readonly index: SearchIndexState;
  pageAt(path: string): Page | undefined;
  fileAt(path: string): SiteFile | undefined;
}

export interface SiteCacheOptions {
  /** The cache folder (`resolveCacheDir`); the site's file is in `sites/` under it. */
  readonly dir: string;
  /** The docs folder. */
  readonly root: string;
  /** Where stale, corrupt and unwritable caches are told. */
  readonly log: (message: string) => void;
  /** Largest file written (default `LIMITS.cache.maxSiteBytes`). */
  readonly maxBytes?: number;
  /** Budget of all sites' files (default `LIMITS.cache.sitesMaxBytes`): the least recently used go. */
  readonly folderBytes?: number;
  /** The code's fingerprint (default `codeFingerprint()`; tests stand in another version). */
  readonly code?: () => string;
}

/** The cache of one docs folder. */
export class SiteCache {
  /** The site's cache file. */
  readonly file: string;
  private readonly folder: string;
  private readonly root: string;

  constructor(private readonly options: SiteCacheOptions) {
    let root = options.root;
    try {
      root = realpathSync(root);
    } catch {
      // A folder that cannot be resolved is loaded by its name; cached by it too.
    }
    this.root = root;
    this.folder = join(options.dir, "sites");
    // One file per folder and code version: two installed versions serving one folder (an editor's
    // and a terminal's) each keep theirs instead of finding the other's stale at every start. A
    // code that cannot be fingerprinted writes no cache (`write` says so).
    let code = "";
    try {
      code = (options.code ?? codeFingerprint)();
    } catch {
      // Said when writing.
    }
    this.file = join(this.folder, `${createHash("sha256").update(root).update("\u0000").update(code).digest("hex").slice(0, 32)}.bin`);
  }

  /**
   * The cached site, or undefined: none yet (said nothing), or stale or corrupt (said on the log,
   * and the file removed so that the next write starts clean).
   */
  read(): CachedSite | undefined {
    let fd: number;
    try {
      fd = openSync(this.file, "r");
    } catch {
      return undefined;
    }
    let found: CachedSite | string;
    try {
      found = this.decode(fd);
    } catch (error) {
      found = `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    } finally {
      closeSync(fd);
    }
    if (typeof found === "string") {
      this.options.log(`search cache ${this.file} ${found}: reading and indexing the site again`);
      removeQuietly(this.file);
      return undefined;
    }
    try {
      const now = new Date();
      utimesSync(this.file, now, now); // recency, for eviction
    } catch {
      // A read-only cache still serves.
    }
    return found;
  }

  /** The cached site in an open cache file, or what is wrong with it. */
  private decode(fd: number): CachedSite | string {
    const st = fstatSync(fd);
    const size = st.size;
    // A file or folder others may write could hold a forged cache (a CRC is no signature): only
    // a file of this user, in a folder only this user may write, is trusted.
    if (!ownedPrivately(st) || !ownedPrivately(statSync(this.folder))) return "is not private to this user (another user could have written it)";
    const start = readExactly(fd, MAGIC.length + 8, 0);
    if (start === undefined || !start.subarray(0, MAGIC.length).equals(MAGIC)) return "is not a cache file";
    const headerStart = MAGIC.length + 8;
    const headerBytes = start.readUInt32LE(MAGIC.length);
    const headerRead = headerStart + headerBytes <= size ? readExactly(fd, headerBytes, headerStart) : undefined;
    if (headerRead === undefined || crc32(headerRead) !== start.readUInt32LE(MAGIC.length + 4)) return "is corrupt (header checksum)";
    let header: Header;
    try {
      header = deserialize(headerRead) as Header;
    } catch {
      return "is corrupt (header)";
    }
    let code: string;
    try {
      code = (this.options.code ?? codeFingerprint)();
    } catch (error) {
      return `cannot be checked (${(error as Error).message})`;
    }
    if (header.format !== FORMAT || header.code !== code) return "was written by another version of svc-mcp";
    if (header.root !== this.root) return "is another folder's";
    for (const [rel, hash] of header.configs) if (hashOf(this.root, rel) !== hash) return `is out of date (${rel} changed)`;
    let at = headerStart + headerBytes;
    const expected = at + header.bodyBytes + header.raw.reduce((sum, [, bytes]) => sum + padded(bytes), 0);
    if (size !== expected) return `is corrupt (${size} of ${expected} bytes)`;
    const body = readExactly(fd, header.bodyBytes, at);
    if (body === undefined || crc32(body) !== header.bodyCrc) return "is corrupt (checksum)";
    at += header.bodyBytes;
    // Each large array is read straight into its own memory: no copy, and no buffer of the whole file.
    const raw: RawArray[] = [];
    for (const [kind, bytes, crc] of header.raw) {
      const array = rawArray(kind, bytes);
      if (array === undefined) return "is corrupt (raw arrays)";
      const view = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      if (!readInto(fd, view, at) || crc32(view) !== crc) return "is corrupt (checksum)";
      raw.push(array);
      at += padded(bytes);
    }
    let stored: Body;
    try {
      const reader = new RawArraysReader(body, raw);
      reader.readHeader();
      stored = reader.readValue() as Body;
    } catch {
      return "is corrupt (body)";
    }
    return site(stored, header.trustedBefore);
  }

  /**
   * Write the site as loaded and indexed (the index's `state()` of that very site), replacing the
   * file whole (temp file, then rename; 0600 in a 0700 folder). Skipped, with a line on the log,
   * when it would pass `maxBytes` or cannot be written; either way the server goes on.
   * `loadStarted` is when the load that read the pages began (`Date.now()`).
   */
  write(loaded: LoadedSite, index: SearchIndexState, loadStarted: number, configs: Iterable<string>): void {
    const texts: string[] = [];
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
    // Equal objects (by their serialized form, which tells a date from its text) are kept once.
    const objects: (PageMeta | FrontMatterData)[] = [];
    const objectIds = new Map<string, number>();
    // Copies of one text share their parse (`ParsedTexts`): the same object is serialized once.
    const sameObject = new Map<PageMeta | FrontMatterData, number>();
    const objectId = (value: PageMeta | FrontMatterData): number => {
      let id = sameObject.get(value);
      if (id !== undefined) return id;
      const key = serialize(value).toString("latin1");
      id = objectIds.get(key);
      if (id === undefined) {
        id = objects.length;
        objects.push(value);
        objectIds.set(key, id);
      }
      sameObject.set(value, id);
      return id;
    };
    const pages: PageRecord[] = [];
    for (const shown of loaded.site.pages.values()) {
      // A page shown with an operation is kept as read: the load makes the shown page again.
      const page = shown.authored ?? shown;
      if (page.generated) continue;
      const rel = page.file.path.slice(1);
      const stat = loaded.pageStats?.get(rel);
      if (stat === undefined) continue;
      const text = page.file.text;
      const suffix = text.endsWith(page.body);
      pages.push({
        rel,
        stat,
        text: textId(text),
        bodyStart: suffix ? text.length - page.body.length : -1,
        body: suffix ? -1 : textId(page.body),
        path: page.path,
        title: page.title,
        meta: objectId(page.meta),
        frontMatter: objectId(page.frontMatter),
        bodyLine: page.bodyLine,
        access: page.file.access,
        size: page.file.size,
        mtimeMs: page.file.mtime.getTime(),
      });
    }
    let code: string;
    try {
      code = (this.options.code ?? codeFingerprint)();
    } catch (error) {
      this.options.log(`search cache not written: cannot fingerprint the code (${(error as Error).message})`);
      return;
    }
    const maxBytes = this.options.maxBytes ?? LIMITS.cache.maxSiteBytes;
    // The texts (a byte a character at least) and the posting pools alone: a cache that cannot
    // fit is not serialized to find out (at 50,000 distinct pages, 10 s of the thread and 1.3 GB).
    const least = texts.reduce((sum, t) => sum + t.length, 0) + Object.values(index.index.pools).reduce((sum, pool) => sum + pool.ids.byteLength + pool.values.byteLength, 0);
    if (least > maxBytes) {
      this.options.log(`search cache not written: over ${least} bytes is over its ${maxBytes}-byte limit`);
      return;
    }
    const writer = new RawArraysWriter();
    writer.writeHeader();
    writer.writeValue({ texts, objects, pages, index } satisfies Body);
    const body = writer.releaseBuffer();
    const raw = writer.raw.map((a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    const total = body.length + raw.reduce((sum, r) => sum + padded(r.length), 0);
    if (total > maxBytes) {
      this.options.log(`search cache not written: ${total} bytes is over its ${maxBytes}-byte limit`);
      return;
    }
    const header = serialize({
      format: FORMAT,
      code,
      root: this.root,
      configs: [...new Set(configs)].sort().map((rel) => [rel, hashOf(this.root, rel)] as const),
      trustedBefore: loadStarted - RACY_MS,
      bodyBytes: body.length,
      bodyCrc: crc32(body),
      raw: writer.raw.map((a, i) => [rawKind(a), a.byteLength, crc32(raw[i] as Uint8Array)] as const),
    } satisfies Header);
    const lengths = Buffer.alloc(8);
    lengths.writeUInt32LE(header.length, 0);
    lengths.writeUInt32LE(crc32(header), 4);
    const tmp = join(this.folder, `.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    try {
      mkdirSync(this.folder, { recursive: true, mode: 0o700 });
      // A folder made before (by hand, or with another umask) is made private too: a cache is read only from one.
      chmodSync(this.folder, 0o700);
      // Part by part: joining them first copied the whole body once more (a second at 25,000 pages).
      const fd = openSync(tmp, "wx", 0o600);
      try {
        for (const part of [MAGIC, lengths, header, body]) writeAll(fd, part);
        for (const r of raw) {
          writeAll(fd, r);
          writeAll(fd, PADDING.subarray(0, padded(r.length) - r.length));
        }
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
    } catch (error) {
      removeQuietly(tmp);
      this.options.log(`search cache ${this.folder} is not writable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): a large site is indexed at every start`);
      return;
    }
    evict(this.folder, this.options.folderBytes ?? LIMITS.cache.sitesMaxBytes, this.file);
  }
}

/** Whether a file or folder belongs to this process's user and no one else may write it. */
function ownedPrivately(st: { readonly uid: number; readonly mode: number }): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
}

/** Typed arrays of this many bytes or more are stored after the body rather than in it. */
const RAW_MIN_BYTES = 64 * 1024;
const PADDING = new Uint8Array(8);
type RawArray = Int32Array | Uint32Array | Float64Array | Uint8Array;
type RawKind = "i32" | "u32" | "f64" | "u8";

/** Bytes rounded up to 8: each raw array starts where a `Float64Array` may. */
function padded(bytes: number): number {
  return Math.ceil(bytes / 8) * 8;
}

function rawKind(a: RawArray): RawKind {
  return a instanceof Int32Array ? "i32" : a instanceof Uint32Array ? "u32" : a instanceof Float64Array ? "f64" : "u8";
}

/** A new array of a raw array's kind and size, or undefined for a kind or size no writer makes. */
function rawArray(kind: RawKind, bytes: number): RawArray | undefined {
  const unit = kind === "f64" ? 8 : kind === "u8" ? 1 : 4;
  if (!Number.isInteger(bytes) || bytes < 0 || bytes % unit !== 0) return undefined;
  switch (kind) {
    case "i32":
      return new Int32Array(bytes / 4);
    case "u32":
      return new Uint32Array(bytes / 4);
    case "f64":
      return new Float64Array(bytes / 8);
    case "u8":
      return new Uint8Array(bytes);
    default:
      return undefined;
  }
}

/** Tags before a typed array in the body: inline (V8's own form), or a raw array's number. */
const INLINE = 0;
const RAW = 1;

/** The body's serializer: the posting pools and other large typed arrays (most of the bytes) go
 *  after the body, so that reading them is a read into their own memory, not a copy out of a
 *  buffer of the whole file. */
class RawArraysWriter extends DefaultSerializer {
  readonly raw: RawArray[] = [];

  _writeHostObject(value: unknown): void {
    if ((value instanceof Int32Array || value instanceof Uint32Array || value instanceof Float64Array || value instanceof Uint8Array) && value.byteLength >= RAW_MIN_BYTES && !(value instanceof Buffer)) {
      this.writeUint32(RAW);
      this.writeUint32(this.raw.length);
      this.raw.push(value);
      return;
    }
    this.writeUint32(INLINE);
    (DefaultSerializer.prototype as unknown as { _writeHostObject(this: DefaultSerializer, value: unknown): void })._writeHostObject.call(this, value);
  }
}

class RawArraysReader extends DefaultDeserializer {
  constructor(
    body: Buffer,
    private readonly raw: readonly RawArray[],
  ) {
    super(body);
  }

  _readHostObject(): unknown {
    if (this.readUint32() === INLINE) return (DefaultDeserializer.prototype as unknown as { _readHostObject(this: DefaultDeserializer): unknown })._readHostObject.call(this);
    const array = this.raw[this.readUint32()];
    if (array === undefined) throw new Error("no such raw array");
    return array;
  }
}

/** `length` bytes of a file from `position`, or undefined when the file ends first. */
function readExactly(fd: number, length: number, position: number): Buffer | undefined {
  const out = Buffer.allocUnsafe(length);
  return readInto(fd, out, position) ? out : undefined;
}

function readInto(fd: number, into: Uint8Array, position: number): boolean {
  for (let at = 0; at < into.length; ) {
    const n = readSync(fd, into, at, into.length - at, position + at);
    if (n === 0) return false;
    at += n;
  }
  return true;
}

/** The pages of a stored body, their texts shared, and the lookups a start needs. */
function site(stored: Body, trustedBefore: number): CachedSite {
  const byRel = new Map<string, { page: Page; stat: PageStat }>();
  const byPath = new Map<string, Page>();
  const byFile = new Map<string, SiteFile>();
  for (const r of stored.pages) {
    const text = stored.texts[r.text] as string;
    const file: SiteFile = { path: `/${r.rel}`, text, size: r.size, mtime: new Date(r.mtimeMs), access: r.access };
    const page: Page = {
      file,
      path: r.path,
      title: r.title,
      meta: stored.objects[r.meta] as PageMeta,
      frontMatter: stored.objects[r.frontMatter] as FrontMatterData,
      // A slice shares the text's characters: a copy's body costs no memory of its own.
      body: r.bodyStart >= 0 ? text.slice(r.bodyStart) : (stored.texts[r.body] as string),
      bodyLine: r.bodyLine,
      generated: false,
    };
    byRel.set(r.rel, { page, stat: r.stat });
    byPath.set(r.path, page);
    byFile.set(file.path, file);
  }
  return {
    known: { get: (rel) => byRel.get(rel), trustedBefore },
    index: stored.index,
    pageAt: (path) => byPath.get(path),
    fileAt: (path) => byFile.get(path),
  };
}

/** SHA-256 of a repository file's bytes, "" when it cannot be read. */
function hashOf(root: string, rel: string): string {
  try {
    return createHash("sha256").update(readFileSync(join(root, rel))).digest("hex");
  } catch {
    return "";
  }
}

/** A temp file this old is a write that never finished (its process was killed while writing). */
const ABANDONED_MS = 600_000;

/**
 * Remove the least recently used sites' files until the folder is within its budget, and temp
 * files of writes that never finished.
 */
function evict(folder: string, maxBytes: number, keep: string): void {
  let entries: { file: string; size: number; used: number }[];
  try {
    const names = readdirSync(folder);
    for (const name of names.filter((n) => n.endsWith(".tmp"))) {
      try {
        if (statSync(join(folder, name)).mtimeMs < Date.now() - ABANDONED_MS) removeQuietly(join(folder, name));
      } catch {
        // Renamed or removed meanwhile by the process writing it.
      }
    }
    entries = names
      .filter((name) => name.endsWith(".bin"))
      .map((name) => {
        const st = statSync(join(folder, name));
        return { file: join(folder, name), size: st.size, used: st.mtimeMs };
      });
  } catch {
    return;
  }
  let total = entries.reduce((sum, e) => sum + e.size, 0);
  entries.sort((a, b) => a.used - b.used);
  for (const e of entries) {
    if (total <= maxBytes) break;
    if (e.file === keep) continue;
    removeQuietly(e.file);
    total -= e.size;
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone, or another process removed it.
  }
}
