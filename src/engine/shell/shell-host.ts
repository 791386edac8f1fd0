import { channel } from "node:diagnostics_channel";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { LIMITS } from "../../limits.js";
import type { Site } from "../../vfs/site.js";
import type { SiteFile } from "../../vfs/site-file.js";
import { heldTextOf } from "../../vfs/held-text.js";
import type { SiteView } from "../../vfs/view.js";
import { type Shell, type ShellLimits, type ShellResult, type ShellStop, cpuLimitMessage, timeLimitMessage } from "./shell.js";
import { FairQueue } from "./fair-queue.js";
import { callerNetwork } from "./caller-network.js";
import { CallerStanding } from "./caller-standing.js";
import type { CallEnd, HeavyWhy, PoolEvent, WorkerExit } from "./pool-events.js";
import { type EncodedSnapshot, type SharedSnapshot, SnapshotEncoder, type SnapshotEncoding } from "./shared-snapshot.js";
import { workerExecArgv } from "./worker-exec-argv.js";
import { type PlaceHolder, PoolPlaces } from "./pool-places.js";
import type { CallerPlaces } from "./shared-places.js";
import { threadCpuMs } from "./thread-cpu.js";

/** Messages to the shell worker. Ordered: a `site` or `view` sent before a `run` is there for it. */
export type ToWorker =
  /**
   * A snapshot to load. Not `complete`: its texts are still being encoded (`encodeSoon`); the
   * worker builds its records and views meanwhile, and says it is loaded after `texts`.
   */
  | { readonly t: "site"; readonly sid: number; readonly snapshot: SharedSnapshot; readonly complete: boolean }
  /** The chunks of a snapshot given before its texts were encoded: it is loaded now. */
  | { readonly t: "texts"; readonly sid: number; readonly chunks: readonly SharedArrayBuffer[] }
  /** Forget a snapshot (the host decides which a worker keeps, so a run never finds it gone). */
  | { readonly t: "drop"; readonly sid: number }
  /** A reader's view: the snapshot's files it sees, by table position, and files of its own. */
  | { readonly t: "view"; readonly sid: number; readonly vid: number; readonly positions: Int32Array; readonly extra: readonly ExtraFile[] }
  | { readonly t: "run"; readonly id: number; readonly vid: number; readonly command: string }
  /** The caller gave the call up: stop it where it awaits (where it computes, `interrupt` stops it). */
  | { readonly t: "cancel"; readonly id: number };

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
  /** Its code is loaded; `tid`: its Linux thread id, whose CPU time the host reads (absent where /proc is missing). */
  | { readonly t: "ready"; readonly tid: number | undefined }
  | { readonly t: "loaded"; readonly sid: number }
  /** It built a reader's view (`view`): a command of that reader starts without building it. */
  | { readonly t: "viewed"; readonly vid: number }
  /** The command starts now: the reader's view is built (for a new view of 50,000 files, ~0.5 s not to count). */
  | { readonly t: "started"; readonly id: number }
  /** `stop`: what stopped the line, if anything did (`ShellStop`); the host decides by it whether to keep the worker. */
  | { readonly t: "result"; readonly id: number; readonly result: ShellResult; readonly stop?: ShellStop }
  | { readonly t: "missing"; readonly id: number };

/** What the worker is started with. */
export interface ShellWorkerData {
  /** The TypeScript entry `worker-boot.mjs` loads (absent when started from the bundle). */
  readonly entry: string | undefined;
  readonly limits: ShellLimits;
  /** The pool's CPU limit (`ShellHostOptions.maxCpuMs`), for the threads jq runs in inside the worker (`jq-in-thread.ts`). */
  readonly maxCpuMs: number;
  /**
   * One shared Int32: the id of a call its caller gave up. The worker's running command reads
   * it wherever the interpreter checks for an abort, synchronous code included.
   */
  readonly interrupt: Int32Array;
  /**
   * Three shared Int32s the worker writes as its running call's jq threads work (`CallCpu.onHelpers`):
   * the ms of CPU of the call's jq runs that ended, the id of the thread running one now (0: none)
   * and that thread's CPU ms when the run began. The host adds them to the worker thread's CPU
   * for a new caller's trial (`trialCpuMs`). The host zeroes them as it gives the worker a call.
   */
  readonly helperCpu: Int32Array;
  /** Tests only (`ShellHostOptions.loadGate`). */
  readonly loadGate?: Int32Array;
  /** Tests only (`ShellHostOptions.jqRuns`). */
  readonly jqRuns?: Int32Array;
}

/** A snapshot as the pool knows it: its id and its shared encoding. */
interface Snapshot {
  readonly sid: number;
  /** Until `complete`, the encoding's `preview` (every fact but the texts). */
  encoded: EncodedSnapshot;
  complete: boolean;
}

/** One reader's view as the worker knows it. */
interface ViewRef {
  readonly snapshot: Snapshot;
  readonly vid: number;
  /** Visible files of the snapshot, by table position. */
  readonly positions: Int32Array;
  /** Visible files that are not in the snapshot (readers' variants, the generated skill). */
  readonly extra: readonly { readonly id: number; readonly file: SiteFile }[];
}

interface Pending extends PlaceHolder {
  readonly id: number;
  readonly view: ViewRef;
  readonly command: string;
  readonly resolve: (result: ShellResult) => void;
  /** Stops listening to the caller's cancellation. */
  unlisten: () => void;
  /** Times the worker answered `missing` (it had dropped the view). */
  resends: number;
  /** Its caller has been answered (it gave the call up while it ran): nothing more is said to it. */
  ended: boolean;
  /** It ran once and was stopped to make room for a caller with nothing running: it is not stopped so again. */
  tried: boolean;
  /** Running as a new caller's first command: it may be stopped to make room (`preemptForNewcomers`). */
  preemptible: boolean;
  /** Being stopped to make room: when it stops it is queued again, not answered. */
  preempting: boolean;
  /** When it started (`now`) and its worker thread's CPU then, for `trialMs` and `trialCpuMs`. */
  startedAt: number;
  cpuAtStart: number | undefined;
}

/** One worker of the pool. It runs one call at a time, so stopping it ends nobody else's. */
interface Slot {
  readonly n: number;
  readonly worker: Worker;
  /** Shared with the worker: the id of a call given up (`ShellWorkerData.interrupt`). */
  readonly interrupt: Int32Array;
  /** Shared with the worker: its call's jq threads' CPU (`ShellWorkerData.helperCpu`). */
  readonly helperCpu: Int32Array;
  /** Its call was given up: when the worker is ended if the command has not stopped by then. */
  cancelTimer: NodeJS.Timeout | undefined;
  /** Its code is loaded (`ready`); until then it is given nothing. */
  booted: boolean;
  /** The snapshot it is loading: meanwhile it takes no call. */
  loading: number | undefined;
  /** Snapshots it holds, oldest first (at most `KEPT_SNAPSHOTS`). */
  readonly loaded: number[];
  /** It held a snapshot at least once (a worker that dies before counts as failing to start). */
  everLoaded: boolean;
  /** The call it runs, and that call's deadline. */
  call: Pending | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Its Linux thread id (`ready`), when its CPU time can be read. */
  tid: number | undefined;
  /** Reads its thread's CPU time while a call runs (`maxCpuMs`). */
  cpuTimer: NodeJS.Timeout | undefined;
  /** Views and shared files (`ExtraFile`) this worker holds (sent once each). */
  readonly viewsSent: Set<number>;
  /** Views it has built (`viewed`), of those sent. */
  readonly viewsBuilt: Set<number>;
  readonly extrasSent: Set<number>;
  /** Why it failed, from its `error` event (its `exit` follows). */
  failed: Error | undefined;
  /** When its last call ended (or it started): idle long enough, it is stopped. */
  idleSince: number;
}

