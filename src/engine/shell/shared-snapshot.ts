import type { Access } from "../../vfs/access.js";
import { ENCODINGS, readStored, type StoredEncoding, type StoredText, storedEncoding } from "../../vfs/stored-text.js";
import type { SiteFile } from "../../vfs/site-file.js";
import { heldTextOf } from "../../vfs/held-text.js";

/**
 * A site snapshot's files in the form every shell worker shares: the texts as bytes in
 * `SharedArrayBuffer` chunks (posted to a worker, a shared buffer is not copied), the table
 * of paths and facts beside them. Why: each worker used to receive the whole file table by
 * structured clone, a full copy per worker decoded inside the first command's time limit; on
 * a 50,000-page site every command then failed at its limit (issue 22). Now the main thread
 * encodes a snapshot once, a worker turns the table into file records in milliseconds, and a
 * file's text is decoded from the shared bytes when a command reads it.
 *
 * Each text is stored in the encoding `storedEncoding` chooses (Latin-1, UTF-8 or UTF-16).
 */
export interface SharedSnapshot {
  /** Paths in table order, joined by NUL (no path holds one). */
  readonly paths: string;
  /** `COLUMNS` numbers per file, on a shared buffer: chunk, byte offset, byte length, UTF-8 size, mtime (ms), access, encoding (`ENCODINGS` index). */
  readonly table: Float64Array;
  /** The distinct access rules; the table's access column indexes them. */
  readonly accesses: readonly Access[];
  /** The text chunks, each posted by reference. */
  readonly chunks: readonly SharedArrayBuffer[];
}

/** Numbers per file in `SharedSnapshot.table`. */
const COLUMNS = 7;

/**
 * Bytes per text chunk: large enough that a big site needs a handful (each is one message
 * member), small enough that the unused tail of the last one costs little. A larger file gets
 * a chunk of its own.
 */
const CHUNK_BYTES = 16 * 1024 * 1024;

/** An encoding under way (`SnapshotEncoder.begin`). */
export interface SnapshotEncoding {
  /**
   * The snapshot before its texts: paths, positions, sizes, times and access rules are final
   * from `begin` on; only the texts' columns of the table (filled in place, it is shared) and
   * the chunks are not. A worker given it builds its file records and a reader's view from it
   * while the texts are encoded (`ShellHost.encodeSoon`), and reads no text before it is given
   * the chunks (`finish`'s).
   */
  readonly preview: EncodedSnapshot;
  /** Write up to `files` more of the texts still to write (not held in shared bytes already): true once every one is. */
  advance(files: number): boolean;
  /** Encode the rest now (if any): the snapshot. */
  finish(): EncodedSnapshot;
}

/** Where a text sits in the chunks. */
interface TextRef {
  readonly chunk: number;
  readonly offset: number;
  readonly length: number;
  readonly encoding: StoredEncoding;
}

/** An encoded snapshot, and each of its files' position in the table (views are sent as positions). */
export interface EncodedSnapshot {
  readonly snapshot: SharedSnapshot;
  readonly position: ReadonlyMap<SiteFile, number>;
}

/**
 * Encodes snapshots into shared chunks (main thread). A reload makes a new snapshot whose
 * unchanged files are the same objects: their texts are not written again, only the table is.
 * Identical texts within one snapshot (a page copied under several versions) are written once.
 * When more than half of what was written belongs to no current file (many reloads), the next
 * snapshot starts fresh chunks; workers free the old ones with the snapshots that used them.
 */
export class SnapshotEncoder {
  private chunks: SharedArrayBuffer[] = [];
  /** The chunk written into (undefined: none yet), and the bytes used in it. */
  private current: number | undefined;
  private used = 0;
  /** Bytes written over all chunks. */
  private written = 0;
  private refs = new WeakMap<SiteFile, TextRef>();
  /** The encoding begun and not finished (`begin`). */
  private unfinished: SnapshotEncoding | undefined;

  encode(files: Iterable<SiteFile>): EncodedSnapshot {
    return this.begin(files).finish();
  }

