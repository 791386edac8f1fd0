import { createHash, type Hash } from "node:crypto";
import { unlinkSync } from "node:fs";
import { NO_IGNORE_RULES, readBytesInsideRoot } from "../config/inside-root.js";
import { DefaultDeserializer, DefaultSerializer } from "node:v8";
import type { IndexedPageState, SearchIndexState } from "./search/search-index.js";
import type { StoredDocs } from "./site-cache-docs.js";
import type { FolderColumns } from "./site-cache-folders.js";
import { InlineArena } from "./inline-arena.js";

/**
 * The layout of a site cache file (`site-cache.ts` reads it, `site-cache-writer.ts` writes it):
 * `MAGIC`, the header's length and CRC-32, the header's seal (`SEAL_BYTES`, `CacheSeal`), the
 * header (V8-serialized), the body, then the large typed arrays (`RawArraysWriter`), each padded
 * to 8 bytes. The body and each array are checked by their `checksum`, which the header holds: the
 * seal over the header vouches for the whole file.
 *
 * The body is a V8 serializer's stream of several values: first the `Body` with its long arrays
 * left out (`Skeleton`), then each long array in runs of a few elements (`CHUNKED`). One value
 * at a time is what lets the writer give the thread back between runs: serializing a 25,000-page
 * site's body in one call held it for over a second. The serializer keeps object identity
 * across values, so the sections copies of a page share are still stored once.
 */

export const MAGIC = Buffer.from("SVCSITE\n", "latin1");
/** Bytes of the header's seal, after its length and CRC-32. */
export const SEAL_BYTES = 32;
/** Bump when the stored shape changes in a way the code fingerprint would not catch. */
export const FORMAT = 18;

export interface Header {
  readonly format: number;
  readonly code: string;
  readonly root: string;
  /** Repository-relative configuration files and the SHA-256 of their bytes ("" when missing). */
  readonly configs: readonly (readonly [string, string])[];
  readonly trustedBefore: number;
  readonly bodyBytes: number;
  /** The body's `checksum`. */
  readonly bodySum: string;
  /** The large typed arrays after the body (`RawArrays`): their kinds and lengths in bytes, and
   *  the `checksum` of each. */
  readonly raw: readonly (readonly [RawKind, number, string])[];
}

/**
 * The pages as stored, in columns: a page's texts by number in `Body.texts`, its meta, front
 * matter and access by number in `Body.objects`. Columns, not an object per page (and one per
 * its stat and access): V8's deserializer makes objects slowly, and reading 25,000 page records
 * as objects was the larger part of a warm start's read of the cache.
 */
export interface PageColumns {
  readonly rels: readonly string[];
  readonly paths: readonly string[];
  readonly titles: readonly string[];
  /** `PAGE_INTS` per page: text, where the body starts in the text (-1 when the body is
   *  `texts[body]`), body, meta, front matter, body line, access. */
  readonly ints: Int32Array;
  /** `PAGE_NUMBERS` per page: the file's size and time, then its stat's size, time, inode and change time. */
  readonly numbers: Float64Array;
  /** Pages whose stat's real path is not their own path: [page, real path]. */
  readonly reals: readonly (readonly [number, string])[];
}
export const PAGE_INTS = 7;
export const PAGE_NUMBERS = 6;

/**
 * The index's pages (`SearchIndexState.pages`) in columns, for the same reason. Nearly every
 * page has one variant whose sections, section ids and sketch are shared with the other copies
 * of its text: such a variant is its unit id and the number of that shared part in `shapes`;
 * any other page keeps its variants whole in `others`.
 */
