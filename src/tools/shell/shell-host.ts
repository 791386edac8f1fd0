import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { LIMITS } from "../../limits.js";
import type { Site, SiteFile } from "../../vfs/site.js";
import type { SiteView } from "../../vfs/view.js";
import { type Shell, type ShellLimits, type ShellResult, timeLimitMessage } from "./docs-shell.js";
import { FairQueue } from "./fair-queue.js";
import { workerExecArgv } from "./worker-exec-argv.js";

/** Messages to the shell worker. Ordered: a `site` or `view` sent before a `run` is there for it. */
export type ToWorker =
  | { readonly t: "site"; readonly sid: number; readonly files: readonly SiteFile[] }
  | { readonly t: "view"; readonly sid: number; readonly vid: number; readonly paths: readonly string[]; readonly extra: readonly ExtraFile[] }
  | { readonly t: "run"; readonly id: number; readonly vid: number; readonly command: string };

/**
 * A visible file that is not the snapshot's own (a reader's variant of a file, the generated
 * skill), by id: its text goes to a worker once, however many views of readers in the same
 * access class share it.
 */
export interface ExtraFile {
  readonly id: number;
  /** Absent when this worker already has the file. */
  readonly file?: SiteFile;
}

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
  /** Visible files that are not in the snapshot (readers' variants, the generated skill). */
  readonly extra: readonly { readonly id: number; readonly file: SiteFile }[];
}

interface Pending {
  readonly id: number;
  readonly view: ViewRef;
  readonly command: string;
  readonly caller: string;
  readonly resolve: (result: ShellResult) => void;
  /** Times the worker answered `missing` (it had dropped the snapshot or view). */
  resends: number;
}

/** One worker of the pool. It runs one call at a time, so stopping it ends nobody else's. */
interface Slot {
  readonly worker: Worker;
  /** Whether it has loaded (a call's time limit counts from then). */
  ready: boolean;
  /** The call it runs, and that call's deadline. */
  call: Pending | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Snapshots, views and shared files (`ExtraFile`) this worker holds (sent once each). */
  readonly sitesSent: Set<number>;
  readonly viewsSent: Set<number>;
  readonly extrasSent: Set<number>;
  /** Why it failed, from its `error` event (its `exit` follows). */
  failed: Error | undefined;
  /** When its last call ended (or it started): idle long enough, it is stopped. */
  idleSince: number;
}

export interface ShellHostOptions {
  /** Warnings (a worker restarted) and whatever the workers print. */
  readonly log?: (message: string) => void;
  /** The shell's bounds; the host allows `maxExecutionMs` plus `stuckGraceMs` for an answer. */
  readonly limits?: ShellLimits;
  readonly stuckGraceMs?: number;
  readonly maxHeapMb?: number;
  /** Workers in the pool (default `shellPoolSize` of this machine's cores). */
  readonly workers?: number;
  /** Calls one caller may have waiting (default `LIMITS.shellWorker.maxQueuedPerCaller`). */
  readonly maxQueuedPerCaller?: number;
  /** A worker idle this long is stopped, all but one (default `LIMITS.shellWorker.idleMs`). */
  readonly idleMs?: number;
  /** Milliseconds (idle time); tests move it by hand. */
  readonly now?: () => number;
}

/** Workers of the shell pool on a machine with `cores` cores (docs/shell.md, "The worker pool"). */
export function shellPoolSize(cores: number): number {
  const { workersPerCore, minWorkers, maxWorkers } = LIMITS.shellWorker;
  return Math.min(maxWorkers, Math.max(minWorkers, cores * workersPerCore));
}

/** Workers one caller may hold at once: half the pool, so other callers always find one free. */
export function workersPerCaller(poolSize: number): number {
  return Math.max(1, Math.floor(poolSize / 2));
}

