import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { deserialize } from "node:v8";
import { crc32 } from "node:zlib";
import { LIMITS } from "../limits.js";
import type { CacheSeal } from "../store/cache-key.js";
import { codeFingerprint } from "../store/code-fingerprint.js";
import type { KnownPages, LoadedSite } from "../vfs/load-site.js";
import type { Page } from "../vfs/page.js";
import type { SiteFile } from "../vfs/site-file.js";
import type { SearchIndexState } from "./search/search-index.js";
import { indexPagesOf, pagesOf } from "./site-cache-columns.js";
import { docsOf } from "./site-cache-docs.js";
import { foldersOf } from "./site-cache-folders.js";
import { type Body, checksum, FORMAT, hashOf, type Header, MAGIC, padded, type RawArray, rawArray, RawArraysReader, readBody, removeQuietly, SEAL_BYTES } from "./site-cache-format.js";
import { startSums } from "./site-cache-sums.js";
import { type CacheWrite, startCacheWrite, type WritePhase } from "./site-cache-writer.js";

/**
 * The persistent cache of a large site (issue 22): its parsed pages and its built search index,
 * in one file per docs folder under the user's cache folder (`resolveCacheDir`, never inside
 * the docs), so that a second start of an unchanged site reads one file and stats its pages
 * instead of reading, parsing and indexing them all.
 *
 * The file is `MAGIC`, a header (its length and CRC-32 first) and a body. The header says which
 * code wrote it (`codeFingerprint`), for which folder, the SHA-256 of each configuration file the
 * load read (docs.json, ignore files, specs), and the body's length and SHA-256; a file whose
 * header does not match is stale, one whose checksums do not is corrupt: either is rebuilt, with a
 * line on the log, and never served. The body holds each distinct file text once (a versioned
 * site's copies share it), the pages parsed from them with the size, time and inode their file
 * was read with (`KnownPages`), and the index's state (`SearchIndex.state`).
 */

/** A file changed less than this before the load that read it may change again within the
 *  same timestamp (coarse file systems count in seconds): its text is compared (`KnownPages`). */
const RACY_MS = 2_000;

/** What a start takes from the cache. */
export interface CachedSite {
  /** For the site load: pages reused when their file is unchanged. */
  readonly known: KnownPages;
  /** For the search index (`SearchIndex.restore`). */
  readonly index: SearchIndexState;
  pageAt(path: string): Page | undefined;
  fileAt(path: string): SiteFile | undefined;
  /** The configuration files (repo-relative) whose text is no longer the one the cache was
   *  checked against when read: a server asks once its watch is made (issue 25). */
  changedConfigs(): string[];
}

/** A cache read whose checksums are still being computed (`SiteCache.readPending`). */
export interface PendingCachedSite {
  /** Not to be served, or kept, before `verify()` says true. */
  readonly site: CachedSite;
  /** Wait for the checksums: true when they match; false when the file is corrupt (said on the
   *  log and removed). Asked again, the same answer. */
  verify(): boolean;
}

/** What `decode` found, and its checksums' verdict to wait for: undefined, or what is wrong. */
interface Decoded {
  readonly found: CachedSite | string;
  readonly verdict: () => string | undefined;
}

