import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import { LIMITS } from "../../limits.js";
import type { Site, SiteFile } from "../../vfs/site.js";
import type { SiteView } from "../../vfs/view.js";
import { type Shell, type ShellLimits, type ShellResult, timeLimitMessage } from "./docs-shell.js";

/** Messages to the shell worker. Ordered: a `site` or `view` sent before a `run` is there for it. */
export type ToWorker =
  | { readonly t: "site"; readonly sid: number; readonly files: readonly SiteFile[] }
  | { readonly t: "view"; readonly sid: number; readonly vid: number; readonly paths: readonly string[]; readonly extra: readonly SiteFile[] }
  | { readonly t: "run"; readonly id: number; readonly vid: number; readonly command: string };

/** Messages from the shell worker. */
export type FromWorker =
  | { readonly t: "ready" }
  | { readonly t: "result"; readonly id: number; readonly result: ShellResult }
  | { readonly t: "missing"; readonly id: number };

/** What the worker is started with. */
export interface ShellWorkerData {
  /** The TypeScript entry `worker-boot.mjs` loads (absent when started from the bundle). */
  readonly entry: string | undefined;
  readonly limits: ShellLimits;
}

/** One reader's view as the worker knows it: the snapshot's files it may see, by path. */
interface ViewRef {
  readonly site: Site;
  readonly sid: number;
  readonly vid: number;
  /** Visible files of the snapshot, by path. */
  readonly paths: readonly string[];
  /** Visible files that are not in the snapshot (the generated skill). */
  readonly extra: readonly SiteFile[];
}

interface Pending {
  readonly id: number;
  readonly view: ViewRef;
  readonly command: string;
  readonly resolve: (result: ShellResult) => void;
  /** Workers this call was sent to (a worker that dies under it counts). */
  attempts: number;
  /** Times the worker answered `missing` (it had dropped the snapshot or view). */
  resends: number;
  timer: NodeJS.Timeout | undefined;
}

export interface ShellHostOptions {
  /** Warnings (a worker restarted) and whatever the worker prints. */
  readonly log?: (message: string) => void;
  /** The shell's bounds; the host allows `maxExecutionMs` plus `stuckGraceMs` for an answer. */
  readonly limits?: ShellLimits;
  readonly stuckGraceMs?: number;
  readonly maxHeapMb?: number;
}

/**
 * Runs docs-shell commands in a worker thread. Why a thread: just-bash's defence-in-depth
 * patches process globals while a command runs and makes every later `await` in the process pay
 * for async-context tracking (measured: the MCP search path costs ~2x the CPU once one shell
 * command has run in the same thread). In the worker the protection stays on for good, the main
 * thread keeps serving HTTP, MCP and search at full speed on the other core, and a command stuck
 * in synchronous code is ended by replacing the worker instead of freezing the server.
 *
 * The worker gets each site snapshot's file table once and each reader's view as the list of
 * paths the main thread decided that reader sees; a call then sends only its command.
 */
export class ShellHost {
  private worker: Worker | undefined;
  /** Whether the current worker has loaded (calls' time limits count from then). */
  private ready = false;
  private readonly pending = new Map<number, Pending>();
  private sitesSent = new Set<number>();
  private viewsSent = new Set<number>();
  private readonly siteIds = new WeakMap<Site, number>();
  private nextSid = 1;
  private nextVid = 1;
  private nextId = 1;
  private closed = false;
  private readonly log: (message: string) => void;
  private readonly limits: ShellLimits;
  private readonly deadlineMs: number;

  constructor(private readonly options: ShellHostOptions = {}) {
    this.log = options.log ?? (() => {});
    this.limits = options.limits ?? LIMITS.shell;
    this.deadlineMs = this.limits.maxExecutionMs + (options.stuckGraceMs ?? LIMITS.shellWorker.stuckGraceMs);
  }

  /** Start the worker now (loading takes a moment) instead of at the first command. */
  start(): void {
    if (!this.closed) this.ensureWorker();
  }

  /** A shell for one reader's view of a snapshot (what `DocsShell` is in this thread). */
  shellFor(site: Site, view: SiteView): Shell {
    let sid = this.siteIds.get(site);
    if (sid === undefined) {
      sid = this.nextSid++;
      this.siteIds.set(site, sid);
    }
    const paths: string[] = [];
    const extra: SiteFile[] = [];
    for (const file of view.files) {
      if (site.files.get(file.path) === file) paths.push(file.path);
      else extra.push(file);
    }
    const ref: ViewRef = { site, sid, vid: this.nextVid++, paths, extra };
    return { run: (command) => this.run(ref, command) };
  }

  /** Stop the worker; calls still running get an error result. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of [...this.pending.values()]) this.settle(p, failure("the docs shell was shut down"));
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) await worker.terminate();
  }

  private run(view: ViewRef, command: string): Promise<ShellResult> {
    if (this.closed) return Promise.resolve(failure("the docs shell was shut down"));
    return new Promise((resolve) => {
      const p: Pending = { id: this.nextId++, view, command, resolve, attempts: 0, resends: 0, timer: undefined };
      this.pending.set(p.id, p);
      this.dispatch(p);
    });
  }

  private dispatch(p: Pending): void {
    const worker = this.ensureWorker();
    // An idle worker never keeps the process alive; one running calls does, like any pending I/O.
    worker.ref();
    p.attempts++;
    clearTimeout(p.timer);
    p.timer = undefined;
    if (this.ready) this.arm(p);
    this.send(worker, p);
  }

  /** Start a call's clock. */
  private arm(p: Pending): void {
    p.timer = setTimeout(() => this.stuck(p), this.deadlineMs);
  }

