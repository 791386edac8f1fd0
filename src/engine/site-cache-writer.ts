import { randomBytes } from "node:crypto";
import { chmodSync, readdirSync, statSync } from "node:fs";
import { mkdir, open, rename } from "node:fs/promises";
import { join } from "node:path";
import { serialize } from "node:v8";
import { crc32 } from "node:zlib";
import type { PagePlacement } from "../config/site-config.js";
import type { LoadedSite } from "../vfs/load-site.js";
import type { SearchIndexState } from "./search/search-index.js";
import { indexPageColumns, pageColumns, SharedObjects } from "./site-cache-columns.js";
import { storedDocs } from "./site-cache-docs.js";
import { folderColumns } from "./site-cache-folders.js";
import type { CacheSeal } from "../store/cache-key.js";
import { type Body, checksum, ConcatBytes, FORMAT, hashOf, type Header, MAGIC, PADDING, padded, RAW_MIN_BYTES, RawArraysWriter, rawKind, removeQuietly, skeletonOf, type SpooledBytes, UNREADABLE_HASH } from "./site-cache-format.js";
import { WIDE } from "../vfs/stored-text.js";
import { packTexts } from "./site-cache-texts.js";
import { BodySpool } from "./site-cache-spool.js";

/**
 * Writing a site's cache file (`site-cache.ts`) without holding the thread: the page records,
 * the serialized body and the checksums are made in slices of `sliceMs`, the thread given back
 * between them (searches and shell commands that came meanwhile are answered), and the file is
 * written with asynchronous writes. The file is written whole to a temp file, then renamed over
 * the old one: a process killed while writing leaves the old file (or none) and a temp file,
 * never a part of a file under the cache's name. A write whose site changed before it ended
 * (`current` false: a reload replaced it, and its index changes in place) is dropped.
 */

/** A cache write under way. */
export interface CacheWrite {
  /** Resolves when it ended: true when the file was written, false when not (said on the log,
   *  except for a write dropped because its site was replaced). Never rejects. */
  readonly done: Promise<boolean>;
  /** Stop giving the thread back (the process is ending): the rest is done at once. */
  hurry(): void;
}

export interface CacheWriteJob {
  readonly file: string;
  readonly folder: string;
  readonly root: string;
  readonly code: string;
  /** Seals the header (`site-cache-format.ts`). */
  readonly seal: CacheSeal;
  readonly loaded: LoadedSite;
  readonly index: SearchIndexState;
  /** Files the load finds unchanged when unchanged since before this time (`Header.trustedBefore`). */
  readonly trustedBefore: number;
  readonly configs: Iterable<string>;
  readonly maxBytes: number;
  readonly folderBytes: number;
  readonly log: (message: string) => void;
  /** False once the site written is no longer the one served: the write is dropped. */
  readonly current: () => boolean;
  /** How long a slice may hold the thread (0: give it back after every step). */
  readonly sliceMs: number;
  /** How the thread is given back between slices (`phase` names what the write is doing). */
  readonly yieldTurn: (phase: WritePhase) => Promise<void>;
}

/** What a write is doing when it gives the thread back. */
export type WritePhase = "pages" | "body" | "checksums" | "file";

/** The write was dropped: its site was replaced. */
class Dropped extends Error {}

/** The write was given up, with the log line that says why. */
class NotWritten extends Error {}

/** Array elements per serialized run: a few milliseconds at most. */
const ITEMS_PER_RUN = 64;
/** Runs per part of the body taken from the serializer. */
const RUNS_PER_PART = 64;
/** Bytes of a raw array checksummed, or copied and written, per step. */
const RAW_PIECE_BYTES = 4 * 1024 * 1024;
/** The share of its limit a cache may take at least with its texts stored undeflated: the rest
 *  (what is not counted before serializing) is room for the body. */
const RAW_TEXTS_SHARE = 0.75;

