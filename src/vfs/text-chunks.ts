import type { StoredEncoding, StoredText } from "./stored-text.js";

/** The first chunk's size: a reload that stores one edited page takes little. */
const FIRST_CHUNK_BYTES = 64 * 1024;
/** The largest chunk (a text past it gets one of its own): the shell snapshot's size (`shared-snapshot.ts`). */
const MAX_CHUNK_BYTES = 16 * 1024 * 1024;

/**
 * Texts the load holds as bytes (`ParsedTexts`), written into `SharedArrayBuffer` chunks, each
 * chunk twice the size of the one before up to 16 MB. Why shared: the shell's snapshot
 * (`SnapshotEncoder`) then refers to these bytes where they are instead of writing a copy, and
 * its workers read them from there. At 50,000 pages the copy was ~360 MB on top of the texts
 * until a collection freed them (issue 22).
 */
export class TextChunks {
  private chunk: SharedArrayBuffer | undefined;
  private used = 0;
  private next = FIRST_CHUNK_BYTES;

  /** `bytes` (a text in `encoding`) copied into a chunk. */
  store(bytes: Uint8Array, encoding: StoredEncoding): StoredText {
    const length = bytes.length;
    if (this.chunk === undefined || this.used + length > this.chunk.byteLength) {
      this.chunk = new SharedArrayBuffer(Math.max(this.next, length));
      this.next = Math.min(MAX_CHUNK_BYTES, this.next * 2);
      this.used = 0;
    }
    const offset = this.used;
    new Uint8Array(this.chunk, offset, length).set(bytes);
    this.used += length;
    return { buffer: this.chunk, offset, length, encoding };
  }
}
