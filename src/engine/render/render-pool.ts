import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import { LIMITS } from "../../limits.js";
import { FairQueue } from "../shell/fair-queue.js";
import { workerExecArgv } from "../shell/worker-exec-argv.js";
import type { RenderedMdx, RenderOptions } from "./render-mdx.js";
import type { FromRenderWorker, RenderEnd, RenderEvent, RenderWorkerData, ToRenderWorker } from "./render-protocol.js";
import { RenderUnavailable } from "./render-unavailable.js";
import { renderWeight } from "./render-weight.js";

export interface RenderPoolOptions {
  /** Workers at most (default `LIMITS.preview.renderWorkers`). */
  readonly workers?: number;
  /** Workers kept for callers with nothing rendering (default `LIMITS.preview.renderReserve`; capped below `workers`). */
  readonly reserveWorkers?: number;
  /** Pages one caller may have rendering or waiting at once (default `LIMITS.preview.maxRendersPerCaller`). */
  readonly maxHeldPerCaller?: number;
  /** A render running longer ends with its worker (default `LIMITS.preview.renderTimeMs`). */
  readonly timeLimitMs?: number;
  readonly maxHeapMb?: number;
  /** A worker idle this long is stopped, all but one (default `LIMITS.preview.renderIdleMs`). */
  readonly idleMs?: number;
  /** Warnings (a worker ended) and whatever the workers print. */
  readonly log?: (message: string) => void;
  /**
   * Arms a render's time limit (`fire` after `ms`); `setTimeout` by default. Tests pass their own
   * and fire it by hand: whether a render outlasts its limit then depends on no machine's speed.
   */
  readonly limitTimer?: (fire: () => void, ms: number) => { cancel(): void };
  /** Told of everything the pool does, in order: tests watch it. */
  readonly onEvent?: (event: RenderEvent) => void;
  /**
   * Tests only: a shared Int32 each worker waits on (while it is 0) before it renders a page,
   * so a test holds a render as long as it likes without timing anything. Longer than one Int32,
   * each page waits on its own (`gate[job id]`, pages past its end do not wait), so a test ends
   * pages one by one in the order it chooses.
   */
  readonly gate?: Int32Array;
}

interface Job {
  readonly id: number;
  readonly caller: string;
  /** What the worker is sent (less the job's id). */
  readonly work: { readonly source: string; readonly filePath: string } | { readonly markdown: readonly string[] };
  /** The page the job is for, in log lines. */
  readonly filePath: string;
  readonly resolve: (result: RenderedMdx | readonly string[]) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  readonly n: number;
  readonly worker: Worker;
  booted: boolean;
  job: Job | undefined;
  /** The running page's time limit. */
  limit: { cancel(): void } | undefined;
  /** The idle worker's retirement. */
  timer: NodeJS.Timeout | undefined;
  failed: Error | undefined;
}

/**
 * Renders pages' MDX (`renderMdx`) in a pool of worker threads, so that no page holds the
 * thread that answers everyone else (issue 25, adversary finding 39): a page just under the
 * markup limits still takes seconds of CPU to parse (a table of 9,409 cells: 2.0 s on a busy
 * machine), and meanwhile other pages, searches and MCP calls waited. Now they are answered
 * while it renders; a render past `timeLimitMs` (a shape the markup scans do not count) ends
 * with its worker and a `RenderUnavailable`, which the route answers as a 503 page.
 *
 * Pages wait in per-caller queues served in turn (`FairQueue`, as the shell pool's calls): one
 * caller holds at most `maxHeldPerCaller` pages; the caller who sent the least to render (its
 * pages' expected cost, `renderWeight`) in the pool's last `LIMITS.preview.renderRecentStarts`
 * starts goes first; and one already rendering, or who sent more than half as much as a caller rendering now, never takes the last
 * `reserveWorkers`, so a reader opening a page finds a worker while others' slow pages render,
 * also when many addresses each keep one in flight (adversary round 51 F3) and when a few flood
 * it with the heaviest pages (round 65 F3: counted in pages, a reader's four small ones were
 * "more" than their two or three each).
 * Workers start as pages need them and stop after `idleMs` idle, all but one. They never keep
 * the process alive: a request waiting for one does.
 */