/**
 * Files encoded between two turns of the event loop (`ShellHost.encodeSoon`): ~10 ms of a
 * 50,000-page site's encoding on this project's 2-core test machine, so a request waits at most
 * about that for it.
 */
const ENCODE_SLICE_FILES = 1000;

/** Snapshots one worker keeps: the current one and a few before it, for calls already on their way. */
const KEPT_SNAPSHOTS = 3;

/**
 * Every pool's events (`PoolEvent`), also published on this diagnostics channel: how a test
 * watches the pool of a server it starts through the CLI (`svc-mcp preview`), whose options it
 * cannot reach. Publishing costs nothing while nobody subscribes.
 */
export const POOL_CHANNEL_NAME = "svc-mcp:shell-pool";
const POOL_CHANNEL = channel(POOL_CHANNEL_NAME);

export interface ShellHostOptions {
  /** Warnings (a worker restarted) and whatever the workers print. */
  readonly log?: (message: string) => void;
  /** The shell's bounds; the host allows `maxExecutionMs` plus `stuckGraceMs` for an answer. */
  readonly limits?: ShellLimits;
  readonly stuckGraceMs?: number;
  /** CPU time of its worker thread a command may use (default `LIMITS.shellWorker.maxCpuMs`), read every `cpuPollMs`. */
  readonly maxCpuMs?: number;
  readonly cpuPollMs?: number;
  readonly maxHeapMb?: number;
  /** Workers in the pool (default `shellPoolSize` of this machine's cores). */
  readonly workers?: number;
  /**
   * Idle workers kept started beyond those calls need (default 1), so that the next caller does
   * not wait for one to start. A stdio server keeps none: its one client rarely runs two
   * commands at once, and a spare started with the first command competed with it for the
   * machine's cores.
   */
  readonly spareWorkers?: number;
  /** What one caller may hold (defaults from `LIMITS.shellWorker`; `reserve` is capped below the pool's size). */
  readonly maxHeldPerCaller?: number;
  readonly maxRunningPerCaller?: number;
  readonly reserveWorkers?: number;
  /** Workers only trusted callers may take (default `LIMITS.shellWorker.trustedWorkers`; capped at `reserveWorkers` - 1). */
  readonly trustedWorkers?: number;
  /** How long a caller stays heavy after a command of theirs held a worker for long (default `LIMITS.shellWorker.heavyForMs`). */
  readonly heavyForMs?: number;
  /** Answered commands that make a caller trusted (default `LIMITS.shellWorker.trustAnswers`). */
  readonly trustAnswers?: number;
  /**
   * CPU (its worker thread's and its jq threads') past which a command that answered makes its
   * caller heavy as a stopped one does (default `LIMITS.shellWorker.heavyCpuMs`).
   */
  readonly heavyCpuMs?: number;
  /**
   * A new caller's first command may be stopped and queued again, to give its worker to a caller
   * with nothing running, once it has used this much CPU (its worker thread's and its jq
   * threads'), or, where CPU cannot be read (no /proc), run `trialMs`
   * (defaults `LIMITS.shellWorker.trialCpuMs`, `trialMs`; `trialMs: 0` never stops one, as does
   * a pool that keeps no reserve: stdio, the preview, `svc-mcp fs`).
   */
  readonly trialCpuMs?: number;
  readonly trialMs?: number;
  /** Workers a new caller's command stopped so must leave free when it runs again (default `LIMITS.shellWorker.requeuedReserve`, capped below the pool's size). */
  readonly requeuedReserve?: number;
  /** How long a given-up command may take to stop before its worker is ended (default `LIMITS.shellWorker.cancelGraceMs`). */
  readonly cancelGraceMs?: number;
  /** A worker idle this long is stopped, all but one (default `LIMITS.shellWorker.idleMs`). */
  readonly idleMs?: number;
  /**
   * Log a warning when a command is ended from outside and its worker replaced (default true:
   * a server's operator learns of runaways). `svc-mcp fs` turns it off: the command's own answer
   * says it stopped, and a one-shot command has no later caller the replacement is for.
   */
  readonly warnOnEnd?: boolean;
  /** Milliseconds (idle time, heaviness wearing off); tests move it by hand. */
  readonly now?: () => number;
  /** Told of everything the pool does, in order (`PoolEvent`): tests and the bench watch it. */
  readonly onEvent?: (event: PoolEvent) => void;
  /**
   * Tests only: a shared [open, crashes] pair each worker checks before it says a snapshot is
   * loaded. It waits while `open` is 0; then, while `crashes` (decremented by each worker that
   * passes) was above 0, it ends itself as a crash would. So a test holds a load as long as it
   * likes, or ends a worker in the middle of one, without timing anything.
   */
  readonly loadGate?: Int32Array;
  /**
   * Tests only: a shared counter each worker's jq threads add one to as they enter jq for a run
   * (`countJqRuns`), so a test acts on a jq that is inside WebAssembly, without timing anything.
   */
  readonly jqRuns?: Int32Array;
}

/** Workers of the shell pool on a machine with `cores` cores (docs/shell.md, "The worker pool"). */
export function shellPoolSize(cores: number): number {
  const { workersPerCore, minWorkers, maxWorkers } = LIMITS.shellWorker;
  return Math.min(maxWorkers, Math.max(minWorkers, cores * workersPerCore));
}

/**
 * Runs docs-shell commands in a pool of worker threads. Why threads: just-bash's
 * defence-in-depth patches process globals while a command runs and makes every later `await`
 * in the process pay for async-context tracking (measured: the MCP search path costs ~2x the
 * CPU once one shell command has run in the same thread). In a worker the protection stays on
 * for good, the main thread keeps serving HTTP, MCP and search at full speed, and a command
 * stuck in synchronous code is ended by replacing its worker instead of freezing the server.
 *
 * Why a pool, shared with bounds: one worker serving every reader let one caller's runaway
 * command (or fifty of them) hold everyone's `ls /` (issue 25). Each worker runs one call at a
 * time; calls wait in per-caller queues served in turn (`FairQueue`); one caller holds at most
 * `maxHeldPerCaller` calls (more are refused at once, naming the limit), runs at most
 * `maxRunningPerCaller`, and never takes the last `reserveWorkers` workers while it already
 * runs one, so a caller with nothing running finds a worker; a caller known to hold workers for
 * long (a runaway of theirs reached its limit, or they gave up a running call: `HeavyCallers`)
 * never takes those either, even with nothing running. A call whose caller cancels it (a dropped
 * HTTP request, a closed session, `notifications/cancelled`) leaves its queue, or, running, is
 * stopped inside its worker through shared memory (`cancel`), which is kept. A call past its
 * time limit plus a short grace, or past its worker thread's CPU limit (`watchCpu`), ends with
 * its worker.
 *
 * Workers share the site: each snapshot is encoded once into shared buffers
 * (`SnapshotEncoder`), and a worker is given it before it takes any call of it; a worker still
 * starting or loading takes none, and a call's clock starts only when its worker starts the
 * command (after building the reader's view, which on a large site takes a moment). Workers
 * start as calls need them, one spare kept warm, up to the pool's size, and stop after a minute
 * idle, all but one (`retireIdle`).
 */