/**
 * Runs docs-shell commands in a pool of worker threads. Why threads: just-bash's
 * defence-in-depth patches process globals while a command runs and makes every later `await`
 * in the process pay for async-context tracking (measured: the MCP search path costs ~2x the
 * CPU once one shell command has run in the same thread). In a worker the protection stays on
 * for good, the main thread keeps serving HTTP, MCP and search at full speed, and a command
 * stuck in synchronous code is ended by replacing its worker instead of freezing the server.
 *
 * Why a pool, fairly shared: one worker serving every reader let one caller's runaway command
 * (or fifty of them) hold everyone's `ls /` until it was stopped. Each worker runs one call at
 * a time; calls wait in per-caller queues served in turn (`FairQueue`), one caller holds at most
 * half the workers, and a call past its time limit plus a short grace is ended with its worker,
 * which a fresh one replaces. Workers start as calls need them, one spare kept warm, up to the
 * pool's size, and stop after a minute idle, all but one (`retireIdle`).
 *
 * Each worker gets a site snapshot's file table once and each reader's view as the list of
 * paths the main thread decided that reader sees; a call then sends only its command.
 */
export class ShellHost {
  private readonly slots: Slot[] = [];
  private readonly queue: FairQueue<Pending>;
  /** Ids of files views show that are not their snapshot's own (see `ExtraFile`). */
  private readonly extraIds = new WeakMap<SiteFile, number>();
  private nextExtra = 1;
  private readonly siteIds = new WeakMap<Site, number>();
  private nextSid = 1;
  private nextVid = 1;
  private nextId = 1;
  private closed = false;
  /** A worker ended before it loaded, and none has loaded since: start no spare (it would fail too). */
  private bootFailing = false;
  private readonly log: (message: string) => void;
  private readonly limits: ShellLimits;
  private readonly deadlineMs: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private readonly idleSweep: NodeJS.Timeout;
  /** Workers at most. */
  readonly size: number;

  constructor(private readonly options: ShellHostOptions = {}) {
    this.log = options.log ?? (() => {});
    this.limits = options.limits ?? LIMITS.shell;
    this.deadlineMs = this.limits.maxExecutionMs + (options.stuckGraceMs ?? LIMITS.shellWorker.stuckGraceMs);
    this.size = Math.max(1, options.workers ?? shellPoolSize(availableParallelism()));
    this.queue = new FairQueue(options.maxQueuedPerCaller ?? LIMITS.shellWorker.maxQueuedPerCaller, workersPerCaller(this.size));
    this.idleMs = options.idleMs ?? LIMITS.shellWorker.idleMs;
    this.now = options.now ?? Date.now;
    this.idleSweep = setInterval(() => this.retireIdle(), this.idleMs);
    this.idleSweep.unref();
  }

  /** Workers running now, busy or idle. */
  get workers(): number {
    return this.slots.length;
  }

  /**
   * Stop the workers idle for `idleMs`, all but one: a burst may have started the whole pool,
   * and each worker holds a copy of the site's text (with `--workers N`, N pools of it). One stays
   * warm so the next call does not wait for a worker to load. Returns how many were stopped.
   */
  retireIdle(): number {
    const cutoff = this.now() - this.idleMs;
    const idle = this.slots.filter((s) => s.call === undefined && s.ready);
    const old = idle.filter((s) => s.idleSince <= cutoff);
    // Keep one idle worker: a recent one if there is one, else the last of the old ones.
    const retire = old.length === idle.length ? old.slice(1) : old;
    for (const slot of retire) this.retire(slot);
    return retire.length;
  }

  /** Start a worker now (loading takes a moment) instead of at the first command. */
  start(): void {
    if (!this.closed && this.slots.length === 0) this.spawn();
  }

