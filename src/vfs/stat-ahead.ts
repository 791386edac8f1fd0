import { lstatSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { LIMITS } from "../limits.js";

/**
 * The `lstat`s of a start from the site cache (issue 22), taken by a thread of their own: each
 * cached page's file is stat'ed to tell it unchanged (`KnownPages`), 25,000 calls on a versioned
 * site, ~0.15 s of the loading thread's CPU with the `Stats` object and four `Date`s Node makes of
 * each. The thread stats the files into shared memory while the loading thread lists the folders
 * and makes pages of those already answered; a stat it has not answered yet is waited for, and one
 * it cannot answer (it never started, failed, or is late) is taken by the loading thread, as before.
 *
 * The files are grouped by folder, and a folder's files are stat'ed only once the loading thread
 * has opened it (`open`: the walk watched it, `FolderListings.beforeListing`), so an edit after
 * a file's stat is an event, as after a stat by the loading thread; `openAll` opens the folders
 * the walk did not reach (after it, as before). The thread starts before the walk, and stats a
 * folder's files while the walk goes on: on a start of 25,000 pages from the cache, the loading
 * thread waited 0.1-0.3 s for the stats after the walk, where they began. What it answers for a
 * file is what `lstat` says of it, field for field.
 */
export interface StatAhead {
  /** The stat of file `n` (`rels[n]`), as `lstat` gave it: undefined when there is nothing at the
   *  path; `file` false for anything but a regular file. */
  stat(n: number): PlainStat | undefined;
  /** Folder `folder` (repo-relative, "" for the root) is watched: its files may be stat'ed from now on. */
  open(folder: string): void;
  /** Every folder not opened yet may be: the walk is over. */
  openAll(): void;
  close(): void;
}

export interface PlainStat {
  readonly file: boolean;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly ctimeMs: number;
}

/** Which of the files to stat (`trusted`: 1 for those, all without), and whether each waits
 *  for its folder to be opened (`gated`; else every folder is open from the start). */
export interface StatAheadOptions {
  readonly trusted?: Uint8Array;
  readonly gated?: boolean;
}

/** Per file in the shared answers: size, modification time, inode, change time. */
const FIELDS = 4;
/** A file's state (`done`): not answered yet, or answered as one of the kinds. */
const PENDING = 0;
const KIND_MISSING = 1;
const KIND_FILE = 2;
const KIND_OTHER = 3;
/** `control[FAILED_AT]`: the thread failed (the loading thread stats the rest itself).
 *  `control[WRITTEN_AT]`: bytes of opened folders' names in `names` (each ended by a NUL, which
 *  no path holds); `control[ALL_AT]`: every folder is open. */
const FAILED_AT = 0;
const WRITTEN_AT = 1;
const ALL_AT = 2;
/** Folders opened between two wakes of a waiting thread (`open`). */
const OPEN_WAKE_EVERY = 32;
/** Bytes for opened folders' names per file to stat: past them, folders wait for `openAll`. */
const NAME_BYTES_PER_FILE = 48;

/** The thread's code: plain CommonJS on Node's own modules (no bundle entry, no loader). It
 *  groups the files by folder (on its own core, while the walk starts), stats each folder's
 *  files once the folder is opened, and the rest once all are; each answer is published (and a
 *  wait for it woken) as it is made, and a failure ends every wait. */
const STATTER = `
const { workerData } = require("node:worker_threads");
const { lstatSync } = require("node:fs");
const { prefix, rels, trusted, out, done, names, control } = workerData;
const text = Buffer.from(names.buffer, names.byteOffset, names.byteLength);
const statOne = (n) => {
  const st = lstatSync(prefix + rels[n], { throwIfNoEntry: false });
  let kind = ${KIND_MISSING};
  if (st !== undefined) {
    kind = st.isFile() ? ${KIND_FILE} : ${KIND_OTHER};
    const at = n * ${FIELDS};
    out[at] = st.size;
    out[at + 1] = st.mtimeMs;
    out[at + 2] = st.ino;
    out[at + 3] = st.ctimeMs;
  }
  Atomics.store(done, n, kind);
  Atomics.notify(done, n);
};
try {
  // Grouped by folder; a file in the folder of the one before (the cache keeps a folder's files
  // together) is told so without a lookup: its last slash where that folder ends, the same start.
  const byFolder = new Map();
  let files;
  let folder;
  for (let n = 0; n < rels.length; n++) {
    if (trusted !== undefined && trusted[n] !== 1) continue;
    const rel = rels[n];
    const at = rel.lastIndexOf("/");
    if (folder === undefined || at !== (folder === "" ? -1 : folder.length) || !rel.startsWith(folder)) {
      folder = at < 0 ? "" : rel.slice(0, at);
      files = byFolder.get(folder);
      if (files === undefined) byFolder.set(folder, (files = []));
    }
    files.push(n);
  }
  let read = 0;
  for (;;) {
    const written = Atomics.load(control, ${WRITTEN_AT});
    if (read < written) {
      for (let end = text.indexOf(0, read); end >= 0 && end < written; end = text.indexOf(0, read)) {
        const folder = text.toString("utf8", read, end);
        read = end + 1;
        const files = byFolder.get(folder);
        if (files === undefined) continue;
        byFolder.delete(folder);
        for (const n of files) statOne(n);
      }
      continue;
    }
    if (Atomics.load(control, ${ALL_AT}) === 1) break;
    Atomics.wait(control, ${WRITTEN_AT}, written, 1000);
  }
  for (const files of byFolder.values()) for (const n of files) statOne(n);
} catch {
  Atomics.store(control, ${FAILED_AT}, 1);
  for (let n = 0; n < rels.length; n++) Atomics.notify(done, n);
}
`;

/**
 * Stat `rels` (each `prefix + rel`, not following a link in its last part; only the `trusted`
 * ones when given) in a thread, each folder's files once it is opened when `gated`, for a load
 * of at least `LIMITS.load.readAheadFrom` files on more than one core; undefined otherwise, or
 * when the thread cannot start (the load stats its files itself).
 */
export function startStatAhead(prefix: string, rels: readonly string[], options: StatAheadOptions = {}): StatAhead | undefined {
  if (rels.length < LIMITS.load.readAheadFrom || availableParallelism() < 2) return undefined;
  const out = new Float64Array(new SharedArrayBuffer(rels.length * FIELDS * 8));
  const done = new Int32Array(new SharedArrayBuffer(rels.length * 4));
  const names = new Uint8Array(new SharedArrayBuffer(rels.length * NAME_BYTES_PER_FILE));
  const text = Buffer.from(names.buffer, names.byteOffset, names.byteLength);
  const control = new Int32Array(new SharedArrayBuffer(12));
  let written = 0;
  let opened = 0;
  let full = false;
  // A failure (the thread could not start) ends every wait: the loading thread stats the rest.
  const fail = (): void => {
    Atomics.store(control, FAILED_AT, 1);
    for (let n = 0; n < rels.length; n++) Atomics.notify(done, n);
  };
  let worker: Worker;
  try {
    worker = new Worker(STATTER, { eval: true, execArgv: [], workerData: { prefix, rels, trusted: options.trusted, out, done, names, control }, stdout: true, stderr: true });
  } catch {
    return undefined;
  }
  worker.stdout.resume();
  worker.stderr.resume();
  worker.once("error", fail);
  worker.unref();
  let given = false;
  const { statAheadWaitMs, statAheadWaitSliceMs } = LIMITS.load;
  const ahead: StatAhead = {
    stat(n) {
      // A file the thread does not stat (not `trusted`) is stat'ed here.
      if (options.trusted !== undefined && options.trusted[n] !== 1) return plainStat(prefix + (rels[n] as string));
      // Waited for in slices (the thread's `error` event needs this thread's event loop), and
      // given up on at the limit: the rest is stat'ed here.
      if (!given) for (let waited = 0; Atomics.load(done, n) === PENDING && Atomics.load(control, FAILED_AT) === 0 && waited < statAheadWaitMs; waited += statAheadWaitSliceMs) Atomics.wait(done, n, PENDING, statAheadWaitSliceMs);
      const kind = given ? PENDING : Atomics.load(done, n);
      if (kind === PENDING) {
        given = true;
        return plainStat(prefix + (rels[n] as string));
      }
      if (kind === KIND_MISSING) return undefined;
      const at = n * FIELDS;
      return { file: kind === KIND_FILE, size: out[at] as number, mtimeMs: out[at + 1] as number, ino: out[at + 2] as number, ctimeMs: out[at + 3] as number };
    },
    open(folder) {
      if (full) return;
      // A name that does not fit waits for `openAll`, as do all after it (names are read in order).
      const bytes = Buffer.byteLength(folder);
      if (written + bytes + 1 > text.length) {
        full = true;
        return;
      }
      text.write(folder, written);
      text[written + bytes] = 0;
      written += bytes + 1;
      Atomics.store(control, WRITTEN_AT, written);
      // Woken every few folders, not at each: a wake is a system call and a switch of threads,
      // 4,765 of them in a walk of 25,000 pages' folders; a thread awake reads what is written.
      if (++opened % OPEN_WAKE_EVERY === 0) Atomics.notify(control, WRITTEN_AT);
    },
    openAll() {
      Atomics.store(control, ALL_AT, 1);
      Atomics.notify(control, WRITTEN_AT);
    },
    close() {
      void worker.terminate();
    },
  };
  if (options.gated !== true) ahead.openAll();
  return ahead;
}

/** `lstat` here, as the thread takes it. */
export function plainStat(path: string): PlainStat | undefined {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st === undefined ? undefined : { file: st.isFile(), size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, ctimeMs: st.ctimeMs };
}