  /**
   * An encoding done a slice at a time (`SnapshotEncoding`), so that the thread can answer
   * between slices: on a 50,000-page site the whole of it is ~0.5 s of the main thread, which a
   * stdio server's first search used to wait for (issue 22). One at a time: beginning another
   * finishes this encoder's unfinished one first (both write into the same chunks, and a fresh
   * start of the chunks must not fall inside an encoding).
   */
  begin(files: Iterable<SiteFile>): SnapshotEncoding {
    this.unfinished?.finish();
    const list = [...files];
    // Counted in bytes without reading a text (a text held as bytes would be read back).
    let live = 0;
    for (const f of list) live += f.size;
    // Mostly texts of files gone (reloads): write this snapshot into fresh chunks.
    if (this.written > 2 * live + CHUNK_BYTES) {
      this.chunks = [];
      this.current = undefined;
      this.used = 0;
      this.written = 0;
      this.refs = new WeakMap();
    }
    const table = new Float64Array(new SharedArrayBuffer(Math.max(1, list.length * COLUMNS) * Float64Array.BYTES_PER_ELEMENT));
    const accesses: Access[] = [];
    const accessIds = new Map<string, number>();
    // Files mostly share their access rule objects: looked up by identity first, then by value.
    const accessOf = new Map<Access, number>();
    // By text, or for a text held as bytes by what holds it (copies share it): never every text read back at once.
    const byText = new Map<string | object, TextRef>();
    // Everything but the texts to write first (a few milliseconds for 50,000 files): a worker
    // can build its records and a reader's view from it while the texts are written (`preview`).
    // A text the load holds as bytes in shared chunks (`TextChunks`: on the bench's 50,000
    // pages, 46,000 of them) is referred to where it is here too, a few numbers: written a slice
    // at a time with the others, each one's bookkeeping (the files' table of where their texts
    // are, the copies' one) was most of the encoding, ~0.2-0.3 s of the thread after the first
    // search (issue 22). Those files are left out of `refs`: their bytes are where they were.
    const position = new Map<SiteFile, number>();
    const paths: string[] = new Array<string>(list.length);
    /** Files whose texts are still to write, by table position. */
    const pending: number[] = [];
    for (let i = 0; i < list.length; i++) {
      const f = list[i] as SiteFile;
      let access = accessOf.get(f.access);
      if (access === undefined) {
        const key = JSON.stringify(f.access);
        access = accessIds.get(key);
        if (access === undefined) {
          access = accesses.length;
          accesses.push(f.access);
          accessIds.set(key, access);
        }
        accessOf.set(f.access, access);
      }
      const at = i * COLUMNS;
      table[at + 3] = f.size;
      table[at + 4] = f.mtime.getTime();
      table[at + 5] = access;
      paths[i] = f.path;
      position.set(f, i);
      const stored = heldTextOf(f)?.storedForm;
      if (stored !== undefined && stored.buffer instanceof SharedArrayBuffer) placeText(table, at, this.refer(stored));
      else pending.push(i);
    }
    const joined = paths.join("\0");
    let next = 0;
    let result: EncodedSnapshot | undefined;
    const advance = (count: number): boolean => {
      for (const end = Math.min(pending.length, next + count); next < end; next++) {
        const i = pending[next] as number;
        const f = list[i] as SiteFile;
        let ref = this.refs.get(f);
        if (ref === undefined) {
          const held = heldTextOf(f);
          const stored = held?.storedForm;
          const key = stored !== undefined ? (held as object) : f.text;
          ref = byText.get(key) ?? (stored !== undefined ? this.refer(stored) : this.write(f.text));
          this.refs.set(f, ref);
          byText.set(key, ref);
        }
        placeText(table, i * COLUMNS, ref);
      }
      return next === pending.length;
    };
    const encoding: SnapshotEncoding = {
      preview: { snapshot: { paths: joined, table, accesses, chunks: [] }, position },
      advance: (count) => result !== undefined || advance(count),
      finish: () => {
        if (result === undefined) {
          advance(pending.length - next);
          if (this.unfinished === encoding) this.unfinished = undefined;
          result = { snapshot: { paths: joined, table, accesses, chunks: [...this.chunks] }, position };
        }
        return result;
      },
    };
    this.unfinished = encoding;
    return encoding;
  }

  /** Where the last `encode` that held `file` wrote its text: bytes that never change, kept as
   *  long as anything refers to their chunk. Undefined for a text the load held in shared bytes
   *  (`begin`): it is read from those already. */
  storedOf(file: SiteFile): StoredText | undefined {
    const ref = this.refs.get(file);
    if (ref === undefined) return undefined;
    return { buffer: this.chunks[ref.chunk] as SharedArrayBuffer, offset: ref.offset, length: ref.length, encoding: ref.encoding };
  }

  /**
   * A text held as bytes: where they are, when that is a shared buffer (the load's chunks,
   * `TextChunks`, or a snapshot's), added to the chunks as it is; else copied into a chunk. A
   * snapshot then holds no second copy of the texts the load keeps as bytes (issue 22).
   */
  private refer(stored: StoredText): TextRef {
    if (!(stored.buffer instanceof SharedArrayBuffer)) return this.copy(stored);
    let chunk = this.chunks.indexOf(stored.buffer);
    if (chunk === -1) {
      chunk = this.chunks.length;
      this.chunks.push(stored.buffer);
      this.written += stored.buffer.byteLength;
    }
    return { chunk, offset: stored.offset, length: stored.length, encoding: stored.encoding };
  }