export class ShellHost {
  private readonly slots: Slot[] = [];
  private readonly queue: FairQueue<Pending>;
  private readonly encoder = new SnapshotEncoder();
  /** Sites whose texts may be read from their snapshot (`releaseTexts`). */
  private readonly releasable = new WeakSet<Site>();
  private readonly snapshots = new WeakMap<Site, Snapshot>();
  /** A site's encoding under way, a slice at a time (`encodeSoon`), and its snapshot (not `complete`). */
  private encoding: { readonly site: Site; readonly job: SnapshotEncoding; readonly snapshot: Snapshot } | undefined;
  /** The newest snapshot: workers load it as soon as they start. */
  private current: Snapshot | undefined;
  /** A view workers build as soon as they hold its snapshot (`shellFor`'s `warm`). */
  private warmView: ViewRef | undefined;
  /** Ids of files views show that are not their snapshot's own (see `ExtraFile`). */
  private readonly extraIds = new WeakMap<SiteFile, number>();
  private nextExtra = 1;
  private nextSid = 1;
  private nextVid = 1;
  private nextId = 1;
  private nextWorker = 1;
  private closed = false;
  /** Workers in a row that ended before they loaded a snapshot. */
  private bootFailures = 0;
  /** Who waits for a worker to hold the current snapshot (`whenLoaded`). */
  private loadWaiters: (() => void)[] = [];
  private readonly log: (message: string) => void;
  private readonly emit: (event: PoolEvent) => void;
  private readonly limits: ShellLimits;
  private readonly deadlineMs: number;
  private readonly maxCpuMs: number;
  private readonly cpuPollMs: number;
  private readonly idleMs: number;
  private readonly maxHeld: number;
  private readonly maxRunning: number;
  private readonly cancelGraceMs: number;
  private readonly trialCpuMs: number;
  private readonly heavyCpuMs: number;
  /** 0: no command is stopped to make room. */
  private readonly trialMs: number;
  /** Looks again, while callers wait for room, for a first command that may be stopped now. */
  private preemptTimer: NodeJS.Timeout | undefined;
  /** What callers' commands did: answered (trusted), held a worker for long (heavy), or nothing known (new). */
  private readonly standing: CallerStanding;
  /** Workers kept for trusted callers: of the pool's places (`CallerBounds.trustedReserve`), and warm. */
  private readonly trustedWorkers: number;
  private readonly now: () => number;
  private readonly idleSweep: NodeJS.Timeout;
  /** Callers' places counted with the other worker processes (`shareCallerPlaces`); undefined in a lone process. */
  private places: PoolPlaces | undefined;
  /** The same count's channel, over which callers' standings are shared with the other pools. */
  private shared: CallerPlaces | undefined;
  /** Workers at most. */
  readonly size: number;

  constructor(private readonly options: ShellHostOptions = {}) {
    const defaults = LIMITS.shellWorker;
    this.log = options.log ?? (() => {});
    const onEvent = options.onEvent ?? (() => {});
    this.emit = (event) => {
      onEvent(event);
      if (POOL_CHANNEL.hasSubscribers) POOL_CHANNEL.publish(event);
    };
    this.limits = options.limits ?? LIMITS.shell;
    this.deadlineMs = this.limits.maxExecutionMs + (options.stuckGraceMs ?? defaults.stuckGraceMs);
    this.maxCpuMs = options.maxCpuMs ?? defaults.maxCpuMs;
    this.cpuPollMs = options.cpuPollMs ?? defaults.cpuPollMs;
    this.size = Math.max(1, options.workers ?? shellPoolSize(availableParallelism()));
    this.maxHeld = options.maxHeldPerCaller ?? defaults.maxHeldPerCaller;
    this.maxRunning = options.maxRunningPerCaller ?? defaults.maxRunningPerCaller;
    this.now = options.now ?? Date.now;
    this.standing = new CallerStanding({ capacity: defaults.rememberedCallers, heavyForMs: options.heavyForMs ?? defaults.heavyForMs, trustAnswers: Math.max(1, options.trustAnswers ?? defaults.trustAnswers), now: this.now, networkOf: callerNetwork });
    // A pool of one or two keeps no reserve beyond the worker a newcomer takes anyway.
    const reserve = Math.min(options.reserveWorkers ?? defaults.reserveWorkers, this.size - 1);
    // Within the reserve, leaving new callers at least one reserved worker: in a pool of two
    // (reserve one) a new caller still takes the worker a heavy or running caller may not.
    this.trustedWorkers = Math.min(options.trustedWorkers ?? defaults.trustedWorkers, Math.max(0, reserve - 1));
    this.trialCpuMs = options.trialCpuMs ?? defaults.trialCpuMs;
    this.heavyCpuMs = options.heavyCpuMs ?? defaults.heavyCpuMs;
    // A pool that keeps nothing for other callers (stdio, the preview, `svc-mcp fs`) serves one client: nobody to make room for.
    this.trialMs = reserve === 0 ? 0 : (options.trialMs ?? defaults.trialMs);
    const requeuedReserve = Math.min(options.requeuedReserve ?? defaults.requeuedReserve, this.size - 1);
    this.queue = new FairQueue<Pending>({
      maxHeld: this.maxHeld,
      maxRunning: this.maxRunning,
      capacity: this.size,
      reserve,
      trustedReserve: this.trustedWorkers,
      requeuedReserve,
      tried: (p) => p.tried,
      newestNewcomerFirst: this.trialMs > 0,
      // As many starts for trusted or heavy callers as places are kept for callers with nothing
      // running: then a waiting newcomer goes next (adversary round 35 F1). A pool that keeps
      // none serves one client.
      ...(reserve > 0 ? { newcomerPasses: reserve } : {}),
      // As many later trials as places are kept for callers with nothing running may go before a
      // waiting newcomer's; then it goes next (a stream of fresh callers starved it).
      ...(reserve > 0 && this.trialMs > 0 ? { newcomerOvertakes: reserve } : {}),
      standing: (caller) => this.standing.of(caller),
      elsewhere: (caller) => this.places?.elsewhereOf(caller) ?? 0,
    });
    this.cancelGraceMs = options.cancelGraceMs ?? defaults.cancelGraceMs;
    this.idleMs = options.idleMs ?? defaults.idleMs;
    this.idleSweep = setInterval(() => this.retireIdle(), this.idleMs);
    this.idleSweep.unref();
  }

  /**
   * Count each caller's commands with the other worker processes of `serve --http --workers N`
   * (their primary's `ShellPlaceLedger`), before any command: a caller's bounds
   * (`maxHeldPerCaller`, `maxRunningPerCaller`) are then the server's, not each worker's, and
   * a caller running a command in another worker takes no worker kept for callers with nothing
   * running. Each command costs a few messages to the primary; a lone process never calls this
   * and pays nothing. Where the primary does not answer, a command is counted here alone.
   */
  shareCallerPlaces(places: CallerPlaces): void {
    this.shared = places;
    // What another pool learnt of a caller counts here as if learnt here (not passed on again).
    places.listenStanding((news) => {
      if (news.mark === "heavy") this.standing.heldLong(news.caller);
      else this.standing.answered(news.caller);
      // A caller trusted now may take a worker it could not a moment ago.
      this.pump();
    });
    this.places = new PoolPlaces(
      places,
      { maxHeld: this.maxHeld, maxRunning: this.maxRunning },
      (caller) => this.queue.runningHere(caller),
      () => this.pump(),
    );
  }

  /** A command of `caller` held a worker for long: heavy here, and in the other worker processes' pools. */
  private heldLong(caller: string, why: HeavyWhy): void {
    this.standing.heldLong(caller);
    this.emit({ t: "heavy", caller, why });
    this.shared?.mark({ caller, mark: "heavy" });
  }

  /** A command of `caller` answered: counted toward trust here unless heavy, and in the other pools while it counts. */
  private answered(caller: string): void {
    if (this.standing.answered(caller)) this.shared?.mark({ caller, mark: "answered" });
  }

  /** Workers running now, busy or idle. */
  get workers(): number {
    return this.slots.length;
  }

