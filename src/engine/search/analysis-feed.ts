import { Worker } from "node:worker_threads";
import { LIMITS } from "../../limits.js";
import { type BodyKey, bodyBytesOf } from "../../vfs/body-key.js";
import type { Page } from "../../vfs/page.js";
import type { StoredText } from "../../vfs/stored-text.js";
import { workerExecArgv } from "../shell/worker-exec-argv.js";
import { type BodyAnalysis, LocalTerms } from "./body-analysis.js";

/** A body to analyse, as `SearchIndex.bodiesToAnalyse` lists them. */
export interface BodyToAnalyse {
  /** What the index asks for it by (`BodyKey`). */
  readonly key: BodyKey;
  /** The body (read when asked: a page held as bytes reads it back each time, and it is asked
   *  for only when the body is sent to a worker). */
  readonly body: string;
  /** The body's bytes (UTF-8, in shared memory), when it is held so: sent to a worker instead of
   *  the body, which the worker decodes itself, off the index's thread (issue 22). */
  readonly bytes?: StoredText;
  readonly api: boolean;
  /** About how many characters it has, without reading it (its bytes, for a text held so). */
  readonly chars: number;
}

/** What a page's body is sent for analysis as (`key`: its `bodyKeyOf`). */
export function bodyToAnalyse(page: Page, key: BodyKey, api: boolean): BodyToAnalyse {
  const bytes = bodyBytesOf(key);
  return {
    key,
    get body() {
      return page.body;
    },
    ...(bytes !== undefined ? { bytes } : {}),
    api,
    chars: typeof key === "string" ? key.length : page.file.size,
  };
}

/** An analysis made in a worker, with the worker's terms (`LocalTerms`). */
export interface ArrivedAnalysis {
  readonly analysis: BodyAnalysis;
  readonly local: LocalTerms;
}

/** What the main thread sends a worker: bodies to analyse, numbered. */
export interface ToAnalysisWorker {
  readonly first: number;
  readonly bodies: readonly ({ readonly body: string; readonly api: boolean } | { readonly bytes: StoredText; readonly api: boolean })[];
}

/** What a worker answers: the analyses of a batch, in order, and the terms its vocabulary
 *  assigned while making them. */
export interface FromAnalysisWorker {
  readonly first: number;
  readonly analyses: readonly BodyAnalysis[];
  readonly terms: readonly string[];
}

interface Slot {
  readonly worker: Worker;
  readonly local: LocalTerms;
  /** Batches sent and not answered, by their number (`ToAnalysisWorker.first`). */
  readonly batches: Map<number, Body[]>;
}

/** One body the feed knows: where it is (queued, sent to a worker, its analysis here, or not
 *  coming: the index's thread makes it), and what waits for it. */
interface Body {
  readonly item: BodyToAnalyse;
  state: "queued" | "sent" | "arrived" | "failed";
  made: ArrivedAnalysis | undefined;
  /** Its place in the build's order (`plan`), -1 before the build has listed it. */
  at: number;
  waiters: (() => void)[];
}

/**
 * Page analysis (split, tokenize, fingerprint: `body-analysis.ts`) in worker threads ahead of
 * the index's build (issue 22): a build of 50,000 distinct pages spent about half of its
 * thread's time there. The index still takes analyses in page order and maps their terms to its
 * ids on its own thread, so what it builds is the same with or without workers, and whenever
 * an analysis was made.
 *
 * A feed made for a build (`new AnalysisFeed(items, ...)`) sends bodies in batches, at most
 * `LIMITS.search.analysisAhead` ahead of the page being indexed (the analyses waiting hold their
 * term ids: a bounded window, not the whole site). A feed opened while the site loads
 * (`AnalysisFeed.open`, `analysis-during-load.ts`) is `offer`ed each body as its page is read and
 * analyses it at once, so that analysis runs on the other core during the load instead of after
 * it (at 50,000 distinct pages the workers started ~33 s into a 37 s start); the build then
 * `plan`s it with its own list: bodies it does not want are let go, those not offered are
 * queued in its order, and from there the window counts from the page being indexed as above.
 * A worker that fails or ends leaves the bodies it was sent to the index's thread (`take` then
 * answers undefined), never a wrong or missing analysis.
 */
export class AnalysisFeed {
  private readonly slots: Slot[] = [];
  /** Body key -> its body, per kind (endpoint pages apart). */
  private readonly known = [new Map<BodyKey, Body>(), new Map<BodyKey, Body>()];
  /** Bodies in the order they are sent (those no longer queued are passed over). */
  private queue: Body[] = [];
  private head = 0;
  /** Numbers batches (`ToAnalysisWorker.first`). */
  private batchNumber = 0;
  /** The highest place (`Body.at`) taken so far: the window is counted from it. */
  private taken = -1;
  /** Whether the build has listed its bodies (`plan`): until then nothing holds the window. */
  private planned: boolean;
  private closed = false;
  /** Analyses a worker made that were taken (`take`): the rest were made where they were indexed. */
  delivered = 0;

