import type { Access } from "../../vfs/access.js";
import type { SiteFile } from "../../vfs/site-file.js";

/**
 * A site snapshot's files in the form every shell worker shares: the texts as UTF-8 in
 * `SharedArrayBuffer` chunks (posted to a worker, a shared buffer is not copied), the table
 * of paths and facts beside them. Why: each worker used to receive the whole file table by
 * structured clone, a full copy per worker decoded inside the first command's time limit; on
 * a 50,000-page site every command then failed at its limit (issue 22). Now the main thread
 * encodes a snapshot once, a worker turns the table into file records in milliseconds, and a
 * file's text is decoded from the shared bytes when a command reads it.
 *
 * Texts are stored as JavaScript holds them where that costs no more than a quarter over UTF-8:
 * one byte per character when every character fits (Latin-1), else UTF-16. Decoding is then a
 * copy: measured on a 50,000-page site (cowagent x 184, mostly Chinese and Japanese pages),
 * reading every text took ~1.4 s from UTF-8 and ~0.14 s this way, for 25% more bytes there
 * (none on an ASCII site). A text that is mostly ASCII with a few characters beyond Latin-1 (a
 * dash, a quotation mark, an emoji: most English pages of real sites) is stored as UTF-8,
 * about half its UTF-16 bytes (issue 22: on 50,000 such pages the snapshot was ~730 MB, the
 * largest part of the server's peak; UTF-8 costs ~10 us more a page to read, `storedEncoding`).
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
  /** Bytes used in the last chunk. */
  private used = 0;
  /** Bytes written over all chunks. */
  private written = 0;
  private refs = new WeakMap<SiteFile, TextRef>();

  encode(files: Iterable<SiteFile>): EncodedSnapshot {
    const list = [...files];
    let live = 0;
    for (const f of list) live += f.text.length;
    // Mostly texts of files gone (reloads): write this snapshot into fresh chunks.
    if (this.written > 2 * live + CHUNK_BYTES) {
      this.chunks = [];
      this.used = 0;
      this.written = 0;
      this.refs = new WeakMap();
    }
    const table = new Float64Array(new SharedArrayBuffer(Math.max(1, list.length * COLUMNS) * Float64Array.BYTES_PER_ELEMENT));
    const accesses: Access[] = [];
    const accessIds = new Map<string, number>();
    // Files mostly share their access rule objects: looked up by identity first, then by value.
    const accessOf = new Map<Access, number>();
    const byText = new Map<string, TextRef>();
    const position = new Map<SiteFile, number>();
    const paths: string[] = [];
    for (let i = 0; i < list.length; i++) {
      const f = list[i] as SiteFile;
      let ref = this.refs.get(f);
      if (ref === undefined) {
        ref = byText.get(f.text) ?? this.write(f.text);
        this.refs.set(f, ref);
        byText.set(f.text, ref);
      }
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
      table[at] = ref.chunk;
      table[at + 1] = ref.offset;
      table[at + 2] = ref.length;
      table[at + 3] = f.size;
      table[at + 4] = f.mtime.getTime();
      table[at + 5] = access;
      table[at + 6] = ENCODINGS.indexOf(ref.encoding);
      paths.push(f.path);
      position.set(f, i);
    }
    return { snapshot: { paths: paths.join("\0"), table, accesses, chunks: [...this.chunks] }, position };
  }

  private write(text: string): TextRef {
    const { encoding, length } = storedEncoding(text);
    let k = this.chunks.length - 1;
    if (k === -1 || this.used + length > (this.chunks[k] as SharedArrayBuffer).byteLength) {
      this.chunks.push(new SharedArrayBuffer(Math.max(CHUNK_BYTES, length)));
      k = this.chunks.length - 1;
      this.used = 0;
    }
    const offset = this.used;
    Buffer.from(this.chunks[k] as SharedArrayBuffer).write(text, offset, length, encoding);
    this.used += length;
    this.written += length;
    return { chunk: k, offset, length, encoding };
  }
}

/** How a text's characters are stored: one byte each, UTF-16, or UTF-8. */
export type StoredEncoding = "latin1" | "utf16le" | "utf8";

/** The table's encoding column indexes these. */
const ENCODINGS: readonly StoredEncoding[] = ["latin1", "utf16le", "utf8"];

/** A character beyond Latin-1: the text cannot be stored one byte a character. */
const WIDE = /[^\u0000-\u00ff]/;

/** A surrogate without its pair: UTF-8 cannot hold it (it would read back as U+FFFD). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * How a text is stored, and in how many bytes. A wide text is stored as UTF-8 when that saves at
 * least a quarter of its UTF-16 bytes: reading UTF-8 back costs ~2.5 times a UTF-16 copy (~20 us
 * against ~8 us a 15 KB page, measured on the bench's 50,000-page site), worth it for the half
 * that a mostly-ASCII page saves, not for the nothing a Chinese page saves (UTF-8 takes 3 bytes a
 * character there).
 */
export function storedEncoding(text: string): { readonly encoding: StoredEncoding; readonly length: number } {
  if (!WIDE.test(text)) return { encoding: "latin1", length: text.length };
  const utf8 = Buffer.byteLength(text, "utf8");
  if (utf8 * 4 <= text.length * 2 * 3 && !LONE_SURROGATE.test(text)) return { encoding: "utf8", length: utf8 };
  return { encoding: "utf16le", length: text.length * 2 };
}

/** A file of a shared snapshot (worker side): its text is decoded from the shared bytes when read. */
class SharedFile implements SiteFile {
  constructor(
    readonly path: string,
    private readonly chunk: SharedArrayBuffer,
    private readonly offset: number,
    private readonly length: number,
    private readonly encoding: StoredEncoding,
    readonly size: number,
    readonly mtime: Date,
    readonly access: Access,
  ) {}

  // Decoded on each read, not kept: a worker's heap then holds only the texts its commands are
  // using, never a copy of the site (a copy out of the shared bytes: ~1.5 GB/s).
  get text(): string {
    return Buffer.from(this.chunk, this.offset, this.length).toString(this.encoding);
  }
}

/** The file records of a shared snapshot, in table order (worker side). */
export function decodeSnapshot(s: SharedSnapshot): SiteFile[] {
  const paths = s.paths === "" ? [] : s.paths.split("\0");
  const files: SiteFile[] = new Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    const at = i * COLUMNS;
    const t = s.table;
    files[i] = new SharedFile(
      paths[i] as string,
      s.chunks[t[at] as number] as SharedArrayBuffer,
      t[at + 1] as number,
      t[at + 2] as number,
      ENCODINGS[t[at + 6] as number] as StoredEncoding,
      t[at + 3] as number,
      new Date(t[at + 4] as number),
      s.accesses[t[at + 5] as number] as Access,
    );
  }
  return files;
}
