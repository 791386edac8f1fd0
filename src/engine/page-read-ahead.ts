import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { WalkedRead } from "../config/inside-root.js";
import { LIMITS } from "../limits.js";
import type { TextScan } from "../vfs/parsed-texts.js";
import type { AheadRead, ReadAhead } from "../vfs/read-ahead.js";
import { workerExecArgv } from "./shell/worker-exec-argv.js";

/** What a page-reading worker is given (its `workerData`). */
export interface PageReadWork {
  readonly realRoot: string;
  readonly rels: readonly string[];
  readonly maxBytes: number;
  /** Files per answer. */
  readonly batch: number;
  /** Bytes of distinct texts the worker keeps to tell copies by (`readAheadDistinctBytes`). */
  readonly keep: number;
  /** Bytes of texts sent and not taken by the load, at most (`readAheadWindowBytes`). */
  readonly window: number;
}

/** A file as the worker read it: its stat, and its bytes or the number of the earlier file
 *  whose bytes are the same; undefined when the load is to read it itself. */
export type WorkerRead = (Omit<WalkedRead, "bytes"> & ({ readonly bytes: Uint8Array; readonly held?: true; readonly scan: TextScan } | { readonly copyOf: number })) | undefined;

/** One answer: the reads of files `first`, `first + 1`... */
export interface FromPageReadWorker {
  readonly first: number;
  readonly reads: WorkerRead[];
}

/**
 * `ReadAhead` by a worker thread (`page-read-worker.ts`), for a first load of at least
 * `LIMITS.load.readAheadFrom` files on more than one core: the worker opens, checks and reads
 * the files while this thread reads docs.json and makes pages of what has arrived. A worker
 * that fails or ends early leaves the files it did not answer to the load (`undefined`).
 */
export function startPageReadAhead(realRoot: string, rels: readonly string[], maxBytes: number, log: (line: string) => void = () => {}): ReadAhead | undefined {
  if (rels.length < LIMITS.load.readAheadFrom || availableParallelism() < 2) return undefined;
  try {
    return new PageReadAhead(realRoot, rels, maxBytes, {}, log);
  } catch (error) {
    log(`warning: a page-reading worker could not start (${(error as Error).message}); the load reads its files itself`);
    return undefined;
  }
}

export class PageReadAhead implements ReadAhead {
  private readonly worker: Worker;
  /** Reads arrived and not taken, by file number. */
  private readonly arrived: (AheadRead | undefined)[] = [];
  /** Files answered so far. */
  private answered = 0;
  /** Where each batch sent and not taken yet ends (file number after its last), oldest first. */
  private readonly batchEnds: number[] = [];
  private taken = 0;
  /** Set when the worker will answer no more (it failed, ended or was closed). */
  private ended = false;
  private wake: (() => void) | undefined;

  /** `sizes`: the worker's batch and window, other than `LIMITS.load`'s (tests). */
  constructor(realRoot: string, rels: readonly string[], maxBytes: number, sizes: Partial<Pick<PageReadWork, "batch" | "window">> = {}, log: (line: string) => void = () => {}) {
    const { file, entry } = workerEntry();
    const { readAheadBatch: batch, readAheadDistinctBytes: keep, readAheadWindowBytes: window } = LIMITS.load;
    this.worker = new Worker(file, { workerData: { realRoot, rels, maxBytes, batch, keep, window, ...sizes, ...(entry !== undefined ? { entry } : {}) } satisfies PageReadWork & { entry?: string }, execArgv: workerExecArgv(process.execArgv), stdout: true, stderr: true });
    // Nothing a worker prints reaches our stdout (stdio mode speaks the protocol there).
    this.worker.stdout.resume();
    this.worker.stderr.resume();
    this.worker.on("message", ({ first, reads }: FromPageReadWorker) => {
      reads.forEach((read, k) => {
        // A view of the worker's slab (shared, not copied): let go once the load has taken the text.
        this.arrived[first + k] = read === undefined || "copyOf" in read ? read : { ...read, bytes: Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.length) };
      });
      this.answered = first + reads.length;
      this.batchEnds.push(this.answered);
      this.notify();
    });
    const end = (): void => {
      this.ended = true;
      this.notify();
    };
    this.worker.on("error", (error) => {
      if (!this.ended) log(`warning: the page-reading worker failed (${error.message}); the load reads the rest of its files itself`);
      end();
    });
    this.worker.on("exit", end);
  }

  async next(): Promise<AheadRead | undefined> {
    const n = this.taken++;
    while (n >= this.answered && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    if (n >= this.answered) return undefined;
    const read = this.arrived[n];
    this.arrived[n] = undefined;
    // Its batch is taken: the worker may read more (`PageReadWork.window`).
    if (n + 1 === this.batchEnds[0]) {
      this.batchEnds.shift();
      if (!this.ended) this.worker.postMessage("took");
    }
    return read;
  }

  close(): void {
    this.ended = true;
    this.arrived.length = 0;
    void this.worker.terminate();
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/**
 * The worker's entry: next to the bundle (`dist/page-read-worker.mjs`, built with the CLI), or
 * from the TypeScript sources through tsx (a checkout without a build, tests, benchmarks).
 */
function workerEntry(): { file: URL; entry?: string } {
  const here = import.meta.url;
  if (new URL(here).pathname.endsWith(".ts")) return { file: new URL("./shell/worker-boot.mjs", here), entry: new URL("./page-read-worker.ts", here).href };
  return { file: new URL("./page-read-worker.mjs", here) };
}