export interface IndexPageColumns {
  readonly paths: readonly string[];
  /** Each page's key in the index where it is not its path (a page another file pushed aside). */
  readonly keys: readonly [number, string][];
  /** `INDEX_PAGE_INTS` per page: placement, conditions, uses and missing by number in
   *  `Body.objects` (-1: undefined), the access rule, the variant's unit id (or -1), and its
   *  number in `shapes` (or in `others`); then `above` by number in `Body.objects`, whether its
   *  variants are complete (1) and how many were made eagerly. */
  readonly ints: Int32Array;
  readonly shapes: readonly IndexedVariantShape[];
  readonly others: readonly (readonly IndexedVariant[])[];
}
export const INDEX_PAGE_INTS = 10;

export type IndexedVariant = IndexedPageState["variants"][number];
/** An indexed variant without its unit id: what copies of a text share. */
export type IndexedVariantShape = Omit<IndexedVariant, "id">;

export interface Body {
  /** Distinct page texts held as strings: text number `n` of the page columns for `n >= 0`. */
  readonly texts: readonly string[];
  /** Distinct page texts the load held as their UTF-8 bytes (`HeldText`): text number `-2 - k`
   *  is the `k`th, its bytes in `bytes` up to `ends[k]`. Stored as bytes, not strings: a mostly
   *  ASCII text with a dash or a quotation mark is a two-byte string, which V8's serializer
   *  writes two bytes a character (issue 22: ~1 GB of the 1.5 GB cache of 50,000 such pages,
   *  against ~0.5 GB of UTF-8), deflated (`site-cache-texts.ts`), and read back into shared
   *  memory the shell's snapshot uses in place. */
  readonly utf8: Utf8Texts;
  /** Values many pages share (meta, front matter, access, placements...), each once. */
  readonly objects: readonly unknown[];
  readonly pages: PageColumns;
  readonly index: Omit<SearchIndexState, "pages"> & { readonly pages: IndexPageColumns };
  /** docs.json as the load read it, when it could be read whole (`LoadedSite.docs`). */
  readonly docs?: StoredDocs;
  /** The folders the load listed (`LoadedSite.folders`). */
  readonly folders?: FolderColumns;
}

/** Texts as UTF-8 bytes one after another (`Body.utf8`): as they are, or deflated in pieces
 *  (`packTexts`) when the cache would otherwise be over its limit. */
export interface Utf8Texts {
  /** The bytes (written as a stand-in for a `ConcatBytes`, `RawArraysWriter.concat`): the texts'
   *  own when `pieces` is empty, else the deflated pieces one after another, each ending at
   *  `pieces[i]`. */
  readonly bytes: Uint8Array;
  readonly pieces: Int32Array;
  /** The texts' bytes, inflated. */
  readonly size: number;
  /** Per text, where its bytes end among them all. */
  readonly ends: Int32Array;
  /** Per text, where its body starts in it (in characters; its body is the text from there). */
  readonly bodyStarts: Int32Array;
}

/** Bytes written to a file as they were made (the deflated texts, `site-cache-spool.ts`), with
 *  their SHA-256 taken then: copied into the cache file when it is written. */
export interface SpooledBytes {
  readonly bytes: number;
  readonly sum: string;
  copyTo(write: (bytes: Uint8Array) => Promise<void>, step: () => Promise<void>): Promise<void>;
}

/**
 * Bytes stored as one raw array (`u8`) but held, when written, as the parts they are made of
 * (the texts' shared chunks), not copied into one more array of them all, or in a spool file
 * (the pieces of deflated texts: held in memory until written, they were ~100 MB at 50,000
 * distinct pages at the write's peak, and their making's garbage left the allocator's heap
 * fragmented, issue 22).
 */
export class ConcatBytes {
  readonly byteLength: number;
  constructor(readonly parts: readonly Uint8Array[] | SpooledBytes) {
    this.byteLength = Array.isArray(parts) ? parts.reduce((n: number, p: Uint8Array) => n + p.byteLength, 0) : (parts as SpooledBytes).bytes;
  }
}

