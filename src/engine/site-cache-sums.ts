import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";

/**
 * The checksums of a site cache file's parts (`checksum`: SHA-256), computed by a thread of
 * their own from the open file while the reading thread reads and decodes the same parts: on a
 * 25,000-page site, 160 MB whose hashing was ~0.1 s of the reading thread's warm start, now on
 * the other core. The thread reads the file by its descriptor (the file the reader has open, so
 * a cache replaced meanwhile, by a rename, is not the one hashed) in slices of a few megabytes,
 * and holds no copy of it.
 *
 * `wait` blocks until the sums are known (the reader asks once its own work is done) and gives
 * undefined when the thread could not give them (it could not start, or failed): the reader then
 * hashes the parts itself, as before.
 */
export interface PendingSums {
  wait(): readonly string[] | undefined;
  /** End the thread without its sums (the reader found the file short). */
  stop(): void;
}

/** The hashing thread's code: plain CommonJS on Node's own modules, so it needs no bundle entry
 *  and no loader (under tsx as from dist/). */
const HASHER = `
const { workerData } = require("node:worker_threads");
const { readSync } = require("node:fs");
const { createHash } = require("node:crypto");
const { fd, parts, port, done } = workerData;
let sums;
try {
  const slice = Buffer.allocUnsafe(4 * 1024 * 1024);
  sums = parts.map(([at, bytes]) => {
    const hash = createHash("sha256");
    for (let read = 0; read < bytes; ) {
      const n = readSync(fd, slice, 0, Math.min(slice.length, bytes - read), at + read);
      if (n === 0) return "";
      hash.update(n === slice.length ? slice : slice.subarray(0, n));
      read += n;
    }
    return hash.digest("hex");
  });
} catch {
  sums = undefined;
}
port.postMessage(sums);
Atomics.store(done, 0, 1);
Atomics.notify(done, 0);
`;

/** Start hashing `parts` ([position, bytes] each) of the open file `fd`. */
export function startSums(fd: number, parts: readonly (readonly [number, number])[]): PendingSums {
  let worker: Worker;
  const { port1, port2 } = new MessageChannel();
  const done = new Int32Array(new SharedArrayBuffer(4));
  try {
    worker = new Worker(HASHER, { eval: true, execArgv: [], workerData: { fd, parts, port: port2, done }, transferList: [port2], stdout: true, stderr: true });
  } catch {
    port1.close();
    return { wait: () => undefined, stop: () => {} };
  }
  // An error (the thread could not start) ends the wait with no sums.
  worker.once("error", () => {
    Atomics.store(done, 0, 2);
    Atomics.notify(done, 0);
  });
  worker.unref();
  return {
    stop: () => {
      port1.close();
      void worker.terminate();
    },
    wait: () => {
      // The thread's `error` event needs this thread's event loop, which a blocked wait does not
      // run: waited in slices, and given up on once the thread has exited without sums.
      for (let waited = 0; Atomics.load(done, 0) === 0 && waited < WAIT_LIMIT_MS; waited += WAIT_SLICE_MS) Atomics.wait(done, 0, 0, WAIT_SLICE_MS);
      const message = Atomics.load(done, 0) === 1 ? receiveMessageOnPort(port1) : undefined;
      port1.close();
      void worker.terminate();
      const sums = message?.message as unknown;
      return Array.isArray(sums) && sums.length === parts.length && sums.every((s) => typeof s === "string") ? (sums as string[]) : undefined;
    },
  };
}

/** How long `wait` blocks at most between checks, and in all (a thread that never answers: the
 *  reader then hashes the parts itself). */
const WAIT_SLICE_MS = 50;
const WAIT_LIMIT_MS = 10_000;
