import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";

/**
 * The checksums of a site cache file's parts (`checksum`: SHA-256), computed by a thread of
 * their own from the open file while the reading thread decodes the body: on a 25,000-page
 * site, 147 MB whose hashing was ~0.1 s of the reading thread's warm start, now on the other
 * core. The thread reads the file by its descriptor (the file the reader has open, so a cache
 * replaced meanwhile, by a rename, is not the one hashed).
 *
 * A part given memory to read into (`into`: the large typed arrays, in shared memory) is read
 * there by this thread, then hashed where it lies: the reading thread no longer reads them
 * (127 of the 147 MB: ~0.15-0.25 s of its CPU, the copy out of the page cache and the faults of
 * fresh memory, issue 22), and the sum is of the very bytes it uses. Other parts (the body,
 * which the reader reads itself to decode it first) are read in slices of a few megabytes,
 * holding no copy.
 *
 * `waitRead` blocks until the parts given memory are read (true), or the thread could not read
 * them (false: the reader reads them itself). `wait` blocks until the sums are known and gives
 * undefined when the thread could not give them: the reader then hashes the parts itself.
 */
export interface PendingSums {
  waitRead(): boolean;
  wait(): readonly string[] | undefined;
  /** End the thread without its sums (the reader found the file short). */
  stop(): void;
}

/** The thread's states (`done[0]`) and how its reads went (`done[1]`). */
const PENDING = 0;
const DONE = 1;
const FAILED = 2;

/** The hashing thread's code: plain CommonJS on Node's own modules, so it needs no bundle entry
 *  and no loader (under tsx as from dist/). Every way out sets both states, so no wait is left
 *  to its time limit but by a thread that never ran. */
const HASHER = `
const { workerData } = require("node:worker_threads");
const { readSync } = require("node:fs");
const { createHash } = require("node:crypto");
const { fd, parts, into, port, done } = workerData;
const settle = (slot, state) => {
  Atomics.store(done, slot, state);
  Atomics.notify(done, slot);
};
let sums;
try {
  let read = true;
  parts.forEach(([at, bytes], i) => {
    const memory = into[i];
    for (let got = 0; read && memory !== undefined && got < bytes; ) {
      const n = readSync(fd, memory, got, bytes - got, at + got);
      if (n === 0) read = false;
      got += n;
    }
  });
  settle(1, read ? ${DONE} : ${FAILED});
  const slice = Buffer.allocUnsafe(4 * 1024 * 1024);
  sums = parts.map(([at, bytes], i) => {
    const hash = createHash("sha256");
    if (into[i] !== undefined) return read ? hash.update(into[i]).digest("hex") : "";
    for (let got = 0; got < bytes; ) {
      const n = readSync(fd, slice, 0, Math.min(slice.length, bytes - got), at + got);
      if (n === 0) return "";
      hash.update(n === slice.length ? slice : slice.subarray(0, n));
      got += n;
    }
    return hash.digest("hex");
  });
} catch {
  sums = undefined;
}
settle(1, Atomics.load(done, 1) === ${PENDING} ? ${FAILED} : Atomics.load(done, 1));
port.postMessage(sums);
settle(0, ${DONE});
`;

/**
 * Start hashing `parts` ([position, bytes] each) of the open file `fd`, reading part `i` into
 * `into[i]` first where given (memory of a `SharedArrayBuffer`, of the part's length).
 */
export function startSums(fd: number, parts: readonly (readonly [number, number])[], into: readonly (Uint8Array | undefined)[] = []): PendingSums {
  let worker: Worker;
  const { port1, port2 } = new MessageChannel();
  const done = new Int32Array(new SharedArrayBuffer(8));
  try {
    worker = new Worker(HASHER, { eval: true, execArgv: [], workerData: { fd, parts, into: parts.map((_, i) => into[i]), port: port2, done }, transferList: [port2], stdout: true, stderr: true });
  } catch {
    port1.close();
    return { waitRead: () => false, wait: () => undefined, stop: () => {} };
  }
  // An error (the thread could not start) ends the waits with nothing.
  worker.once("error", () => {
    for (const slot of [1, 0]) {
      Atomics.compareExchange(done, slot, PENDING, FAILED);
      Atomics.notify(done, slot);
    }
  });
  worker.unref();
  // The thread's `error` event needs this thread's event loop, which a blocked wait does not
  // run: waited in slices, and given up on at the limit.
  const waitFor = (slot: number): number => {
    for (let waited = 0; Atomics.load(done, slot) === PENDING && waited < WAIT_LIMIT_MS; waited += WAIT_SLICE_MS) Atomics.wait(done, slot, PENDING, WAIT_SLICE_MS);
    return Atomics.load(done, slot);
  };
  return {
    waitRead: () => waitFor(1) === DONE,
    stop: () => {
      port1.close();
      void worker.terminate();
    },
    wait: () => {
      const message = waitFor(0) === DONE ? receiveMessageOnPort(port1) : undefined;
      port1.close();
      void worker.terminate();
      const sums = message?.message as unknown;
      return Array.isArray(sums) && sums.length === parts.length && sums.every((s) => typeof s === "string") ? (sums as string[]) : undefined;
    },
  };
}

/** How long a wait blocks at most between checks, and in all (a thread that never answers: the
 *  reader then reads or hashes the parts itself). */
const WAIT_SLICE_MS = 50;
const WAIT_LIMIT_MS = 10_000;