export interface SiteCacheOptions {
  /** The cache folder (`resolveCache`); the site's file is in `sites/` under it. */
  readonly dir: string;
  /** What vouches for the file: one its key did not seal is not ours (`resolveCache`). */
  readonly seal: CacheSeal;
  /** The docs folder. */
  readonly root: string;
  /** Where stale, corrupt and unwritable caches are told. */
  readonly log: (message: string) => void;
  /** Largest file written (default `LIMITS.cache.maxSiteBytes`). */
  readonly maxBytes?: number;
  /** Budget of all sites' files (default `LIMITS.cache.sitesMaxBytes`): the least recently used go. */
  readonly folderBytes?: number;
  /** `false`: the reading thread hashes the cache's parts itself, as when no other thread can
   *  (default: another thread does, `startSums`). */
  readonly sumsInThread?: boolean;
  /** The code's fingerprint (default `codeFingerprint()`; tests stand in another version). */
  readonly code?: () => string;
  /** How long a slice of a write may hold the thread (default `LIMITS.cache.writeSliceMs`). */
  readonly writeSliceMs?: number;
  /** How a write gives the thread back between slices (default: `setImmediate`, after pending
   *  I/O; tests hold a write at a step with it). */
  readonly yieldTurn?: (phase: WritePhase) => Promise<void>;
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
    const pending = this.readPending();
    return pending !== undefined && pending.verify() ? pending.site : undefined;
  }

  /**
   * The cached site before its checksums are known, or undefined (as `read`). Its sums are
   * computed by another thread while the caller goes on with it (a warm start's main thread
   * waited 0.6-1.1 s for them on the 25k-page versioned site, issue 22): nothing of it may be
   * served, or kept, before `verify()` says true. False means stale or corrupt (said on the
   * log, the file removed): whatever was made from it is to be dropped.
   */
  readPending(): PendingCachedSite | undefined {
    let fd: number;
    try {
      // Without blocking: a FIFO put where the cache file was would otherwise hold the open, and
      // the start with it, until something writes to it (adversary round 35 F4: `serve` answered
      // nothing, not even `initialize`). `decodeUnchecked` then refuses what is not a file.
      fd = openSync(this.file, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      return undefined;
    }
    let decoded: Decoded;
    try {
      decoded = this.decode(fd);
    } catch (error) {
      decoded = { found: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, verdict: () => undefined };
    }
    let settled: boolean | undefined;
    const settle = (): boolean => {
      if (settled !== undefined) return settled;
      let found: CachedSite | string;
      try {
        found = decoded.verdict() ?? decoded.found;
      } catch (error) {
        found = `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
      } finally {
        // The sums thread reads by this descriptor: closed once it is done.
        closeSync(fd);
      }
      settled = typeof found !== "string";
      if (typeof found === "string") {
        this.options.log(`search cache ${this.file} ${found}: reading and indexing the site again`);
        removeQuietly(this.file);
        return false;
      }
      try {
        const now = new Date();
        utimesSync(this.file, now, now); // recency, for eviction
      } catch {
        // A read-only cache still serves.
      }
      return true;
    };
    if (typeof decoded.found === "string") {
      settle();
      return undefined;
    }
    return { site: decoded.found, verify: settle };
  }

  /** The cached site in an open cache file, or what is wrong with it, with its checksums' verdict to come. */
  private decode(fd: number): Decoded {
    const wrong = (found: string): Decoded => ({ found, verdict: () => undefined });
    const checked = this.decodeUnchecked(fd);
    return typeof checked === "string" ? wrong(checked) : checked;
  }

  private decodeUnchecked(fd: number): Decoded | string {
    const st = fstatSync(fd);
    if (!st.isFile()) return "is not a regular file";
    const size = st.size;
    // A file or folder others may write could hold a forged cache (a checksum is no signature): only
    // a file of this user, in a folder only this user may write, is trusted.
    if (!ownedPrivately(st) || !ownedPrivately(statSync(this.folder))) return "is not private to this user (another user could have written it)";
    const start = readExactly(fd, MAGIC.length + 8 + SEAL_BYTES, 0);
    if (start === undefined || !start.subarray(0, MAGIC.length).equals(MAGIC)) return "is not a cache file";
    const headerStart = MAGIC.length + 8 + SEAL_BYTES;
    const headerBytes = start.readUInt32LE(MAGIC.length);
    const headerRead = headerStart + headerBytes <= size ? readExactly(fd, headerBytes, headerStart) : undefined;
    if (headerRead === undefined || crc32(headerRead) !== start.readUInt32LE(MAGIC.length + 4)) return "is corrupt (header checksum)";
    // The header holds the checksums of everything after it: sealed, it vouches for the file. A
    // cache copied from another machine, restored from another job or forged is not this key's.
    if (!this.options.seal.verify(start.subarray(MAGIC.length + 8), headerRead)) return "was not sealed by this user's cache key";
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
    for (const [rel, hash] of header.configs) {
      const now = hashOf(this.root, rel);
      if (now === undefined) return `is out of date (${rel} cannot be read)`;
      if (now !== hash) return `is out of date (${rel} changed)`;
    }
    const at = headerStart + headerBytes;
    const expected = at + header.bodyBytes + header.raw.reduce((sum, [, bytes]) => sum + padded(bytes), 0);
    if (size !== expected) return `is corrupt (${size} of ${expected} bytes)`;
    // The body and the large arrays, each with its checksum: hashed by another thread, which
    // also reads the large arrays into their own (shared) memory, while this one reads and
    // decodes the body (`startSums`). Nothing decoded is used before the sums match: a part
    // whose sum does not is corrupt, whatever its decoding made of it.
    const parts: [number, number][] = [[at, header.bodyBytes]];
    for (let i = 0, from = at + header.bodyBytes; i < header.raw.length; from += padded((header.raw[i] as (typeof header.raw)[number])[1]), i++) parts.push([from, (header.raw[i] as (typeof header.raw)[number])[1]]);
    const inThread = this.options.sumsInThread !== false;
    const allocate = (shared: boolean): RawArray[] | undefined => {
      const arrays: RawArray[] = [];
      for (const [kind, bytes] of header.raw) {
        const array = rawArray(kind, bytes, shared);
        if (array === undefined) return undefined;
        arrays.push(array);
      }
      return arrays;
    };
    let raw = allocate(inThread);
    if (raw === undefined) return "is corrupt (raw arrays)";
    const bytesOf = (array: RawArray): Uint8Array => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    let sums = inThread ? startSums(fd, parts, [undefined, ...raw.map(bytesOf)]) : undefined;
    // The verdict waits for the sums: undefined when they match (the decoded site stands), else
    // what is wrong. A body that did not decode is said corrupt by its sums where they fail.
    const verdict = (decoded: CachedSite | string, views: () => Uint8Array[]): Decoded => ({
      found: decoded,
      verdict: () => {
        const wanted = [header.bodySum, ...header.raw.map(([, , sum]) => sum)];
        const got = sums?.wait() ?? views().map((view) => checksum().update(view).digest("hex"));
        return got.length === wanted.length && got.every((sum, i) => sum === wanted[i]) ? undefined : "is corrupt (checksum)";
      },
    });
    const stop = (message: string): string => {
      sums?.stop();
      return message;
    };
    const body = readExactly(fd, header.bodyBytes, at);
    if (body === undefined) return stop("is corrupt (checksum)");
    // Each large array is read straight into its own memory: no copy, and no buffer of the whole
    // file. By this thread only when the other could not (it never started, or failed): then
    // into new memory, which that thread never had.
    const readRaw = (): RawArray[] | undefined => {
      const arrays = allocate(false);
      if (arrays === undefined) return undefined;
      for (const [i, array] of arrays.entries()) if (!readInto(fd, bytesOf(array), (parts[i + 1] as [number, number])[0])) return undefined;
      return arrays;
    };
    if (sums === undefined) raw = readRaw();
    if (raw === undefined) return stop("is corrupt (checksum)");
    const views = (): Uint8Array[] => [body, ...(raw as RawArray[]).map(bytesOf)];
    const decodeBody = (arrays: readonly RawArray[]): Body => {
      const reader = new RawArraysReader(body, arrays);
      reader.readHeader();
      return readBody(reader);
    };
    let stored: Body;
    try {
      stored = decodeBody(raw);
    } catch {
      return verdict("is corrupt (body)", views);
    }
    if (sums !== undefined && !sums.waitRead()) {
      // The decoded body holds the arrays the thread was to fill: decoded again with those read here.
      sums.stop();
      sums = undefined;
      raw = readRaw();
      if (raw === undefined) return "is corrupt (checksum)";
      try {
        stored = decodeBody(raw);
      } catch {
        return verdict("is corrupt (body)", views);
      }
    }
    return verdict(this.decoded(header, stored), views);
  }

  /** The cached site of a decoded body (`decode`), or what is wrong with it. */
  private decoded(header: Header, stored: Body): CachedSite | string {
    try {
      const { known: pages, pageAt, fileAt } = pagesOf(stored.texts, stored.utf8, stored.objects, stored.pages, header.trustedBefore);
      // docs.json is what it was (its hash, and those of the files it names, were checked above).
      const docs = stored.docs !== undefined ? docsOf(stored.docs, this.options.root) : undefined;
      const known: KnownPages = {
        ...pages,
        ...(docs !== undefined ? { docs } : {}),
        ...(stored.folders !== undefined ? { folders: foldersOf(stored.folders, header.trustedBefore) } : {}),
      };
      const changedConfigs = (): string[] => header.configs.filter(([rel, hash]) => hashOf(this.root, rel) !== hash).map(([rel]) => rel);
      return { known, index: { ...stored.index, pages: indexPagesOf(stored.objects, stored.index.pages) }, pageAt, fileAt, changedConfigs };
    } catch {
      return "is corrupt (body)";
    }
  }

  /**
   * Start writing the site as loaded and indexed (the index's `state()` of that very site),
   * replacing the file whole (temp file, then rename; 0600 in a 0700 folder), in slices that
   * give the thread back (`site-cache-writer.ts`). Skipped, with a line on the log, when it would
   * pass `maxBytes` or cannot be written; either way the server goes on. `loadStarted` is when the
   * load that read the pages began (`Date.now()`); `current` turns false when the site written is
   * no longer the one served (the write is then dropped).
   */
  write(loaded: LoadedSite, index: SearchIndexState, loadStarted: number, configs: Iterable<string>, current: () => boolean = () => true): CacheWrite {
    let code: string;
    try {
      code = (this.options.code ?? codeFingerprint)();
    } catch (error) {
      this.options.log(`search cache not written: cannot fingerprint the code (${(error as Error).message})`);
      return { done: Promise.resolve(false), hurry: () => {} };
    }
    return startCacheWrite({
      file: this.file,
      folder: this.folder,
      root: this.root,
      code,
      seal: this.options.seal,
      loaded,
      index,
      trustedBefore: loadStarted - RACY_MS,
      configs,
      maxBytes: this.options.maxBytes ?? LIMITS.cache.maxSiteBytes,
      folderBytes: this.options.folderBytes ?? LIMITS.cache.sitesMaxBytes,
      log: this.options.log,
      current,
      sliceMs: this.options.writeSliceMs ?? LIMITS.cache.writeSliceMs,
      yieldTurn: this.options.yieldTurn ?? (() => new Promise((resolve) => setImmediate(resolve))),
    });
  }
}

/** Whether a file or folder belongs to this process's user and no one else may write it. */
function ownedPrivately(st: { readonly uid: number; readonly mode: number }): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
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

