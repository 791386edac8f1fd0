import { lstatSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { LIMITS } from "../limits.js";

/**
 * The `lstat`s of a start from the site cache (issue 22), taken by a thread of their own: each
 * cached page's file is stat'ed to tell it unchanged (`KnownPages`), 25,000 calls on a versioned
 * site, ~0.15 s of the loading thread's CPU with the `Stats` object and four `Date`s Node makes of
 * each. The thread stats the files in the load's order into shared memory while the loading thread
 * makes pages of those already answered; a stat it has not answered yet is waited for, and one it
 * cannot answer (it never started, failed, or is late) is taken by the loading thread, as before.
 *
 * The thread starts after the listing: every file it stats is in a folder already watched, as a
 * stat by the loading thread would be (`FolderListings.beforeListing`), so an edit after its stat
 * is an event. What it answers for a file is what `lstat` says of it, field for field.
 */
export interface StatAhead {
  /** The stat of file `n` (`rels[n]`), as `lstat` gave it: undefined when there is nothing at the
   *  path; `file` false for anything but a regular file. */
  stat(n: number): PlainStat | undefined;
  close(): void;
}

export interface PlainStat {
  readonly file: boolean;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly ctimeMs: number;
}

/** Per file in the shared answers: kind (`KIND_*`), size, modification time, inode, change time. */
const FIELDS = 5;
const KIND_MISSING = 0;
const KIND_FILE = 1;
const KIND_OTHER = 2;
/** `progress[1]`: the thread failed (the loading thread stats the rest itself). */
const FAILED = 1;

/** The thread's code: plain CommonJS on Node's own modules (no bundle entry, no loader). Answers
 *  are published every `every` files; every way out publishes, so no wait is left to its limit
 *  but by a thread that never ran. */
const STATTER = `
const { workerData } = require("node:worker_threads");
const { lstatSync } = require("node:fs");
const { prefix, rels, out, progress, every } = workerData;
const publish = (n) => {
  Atomics.store(progress, 0, n);
  Atomics.notify(progress, 0);
};
let n = 0;
try {
  for (; n < rels.length; n++) {
    const st = lstatSync(prefix + rels[n], { throwIfNoEntry: false });
    const at = n * ${FIELDS};
    if (st === undefined) out[at] = ${KIND_MISSING};
    else {
      out[at] = st.isFile() ? ${KIND_FILE} : ${KIND_OTHER};
      out[at + 1] = st.size;
      out[at + 2] = st.mtimeMs;
      out[at + 3] = st.ino;
      out[at + 4] = st.ctimeMs;
    }
    if ((n + 1) % every === 0) publish(n + 1);
  }
} catch {
  Atomics.store(progress, 1, ${FAILED});
}
publish(n);
Atomics.store(progress, 2, 1);
Atomics.notify(progress, 2);
`;

/**
 * Stat `rels` (each `prefix + rel`, not following a link in its last part) in a thread, for a
 * load of at least `LIMITS.load.readAheadFrom` files on more than one core; undefined otherwise,
 * or when the thread cannot start (the load stats its files itself).
 */
export function startStatAhead(prefix: string, rels: readonly string[]): StatAhead | undefined {
  if (rels.length < LIMITS.load.readAheadFrom || availableParallelism() < 2) return undefined;
  const out = new Float64Array(new SharedArrayBuffer(rels.length * FIELDS * 8));
  const progress = new Int32Array(new SharedArrayBuffer(12));
  let worker: Worker;
  try {
    worker = new Worker(STATTER, { eval: true, execArgv: [], workerData: { prefix, rels, out, progress, every: LIMITS.load.statAheadEvery }, stdout: true, stderr: true });
  } catch {
    return undefined;
  }
  worker.stdout.resume();
  worker.stderr.resume();
  // An error (the thread could not start) ends every wait: the loading thread stats the rest.
  worker.once("error", () => {
    Atomics.store(progress, 1, FAILED);
    Atomics.store(progress, 2, 1);
    Atomics.notify(progress, 0);
  });
  worker.unref();
  let given = false;
  const { statAheadWaitMs, statAheadWaitSliceMs } = LIMITS.load;
  return {
    stat(n) {
      // Waited for in slices (the thread's `error` event needs this thread's event loop), and
      // given up on at the limit: the rest is stat'ed here.
      if (!given) for (let waited = 0; Atomics.load(progress, 0) <= n && Atomics.load(progress, 2) === 0 && waited < statAheadWaitMs; waited += statAheadWaitSliceMs) Atomics.wait(progress, 0, Atomics.load(progress, 0), statAheadWaitSliceMs);
      if (given || Atomics.load(progress, 0) <= n) {
        given = true;
        return plainStat(prefix + (rels[n] as string));
      }
      const at = n * FIELDS;
      const kind = out[at];
      if (kind === KIND_MISSING) return undefined;
      return { file: kind === KIND_FILE, size: out[at + 1] as number, mtimeMs: out[at + 2] as number, ino: out[at + 3] as number, ctimeMs: out[at + 4] as number };
    },
    close() {
      void worker.terminate();
    },
  };
}

/** `lstat` here, as the thread takes it. */
export function plainStat(path: string): PlainStat | undefined {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st === undefined ? undefined : { file: st.isFile(), size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, ctimeMs: st.ctimeMs };
}
