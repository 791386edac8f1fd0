import { crc32 } from "node:zlib";
import { parentPort, workerData } from "node:worker_threads";
import { readWalkedBytes } from "../config/inside-root.js";
import type { FromPageReadWorker, PageReadWork } from "./page-read-ahead.js";

/**
 * A page-reading worker (see `PageReadAhead`): reads the files it was given in order, as a load
 * reads a walked file (`readWalkedBytes`), and answers in batches. Bytes equal to a file's sent
 * before are not sent again: the answer names that file, so a versioned site's copies cross the
 * thread boundary and are decoded once. Up to `keep` bytes of distinct texts are kept to compare
 * with (a CRC-32 finds the candidates, only equal bytes make a copy).
 */
const port = parentPort;
if (port === null) throw new Error("page-read-worker runs as a worker thread (see PageReadAhead)");
const { realRoot, rels, maxBytes, batch, keep } = workerData as PageReadWork;
const sent = new Map<number, { readonly bytes: Buffer; readonly file: number }[]>();
let kept = 0;
let out: FromPageReadWorker = { first: 0, reads: [] };
/** The batch's byte arrays, moved to the load's thread rather than copied. */
let moved: ArrayBuffer[] = [];
for (let i = 0; i < rels.length; i++) {
  const read = readWalkedBytes(realRoot, rels[i] as string, maxBytes);
  if (read === undefined) out.reads.push(undefined);
  else {
    const { bytes, ...stat } = read;
    const crc = crc32(bytes);
    const candidates = sent.get(crc);
    const same = candidates?.find((s) => s.bytes.equals(bytes));
    if (same !== undefined) out.reads.push({ ...stat, copyOf: same.file });
    else {
      if (kept + bytes.length <= keep) {
        kept += bytes.length;
        if (candidates === undefined) sent.set(crc, [{ bytes, file: i }]);
        else candidates.push({ bytes, file: i });
      }
      // A copy of its own (a small file's bytes are a slice of a shared pool), to be moved.
      const own = new Uint8Array(bytes);
      moved.push(own.buffer);
      out.reads.push({ ...stat, bytes: own });
    }
  }
  if (out.reads.length === batch || i === rels.length - 1) {
    port.postMessage(out, moved);
    out = { first: i + 1, reads: [] };
    moved = [];
  }
}