  /** A shell for one reader's view of a snapshot (what `DocsShell` is in this thread). */
  shellFor(site: Site, view: SiteView): Shell {
    let sid = this.siteIds.get(site);
    if (sid === undefined) {
      sid = this.nextSid++;
      this.siteIds.set(site, sid);
    }
    const paths: string[] = [];
    const extra: { id: number; file: SiteFile }[] = [];
    for (const file of view.files) {
      if (site.files.get(file.path) === file) {
        paths.push(file.path);
        continue;
      }
      let id = this.extraIds.get(file);
      if (id === undefined) {
        id = this.nextExtra++;
        this.extraIds.set(file, id);
      }
      extra.push({ id, file });
    }
    const ref: ViewRef = { site, sid, vid: this.nextVid++, paths, extra };
    return { run: (command, caller) => this.run(ref, command, caller ?? "") };
  }

  /** Stop every worker; calls running or waiting get an error result. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.idleSweep);
    for (const p of this.queue.drain()) p.resolve(failure("the docs shell was shut down"));
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      clearTimeout(slot.timer);
      if (slot.call !== undefined) slot.call.resolve(failure("the docs shell was shut down"));
      slot.call = undefined;
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private run(view: ViewRef, command: string, caller: string): Promise<ShellResult> {
    if (this.closed) return Promise.resolve(failure("the docs shell was shut down"));
    return new Promise((resolve) => {
      const p: Pending = { id: this.nextId++, view, command, caller, resolve, resends: 0 };
      if (!this.queue.push(caller, p)) {
        const max = this.options.maxQueuedPerCaller ?? LIMITS.shellWorker.maxQueuedPerCaller;
        resolve({
          stdout: "",
          stderr: `bash: too many commands of this client waiting (at most ${max}; a limit of the docs shell: wait for their results)\n`,
          exitCode: 126,
          truncated: false,
        });
        return;
      }
      this.pump();
    });
  }

  /** Give waiting calls to free workers, starting workers up to the pool's size. */
  private pump(): void {
    if (this.closed) return;
    for (;;) {
      let slot = this.slots.find((s) => s.call === undefined);
      if (slot === undefined && this.queue.waiting > 0 && this.slots.length < this.size) slot = this.spawn();
      if (slot === undefined) break;
      const next = this.queue.take();
      if (next === undefined) break;
      this.assign(slot, next.item);
    }
    // One spare warm: the next caller should not wait for a worker to load.
    if (!this.bootFailing && !this.slots.some((s) => s.call === undefined) && this.slots.length < this.size) this.spawn();
  }

  private assign(slot: Slot, p: Pending): void {
    slot.call = p;
    // An idle worker never keeps the process alive; one running a call does, like any pending I/O.
    slot.worker.ref();
    if (slot.ready) this.arm(slot);
    this.send(slot, p);
  }

  /** Start the call's clock: past its limit and the grace, the worker is taken for stuck. */
  private arm(slot: Slot): void {
    const p = slot.call;
    if (p === undefined) return;
    slot.timer = setTimeout(() => this.stuck(slot, p), this.deadlineMs);
  }

  private send(slot: Slot, p: Pending): void {
    const { view } = p;
    const { worker } = slot;
    if (!slot.sitesSent.has(view.sid)) {
      worker.postMessage({ t: "site", sid: view.sid, files: [...view.site.files.values()] } satisfies ToWorker);
      slot.sitesSent.add(view.sid);
    }
    if (!slot.viewsSent.has(view.vid)) {
      const extra = view.extra.map((e) => (slot.extrasSent.has(e.id) ? { id: e.id } : { id: e.id, file: e.file }));
      for (const e of view.extra) slot.extrasSent.add(e.id);
      worker.postMessage({ t: "view", sid: view.sid, vid: view.vid, paths: view.paths, extra } satisfies ToWorker);
      slot.viewsSent.add(view.vid);
    }
    worker.postMessage({ t: "run", id: p.id, vid: view.vid, command: p.command } satisfies ToWorker);
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    if (!this.slots.includes(slot)) return;
    if (message.t === "ready") {
      // Loading is not running: a call given to the worker while it loaded starts its clock now.
      slot.ready = true;
      this.bootFailing = false;
      if (slot.call !== undefined && slot.timer === undefined) this.arm(slot);
      return;
    }
    const p = slot.call;
    if (p === undefined || p.id !== message.id) return;
    if (message.t === "result") {
      // A call stopped at its time limit may leave work of its own running in the worker (a
      // command that ignored the abort): the next call gets a fresh worker instead.
      if (message.result.exitCode === 124) {
        this.retire(slot);
        this.answer(p, message.result);
      } else {
        this.finish(slot, message.result);
      }
      return;
    }
    // The worker dropped the snapshot or the view (its caches are bounded): send both again.
    slot.sitesSent.delete(p.view.sid);
    slot.viewsSent.delete(p.view.vid);
    for (const e of p.view.extra) slot.extrasSent.delete(e.id);
    if (++p.resends > 3) this.finish(slot, failure("the docs shell lost this reader's view; try again"));
    else this.send(slot, p);
  }

