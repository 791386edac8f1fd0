import { crc32 } from "node:zlib";
import { parentPort, workerData } from "node:worker_threads";
import { readWalkedWith } from "../config/inside-root.js";
import { heldAsUtf8 } from "../vfs/held-as-utf8.js";
import { importLineStarts } from "../vfs/import-lines.js";
import { parseAhead } from "../vfs/parsed-ahead.js";
import type { TextScan } from "../vfs/parsed-texts.js";
import type { FromPageReadWorker, PageReadWork } from "./page-read-ahead.js";
import { GREW, readStated } from "./read-stated.js";

/**
 * A page-reading worker (see `PageReadAhead`): reads the files it was given in order, as a load
 * reads a walked file (`readWalkedBytes`), and answers in batches, at most `window` bytes of
 * batches the load has not taken yet (it says when it took one). Bytes equal to a file's sent
 * before are not sent again: the answer names that file, so a versioned site's copies cross the
 * thread boundary and are decoded once. Up to `keep` bytes of distinct texts are kept to compare
 * with (a CRC-32 finds the candidates, only equal bytes make a copy).
 *
 * Files are read straight into shared slabs (`Slabs`), never into memory of this thread's own:
 * a buffer a file (read, then copied to be moved) came from this thread's malloc arena, and the
 * ~720 MB that passed through it at 50,000 distinct pages left ~210 MB of the process's memory
 * resident, freed but never given back, for the server's whole life (issue 22).
 */
const port = parentPort;
if (port === null) throw new Error("page-read-worker runs as a worker thread (see PageReadAhead)");
const { realRoot, rels, maxBytes, batch, keep, window } = workerData as PageReadWork;
/**
 * Bytes in `SharedArrayBuffer` slabs of `SLAB_BYTES`, one after another. A slab that large is
 * mapped for itself by the allocator (past the largest threshold glibc may raise its own to) and
 * unmapped when the last view of it is gone: here once its files are sent and the load took them.
 */
class Slabs {
  private slab: SharedArrayBuffer | undefined;
  private used = 0;

  /** Room for `size` bytes (a file larger than a slab gets one of its own). */
  take(size: number): Buffer {
    if (this.slab === undefined || this.used + size > this.slab.byteLength) {
      this.slab = new SharedArrayBuffer(Math.max(SLAB_BYTES, size));
      this.used = 0;
    }
    const view = Buffer.from(this.slab, this.used, size);
    this.used += size;
    return view;
  }

  /** Give back the last `size` bytes taken (a copy of a text sent before: not sent). */
  giveBack(size: number): void {
    this.used -= size;
  }
}
const SLAB_BYTES = 32 * 1024 * 1024;
/** Where files are read, and where the texts kept to tell copies by are copied (kept apart: one
 *  of them would keep a whole slab of files sent long ago). A file the load will hold as its
 *  UTF-8 bytes (`heldAsUtf8`) stays where it was read, and is sent as held (`WorkerRead.held`):
 *  the load keeps that view for good instead of copying it into chunks of its own (at 50,000
 *  distinct pages ~360 MB copied on the load's thread, and the slabs they came from held until
 *  a collection freed them, issue 22). Any other file is moved to `plain` (its room in `reads`
 *  given back), so that `reads` holds held texts only and none of its slabs is kept for a
 *  few of them. */
const reads = new Slabs();
const plain = new Slabs();
const keptTexts = new Slabs();

/** A file's bytes read into `reads` (`readWalkedWith`, `readStated`); undefined when it grew since its stat. */
function readIntoSlab(fd: number, size: number): Buffer | undefined {
  const room = reads.take(size + 1);
  const got = readStated(fd, size, room);
  if (got === GREW) {
    reads.giveBack(size + 1);
    return undefined;
  }
  // The byte past it, and what a file that shrank left unused, are read into next.
  reads.giveBack(size + 1 - got);
  return room.subarray(0, got);
}

const sent = new Map<number, { readonly bytes: Buffer; readonly file: number }[]>();
let kept = 0;
let next = 0;
/** Bytes of each batch sent and not taken yet, oldest first, and their sum. */
const unanswered: number[] = [];
let inFlight = 0;

/** Read and send batches while the window allows (always one, however large). */
function pump(): void {
  while (next < rels.length && (inFlight === 0 || inFlight < window)) {
    const out: FromPageReadWorker = { first: next, reads: [] };
    // Each text is sent as a view of its slab: shared with the load's thread, not copied.
    let bytesSent = 0;
    for (; next < rels.length && out.reads.length < batch; next++) {
      const read = readWalkedWith(realRoot, rels[next] as string, maxBytes, readIntoSlab);
      if (read === undefined) {
        out.reads.push(undefined);
        continue;
      }
      const { bytes: inReads, ...stat } = read;
      // A copy is told first, where it was read: on a versioned site most files are copies, and
      // looking at their bytes (`heldAsUtf8`) and moving them out of `reads` were a third of
      // this thread's time (24,920 files, 23,509 of them copies).
      const crc = crc32(inReads);
      const candidates = sent.get(crc);
      const same = candidates?.find((s) => s.bytes.equals(inReads));
      if (same !== undefined) {
        // The last bytes taken: their room is read into next.
        reads.giveBack(inReads.length);
        out.reads.push({ ...stat, copyOf: same.file });
        continue;
      }
      const held = heldAsUtf8(inReads);
      let bytes = inReads;
      if (!held) {
        bytes = plain.take(inReads.length);
        bytes.set(inReads);
        reads.giveBack(inReads.length);
      }
      if (kept + bytes.length <= keep) {
        kept += bytes.length;
        // A held text's slab is the load's for good: compared where it is, not copied.
        let copy = bytes;
        if (!held) {
          copy = keptTexts.take(bytes.length);
          copy.set(bytes);
        }
        if (candidates === undefined) sent.set(crc, [{ bytes: copy, file: next }]);
        else candidates.push({ bytes: copy, file: next });
      }
      bytesSent += bytes.length;
      // Found here, not again on the load's thread (`TextScan`).
      out.reads.push({ ...stat, bytes, ...(held ? { held } : {}), scan: scanOf(bytes, crc, held) });
    }
    port?.postMessage(out);
    unanswered.push(bytesSent);
    inFlight += bytesSent;
  }
}

/** What the load's thread would find in a text's bytes (`TextScan`); its front matter parsed
 *  when the load holds it as the bytes (`ParsedAhead`: else it decodes the text to keep anyway). */
function scanOf(bytes: Buffer, crc: number, held: boolean): TextScan {
  const parsed = held ? parseAhead(bytes) : undefined;
  return { crc, importLines: importLineStarts(bytes), ...(parsed !== undefined ? { parsed } : {}) };
}

// The load took the oldest batch: room for more.
port.on("message", () => {
  inFlight -= unanswered.shift() ?? 0;
  pump();
});
pump();