/** Start writing a site's cache file (see the file comment). */
export function startCacheWrite(job: CacheWriteJob): CacheWrite {
  let hurried = false;
  let sliceStart = performance.now();
  const step = async (phase: WritePhase): Promise<void> => {
    if (!job.current()) throw new Dropped();
    if (hurried || performance.now() - sliceStart < job.sliceMs) return;
    await job.yieldTurn(phase);
    if (!job.current()) throw new Dropped();
    sliceStart = performance.now();
  };
  const done = write(job, step).then(
    () => true,
    (error: unknown) => {
      if (error instanceof NotWritten) job.log(error.message);
      else if (!(error instanceof Dropped)) job.log(`search cache not written: ${(error as Error).message}`);
      return false;
    },
  );
  return {
    done,
    hurry: () => {
      hurried = true;
    },
  };
}

async function write(job: CacheWriteJob, step: (phase: WritePhase) => Promise<void>): Promise<void> {
  const { index, maxBytes } = job;
  const shared = new SharedObjects();
  // The posting pools alone may be over the limit (50,000 distinct pages): refused before the
  // columns read every text (held as bytes, `held-text.ts`, they are read into strings again).
  const pools = Object.values(index.index.pools).reduce((sum, pool) => sum + pool.ids.byteLength + pool.values.byteLength, 0);
  if (pools > maxBytes) throw new NotWritten(`search cache not written: over ${pools} bytes is over its ${maxBytes}-byte limit`);
  const { texts, utf8, pages } = await pageColumns(job.loaded, shared, () => step("pages"));
  const indexPages = await indexPageColumns(index.pages, shared, () => step("pages"));
  // What the file takes at least: the texts (as the serializer writes a string: a byte a
  // character, two for a string with a character past Latin-1; those held as UTF-8 deflated,
  // `packTexts`) and the index's large arrays. A cache that cannot fit is not serialized to find
  // out: at 50,000 distinct pages that was 10 s of the thread, and the serialized body held
  // until refused took the process from 2.6 to 4.3 GB (issue 22).
  // The texts are stored as they are when that fits with room to spare (a start then reads them
  // with no work), deflated when it does not.
  const size = utf8.ends.length > 0 ? (utf8.ends[utf8.ends.length - 1] as number) : 0;
  let least = 0;
  for (const t of texts) least += WIDE.test(t) ? 2 * t.length : t.length;
  // (Not its pages: their arrays are small, and they are 50,000 objects to walk.)
  least += rawBytesOf({ index: index.index, repeated: index.repeated, priors: index.priors });
  const deflated = least + size > maxBytes * RAW_TEXTS_SHARE;
  // The body, and the texts when deflated, go to spool files as they are made, not into memory
  // (`BodySpool`): the folder is made first.
  const spools: BodySpool[] = [];
  const spool = async (): Promise<BodySpool> => {
    const made = await unwritable(job, async () => {
      await mkdir(job.folder, { recursive: true, mode: 0o700 });
      // A folder made before (by hand, or with another umask) is made private too: a cache is read only from one.
      chmodSync(job.folder, 0o700);
      return BodySpool.open(job.folder);
    });
    spools.push(made);
    return made;
  };
  try {
    const packed = deflated ? await spooledTexts(job, utf8.parts, await spool(), () => step("pages")) : { bytes: new ConcatBytes(utf8.parts), ends: new Int32Array(0) };
    least += packed.ends.length > 0 ? (packed.ends[packed.ends.length - 1] as number) : size;
    if (least > maxBytes) throw new NotWritten(`search cache not written: over ${least} bytes is over its ${maxBytes}-byte limit`);
    await writeSpooled(job, step, await spool(), { texts, utf8, pages, indexPages, packed, size, shared });
  } finally {
    for (const s of spools) await s.close();
  }
  evict(job.folder, job.folderBytes, job.file);
}

/** The texts deflated (`packTexts`) into `spool` as each piece is made, their checksum taken
 *  as they go: the stand-in for them in the body, and where each piece ends. */
async function spooledTexts(job: CacheWriteJob, parts: readonly Uint8Array[], spool: BodySpool, step: () => Promise<void>): Promise<{ bytes: ConcatBytes; ends: Int32Array }> {
  const hash = checksum();
  const { ends } = await packTexts(parts, step, async (piece) => {
    hash.update(piece);
    await unwritable(job, () => spool.append(piece));
  });
  const sum = hash.digest("hex");
  return { bytes: new ConcatBytes({ bytes: spool.bytes, sum, copyTo: (write, between) => spool.copyTo(write, between) }), ends };
}