  private send(worker: Worker, p: Pending): void {
    const { view } = p;
    if (!this.sitesSent.has(view.sid)) {
      worker.postMessage({ t: "site", sid: view.sid, files: [...view.site.files.values()] } satisfies ToWorker);
      this.sitesSent.add(view.sid);
    }
    if (!this.viewsSent.has(view.vid)) {
      worker.postMessage({ t: "view", sid: view.sid, vid: view.vid, paths: view.paths, extra: view.extra } satisfies ToWorker);
      this.viewsSent.add(view.vid);
    }
    worker.postMessage({ t: "run", id: p.id, vid: view.vid, command: p.command } satisfies ToWorker);
  }

  private onMessage(worker: Worker, message: FromWorker): void {
    if (worker !== this.worker) return;
    if (message.t === "ready") {
      // Loading is not running: calls sent while the worker loaded start their clocks now.
      this.ready = true;
      for (const p of this.pending.values()) if (p.timer === undefined) this.arm(p);
      return;
    }
    const p = this.pending.get(message.id);
    if (p === undefined) return;
    if (message.t === "result") {
      this.settle(p, message.result);
      return;
    }
    // The worker dropped the snapshot or the view (its caches are bounded): send both again.
    this.sitesSent.delete(p.view.sid);
    this.viewsSent.delete(p.view.vid);
    if (++p.resends > 3) this.settle(p, failure("the docs shell lost this reader's view; try again"));
    else this.send(worker, p);
  }

  private settle(p: Pending, result: ShellResult): void {
    clearTimeout(p.timer);
    this.pending.delete(p.id);
    if (this.pending.size === 0) this.worker?.unref();
    p.resolve(result);
  }

  /** No answer in time: the worker is stuck in synchronous code. The call ends; so does the worker. */
  private stuck(p: Pending): void {
    if (!this.pending.has(p.id)) return;
    this.log(`warning: a docs-shell command ran past its time limit without yielding; restarting the shell worker (${JSON.stringify(p.command.slice(0, 200))})`);
    this.settle(p, { stdout: "", stderr: timeLimitMessage(this.limits.maxExecutionMs), exitCode: 124, truncated: false });
    this.replaceWorker();
  }

  /** Drop the current worker; calls it was running go to a fresh one (or fail after their last try). */
  private replaceWorker(error?: Error): void {
    const old = this.worker;
    this.worker = undefined;
    this.ready = false;
    this.sitesSent = new Set();
    this.viewsSent = new Set();
    if (old !== undefined) void old.terminate();
    // A call that was running on both workers that died is the likely cause.
    const why =
      (error as { code?: string } | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? `out of memory: this command needs more than the docs shell's ${this.options.maxHeapMb ?? LIMITS.shellWorker.maxHeapMb} MB; narrow it`
        : "the docs shell stopped while running this command; try again";
    for (const p of [...this.pending.values()]) {
      clearTimeout(p.timer);
      p.timer = undefined;
      if (p.attempts >= LIMITS.shellWorker.maxAttempts) this.settle(p, failure(why));
      else if (!this.closed) this.dispatch(p);
    }
  }

  private ensureWorker(): Worker {
    if (this.worker !== undefined) return this.worker;
    const { file, entry } = workerEntry();
    const worker = new Worker(file, {
      workerData: { entry, limits: this.limits } satisfies ShellWorkerData,
      execArgv: workerExecArgv(process.execArgv),
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? LIMITS.shellWorker.maxHeapMb },
    });
    worker.unref();
    // Never on our stdout (stdio mode): whatever the worker prints is a log line.
    for (const stream of [worker.stdout, worker.stderr] as Readable[]) {
      createInterface({ input: stream }).on("line", (line) => this.log(`shell worker: ${line}`));
    }
    worker.on("message", (message: FromWorker) => this.onMessage(worker, message));
    let failed: Error | undefined;
    worker.on("error", (error) => {
      failed = error;
      if (worker === this.worker) this.log(`warning: the shell worker failed: ${error.message}`);
    });
    worker.on("exit", () => {
      if (worker === this.worker && !this.closed) this.replaceWorker(failed);
    });
    this.worker = worker;
    return worker;
  }
}

/**
 * The parent's Node options, less those a worker refuses: a CLI started as
 * `node --input-type=module -e ...` (how embedders and our bundle test start it) would otherwise
 * hand `--input-type` to the worker, which fails to start with ERR_WORKER_INVALID_EXEC_ARGV.
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  return execArgv.filter((arg) => !arg.startsWith("--input-type"));
}

function failure(why: string): ShellResult {
  return { stdout: "", stderr: `bash: ${why}\n`, exitCode: 1, truncated: false };
}

/**
 * The worker's entry: next to the bundle (`dist/shell-worker.mjs`, built with the CLI), or from
 * the TypeScript sources through tsx (a checkout without a build, tests, benchmarks).
 */
function workerEntry(): { file: URL; entry?: string } {
  const here = import.meta.url;
  if (new URL(here).pathname.endsWith(".ts")) return { file: new URL("./worker-boot.mjs", here), entry: new URL("./shell-worker.ts", here).href };
  return { file: new URL("./shell-worker.mjs", here) };
}
