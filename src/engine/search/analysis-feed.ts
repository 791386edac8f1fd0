import { Worker } from "node:worker_threads";
import { LIMITS } from "../../limits.js";
import type { BodyKey } from "../../vfs/body-key.js";
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
  /** Batches sent and not answered. */
  inFlight: number;
}

/**
 * Page analysis (split, tokenize, fingerprint: `body-analysis.ts`) in worker threads ahead of
 * the index's build (issue 22): a build of 50,000 distinct pages spent about half of its
 * thread's time there. The index still takes analyses in page order and maps their terms to its
 * ids on its own thread, so what it builds is the same with or without workers.
 *
 * Bodies are sent in batches, at most `LIMITS.search.analysisAhead` ahead of the page being
 * indexed (the analyses waiting hold their term ids: a bounded window, not the whole site). A
 * worker that fails or ends leaves its bodies to the index's thread (`take` then answers
 * undefined), never a wrong or missing analysis.
 */
export class AnalysisFeed {
  private readonly slots: Slot[] = [];
  /** Body key -> its number in `items`, per kind (endpoint pages apart). */
  private readonly numbers = [new Map<BodyKey, number>(), new Map<BodyKey, number>()];
  private readonly arrived = new Map<number, ArrivedAnalysis>();
  /** Numbers of bodies sent and not answered, and what waits for each. */
  private readonly waiting = new Map<number, (() => void)[]>();
  private readonly failed = new Set<number>();
  private next = 0;
  /** The highest number taken so far: the window is counted from it. */
  private taken = -1;
  private closed = false;

  /** The bodies to analyse, in order; let go at `close` (see there). */
  private items: readonly BodyToAnalyse[];

  constructor(
    items: readonly BodyToAnalyse[],
    workers: number,
    private readonly log: (line: string) => void = () => {},
  ) {
    this.items = items;
    items.forEach((item, i) => (this.numbers[item.api ? 1 : 0] as Map<BodyKey, number>).set(item.key, i));
    for (let w = 0; w < workers; w++) this.slots.push(this.spawn());
    this.pump();
  }

  /** A promise while the body's analysis is on its way (undefined: it is here, or it is not
   *  coming and the index's thread makes it). */
  arriving(key: BodyKey, api: boolean): Promise<void> | undefined {
    const n = this.numberOf(key, api);
    if (n === undefined || this.arrived.has(n) || this.failed.has(n)) return undefined;
    this.pump(n);
    if (!this.waiting.has(n)) return undefined;
    return new Promise((resolve) => (this.waiting.get(n) as (() => void)[]).push(resolve));
  }

  /** The body's analysis if a worker made it (dropped from the feed), else undefined. */
  take(key: BodyKey, api: boolean): ArrivedAnalysis | undefined {
    const n = this.numberOf(key, api);
    if (n === undefined) return undefined;
    const made = this.arrived.get(n);
    this.arrived.delete(n);
    if (n > this.taken) this.taken = n;
    this.pump();
    return made;
  }

  /** End the workers (after the build; bodies not analysed yet are left to the index's thread). */
  close(): void {
    this.closed = true;
    for (const slot of this.slots) void slot.worker.terminate();
    this.slots.length = 0;
    this.arrived.clear();
    for (const n of [...this.waiting.keys()]) this.settle(n);
    // A terminated worker's listeners (which hold this feed) outlive `close` until its exit is
    // handled: the list of every body to analyse (an item and its key per distinct text, ~30 MB
    // at 50,000 pages) is let go now, not then (issue 22).
    this.items = [];
    for (const numbers of this.numbers) numbers.clear();
  }

  /** Bodies the feed still lists (none once closed). */
  get listed(): number {
    return this.items.length + (this.numbers[0] as Map<BodyKey, number>).size + (this.numbers[1] as Map<BodyKey, number>).size;
  }

  private numberOf(key: BodyKey, api: boolean): number | undefined {
    return (this.numbers[api ? 1 : 0] as Map<BodyKey, number>).get(key);
  }

  /** Send batches while the window allows (and up to `upTo`, which a page waits for). */
  private pump(upTo = -1): void {
    const { analysisAhead, analysisBatch } = LIMITS.search;
    for (;;) {
      if (this.closed || this.next >= this.items.length) return;
      if (this.next > upTo && this.next - this.taken > analysisAhead) return;
      const slot = this.slots.reduce<Slot | undefined>((best, s) => (best === undefined || s.inFlight < best.inFlight ? s : best), undefined);
      if (slot === undefined || (this.next > upTo && slot.inFlight >= 2)) return;
      const first = this.next;
      // A body held as bytes is sent as those (shared, not copied), not read back here.
      const bodies = this.items.slice(first, first + analysisBatch).map((item) => (item.bytes !== undefined ? { bytes: item.bytes, api: item.api } : { body: item.body, api: item.api }));
      this.next += bodies.length;
      for (let n = first; n < this.next; n++) this.waiting.set(n, []);
      slot.inFlight++;
      slot.worker.postMessage({ first, bodies } satisfies ToAnalysisWorker);
    }
  }

  private spawn(): Slot {
    const { file, entry } = workerEntry();
    const worker = new Worker(file, { workerData: { entry }, execArgv: workerExecArgv(process.execArgv), stdout: true, stderr: true });
    const slot: Slot = { worker, local: new LocalTerms(), inFlight: 0 };
    // Nothing a worker prints reaches our stdout (stdio mode speaks the protocol there).
    worker.stdout.resume();
    worker.stderr.resume();
    worker.on("message", ({ first, analyses, terms }: FromAnalysisWorker) => {
      slot.local.learn(terms);
      slot.inFlight--;
      analyses.forEach((analysis, i) => {
        if (this.closed) return;
        this.arrived.set(first + i, { analysis, local: slot.local });
        this.settle(first + i);
      });
      this.pump();
    });
    const fail = (why: string): void => {
      if (this.closed || !this.slots.includes(slot)) return;
      this.log(`warning: a page analysis worker ${why}; its pages are analysed on the main thread`);
      this.slots.splice(this.slots.indexOf(slot), 1);
      // Its batches will not come: their pages are analysed where they are indexed.
      for (const n of [...this.waiting.keys()]) {
        if (this.arrived.has(n)) continue;
        this.failed.add(n);
        this.settle(n);
      }
      this.pump();
    };
    worker.on("error", (error) => fail(`failed (${error.message})`));
    worker.on("exit", () => fail("ended"));
    return slot;
  }

  private settle(n: number): void {
    const waiters = this.waiting.get(n);
    this.waiting.delete(n);
    for (const resolve of waiters ?? []) resolve();
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