  /** The worker's call ended: answer it, and give the worker the next one. */
  private finish(slot: Slot, result: ShellResult): void {
    const p = slot.call;
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.call = undefined;
    slot.idleSince = this.now();
    slot.worker.unref();
    if (p !== undefined) this.answer(p, result);
    else this.pump();
  }

  /** A call is over: its caller may run another, and the waiting calls go to free workers. */
  private answer(p: Pending, result: ShellResult): void {
    this.queue.done(p.caller);
    p.resolve(result);
    this.pump();
  }

  /** No answer in time: the worker is stuck in synchronous code. The call ends; so does the worker. */
  private stuck(slot: Slot, p: Pending): void {
    if (slot.call !== p) return;
    this.log(`warning: a docs-shell command ran past its time limit without yielding; restarting its shell worker (${JSON.stringify(p.command.slice(0, 200))})`);
    this.retire(slot);
    this.answer(p, { stdout: "", stderr: timeLimitMessage(this.limits.maxExecutionMs), exitCode: 124, truncated: false });
  }

  /** Take a worker out of the pool and stop it (a fresh one is started as calls need it). */
  private retire(slot: Slot): void {
    const k = this.slots.indexOf(slot);
    if (k !== -1) this.slots.splice(k, 1);
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.call = undefined;
    void slot.worker.terminate();
  }

  /** A worker ended by itself (out of memory, a crash): its call fails with the reason. */
  private died(slot: Slot): void {
    if (!this.slots.includes(slot) || this.closed) return;
    const p = slot.call;
    if (!slot.ready) this.bootFailing = true;
    this.retire(slot);
    if (p === undefined) {
      this.pump();
      return;
    }
    const why =
      (slot.failed as { code?: string } | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? `out of memory: this command needs more than the docs shell's ${this.options.maxHeapMb ?? LIMITS.shellWorker.maxHeapMb} MB; narrow it`
        : "the docs shell stopped while running this command; try again";
    this.answer(p, failure(why));
  }

  private spawn(): Slot {
    const { file, entry } = workerEntry();
    const worker = new Worker(file, {
      workerData: { entry, limits: this.limits } satisfies ShellWorkerData,
      execArgv: workerExecArgv(process.execArgv),
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? LIMITS.shellWorker.maxHeapMb },
    });
    worker.unref();
    const slot: Slot = { worker, ready: false, call: undefined, timer: undefined, sitesSent: new Set(), viewsSent: new Set(), extrasSent: new Set(), failed: undefined, idleSince: this.now() };
    // Never on our stdout (stdio mode): whatever the worker prints is a log line.
    for (const stream of [worker.stdout, worker.stderr] as Readable[]) {
      createInterface({ input: stream }).on("line", (line) => this.log(`shell worker: ${line}`));
    }
    worker.on("message", (message: FromWorker) => this.onMessage(slot, message));
    worker.on("error", (error) => {
      slot.failed = error;
      if (this.slots.includes(slot)) this.log(`warning: a shell worker failed: ${error.message}`);
    });
    worker.on("exit", () => this.died(slot));
    this.slots.push(slot);
    return slot;
  }
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
