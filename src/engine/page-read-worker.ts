import { crc32 } from "node:zlib";
import { parentPort, workerData } from "node:worker_threads";
import { readWalkedBytes } from "../config/inside-root.js";
import type { FromPageReadWorker, PageReadWork } from "./page-read-ahead.js";

/**
 * A page-reading worker (see `PageReadAhead`): reads the files it was given in order, as a load
 * reads a walked file (`readWalkedBytes`), and answers in batches, at most `window` bytes of
 * batches the load has not taken yet (it says when it took one). Bytes equal to a file's sent
 * before are not sent again: the answer names that file, so a versioned site's copies cross the
 * thread boundary and are decoded once. Up to `keep` bytes of distinct texts are kept to compare
 * with (a CRC-32 finds the candidates, only equal bytes make a copy).
 */
const port = parentPort;
if (port === null) throw new Error("page-read-worker runs as a worker thread (see PageReadAhead)");
const { realRoot, rels, maxBytes, batch, keep, window } = workerData as PageReadWork;
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
    // Each text sent whole is a copy of its own (a small file's bytes are a slice of a shared
    // pool), moved to the load's thread rather than copied again.
    const moved: ArrayBuffer[] = [];
    let bytesSent = 0;
    for (; next < rels.length && out.reads.length < batch; next++) {
      const read = readWalkedBytes(realRoot, rels[next] as string, maxBytes);
      if (read === undefined) {
        out.reads.push(undefined);
        continue;
      }
      const { bytes, ...stat } = read;
      const crc = crc32(bytes);
      const candidates = sent.get(crc);
      const same = candidates?.find((s) => s.bytes.equals(bytes));
      if (same !== undefined) {
        out.reads.push({ ...stat, copyOf: same.file });
        continue;
      }
      if (kept + bytes.length <= keep) {
        kept += bytes.length;
        if (candidates === undefined) sent.set(crc, [{ bytes, file: next }]);
        else candidates.push({ bytes, file: next });
      }
      const own = new Uint8Array(bytes);
      moved.push(own.buffer);
      bytesSent += own.length;
      out.reads.push({ ...stat, bytes: own });
    }
    port?.postMessage(out, moved);
    unanswered.push(bytesSent);
    inFlight += bytesSent;
  }
}

// The load took the oldest batch: room for more.
port.on("message", () => {
  inFlight -= unanswered.shift() ?? 0;
  pump();
});
pump();