/** Where in a `Body` the long arrays are: each is stored apart from the skeleton, in runs. */
export const CHUNKED: readonly (readonly string[])[] = [
  ["texts"],
  ["objects"],
  ["pages", "rels"],
  ["pages", "paths"],
  ["pages", "titles"],
  ["index", "pages", "paths"],
  ["index", "pages", "shapes"],
  ["index", "pages", "others"],
  ["index", "index", "entries"],
  ["index", "index", "pageUnits", "groups"],
  ["index", "vocabulary"],
  ["index", "sums"],
  ["index", "inputs"],
  ["docs", "navPages"],
  ["folders", "rels"],
  ["folders", "entries"],
];

/** The first value of a body: the `Body` with `null` where each chunked array was, and the
 *  length of each, in `CHUNKED` order (-1 for one left in place: not an array). */
export interface Skeleton {
  readonly body: unknown;
  readonly lengths: readonly number[];
}

/** A copy of `value` along each chunked path (the rest shared), with the arrays taken out. */
export function skeletonOf(value: Body): { skeleton: Skeleton; arrays: readonly (readonly unknown[])[] } {
  const root: Record<string, unknown> = { ...value };
  const arrays: (readonly unknown[])[] = [];
  const lengths = CHUNKED.map((path) => {
    let parent = root;
    for (const key of path.slice(0, -1)) {
      const child = parent[key];
      if (typeof child !== "object" || child === null) return -1;
      parent = parent[key] = { ...(child as Record<string, unknown>) };
    }
    const leaf = path[path.length - 1] as string;
    const array = parent[leaf];
    if (!Array.isArray(array)) return -1;
    parent[leaf] = null;
    arrays.push(array);
    return array.length;
  });
  return { skeleton: { body: root, lengths }, arrays };
}

/** Read a body written as `skeletonOf` splits it: the skeleton, then each array's runs. */
export function readBody(reader: DefaultDeserializer): Body {
  const { body, lengths } = reader.readValue() as Skeleton;
  CHUNKED.forEach((path, i) => {
    const length = lengths[i] as number;
    if (length < 0) return;
    const array: unknown[] = [];
    while (array.length < length) {
      const run = reader.readValue() as unknown[];
      if (!Array.isArray(run) || run.length === 0) throw new Error("a run is not an array");
      for (const item of run) array.push(item);
    }
    if (array.length !== length) throw new Error("runs longer than their array");
    let parent = body as Record<string, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    parent[path[path.length - 1] as string] = array;
  });
  return body as Body;
}

/** Typed arrays of this many bytes or more are stored after the body rather than in it. */
export const RAW_MIN_BYTES = 64 * 1024;
/**
 * What the body and each large array are checked by: SHA-256, which the CPU computes in hardware
 * where it can. zlib's CRC-32 took 4x as long (457 against 105 ms of CPU for a 25,000-page site's
 * 154 MB, Node 20), the larger part of reading a cache. It finds damage, not forgery: a cache is
 * trusted only from a file and folder no one else may write (`site-cache.ts`).
 */
export function checksum(): Hash {
  return createHash("sha256");
}

export const PADDING = new Uint8Array(8);
export type RawArray = Int32Array | Uint32Array | Float64Array | Uint8Array;
export type RawKind = "i32" | "u32" | "f64" | "u8";

/** Bytes rounded up to 8: each raw array starts where a `Float64Array` may. */
export function padded(bytes: number): number {
  return Math.ceil(bytes / 8) * 8;
}

export function rawKind(a: RawArray | ConcatBytes): RawKind {
  if (a instanceof ConcatBytes) return "u8";
  return a instanceof Int32Array ? "i32" : a instanceof Uint32Array ? "u32" : a instanceof Float64Array ? "f64" : "u8";
}

/**
 * A new array of a raw array's kind and size, or undefined for a kind or size no writer makes.
 * `shared`: in shared memory, which another thread reads the file into (`startSums`).
 */