  /** Bytes of a text held as bytes, copied into a chunk. */
  private copy(stored: StoredText): TextRef {
    const { chunk, offset } = this.room(stored.length);
    new Uint8Array(this.chunks[chunk] as SharedArrayBuffer, offset, stored.length).set(new Uint8Array(stored.buffer, stored.offset, stored.length));
    return { chunk, offset, length: stored.length, encoding: stored.encoding };
  }

  /** Room for `length` bytes in the chunk written into (a new one when it is full): where. */
  private room(length: number): { chunk: number; offset: number } {
    let k = this.current;
    if (k === undefined || this.used + length > (this.chunks[k] as SharedArrayBuffer).byteLength) {
      this.chunks.push(new SharedArrayBuffer(Math.max(CHUNK_BYTES, length)));
      k = this.chunks.length - 1;
      this.current = k;
      this.used = 0;
    }
    const offset = this.used;
    this.used += length;
    this.written += length;
    return { chunk: k, offset };
  }

  private write(text: string): TextRef {
    const { encoding, length } = storedEncoding(text);
    const { chunk: k, offset } = this.room(length);
    Buffer.from(this.chunks[k] as SharedArrayBuffer).write(text, offset, length, encoding);
    return { chunk: k, offset, length, encoding };
  }
}

/** Write where a text is into the table row at `at`. */
function placeText(table: Float64Array, at: number, ref: TextRef): void {
  table[at] = ref.chunk;
  table[at + 1] = ref.offset;
  table[at + 2] = ref.length;
  table[at + 6] = ENCODINGS.indexOf(ref.encoding);
}

/** What every file of one decoded snapshot reads its facts from (worker side). */
export interface DecodedTable {
  readonly table: Float64Array;
  /** Set once the texts are encoded, when the snapshot was given as a `preview`. */
  chunks: readonly SharedArrayBuffer[];
  readonly accesses: readonly Access[];
}

/** A decoded snapshot: its file records in table order, and what they read their facts from. */
export interface DecodedSnapshot {
  readonly files: SiteFile[];
  readonly of: DecodedTable;
}

/**
 * A file of a shared snapshot (worker side): its path and where its row is; every other fact is
 * read from the shared table when asked, and its text decoded from the shared bytes. Why: a
 * record with each fact as a field, and a `Date` of its own, was ~180 bytes of the worker's heap
 * per file, ~9 MB on a 50,000-page site that every worker held (issue 22); this one is ~48.
 */
class SharedFile implements SiteFile {
  constructor(
    readonly path: string,
    private readonly of: DecodedTable,
    /** The file's first number in `of.table`. */
    private readonly at: number,
  ) {}

  get size(): number {
    return this.of.table[this.at + 3] as number;
  }

  // A new `Date` at each read: no caller keeps or changes one, and few files' times are ever read.
  get mtime(): Date {
    return new Date(this.of.table[this.at + 4] as number);
  }

  get access(): Access {
    return this.of.accesses[this.of.table[this.at + 5] as number] as Access;
  }

  // Decoded on each read, not kept: a worker's heap then holds only the texts its commands are
  // using, never a copy of the site (a copy out of the shared bytes: ~1.5 GB/s).
  get text(): string {
    return readStored(this.stored);
  }

  get stored(): StoredText {
    const t = this.of.table;
    const at = this.at;
    return { buffer: this.of.chunks[t[at] as number] as SharedArrayBuffer, offset: t[at + 1] as number, length: t[at + 2] as number, encoding: ENCODINGS[t[at + 6] as number] as StoredEncoding };
  }
}

/** The file records of a shared snapshot, in table order (worker side). */
export function decodeSnapshot(s: SharedSnapshot): SiteFile[] {
  return decodeSnapshotTable(s).files;
}

/** The file records of a shared snapshot and their table, whose chunks come later for a `preview` (worker side). */
export function decodeSnapshotTable(s: SharedSnapshot): DecodedSnapshot {
  const paths = s.paths === "" ? [] : s.paths.split("\0");
  const of: DecodedTable = { table: s.table, chunks: s.chunks, accesses: s.accesses };
  const files: SiteFile[] = new Array(paths.length);
  for (let i = 0; i < paths.length; i++) files[i] = new SharedFile(paths[i] as string, of, i * COLUMNS);
  return { files, of };
}