  /** A feed for a build: `items` in its order, analysed ahead of it by `workers` workers. */
  constructor(
    items: readonly BodyToAnalyse[],
    workers: number,
    private readonly log: (line: string) => void = () => {},
    planned = true,
  ) {
    this.planned = planned;
    items.forEach((item, i) => this.add(item, i));
    this.grow(workers);
  }

  /** A feed opened before the build has listed its bodies: `offer` them as pages are read,
   *  `plan` it once the build lists them. */
  static open(workers: number, log: (line: string) => void = () => {}): AnalysisFeed {
    return new AnalysisFeed([], workers, log, false);
  }

  /** A body to analyse now (before `plan`): ignored when it is known already. */
  offer(item: BodyToAnalyse): void {
    if (this.closed || this.planned) return;
    this.add(item, -1);
    this.pump();
  }

  /** Workers up to `workers` (never fewer: a worker's batches stay with it). */
  grow(workers: number): void {
    while (!this.closed && this.slots.length < workers) this.slots.push(this.spawn());
    this.pump();
  }

  /**
   * The build's bodies, in its order: a body offered and not listed is let go (its analysis, or
   * the one on its way, dropped), one listed and not offered is queued, and the bodies still
   * queued are sent in this order, at most `analysisAhead` ahead of the page being indexed.
   */
  plan(items: readonly BodyToAnalyse[]): this {
    if (this.closed || this.planned) return this;
    this.planned = true;
    const listed = [new Map<BodyKey, Body>(), new Map<BodyKey, Body>()];
    const queue: Body[] = [];
    items.forEach((item, i) => {
      const kind = item.api ? 1 : 0;
      const map = listed[kind] as Map<BodyKey, Body>;
      if (map.has(item.key)) return;
      let body = (this.known[kind] as Map<BodyKey, Body>).get(item.key);
      if (body === undefined) body = { item, state: "queued", made: undefined, at: i, waiters: [] };
      body.at = i;
      map.set(item.key, body);
      if (body.state === "queued") queue.push(body);
    });
    for (const [kind, map] of this.known.entries()) {
      for (const [key, body] of map) {
        if ((listed[kind] as Map<BodyKey, Body>).has(key)) continue;
        // Not the build's (a file replaced or ignored since it was read): its analysis is not
        // kept, and one on its way is dropped when it comes (`Body.at` -1).
        body.made = undefined;
        body.at = -1;
        if (body.state === "queued") body.state = "failed";
        this.settle(body);
      }
    }
    this.known.splice(0, 2, ...listed);
    this.queue = queue;
    this.head = 0;
    this.pump();
    return this;
  }

  /** A promise while the body's analysis is on its way (undefined: it is here, or it is not
   *  coming and the index's thread makes it). */
  arriving(key: BodyKey, api: boolean): Promise<void> | undefined {
    const body = this.bodyOf(key, api);
    if (body === undefined) return undefined;
    if (body.state === "queued") this.pump(body);
    if (body.state !== "sent") return undefined;
    return new Promise((resolve) => body.waiters.push(resolve));
  }

  /** The body's analysis if a worker made it (dropped from the feed), else undefined. */
  take(key: BodyKey, api: boolean): ArrivedAnalysis | undefined {
    const body = this.bodyOf(key, api);
    if (body === undefined) return undefined;
    (this.known[api ? 1 : 0] as Map<BodyKey, Body>).delete(key);
    const made = body.made;
    if (made !== undefined) this.delivered++;
    body.made = undefined;
    // Not sent now, nor kept when it comes: the index's thread has made it.
    if (body.state !== "arrived") body.state = "failed";
    if (body.at > this.taken) this.taken = body.at;
    this.settle(body);
    this.pump();
    return made;
  }

  /** End the workers (after the build, or a load that failed; bodies not analysed yet are left
   *  to the index's thread). */
  close(): void {
    this.closed = true;
    for (const slot of this.slots) void slot.worker.terminate();
    for (const slot of this.slots) slot.batches.clear();
    this.slots.length = 0;
    for (const map of this.known) {
      for (const body of map.values()) {
        body.made = undefined;
        this.settle(body);
      }
    }
    // A terminated worker's listeners (which hold this feed) outlive `close` until its exit is
    // handled: the list of every body to analyse (an entry and its key per distinct text, ~30 MB
    // at 50,000 pages) is let go now, not then (issue 22).
    for (const map of this.known) map.clear();
    this.queue = [];
    this.head = 0;
  }

  /** Bodies the feed still lists (none once closed). */
  get listed(): number {
    return this.queue.length + (this.known[0] as Map<BodyKey, Body>).size + (this.known[1] as Map<BodyKey, Body>).size;
  }

  /** Workers running (ended and failed ones are let go). */
  get workers(): number {
    return this.slots.length;
  }

  private add(item: BodyToAnalyse, at: number): void {
    const map = this.known[item.api ? 1 : 0] as Map<BodyKey, Body>;
    if (map.has(item.key)) return;
    const body: Body = { item, state: "queued", made: undefined, at, waiters: [] };
    map.set(item.key, body);
    this.queue.push(body);
  }