  /**
   * Stop the workers idle for `idleMs`, all but one (and the trusted callers' own warm ones): a
   * burst may have started the whole pool, and with `--workers N` there are N pools. One stays
   * warm so the next call does not wait for a worker to start. Returns how many were stopped.
   */
  retireIdle(): number {
    const cutoff = this.now() - this.idleMs;
    const idle = this.slots.filter((s) => this.isIdle(s));
    const old = idle.filter((s) => s.idleSince <= cutoff);
    // Keep one idle worker (and the trusted callers' own): recent ones if there are, else the last of the old ones.
    const keep = 1 + this.trustedWorkers;
    const retire = idle.length - old.length >= keep ? old : old.slice(Math.max(0, keep - (idle.length - old.length)));
    for (const slot of retire) this.retire(slot, "idle");
    return retire.length;
  }

  /**
   * Start a worker now (starting takes a moment) instead of at the first command, and give it
   * `site`. The site is encoded just after this returns (a second on a 50,000-page site), so a
   * server answers `initialize` first; a command asked before gets it encoded on the spot.
   */
  start(site?: Site): void {
    if (site !== undefined) setImmediate(() => void this.encodeSoon(site));
    if (!this.closed && this.slots.length === 0) this.spawn();
  }

  /**
   * Make `site` the current snapshot: encode it once for every worker, and have the idle ones
   * load it now, so that the first call after a reload finds it loaded.
   */
  prepare(site: Site): void {
    this.makeCurrent(this.snapshotOf(site));
  }

  private makeCurrent(snapshot: Snapshot): void {
    if (this.current === snapshot || this.closed) return;
    this.current = snapshot;
    // Workers still booting too (messages wait for them, in order): a stdio server's one worker
    // boots while its thread answers the first search, and is given the site as it begins.
    for (const slot of this.slots) if (this.mayLoad(slot) && !slot.loaded.includes(snapshot.sid)) this.load(slot, snapshot);
  }

  /** Neither running a call nor loading: free to be given a snapshot (booted or not). */
  private mayLoad(slot: Slot): boolean {
    return slot.loading === undefined && slot.call === undefined;
  }

  /**
   * A shell for one reader's view of a snapshot (what `DocsShell` is in this thread). `warm`:
   * the reader whose commands come first (a stdio server's one reader): workers build its view
   * as soon as they are given the snapshot, before its first command (~0.5 s for 50,000 files),
   * and the site's encoding is left under way if it is (`encodeSoon`): the view needs none of
   * the texts, so a worker builds it on another core while this thread encodes them and answers
   * a search between their slices (issue 22: after the first search, the first command waited
   * for the rest of the encoding, the worker's load and this build, one after the other).
   */
  shellFor(site: Site, view: SiteView, warm = false): Shell {
    const snapshot = warm ? this.snapshotBegun(site) : this.snapshotOf(site);
    const { position } = snapshot.encoded;
    const positions: number[] = [];
    const extra: { id: number; file: SiteFile }[] = [];
    for (const file of view.files) {
      const at = position.get(file);
      if (at !== undefined) {
        positions.push(at);
        continue;
      }
      let id = this.extraIds.get(file);
      if (id === undefined) {
        id = this.nextExtra++;
        this.extraIds.set(file, id);
      }
      extra.push({ id, file });
    }
    const ref: ViewRef = { snapshot, vid: this.nextVid++, positions: Int32Array.from(positions), extra };
    if (warm) this.warm(ref);
    // `prepare`: this reader's commands come first after all (`DocsRuntime.prepareShell`).
    return { run: (command, caller, signal) => this.run(ref, command, caller ?? "", signal), prepare: () => this.warm(ref) };
  }

  /** Workers given its snapshot (loaded or loading) build `ref` now, and workers that load it later too. */
  private warm(ref: ViewRef): void {
    this.warmView = ref;
    for (const slot of this.slots) this.warmUp(slot);
  }

  /**
   * Resolves once a worker holds the current snapshot, and the view of the reader whose commands
   * come first (`shellFor`'s `warm`, or its shell's `prepare`) if that is of this snapshot, so a
   * command is taken at once and starts at once (or the pool is closed, or its workers keep
   * ending while they start: then commands say so). Over HTTP the port is opened only then
   * (issue 22, ready means ready): the worker's start, its load of a 50,000-page snapshot and its
   * build of the anonymous reader's view of 50,000 files (~0.5 s of its CPU; the first `echo hi`
   * after the port opened waited for it) are never a first command's wait.
   */
  whenLoaded(): Promise<void> {
    if (this.closed || this.holdsCurrent()) return Promise.resolve();
    return new Promise((resolve) => this.loadWaiters.push(resolve));
  }

  /** Whether a worker holds the current snapshot, and the warm view if it is of that snapshot. */
  private holdsCurrent(): boolean {
    const current = this.current;
    if (current === undefined) return false;
    const view = this.warmView?.snapshot === current ? this.warmView : undefined;
    return this.slots.some((s) => s.loaded.includes(current.sid) && (view === undefined || s.viewsBuilt.has(view.vid)));
  }

  private wakeLoadWaiters(): void {
    for (const resolve of this.loadWaiters.splice(0)) resolve();
  }

  /** Stop every worker; calls running or waiting get an error result. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.preemptTimer);
    this.wakeLoadWaiters();
    clearInterval(this.idleSweep);
    for (const p of this.queue.drain()) {
      this.places?.release(p);
      this.end(p, failure("the docs shell was shut down"), "shut-down");
    }
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      clearTimeout(slot.timer);
      clearTimeout(slot.cancelTimer);
      clearInterval(slot.cpuTimer);
      const p = slot.call;
      slot.call = undefined;
      if (p !== undefined) this.places?.release(p);
      if (p !== undefined) this.end(p, failure("the docs shell was shut down"), "shut-down");
      this.emit({ t: "exit", worker: slot.n, why: "shut-down" });
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  /** `site`'s snapshot, encoded now if it is not yet (the rest of an encoding under way). */
  private snapshotOf(site: Site): Snapshot {
    const snapshot = this.snapshotBegun(site);
    this.complete(snapshot);
    return snapshot;
  }

  /**
   * `site`'s snapshot, its encoding begun if it was not: made the newest, so that workers are
   * given it (before its texts: `SnapshotEncoding.preview`). One encoding at a time
   * (`SnapshotEncoder.begin`): one under way of another site (a reload came meanwhile) is
   * finished first, as it would have been had it not been sliced.
   */
  private snapshotBegun(site: Site): Snapshot {
    const known = this.snapshots.get(site);
    if (known !== undefined) return known;
    if (this.encoding !== undefined) this.complete(this.encoding.snapshot);
    const job = this.encoder.begin(site.files.values());
    const snapshot: Snapshot = { sid: this.nextSid++, encoded: job.preview, complete: false };
    this.snapshots.set(site, snapshot);
    this.encoding = { site, job, snapshot };
    this.emit({ t: "encoding", files: site.files.size });
    // A site not seen before is the newest (a reload): workers load it ahead of its first call.
    this.makeCurrent(snapshot);
    return snapshot;
  }

