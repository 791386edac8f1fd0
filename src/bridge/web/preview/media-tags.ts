import { webcrypto } from "node:crypto";
import { fstat, read } from "node:fs";
import { promisify } from "node:util";
import { LIMITS } from "../../../limits.js";
import { entityTag } from "../../middleware/entity-tag.js";

const readAt = promisify(read);
const fstatOf = promisify(fstat);

/** A medium's file as opened (`openInsideRoot`): its real path and the stat that tells its version. */
export interface OpenedMedium {
  readonly real: string;
  readonly fd: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
}

export interface MediaTagOptions {
  /** Tags remembered (`LIMITS.preview.mediaTagsKept`). */
  readonly kept: number;
  /** A file changed less than this long ago is hashed again next time (`LIMITS.preview.mediaSettledMs`). */
  readonly settledMs: number;
  readonly now: () => number;
  /** Called once a file's bytes are read and hashed, before its version is looked at again (tests change the file there). */
  readonly hashed?: (file: OpenedMedium) => Promise<void>;
}

/**
 * The ETags of the repository's media: the SHA-256 of a file's bytes, worked out once per
 * version of the file (its real path, inode, size, modification and change times: a rewrite
 * that keeps size and modification time, `cp -p`, still changes the change time) and then
 * remembered. The file is read and hashed off the thread that answers everyone (the file
 * system's and WebCrypto's thread pool), one file at a time over all callers, and readers asking
 * for the same version meanwhile share that one hash. Before (issue 25), each request, a 304
 * too, read and hashed the whole file on that thread: ~95 ms of CPU per request of a 45 MB video.
 */
export class MediaTags {
  private readonly known = new Map<string, { readonly version: string; readonly tag: string }>();
  private readonly pending = new Map<string, Promise<string | undefined>>();
  /** The hash in progress: the next one starts after it (one file's bytes in memory at a time). */
  private turn: Promise<unknown> = Promise.resolve();
  private hashed = 0;

  constructor(private readonly options: MediaTagOptions = { kept: LIMITS.preview.mediaTagsKept, settledMs: LIMITS.preview.mediaSettledMs, now: Date.now }) {}

  /** Files read and hashed so far (each version once, unless it had just changed). */
  get hashes(): number {
    return this.hashed;
  }

  /**
   * The ETag of the opened file's bytes; undefined when the file changed while it was hashed (an
   * in-place rewrite: the bytes read may be neither version's, so no tag is given for them, and
   * the next request hashes the new version); rejects when the file cannot be read.
   */
  tagOf(file: OpenedMedium): Promise<string | undefined> {
    const version = `${file.ino}:${file.size}:${file.mtimeMs}:${file.ctimeMs}`;
    const known = this.known.get(file.real);
    if (known?.version === version) {
      // Kept as the most recently used.
      this.known.delete(file.real);
      this.known.set(file.real, known);
      return Promise.resolve(known.tag);
    }
    const key = `${file.real}\u0000${version}`;
    const shared = this.pending.get(key);
    if (shared !== undefined) return shared;
    const hash = this.inTurn(() => this.hash(file, version)).finally(() => this.pending.delete(key));
    this.pending.set(key, hash);
    return hash;
  }

  private inTurn(work: () => Promise<string | undefined>): Promise<string | undefined> {
    const run = this.turn.then(work, work);
    this.turn = run.catch(() => undefined);
    return run;
  }

  private async hash(file: OpenedMedium, version: string): Promise<string | undefined> {
    const startedAt = this.options.now();
    const bytes = Buffer.allocUnsafe(file.size);
    let filled = 0;
    while (filled < file.size) {
      const { bytesRead } = await readAt(file.fd, bytes, filled, file.size - filled, filled);
      if (bytesRead === 0) throw new Error("the file shrank while it was being read");
      filled += bytesRead;
    }
    this.hashed++;
    const tag = entityTag(Buffer.from(await webcrypto.subtle.digest("SHA-256", bytes)).toString("hex"));
    await this.options.hashed?.(file);
    const after = await fstatOf(file.fd);
    if (`${after.ino}:${after.size}:${after.mtimeMs}:${after.ctimeMs}` !== version) return undefined;
    if (Math.max(file.mtimeMs, file.ctimeMs) < startedAt - this.options.settledMs) {
      this.known.delete(file.real);
      this.known.set(file.real, { version, tag });
      if (this.known.size > this.options.kept) this.known.delete(this.known.keys().next().value as string);
    }
    return tag;
  }
}