export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: FairQueue<Job>;
  private readonly size: number;
  private readonly maxHeld: number;
  /** Workers kept for callers who rendered nothing lately (`FairQueue`'s reserve). */
  private readonly reserve: number;
  private readonly timeLimitMs: number;
  private readonly idleMs: number;
  private readonly log: (message: string) => void;
  private readonly emit: (event: RenderEvent) => void;
  private readonly limitTimer: (fire: () => void, ms: number) => { cancel(): void };
  private nextJob = 1;
  private nextWorker = 1;
  /** Workers in a row that ended before they were loaded. */
  private bootFailures = 0;
  private closed = false;
  /** Waiting for a worker to load (`start`). */
  private whenStarted: (() => void)[] = [];

  constructor(private readonly options: RenderPoolOptions = {}) {
    const defaults = LIMITS.preview;
    this.size = Math.max(1, options.workers ?? defaults.renderWorkers);
    this.maxHeld = options.maxHeldPerCaller ?? defaults.maxRendersPerCaller;
    this.timeLimitMs = options.timeLimitMs ?? defaults.renderTimeMs;
    this.idleMs = options.idleMs ?? defaults.renderIdleMs;
    this.log = options.log ?? (() => {});
    this.emit = options.onEvent ?? (() => {});
    this.limitTimer =
      options.limitTimer ??
      ((fire, ms) => {
        const timer = setTimeout(fire, ms);
        return { cancel: () => clearTimeout(timer) };
      });
    const reserve = Math.min(options.reserveWorkers ?? defaults.renderReserve, this.size - 1);
    this.reserve = reserve;
    this.queue = new FairQueue<Job>({
      maxHeld: this.maxHeld,
      maxRunning: this.size,
      capacity: this.size,
      reserve,
      // A caller that rendered as much lately as those rendering does not take the reserve, and goes after one that rendered less (adversary round 51 F3).
      recentStarts: defaults.renderRecentStarts,
      rememberedCallers: defaults.renderRememberedCallers,
      // ... and one passed over by 8 goes next: a stream of never-seen addresses, each having started none, went before it for good (adversary round 52 F5).
      passedOverAtMost: defaults.renderPassedOver,
      // Compared by what they sent to render (text and its costly markup), not by pages: a reader's few small pages weigh less than one flooded table page (adversary rounds 65 F3, 67 F1).
      weight: jobWeight,
    });
  }

  /** Workers running now, busy or idle. */
  get workers(): number {
    return this.slots.length;
  }

  /**
   * The page rendered in a worker, as `renderMdx(source, options)` renders it. Rejects with
   * `RenderUnavailable` when it is not rendered (time limit, too many of the caller's, the pool
   * shut down), and with an `Error` carrying the message of what the render threw.
   */
  render(source: string, options: RenderOptions, caller = ""): Promise<RenderedMdx> {
    return this.run({ source, filePath: options.filePath }, options.filePath, caller) as Promise<RenderedMdx>;
  }

  /**
   * Markdown texts (an API page's descriptions) as HTML, as `renderMarkdown` renders each, in a
   * worker: a description of 1 MB took 7 s of CPU to render, which on the thread that answers
   * everyone held every other page, search and MCP call. `filePath`: the page, for log lines.
   * Rejects as `render` does.
   */
  renderMarkdown(texts: readonly string[], filePath: string, caller = ""): Promise<readonly string[]> {
    if (texts.length === 0) return Promise.resolve([]);
    return this.run({ markdown: texts }, filePath, caller) as Promise<readonly string[]>;
  }

  private run(work: Job["work"], filePath: string, caller: string): Promise<RenderedMdx | readonly string[]> {
    if (this.closed) return Promise.reject(shutDown());
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextJob++, caller, work, filePath, resolve, reject };
      if (!this.queue.push(caller, job)) {
        this.emit({ t: "refused", caller, limit: this.maxHeld });
        reject(new RenderUnavailable("too-many", `too many pages of this client are being rendered: at most ${this.maxHeld} at once per client (an address, an IPv6 /64 or a token); try again when they have loaded`));
        return;
      }
      this.emit({ t: "queued", job: job.id, caller });
      this.pump();
    });
  }

  /**
   * Start a worker now, unless one runs, and resolve once one is loaded (or has failed to load):
   * loading the parser and the highlighter takes a worker ~0.3 s from the bundle, and seconds
   * from the sources on a busy machine, which the first page would otherwise wait for.
   */
  start(): Promise<void> {
    if (this.closed || this.slots.some((s) => s.booted)) return Promise.resolve();
    if (this.slots.length === 0) this.spawn();
    return new Promise((resolve) => this.whenStarted.push(resolve));
  }

  /** Stop every worker; pages rendering or waiting are rejected (`shut-down`). */
  async close(): Promise<void> {
    this.closed = true;
    this.started();
    for (const job of this.queue.drain()) this.end(job, "shut-down", shutDown());
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      clearTimeout(slot.timer);
      slot.limit?.cancel();
      const job = slot.job;
      slot.job = undefined;
      if (job !== undefined) this.end(job, "shut-down", shutDown());
      this.emit({ t: "exit", worker: slot.n, why: "shut-down" });
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  /** Those waiting in `start` go on (a worker loaded, or one ended before it did: the pages will say why). */
  private started(): void {
    for (const resolve of this.whenStarted.splice(0)) resolve();
  }

  /** Give waiting pages to idle workers, and start workers for those that could start now. */
  private pump(): void {
    if (this.closed) return;
    for (;;) {
      const slot = this.slots.find((s) => s.booted && s.job === undefined);
      if (slot === undefined || this.queue.peek() === undefined) break;
      const next = this.queue.take();
      if (next === undefined) break;
      this.assign(slot, next.item);
    }
    const starting = this.slots.filter((s) => !s.booted).length;
    if (this.bootFailures > 0) {
      // One at a time while workers fail to start.
      if (this.queue.waiting > 0 && starting === 0) this.spawn();
      return;
    }
    for (let k = starting; k < this.queue.startable() && this.slots.length < this.size; k++) this.spawn();
  }

  private assign(slot: Slot, job: Job): void {
    clearTimeout(slot.timer);
    slot.job = job;
    slot.limit = this.limitTimer(() => this.overdue(slot, job), this.timeLimitMs);
    this.emit({ t: "start", job: job.id, worker: slot.n });
    slot.worker.postMessage({ id: job.id, ...job.work } satisfies ToRenderWorker);
  }

  /** Past its time limit: the render is stuck in the parser's synchronous code, so its worker ends with it. */
  private overdue(slot: Slot, job: Job): void {
    if (slot.job !== job) return;
    this.log(`warning: rendering ${job.filePath} took more than ${seconds(this.timeLimitMs)}; stopped it and its render worker`);
    this.retire(slot, "time-limit");
    this.done(job, "time-limit", new RenderUnavailable("time-limit", `rendering this page took more than ${seconds(this.timeLimitMs)}, the most the preview allows; it was stopped`));
  }

  private onMessage(slot: Slot, message: FromRenderWorker): void {
    if (!this.slots.includes(slot)) return;
    if (message.t === "ready") {
      slot.booted = true;
      this.bootFailures = 0;
      this.started();
      this.emit({ t: "booted", worker: slot.n });
      this.idle(slot);
      this.pump();
      return;
    }
    const job = slot.job;
    if (job === undefined || job.id !== message.id) return;
    slot.job = undefined;
    slot.limit?.cancel();
    slot.limit = undefined;
    this.idle(slot);
    if (message.t === "done") this.done(job, "result", undefined, message.rendered);
    else if (message.t === "markdown") this.done(job, "result", undefined, message.html);
    else this.done(job, "error", new Error(message.message));
  }

  /**
   * A worker with nothing to do is stopped after `idleMs`, unless it is the last one, takes a
   * page meanwhile, or is a reserved one while pages render: callers who rendered lately may not
   * take it, so under a steady stream of their pages it idles, and a newcomer's page would else
   * wait for a worker to start (seconds on a busy machine).
   */
  private idle(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      if (slot.job === undefined && this.slots.length > Math.max(1, this.queue.running + this.reserve)) this.retire(slot, "idle");
    }, this.idleMs);
    slot.timer.unref();
  }

  /** A page that ran is over: its caller's place is free, and the waiting pages go to free workers. */
  private done(job: Job, how: RenderEnd, error: Error | undefined, rendered?: RenderedMdx | readonly string[]): void {
    this.queue.done(job.caller);
    this.end(job, how, error, rendered);
    this.pump();
  }

  private end(job: Job, how: RenderEnd, error: Error | undefined, rendered?: RenderedMdx | readonly string[]): void {
    this.emit({ t: "end", job: job.id, how });
    if (error === undefined) job.resolve(rendered as RenderedMdx | readonly string[]);
    else job.reject(error);
  }

  private retire(slot: Slot, why: "time-limit" | "idle" | "died"): void {
    const k = this.slots.indexOf(slot);
    if (k === -1) return;
    this.slots.splice(k, 1);
    clearTimeout(slot.timer);
    slot.limit?.cancel();
    slot.job = undefined;
    this.emit({ t: "exit", worker: slot.n, why });
    void slot.worker.terminate();
  }

  /** A worker ended by itself (out of memory, a crash): its page fails with the reason. */
  private died(slot: Slot): void {
    if (!this.slots.includes(slot) || this.closed) return;
    const job = slot.job;
    this.retire(slot, "died");
    if (!slot.booted) this.started();
    if (!slot.booted && ++this.bootFailures >= LIMITS.shellWorker.maxBootFailures) {
      const why = `the page renderer could not start (${slot.failed?.message ?? "its worker ended while starting"}); try again later`;
      this.log(`warning: ${this.bootFailures} render workers in a row ended while starting: ${slot.failed?.message ?? "no reason given"}`);
      this.bootFailures = 0;
      for (const waiting of this.queue.drain()) this.end(waiting, "worker-died", new RenderUnavailable("worker-died", why));
    }
    if (job === undefined) {
      this.pump();
      return;
    }
    const why =
      (slot.failed as { code?: string } | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? `rendering this page needs more than the preview's ${this.options.maxHeapMb ?? LIMITS.preview.renderWorkerHeapMb} MB`
        : "the page renderer stopped while rendering this page; try again";
    this.done(job, "worker-died", new RenderUnavailable("worker-died", why));
  }

  private spawn(): void {
    const { file, entry } = workerEntry();
    const worker = new Worker(file, {
      workerData: { entry, ...(this.options.gate !== undefined ? { gate: this.options.gate } : {}) } satisfies RenderWorkerData,
      execArgv: workerExecArgv(process.execArgv),
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? LIMITS.preview.renderWorkerHeapMb },
    });
    // A request waiting for its page keeps the process alive; the pool's workers never do.
    worker.unref();
    const slot: Slot = { n: this.nextWorker++, worker, booted: false, job: undefined, limit: undefined, timer: undefined, failed: undefined };
    this.emit({ t: "spawn", worker: slot.n });
    // Never on our stdout (stdio mode speaks the protocol there): whatever a worker prints is a log line.
    for (const stream of [worker.stdout, worker.stderr] as Readable[]) {
      createInterface({ input: stream }).on("line", (line) => this.log(`render worker: ${line}`));
    }
    worker.on("message", (message: FromRenderWorker) => this.onMessage(slot, message));
    worker.on("error", (error) => {
      slot.failed = error;
      if (this.slots.includes(slot)) this.log(`warning: a render worker failed: ${error.message}`);
    });
    worker.on("exit", () => this.died(slot));
    this.slots.push(slot);
  }
}

/** What a render is expected to cost, counted from its text before it runs (`renderWeight`). */
function jobWeight(job: Job): number {
  const work = job.work;
  return renderWeight("source" in work ? [work.source] : work.markdown);
}

function shutDown(): RenderUnavailable {
  return new RenderUnavailable("shut-down", "the server is shutting down");
}

/** `30 s`, `1.5 s`, `200 ms`. */
function seconds(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toLocaleString("en-US")} s` : `${ms} ms`;
}

/**
 * The worker's entry: next to the bundle (`dist/render-worker.mjs`, built with the CLI), or from
 * the TypeScript sources through tsx (a checkout without a build, tests, benchmarks).
 */
function workerEntry(): { file: URL; entry?: string } {
  const here = import.meta.url;
  if (new URL(here).pathname.endsWith(".ts")) return { file: new URL("../shell/worker-boot.mjs", here), entry: new URL("./render-worker.ts", here).href };
  return { file: new URL("./render-worker.mjs", here) };
}