  private bodyOf(key: BodyKey, api: boolean): Body | undefined {
    return (this.known[api ? 1 : 0] as Map<BodyKey, Body>).get(key);
  }

  /** The first body still queued (those taken, dropped or sent meanwhile passed over). */
  private firstQueued(): Body | undefined {
    while (this.head < this.queue.length && (this.queue[this.head] as Body).state !== "queued") this.head++;
    return this.queue[this.head];
  }

  /** Send batches while the window allows (and until `wanted` is sent, which a page waits for). */
  private pump(wanted?: Body): void {
    const { analysisAhead, analysisBatch } = LIMITS.search;
    for (;;) {
      const first = this.firstQueued();
      if (this.closed || first === undefined) return;
      const forced = wanted?.state === "queued";
      if (!forced && this.planned && first.at - this.taken > analysisAhead) return;
      const slot = this.slots.reduce<Slot | undefined>((best, s) => (best === undefined || s.batches.size < best.batches.size ? s : best), undefined);
      if (slot === undefined || (!forced && slot.batches.size >= 2)) return;
      const batch: Body[] = [];
      for (let b = this.firstQueued(); b !== undefined && batch.length < analysisBatch; b = this.firstQueued()) {
        b.state = "sent";
        batch.push(b);
      }
      const number = this.batchNumber++;
      slot.batches.set(number, batch);
      // A body held as bytes is sent as those (shared, not copied), not read back here.
      const bodies = batch.map(({ item }) => (item.bytes !== undefined ? { bytes: item.bytes, api: item.api } : { body: item.body, api: item.api }));
      slot.worker.postMessage({ first: number, bodies } satisfies ToAnalysisWorker);
    }
  }

  private spawn(): Slot {
    const { file, entry } = workerEntry();
    const worker = new Worker(file, { workerData: { entry }, execArgv: workerExecArgv(process.execArgv), stdout: true, stderr: true });
    const slot: Slot = { worker, local: new LocalTerms(), batches: new Map() };
    // Nothing a worker prints reaches our stdout (stdio mode speaks the protocol there).
    worker.stdout.resume();
    worker.stderr.resume();
    worker.on("message", ({ first, analyses, terms }: FromAnalysisWorker) => {
      slot.local.learn(terms);
      const batch = slot.batches.get(first) ?? [];
      slot.batches.delete(first);
      analyses.forEach((analysis, i) => {
        const body = batch[i];
        // Taken meanwhile (made on the index's thread), dropped by the plan, or closed: not kept.
        if (body === undefined || body.state !== "sent" || (this.planned && body.at < 0)) return;
        body.state = "arrived";
        body.made = { analysis, local: slot.local };
        this.settle(body);
      });
      this.pump();
    });
    const fail = (why: string): void => {
      if (this.closed || !this.slots.includes(slot)) return;
      this.log(`warning: a page analysis worker ${why}; its pages are analysed on the main thread`);
      this.slots.splice(this.slots.indexOf(slot), 1);
      // Its batches will not come: their pages are analysed where they are indexed.
      for (const batch of slot.batches.values()) {
        for (const body of batch) {
          if (body.state !== "sent") continue;
          body.state = "failed";
          this.settle(body);
        }
      }
      slot.batches.clear();
      this.pump();
    };
    worker.on("error", (error) => fail(`failed (${error.message})`));
    worker.on("exit", () => fail("ended"));
    return slot;
  }

  private settle(body: Body): void {
    const waiters = body.waiters;
    body.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

/**
 * Analysis workers for a build on a machine of `cores` cores (`LIMITS.search.analysisWorkersMax`
 * at most): none on one core, where the index's thread analyses; else one per core beside the
 * index's thread, and two on two cores when most of the `pages` to index have texts of their
 * own (`bodies` to analyse at least half of them). Analysing a page costs more than indexing it:
 * at 50,000 distinct pages the one worker's analysis outweighed the index thread's work, which
 * waited for it (10,000 distinct pages under load: worker 11.7 s of CPU, index thread 10.7 s),
 * and with two the system shares both cores among the three threads. Where copies share few
 * texts (35 versions × 4 languages, 1,411 texts for 24,920 pages) indexing outweighs analysis
 * and a second worker only costs its start and its heap (+0.9 s of CPU, +33 MB measured).
 */
export function analysisWorkers(cores: number, bodies: number, pages: number): number {
  if (cores < 2) return 0;
  const two = 2 * bodies >= pages ? 2 : 1;
  return Math.min(LIMITS.search.analysisWorkersMax, Math.max(two, cores - 1));
}

/**
 * The worker's entry: next to the bundle (`dist/analysis-worker.mjs`, built with the CLI), or
 * from the TypeScript sources through tsx (a checkout without a build, tests, benchmarks).
 */
function workerEntry(): { file: URL; entry?: string } {
  const here = import.meta.url;
  if (new URL(here).pathname.endsWith(".ts")) return { file: new URL("../shell/worker-boot.mjs", here), entry: new URL("./analysis-worker.ts", here).href };
  return { file: new URL("./analysis-worker.mjs", here) };
}