  /**
   * Encode `site` a slice of `ENCODE_SLICE_FILES` files at a time, a turn of the event loop
   * between slices: a request that arrives meanwhile (a stdio client's first search, sent as soon
   * as it has the tool list) is answered between two slices, not after the whole encoding,
   * ~0.5 s of this thread on a 50,000-page site (issue 22). Workers are given the snapshot as
   * the encoding begins and build their records (and the warm view) meanwhile; its texts follow
   * at the end. A command that needs the snapshot sooner finishes it at once (`snapshotOf`,
   * `run`). Slices are counted in files, not timed: the snapshot is the same whatever the
   * machine's speed.
   */
  async encodeSoon(site: Site): Promise<void> {
    if (this.closed) return;
    const snapshot = this.snapshotBegun(site);
    while (!snapshot.complete && this.encoding?.snapshot === snapshot && !this.closed) {
      if (this.encoding.job.advance(ENCODE_SLICE_FILES)) {
        this.complete(snapshot);
        return;
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Finish `snapshot`'s encoding (if under way): workers given it before its texts get them now. */
  private complete(snapshot: Snapshot): void {
    if (snapshot.complete) return;
    const encoding = this.encoding;
    if (encoding?.snapshot !== snapshot) return;
    this.encoding = undefined;
    snapshot.encoded = encoding.job.finish();
    snapshot.complete = true;
    this.emit({ t: "encoded", sid: snapshot.sid });
    if (this.releasable.has(encoding.site)) this.parkTexts(encoding.site);
    const chunks = snapshot.encoded.snapshot.chunks;
    for (const slot of this.slots) if (slot.loading === snapshot.sid) slot.worker.postMessage({ t: "texts", sid: snapshot.sid, chunks } satisfies ToWorker);
  }

  /**
   * Let `site`'s page texts go as strings once its snapshot holds their bytes (now, or when it is
   * encoded): they are read from there when asked for (`held-text.ts`). The site's biggest part
   * would otherwise be held twice (issue 22). The runtime calls it once the search index no
   * longer reads every body (a build reads each several times).
   */
  releaseTexts(site: Site): void {
    this.releasable.add(site);
    if (this.snapshots.get(site)?.complete === true) this.parkTexts(site);
  }

  /** Every held text of `site` read from where its snapshot wrote it (a snapshot written into
   *  fresh chunks moves the texts of files kept from before there too, so that old chunks go). */
  private parkTexts(site: Site): void {
    for (const file of site.files.values()) {
      const held = heldTextOf(file);
      if (held === undefined) continue;
      const stored = this.encoder.storedOf(file);
      if (stored !== undefined) held.park(stored);
    }
  }

  private run(view: ViewRef, command: string, caller: string, signal: AbortSignal | undefined): Promise<ShellResult> {
    if (this.closed) return Promise.resolve(failure("the docs shell was shut down"));
    // A command needs the texts: an encoding still under way is finished now, not a slice a turn.
    this.complete(view.snapshot);
    // Asked, then given up before it was queued: nothing to run.
    if (signal?.aborted === true) return Promise.resolve(CANCELLED);
    return new Promise((resolve) => {
      const p: Pending = {
        id: this.nextId++, view, command, caller, resolve, unlisten: () => {}, resends: 0, ended: false, place: undefined, mayRun: false,
        tried: false, preemptible: false, preempting: false, startedAt: 0, cpuAtStart: undefined,
      };
      if (this.places === undefined) this.enqueue(p, signal);
      else void this.holdThenEnqueue(this.places, p, signal);
    });
  }

  /** Counted with other worker processes: a place over all of them first, refused as here past the caller's bound. */
  private async holdThenEnqueue(places: PoolPlaces, p: Pending, signal: AbortSignal | undefined): Promise<void> {
    if (!(await places.hold(p))) {
      this.refuse(p);
      return;
    }
    if (this.closed || signal?.aborted === true) {
      places.release(p);
      p.resolve(this.closed ? failure("the docs shell was shut down") : CANCELLED);
      return;
    }
    this.enqueue(p, signal);
  }

  private enqueue(p: Pending, signal: AbortSignal | undefined): void {
    if (!this.queue.push(p.caller, p)) {
      this.places?.release(p);
      this.refuse(p);
      return;
    }
    this.emit({ t: "queued", call: p.id, caller: p.caller });
    if (signal !== undefined) {
      const onAbort = (): void => this.cancel(p);
      signal.addEventListener("abort", onAbort, { once: true });
      p.unlisten = () => signal.removeEventListener("abort", onAbort);
    }
    this.pump();
  }

  /** The caller holds its bound: refused at once, naming it. */
  private refuse(p: Pending): void {
    this.emit({ t: "refused", caller: p.caller, limit: this.maxHeld });
    p.resolve({
      stdout: "",
      stderr:
        `bash: too many commands of this client in the docs shell: at most ${this.maxHeld} running or waiting at once per client ` +
        "(an address, an IPv6 /64 or a token); wait for their results, then send more\n",
      exitCode: 126,
      truncated: false,
    });
  }

  /**
   * The caller gave up. Waiting, the call leaves its queue. Running, it is answered at once and
   * stopped inside its worker (`interrupt`: the interpreter checks it as it works, so a runaway
   * `jq` stops within its next check), which then takes the next call: no worker is started
   * again. Its caller's place stays held until the command has stopped, so cancelling frees no
   * worker sooner than the command does, and the caller is remembered as heavy
   * (`HeavyCallers`). A command that does not stop within `cancelGraceMs` (synchronous code that
   * checks too rarely) has its worker ended then; as the place was held until that moment, one
   * caller's cancellations restart at most `maxRunningPerCaller` workers per `cancelGraceMs`.
   */
  private cancel(p: Pending): void {
    if (this.queue.remove(p.caller, p)) {
      this.places?.release(p);
      this.end(p, CANCELLED, "cancelled");
      this.pump();
      return;
    }
    const slot = this.slots.find((s) => s.call === p);
    if (slot === undefined || p.ended) return;
    this.heldLong(p.caller, "given-up");
    Atomics.store(slot.interrupt, 0, p.id);
    slot.worker.postMessage({ t: "cancel", id: p.id } satisfies ToWorker);
    this.end(p, CANCELLED, "cancelled");
    this.afterGrace(slot, p, () => slot.call === p, () => this.cancelOverdue(slot, p));
  }

  /** A given-up command has not stopped: end its worker (its caller's place was held until now). */
  private cancelOverdue(slot: Slot, p: Pending): void {
    if (slot.call !== p) return;
    this.retire(slot, "cancelled");
    this.answer(p, CANCELLED, "cancelled");
  }

  private isIdle(slot: Slot): boolean {
    return slot.booted && slot.loading === undefined && slot.call === undefined;
  }

  /** Give waiting calls to free workers, loading snapshots and starting workers as they need. */
  private pump(): void {
    if (this.closed) return;
    /** Ready workers the next call waits for (its floor and its own), when it may not take the ready ones there are. */
    let heldBack = 0;
    for (;;) {
      const next = this.queue.peek();
      if (next === undefined) break;
      const { snapshot } = next.item.view;
      const slot = this.slots.find((s) => this.isIdle(s) && s.loaded.includes(snapshot.sid));
      if (slot !== undefined) {
        // The places a caller must leave free (its floor: the reserves) are left as ready
        // workers, not as places whose workers are still starting: a caller that is not trusted
        // (new, heavy, or running one already) waits for another worker to start rather than
        // take one of the last `floor` ready ones. Counted in places alone, a heavy caller took
        // the last ready worker while the replacements of workers ended at a limit started, and
        // a true newcomer arriving then waited for a start (seconds under load; issue 25). A
        // caller with a lower floor waiting would have been chosen first.
        const floor = this.queue.floorFor(next.caller);
        if (floor > 0 && this.slots.filter((s) => this.isIdle(s)).length <= floor) {
          heldBack = floor + 1;
          break;
        }
        // Counted with other worker processes: the primary's leave first (asked now, the pool goes on when it answers).
        if (this.places !== undefined && !this.places.mayStart(next.item)) break;
        this.queue.take();
        this.assign(slot, next.item);
        continue;
      }
      // No idle worker holds the call's snapshot (an older one, a shell taken before a reload):
      // an idle worker loads it, unless one is loading it already.
      const idle = this.slots.find((s) => this.isIdle(s));
      if (idle !== undefined && !this.slots.some((s) => s.loading === snapshot.sid)) this.load(idle, snapshot);
      break;
    }
    // Workers for the calls that could start now, and spares warm beyond them (one, and the
    // trusted callers' own): the next caller should not wait for a worker to start.
    if (this.bootFailures > 0) {
      // Start no more than one at a time while workers fail to start (for a call, or for a
      // server that opens its port only once one holds the site: `whenLoaded`).
      if ((this.queue.waiting > 0 || this.loadWaiters.length > 0) && !this.slots.some((s) => this.starting(s))) this.spawn();
      return;
    }
    const ready = this.slots.filter((s) => this.isIdle(s) || this.starting(s)).length;
    // And as many as the call held back waits for, whatever spares the pool keeps: else it could wait for good.
    const wanted = Math.max(heldBack, this.queue.startable() + (this.options.spareWorkers ?? 1) + this.trustedWorkers);
    for (let k = ready; k < wanted && this.slots.length < this.size; k++) this.spawn();
    this.preemptForNewcomers();
  }

  /**
   * Callers with nothing running (new ones whose command has not run yet, trusted ones) waiting
   * with no started worker they may take (a place whose worker is still starting is none):
   * stop as many new callers' first commands as they need, of those that have used `trialCpuMs` of CPU (or run `trialMs` where CPU cannot be read)
   * (oldest first), and queue them again, unstoppable now, behind `requeuedReserve`. Why: a
   * newcomer cannot be told from a fresh attacker's address before its command runs, so a flood
   * of fresh addresses each sending one runaway held every worker a newcomer may take, each for
   * its whole limit (60 s under load), and a new reader waited for them in turn: 5.6-7.7 minutes
   * (issue 25, adversary F1). A reader's quick command ends before it may be stopped; a runaway
   * holds a worker a newcomer needs for one trial at most, then waits with the flood's other
   * second runs for half the pool. No answer changes: the command runs again from its start
   * (the shell is read-only, and fresh each call), with its full limits. While someone waits
   * and a command is not yet stoppable, this looks again every `cpuPollMs`.
   */
  private preemptForNewcomers(): void {
    if (this.trialMs === 0 || this.closed) return;
    clearTimeout(this.preemptTimer);
    this.preemptTimer = undefined;
    const waiting = this.queue.waitingNewcomers();
    if (waiting === 0) return;
    // Workers they will get without stopping anyone: started ones that are free, beyond the
    // trusted callers' own, and those being stopped already. Counted in started workers, not
    // places (docs/security.md row 169): a free place whose worker is still starting is no
    // worker to a caller waiting now. The runaways that make callers wait take the cores a start
    // needs: at the start of a burst of twenty fresh runaways on the demo, three places of six
    // were workers still starting, nothing was stopped because places were free, and a trusted
    // reader's `cat` waited 10 s for a start (26.9 s and 40.4 s in the adversary's runs; 10-50 s
    // at load ~50, issue 25), where a trial stops within its `trialCpuMs` of CPU. So a place owed
    // to a caller with nothing running is backed by a started worker, or a trial is stopped to
    // back it; the start still under way then serves whoever comes next. Decided by counts of
    // workers and their states, never by how long a start takes.
    const stopping = this.slots.filter((s) => s.call?.preempting === true && !s.call.ended).length;
    const free = this.slots.filter((s) => this.isIdle(s)).length;
    let need = waiting - Math.max(0, free - this.trustedWorkers) - stopping;
    if (need <= 0) return;
    const now = this.now();
    const candidates = this.slots
      .filter((s): s is Slot & { call: Pending } => s.call !== undefined && s.call.preemptible && !s.call.preempting && !s.call.ended && s.timer !== undefined)
      .sort((a, b) => a.call.startedAt - b.call.startedAt);
    let later = false;
    for (const slot of candidates) {
      if (need <= 0) break;
      const p = slot.call;
      const cpu = this.trialCpuOf(slot, p);
      // By CPU (the worker's thread and its jq threads), never the wall where CPU can be read: at
      // load ~50 a new reader's `ls /` ran past 1 s of wall time, was stopped as a trial and
      // waited behind the flood's second runs for 30 s (issue 25, bench row (h)).
      const ready = cpu === undefined ? now - p.startedAt >= this.trialMs : cpu >= this.trialCpuMs;
      if (!ready) {
        later = true;
        continue;
      }
      this.preempt(slot, p);
      need--;
    }
    if (later && need > 0) {
      this.preemptTimer = setTimeout(() => this.preemptForNewcomers(), this.cpuPollMs);
      this.preemptTimer.unref();
    }
  }

  /**
   * The CPU `p` has used in its worker: the worker thread's since the command started, and its
   * jq threads' (`helperCpu`; a jq spins in a thread of its own while the worker's waits).
   * Undefined where the worker thread's cannot be read.
   */
  private trialCpuOf(slot: Slot, p: Pending): number | undefined {
    const now = slot.tid === undefined || p.cpuAtStart === undefined ? undefined : threadCpuMs(slot.tid);
    if (now === undefined || p.cpuAtStart === undefined) return undefined;
    const liveTid = Atomics.load(slot.helperCpu, 1);
    const live = liveTid === 0 ? 0 : (threadCpuMs(liveTid) ?? Atomics.load(slot.helperCpu, 2)) - Atomics.load(slot.helperCpu, 2);
    return now - p.cpuAtStart + Atomics.load(slot.helperCpu, 0) + Math.max(0, live);
  }

  /** Stop `p` inside its worker (as a cancellation does) to queue it again; a worker that does not stop it within `cancelGraceMs` is ended. */
  private preempt(slot: Slot, p: Pending): void {
    p.preempting = true;
    this.emit({ t: "preempted", call: p.id, worker: slot.n });
    Atomics.store(slot.interrupt, 0, p.id);
    slot.worker.postMessage({ t: "cancel", id: p.id } satisfies ToWorker);
    // Given up meanwhile, the cancellation's own grace ends it.
    this.afterGrace(slot, p, () => slot.call === p && !p.ended, () => {
      this.retire(slot, "preempted");
      this.requeue(undefined, p, false);
    });
  }

  /**
   * Call `overdue` once the command being stopped in `slot` has used `cancelGraceMs` of CPU
   * (its worker thread's and its jq threads') since now without stopping, while `still` holds;
   * by the wall where CPU cannot be read. Why CPU: a worker told to stop needs a few
   * milliseconds of its thread to do so, which at load ~50 came seconds later; ended at 2 s of
   * wall time instead, it was replaced, and a new worker took 10-50 s to start at that load
   * (issue 25, bench row (h): the pool ran on two workers for a minute). A command that spins
   * past the stop uses CPU, and is ended as before.
   */
  private afterGrace(slot: Slot, p: Pending, still: () => boolean, overdue: () => void): void {
    const from = this.trialCpuOf(slot, p);
    if (from === undefined) {
      slot.cancelTimer = setTimeout(() => {
        if (still()) overdue();
      }, this.cancelGraceMs);
      return;
    }
    const check = (): void => {
      if (!still()) return;
      const used = this.trialCpuOf(slot, p);
      if (used === undefined || used - from >= this.cancelGraceMs) overdue();
      else slot.cancelTimer = setTimeout(check, this.cpuPollMs);
    };
    slot.cancelTimer = setTimeout(check, this.cpuPollMs);
  }

  /**
   * A command stopped to make room has stopped (or its worker was ended): its worker takes the
   * next call (a fresh one if the command may still run in it: `retire`), and the command waits
   * again, first in its caller's queue, to run from its start. Its place with the other worker
   * processes stays held. Its caller is not made heavy: it held the worker no longer than a trial.
   */
  private requeue(slot: Slot | undefined, p: Pending, retire: boolean): void {
    if (slot !== undefined) {
      if (retire) this.retire(slot, "preempted");
      else {
        clearTimeout(slot.timer);
        clearTimeout(slot.cancelTimer);
        clearInterval(slot.cpuTimer);
        slot.cpuTimer = undefined;
        slot.timer = undefined;
        slot.cancelTimer = undefined;
        slot.call = undefined;
        slot.idleSince = this.now();
        slot.worker.unref();
      }
    }
    p.preempting = false;
    p.preemptible = false;
    p.tried = true;
    this.queue.unshift(p.caller, p);
    this.emit({ t: "requeued", call: p.id, caller: p.caller });
    this.pump();
  }

  /** Starting or loading: it will be free without anyone's call ending. */
  private starting(slot: Slot): boolean {
    return slot.call === undefined && (!slot.booted || slot.loading !== undefined);
  }

  /** Give a worker a snapshot; it takes calls again once it says it holds it. */
  private load(slot: Slot, snapshot: Snapshot): void {
    slot.loading = snapshot.sid;
    this.emit({ t: "loading", worker: slot.n, sid: snapshot.sid });
    // Keep a handful, the host choosing which: a call never meets its snapshot gone.
    while (slot.loaded.length >= KEPT_SNAPSHOTS) {
      const sid = slot.loaded.shift() as number;
      slot.worker.postMessage({ t: "drop", sid } satisfies ToWorker);
    }
    slot.worker.postMessage({ t: "site", sid: snapshot.sid, snapshot: snapshot.encoded.snapshot, complete: snapshot.complete } satisfies ToWorker);
    // The warm view right behind it: built while the texts are encoded, if they are.
    this.warmUp(slot);
  }

  private assign(slot: Slot, p: Pending): void {
    slot.call = p;
    // Decided as it starts: a caller trusted or heavy by then is not a newcomer.
    p.preemptible = this.trialMs > 0 && !p.tried && this.standing.of(p.caller) === "new";
    // An idle worker never keeps the process alive; one running a call does, like any pending I/O.
    slot.worker.ref();
    slot.helperCpu.fill(0);
    // The worker reads this cell as its call's cancellation (`ShellWorkerData.interrupt`). A call
    // stopped to make room (`preempt`) runs again under its own id, and when it ran again on the
    // worker that stopped it, the cell still named it: its second run read as given up at once
    // and answered `cancelled by the client`, exit 130, to a caller who had cancelled nothing
    // (a CI flake: `jq --help | head -2`, whose jq thread's start made it a trial worth
    // stopping on a loaded machine). The worker's previous call has ended: nothing reads it now.
    Atomics.store(slot.interrupt, 0, 0);
    this.emit({ t: "start", call: p.id, worker: slot.n });
    this.send(slot, p);
  }

  private send(slot: Slot, p: Pending): void {
    this.sendView(slot, p.view);
    slot.worker.postMessage({ t: "run", id: p.id, vid: p.view.vid, command: p.command } satisfies ToWorker);
  }

  /** Have the worker build `view`, unless it did (messages are ordered: a `run` after it finds it). */
  private sendView(slot: Slot, view: ViewRef): void {
    if (slot.viewsSent.has(view.vid)) return;
    const extra = view.extra.map((e) => (slot.extrasSent.has(e.id) ? { id: e.id } : { id: e.id, file: e.file }));
    for (const e of view.extra) slot.extrasSent.add(e.id);
    slot.worker.postMessage({ t: "view", sid: view.snapshot.sid, vid: view.vid, positions: view.positions, extra } satisfies ToWorker);
    slot.viewsSent.add(view.vid);
  }

  /**
   * A worker with no call, holding the warm view's snapshot or loading it, builds that view now
   * (loading: after the snapshot, messages are ordered; before its texts, which it does not need).
   */
  private warmUp(slot: Slot): void {
    const view = this.warmView;
    if (view === undefined || slot.call !== undefined) return;
    const sid = view.snapshot.sid;
    if (slot.loading === sid || (slot.loading === undefined && slot.loaded.includes(sid))) this.sendView(slot, view);
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    if (!this.slots.includes(slot)) return;
    if (message.t === "ready") {
      slot.booted = true;
      slot.tid = message.tid;
      this.emit({ t: "booted", worker: slot.n });
      // Given the current snapshot while it booted (`makeCurrent`), it may have loaded it already.
      const current = this.current;
      if (current !== undefined && this.mayLoad(slot) && !slot.loaded.includes(current.sid)) this.load(slot, current);
      else {
        this.warmUp(slot);
        this.pump();
      }
      return;
    }
    if (message.t === "loaded") {
      if (slot.loading !== message.sid) return;
      slot.loading = undefined;
      slot.loaded.push(message.sid);
      slot.everLoaded = true;
      slot.idleSince = this.now();
      this.bootFailures = 0;
      this.emit({ t: "loaded", worker: slot.n, sid: message.sid });
      if (this.holdsCurrent()) this.wakeLoadWaiters();
      // A reload while it loaded: the newest snapshot next.
      if (this.current !== undefined && !slot.loaded.includes(this.current.sid)) this.load(slot, this.current);
      else {
        this.warmUp(slot);
        this.pump();
      }
      return;
    }
    if (message.t === "viewed") {
      slot.viewsBuilt.add(message.vid);
      this.emit({ t: "viewed", worker: slot.n, view: message.vid });
      if (this.holdsCurrent()) this.wakeLoadWaiters();
      return;
    }
    const p = slot.call;
    if (p === undefined || p.id !== message.id) return;
    if (message.t === "started") {
      // The call's clock: past its limit and the grace, the worker is taken for stuck.
      slot.timer = setTimeout(() => this.stuck(slot, p), this.deadlineMs);
      p.startedAt = this.now();
      p.cpuAtStart = slot.tid === undefined ? undefined : threadCpuMs(slot.tid);
      this.watchCpu(slot, p);
      if (p.preemptible) this.preemptForNewcomers();
      return;
    }
    if (message.t === "result") {
      if (p.preempting && !p.ended) {
        this.requeue(slot, p, stoppedByClock(message.stop));
        return;
      }
      if (p.ended) this.emit({ t: "stopped", call: p.id, worker: slot.n, exitCode: message.result.exitCode });
      if (message.stop !== undefined && message.stop !== "cancel") {
        this.heldLong(p.caller, "stopped");
        // Stopped by the worker's own clock (the line awaited something past the time limit),
        // the command may have left work running that ignored the abort: the next call gets a
        // fresh worker. Stopped by its work budget or its CPU limit, the line stopped where it
        // worked, by the same abort as a cancellation, and the worker has answered: it is kept,
        // as after a cancellation (`cancel`), and takes the next call. Before (issue 25), every
        // runaway that reached its limit cost a worker's start (~70-100 ms of CPU, seconds
        // under load), and callers with nothing running waited for those starts. Decided by
        // what stopped the line as the worker says it (`message.stop`), never by how long anything
        // took, nor by its exit status or stderr, which a command's own `exit 124` sets too.
        if (stoppedByClock(message.stop)) {
          this.retire(slot, "time-limit");
          this.answer(p, message.result, "result");
        } else this.finish(slot, message.result);
      } else {
        // Answered (a command given up while it ran has made its caller heavy already). How
        // long it took by the wall is not looked at: on a busy machine a reader's `ls /` would
        // count as long. Its CPU is: a command that answered only after long CPU work (a jq
        // stopped by its own 256 MB bound, exit 134, after seconds of it) held its worker as a
        // runaway stopped at a limit does, and made its caller trusted: trusted callers with
        // nothing running take any free worker, the reserved ones too, and go first, so callers
        // looping such a command, one per free worker, took every worker and a reader waited
        // for one of them to end (bench/shell-crowd.ts). CPU, not wall time, so the machine's
        // load decides nothing; where it cannot be read, nothing.
        if (!p.ended) {
          const cpu = this.trialCpuOf(slot, p);
          if (cpu !== undefined && cpu >= this.heavyCpuMs) this.heldLong(p.caller, "cpu");
          else this.answered(p.caller);
        }
        this.finish(slot, message.result);
      }
      return;
    }
    // The worker dropped the view (its table of views is bounded): send it again.
    slot.viewsSent.delete(p.view.vid);
    slot.viewsBuilt.delete(p.view.vid);
    for (const e of p.view.extra) slot.extrasSent.delete(e.id);
    if (++p.resends > 3) this.finish(slot, failure("the docs shell lost this reader's view; try again"));
    else this.send(slot, p);
  }

  /** The worker's call ended: answer it, and give the worker the next one. */
  private finish(slot: Slot, result: ShellResult): void {
    const p = slot.call;
    clearTimeout(slot.timer);
    clearTimeout(slot.cancelTimer);
    clearInterval(slot.cpuTimer);
    slot.cpuTimer = undefined;
    slot.timer = undefined;
    slot.cancelTimer = undefined;
    slot.call = undefined;
    slot.idleSince = this.now();
    slot.worker.unref();
    if (p !== undefined) this.answer(p, result, "result");
    else this.pump();
  }

  /** A call that ran is over: its caller may run another, and the waiting calls go to free workers. */
  private answer(p: Pending, result: ShellResult, how: CallEnd): void {
    this.queue.done(p.caller);
    this.places?.release(p);
    this.end(p, result, how);
    this.pump();
  }

  private end(p: Pending, result: ShellResult, how: CallEnd): void {
    if (p.ended) return;
    p.ended = true;
    p.unlisten();
    this.emit({ t: "end", call: p.id, how });
    p.resolve(result);
  }

  /** No answer in time: the worker is stuck in synchronous code. The call ends; so does the worker. */
  private stuck(slot: Slot, p: Pending): void {
    if (slot.call !== p) return;
    if (this.options.warnOnEnd !== false) this.log(`warning: a docs-shell command ran past its time limit without yielding; restarting its shell worker (${JSON.stringify(p.command.slice(0, 200))})`);
    this.heldLong(p.caller, "stopped");
    this.retire(slot, "time-limit");
    this.answer(p, { stdout: "", stderr: timeLimitMessage(this.limits.maxExecutionMs), exitCode: 124, truncated: false }, "time-limit");
  }

  /**
   * Read the worker thread's CPU time every `cpuPollMs` while `p` runs, and end the worker once
   * the command has used more than `maxCpuMs` of it: a single step the work budget cannot count
   * (one regex or sort over a huge value inside one library call; a jq that never ends runs in a thread of its own that the worker ends at this same limit, `jq-in-thread.ts`) spins
   * without checking anything, and held a worker until the wall-clock backstop, so two callers
   * with such a command each stalled a 2-worker pool for a minute (issue 25). CPU time, not
   * wall time: a thread waiting for a core on a busy machine accrues none, so a legitimate
   * command is not stopped for the machine's load. Where the thread's time cannot be read (no
   * /proc), only the wall-clock backstop applies.
   */
  private watchCpu(slot: Slot, p: Pending): void {
    const tid = slot.tid;
    if (tid === undefined) return;
    const before = threadCpuMs(tid);
    if (before === undefined) return;
    slot.cpuTimer = setInterval(() => {
      const now = threadCpuMs(tid);
      if (slot.call !== p || now === undefined || now - before <= this.maxCpuMs) return;
      if (this.options.warnOnEnd !== false) this.log(`warning: a docs-shell command used more than ${this.maxCpuMs} ms of CPU in one step the work limit cannot count; restarting its shell worker (${JSON.stringify(p.command.slice(0, 200))})`);
      this.heldLong(p.caller, "stopped");
      this.retire(slot, "cpu-limit");
      this.answer(p, { stdout: "", stderr: cpuLimitMessage(this.maxCpuMs), exitCode: 124, truncated: false }, "cpu-limit");
    }, this.cpuPollMs);
    slot.cpuTimer.unref();
  }

  /** Take a worker out of the pool and stop it (a fresh one is started as calls need it). */
  private retire(slot: Slot, why: WorkerExit): void {
    const k = this.slots.indexOf(slot);
    if (k === -1) return;
    this.slots.splice(k, 1);
    clearTimeout(slot.timer);
    clearTimeout(slot.cancelTimer);
    clearInterval(slot.cpuTimer);
    slot.timer = undefined;
    slot.cancelTimer = undefined;
    slot.cpuTimer = undefined;
    slot.call = undefined;
    this.emit({ t: "exit", worker: slot.n, why });
    void slot.worker.terminate();
  }

  /** A worker ended by itself (out of memory, a crash): its call fails with the reason. */
  private died(slot: Slot): void {
    if (!this.slots.includes(slot) || this.closed) return;
    const p = slot.call;
    this.retire(slot, "died");
    if (!slot.everLoaded && ++this.bootFailures >= LIMITS.shellWorker.maxBootFailures) {
      // Workers keep ending before they are ready: answer the waiting calls instead of starting more.
      const why = `the docs shell could not start (${slot.failed?.message ?? "its worker ended while starting"}); try again later`;
      this.log(`warning: ${this.bootFailures} shell workers in a row ended while starting: ${slot.failed?.message ?? "no reason given"}`);
      this.bootFailures = 0;
      for (const waiting of this.queue.drain()) {
        this.places?.release(waiting);
        this.end(waiting, failure(why), "boot-failed");
      }
      this.wakeLoadWaiters();
    }
    if (p === undefined) {
      this.pump();
      return;
    }
    const why =
      (slot.failed as { code?: string } | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? `out of memory: this command needs more than the docs shell's ${this.options.maxHeapMb ?? LIMITS.shellWorker.maxHeapMb} MB; narrow it`
        : "the docs shell stopped while running this command; try again";
    this.answer(p, failure(why), "worker-died");
  }

  private spawn(): Slot {
    const { file, entry } = workerEntry();
    const interrupt = new Int32Array(new SharedArrayBuffer(4));
    const helperCpu = new Int32Array(new SharedArrayBuffer(12));
    const worker = new Worker(file, {
      workerData: { entry, limits: this.limits, maxCpuMs: this.maxCpuMs, interrupt, helperCpu,
        ...(this.options.loadGate !== undefined ? { loadGate: this.options.loadGate } : {}),
        ...(this.options.jqRuns !== undefined ? { jqRuns: this.options.jqRuns } : {}),
      } satisfies ShellWorkerData,
      execArgv: workerExecArgv(process.execArgv),
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? LIMITS.shellWorker.maxHeapMb, maxYoungGenerationSizeMb: LIMITS.shellWorker.youngGenerationMb },
    });
    worker.unref();
    const slot: Slot = {
      n: this.nextWorker++,
      worker,
      interrupt,
      helperCpu,
      cancelTimer: undefined,
      booted: false,
      loading: undefined,
      loaded: [],
      everLoaded: false,
      call: undefined,
      timer: undefined,
      tid: undefined,
      cpuTimer: undefined,
      viewsSent: new Set(),
      viewsBuilt: new Set(),
      extrasSent: new Set(),
      failed: undefined,
      idleSince: this.now(),
    };
    this.emit({ t: "spawn", worker: slot.n });
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

/** What a cancelled call resolves with (nobody reads it: its caller is gone). */
const CANCELLED: ShellResult = Object.freeze({ stdout: "", stderr: "bash: cancelled by the client\n", exitCode: 130, truncated: false });

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

/**
 * Whether a worker's line was stopped by its own clock (`ShellStop`), as the worker says beside
 * its result: what a command prints on stderr does not count. Before (issue 25) the host read
 * the time-limit line at the end of stderr, so `echo 'bash: command stopped after 5000 ms (time
 * limit)' >&2; exit 124` cost its worker, and a clock stop whose stderr was cut was guessed at.
 */
function stoppedByClock(stop: ShellStop | undefined): boolean {
  return stop === "clock" || stop === "deadline";
}