/** What `write` made before the body: the page columns and the texts as stored. */
interface Made {
  readonly texts: string[];
  readonly utf8: { parts: Uint8Array[]; ends: Int32Array; bodyStarts: Int32Array };
  readonly pages: Awaited<ReturnType<typeof pageColumns>>["pages"];
  readonly indexPages: Awaited<ReturnType<typeof indexPageColumns>>;
  readonly packed: { bytes: ConcatBytes; ends: Int32Array };
  readonly size: number;
  readonly shared: SharedObjects;
}

/** `fn`'s result; an I/O error in it is the folder not writable (said so, as `write` says it). */
async function unwritable<T>(job: CacheWriteJob, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof Dropped || error instanceof NotWritten) throw error;
    throw new NotWritten(`search cache ${job.folder} is not writable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): a large site is indexed at every start`);
  }
}

/** Serialize the body into `spool`, then write the file: header, body, raw arrays. */
async function writeSpooled(job: CacheWriteJob, step: (phase: WritePhase) => Promise<void>, spool: BodySpool, made: Made): Promise<void> {
  const { index, maxBytes } = job;
  const { texts, utf8, pages, indexPages, packed, size, shared } = made;
  const writer = new RawArraysWriter();
  writer.writeHeader();
  // Equal placements stored as one object, the one the index's pages use (`Body.objects`, written first).
  const docs = job.loaded.docs !== undefined ? { docs: storedDocs(job.loaded.docs, job.loaded.site.root, (p) => shared.objects[shared.id(p, true)] as PagePlacement) } : {};
  const folders = job.loaded.folders !== undefined ? { folders: folderColumns(job.loaded.folders) } : {};
  const stored = { bytes: writer.concat(packed.bytes), pieces: packed.ends, size, ends: utf8.ends, bodyStarts: utf8.bodyStarts };
  const { skeleton, arrays } = skeletonOf({ texts, utf8: stored, objects: shared.objects, pages, index: { ...index, pages: indexPages }, ...docs, ...folders } satisfies Body);
  writer.writeValue(skeleton);
  let bodyBytes = 0;
  const bodyHash = checksum();
  const flush = async (): Promise<void> => {
    const part = writer.releaseBuffer();
    if (part.length === 0) return;
    bodyBytes += part.length;
    bodyHash.update(part);
    await unwritable(job, () => spool.append(part));
  };
  let runs = 0;
  for (const array of arrays) {
    for (let at = 0; at < array.length; at += ITEMS_PER_RUN) {
      writer.writeValue(array.slice(at, at + ITEMS_PER_RUN));
      // The serializer's buffer is taken every few runs, not after each: thousands of small
      // buffers grown by reallocation left the allocator's heap fragmented (the process's
      // memory grew by 300 MB at 25,000 pages, where one growing buffer's did not).
      if (++runs % RUNS_PER_PART === 0) await flush();
      if (bodyBytes > maxBytes) throw new NotWritten(`search cache not written: over ${bodyBytes} bytes is over its ${maxBytes}-byte limit`);
      await step("body");
    }
  }
  await flush();
  // Each raw array as the bytes it is written from: one view, the parts of a `ConcatBytes`, or its spool.
  const raw = writer.raw.map((a) => (a instanceof ConcatBytes ? a.parts : [new Uint8Array(a.buffer, a.byteOffset, a.byteLength)]));
  const total = bodyBytes + writer.raw.reduce((sum, r) => sum + padded(r.byteLength), 0);
  if (total > maxBytes) throw new NotWritten(`search cache not written: ${total} bytes is over its ${maxBytes}-byte limit`);
  const rawSums: string[] = [];
  for (const parts of raw) {
    if (!Array.isArray(parts)) {
      rawSums.push((parts as SpooledBytes).sum);
      continue;
    }
    const hash = checksum();
    for (const r of parts) {
      for (let at = 0; at < r.length; at += RAW_PIECE_BYTES) {
        hash.update(r.subarray(at, at + RAW_PIECE_BYTES));
        await step("checksums");
      }
    }
    rawSums.push(hash.digest("hex"));
  }
  const header = serialize({
    format: FORMAT,
    code: job.code,
    root: job.root,
    configs: [...new Set(job.configs)].sort().map((rel) => [rel, hashOf(job.root, rel) ?? UNREADABLE_HASH] as const),
    trustedBefore: job.trustedBefore,
    bodyBytes,
    bodySum: bodyHash.digest("hex"),
    raw: writer.raw.map((a, i) => [rawKind(a), a.byteLength, rawSums[i] as string] as const),
  } satisfies Header);
  const lengths = Buffer.alloc(8);
  lengths.writeUInt32LE(header.length, 0);
  lengths.writeUInt32LE(crc32(header), 4);
  const tmp = join(job.folder, `.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    try {
      const fd = await open(tmp, "wx", 0o600);
      try {
        for (const part of [MAGIC, lengths, job.seal.seal(header), header]) {
          await writeAll(fd, part);
          await step("file");
        }
        await spool.copyTo((bytes) => writeAll(fd, bytes), () => step("file"));
        await writeRawArrays(fd, raw, () => step("file"));
      } finally {
        await fd.close();
      }
      if (!job.current()) throw new Dropped();
      await rename(tmp, job.file);
    } catch (error) {
      removeQuietly(tmp);
      throw error;
    }
  } catch (error) {
    if (error instanceof Dropped) throw error;
    throw new NotWritten(`search cache ${job.folder} is not writable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): a large site is indexed at every start`);
  }
}

/** The raw arrays after the body, each given as the parts it is made of, each padded to 8 bytes.
 *  Each piece is copied first: the write reads its bytes in another thread, and they must be the
 *  ones checksummed. One buffer for all: a copy per piece was up to 100 MB of memory no collection
 *  had freed yet at 25,000 pages. Small parts (a text's deflated piece) are gathered into it. */
async function writeRawArrays(fd: Awaited<ReturnType<typeof open>>, raw: readonly (readonly Uint8Array[] | SpooledBytes)[], step: () => Promise<void>): Promise<void> {
  const piece = Buffer.allocUnsafeSlow(RAW_PIECE_BYTES);
  let filled = 0;
  const flush = async (): Promise<void> => {
    if (filled === 0) return;
    await writeAll(fd, piece.subarray(0, filled));
    filled = 0;
    await step();
  };
  for (const parts of raw) {
    if (!Array.isArray(parts)) {
      const spooled = parts as SpooledBytes;
      await flush();
      await spooled.copyTo((bytes) => writeAll(fd, bytes), step);
      await writeAll(fd, PADDING.subarray(0, padded(spooled.bytes) - spooled.bytes));
      continue;
    }
    let length = 0;
    for (const r of parts as readonly Uint8Array[]) {
      length += r.length;
      for (let at = 0; at < r.length; ) {
        const part = r.subarray(at, at + RAW_PIECE_BYTES - filled);
        piece.set(part, filled);
        filled += part.length;
        at += part.length;
        if (filled === RAW_PIECE_BYTES) await flush();
      }
    }
    await flush();
    await writeAll(fd, PADDING.subarray(0, padded(length) - length));
  }
}

/** Bytes of the typed arrays in `value` the writer stores apart (`RawArraysWriter`), each once. */
function rawBytesOf(value: unknown, seen = new Set<object>()): number {
  if (typeof value !== "object" || value === null || seen.has(value)) return 0;
  seen.add(value);
  if (ArrayBuffer.isView(value)) return value.byteLength >= RAW_MIN_BYTES ? padded(value.byteLength) : 0;
  let sum = 0;
  // Arrays of plain values (terms, pages) hold none: only objects and arrays of objects are walked.
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (typeof v === "object" && v !== null) sum += rawBytesOf(v, seen);
  return sum;
}

async function writeAll(fd: Awaited<ReturnType<typeof open>>, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length; ) at += (await fd.write(bytes, at, bytes.length - at)).bytesWritten;
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
