import { randomBytes } from "node:crypto";
import { open, unlink } from "node:fs/promises";
import { join } from "node:path";

/** Bytes copied from the spool into the cache file per step. */
const COPY_PIECE_BYTES = 4 * 1024 * 1024;

type FileHandle = Awaited<ReturnType<typeof open>>;

/**
 * Where a cache write puts the serialized body as it is made (`site-cache-writer.ts`), until the
 * file can be written: its header, which comes first, holds the body's length and checksum,
 * known only once the body is whole. Why not in memory: at 50,000 distinct pages the body is
 * ~245 MB, held whole until the file was written, on top of everything the server holds, at
 * the peak of a first start (issue 22).
 *
 * The spool is a file in the cache's own folder (0600), removed from the folder as soon as it
 * is open: a process killed while it writes leaves nothing of it, and only the cache file's own
 * temp file shows a write under way.
 */
export class BodySpool {
  private size = 0;

  private constructor(private readonly fd: FileHandle) {}

  /** A spool in `folder` (which must exist). */
  static async open(folder: string): Promise<BodySpool> {
    const path = join(folder, `.${process.pid}.${randomBytes(4).toString("hex")}.spool.tmp`);
    const fd = await open(path, "wx+", 0o600);
    try {
      await unlink(path);
    } catch (error) {
      await fd.close();
      throw error;
    }
    return new BodySpool(fd);
  }

  /** Bytes spooled so far. */
  get bytes(): number {
    return this.size;
  }

  /** Add `bytes` at the end (the caller must not change them until this resolves). */
  async append(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length; ) {
      const { bytesWritten } = await this.fd.write(bytes, at, bytes.length - at, this.size + at);
      at += bytesWritten;
    }
    this.size += bytes.length;
  }

  /** Everything spooled, written to `write` in pieces, `step` between them. */
  async copyTo(write: (bytes: Uint8Array) => Promise<void>, step: () => Promise<void>): Promise<void> {
    const piece = Buffer.allocUnsafeSlow(Math.min(COPY_PIECE_BYTES, Math.max(1, this.size)));
    for (let at = 0; at < this.size; ) {
      const want = Math.min(piece.length, this.size - at);
      const { bytesRead } = await this.fd.read(piece, 0, want, at);
      if (bytesRead === 0) throw new Error("the cache's spooled body ended early");
      await write(piece.subarray(0, bytesRead));
      at += bytesRead;
      await step();
    }
  }

  async close(): Promise<void> {
    await this.fd.close();
  }
}