export function rawArray(kind: RawKind, bytes: number, shared = false): RawArray | undefined {
  const unit = kind === "f64" ? 8 : kind === "u8" ? 1 : 4;
  if (!Number.isInteger(bytes) || bytes < 0 || bytes % unit !== 0) return undefined;
  // Memory not zeroed first: the file's bytes are read over all of it (or the cache is rejected);
  // shared memory comes zeroed from the system, page by page as it is first written.
  // Bytes (the texts, `Utf8Texts`) are read into shared memory: the shell's snapshot then refers
  // to them in place instead of copying them (`SharedSnapshot`).
  const memory = shared || kind === "u8" ? new SharedArrayBuffer(bytes) : Buffer.allocUnsafeSlow(bytes).buffer;
  switch (kind) {
    case "i32":
      return new Int32Array(memory, 0, bytes / 4);
    case "u32":
      return new Uint32Array(memory, 0, bytes / 4);
    case "f64":
      return new Float64Array(memory, 0, bytes / 8);
    case "u8":
      return new Uint8Array(memory, 0, bytes);
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
export class RawArraysWriter extends DefaultSerializer {
  readonly raw: (RawArray | ConcatBytes)[] = [];
  private readonly concats = new Map<Uint8Array, ConcatBytes>();

  /** What to put in a value where `bytes` are to be stored (as one raw array): V8's serializer
   *  hands this writer typed arrays only, not objects of other classes. */
  concat(bytes: ConcatBytes): Uint8Array {
    const stand = new Uint8Array(0);
    this.concats.set(stand, bytes);
    return stand;
  }

  _writeHostObject(value: unknown): void {
    const concat = value instanceof Uint8Array ? this.concats.get(value) : undefined;
    if (concat !== undefined) {
      this.writeUint32(RAW);
      this.writeUint32(this.raw.length);
      this.raw.push(concat);
      return;
    }
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

/**
 * The body's reader. A typed array stored inline (under `RAW_MIN_BYTES`) is copied out of the
 * body into `InlineArena`'s blocks: V8's deserializer makes it a view of the body's own buffer,
 * and one such view kept by the index (a page's section columns) kept the whole body alive, every
 * string and object of it already decoded (issue 22: 35.5 MB held for 4.2 MB of arrays at 10,000
 * pages, in every worker of `serve --workers` and every warm start).
 */
export class RawArraysReader extends DefaultDeserializer {
  private readonly arena = new InlineArena();

  constructor(
    body: Buffer,
    private readonly raw: readonly RawArray[],
  ) {
    super(body);
  }

  _readHostObject(): unknown {
    if (this.readUint32() === INLINE) return this.arena.copy((DefaultDeserializer.prototype as unknown as { _readHostObject(this: DefaultDeserializer): ArrayBufferView })._readHostObject.call(this));
    const array = this.raw[this.readUint32()];
    if (array === undefined) throw new Error("no such raw array");
    return array;
  }
}

/** What the cache records for a configuration file that is there but cannot be read: `hashOf`
 *  never gives it, so a cache written then is never taken (the load says what is wrong). */
export const UNREADABLE_HASH = "unreadable";

/**
 * SHA-256 of a repository file's bytes, "" when nothing is there, undefined when something is
 * there that cannot be read (a pipe, a device, a folder, a link out of the root, no permission).
 * Read as every file under the root is (`readBytesInsideRoot`): a plain read waited forever on a
 * pipe at `.svcignore` or docs.json and followed a link out of the root (issue 25). Undefined
 * equals no recorded hash, so the cache is not taken and the load refuses the file as it would
 * without a cache.
 */
export function hashOf(root: string, rel: string): string | undefined {
  const read = readBytesInsideRoot(root, rel, { ignore: NO_IGNORE_RULES });
  if (read.ok) return createHash("sha256").update(read.bytes).digest("hex");
  return read.reason === "missing" ? "" : undefined;
}

export function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone, or another process removed it.
  }
}
