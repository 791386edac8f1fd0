import type { Standing } from "./caller-standing.js";
import { appendAll } from "../../arrays.js";
import { RecentStarts } from "./recent-starts.js";

/** What one caller may hold of a pool, and what the pool keeps for callers with nothing running. */
export interface CallerBounds<T = unknown> {
  /** Items one caller may hold at once, running and waiting together; past it `push` refuses. */
  readonly maxHeld: number;
  /** Items one caller may have running at once. */
  readonly maxRunning: number;
  /** Items that may run at once over all callers (the pool's workers). */
  readonly capacity: number;
  /**
   * Places kept for callers with nothing running: a caller already running (or heavy) may start
   * another only while at least this many places stay free after it.
   */
  readonly reserve: number;
  /**
   * Places kept for trusted callers (their commands answer): a new caller may start one only
   * while at least this many stay free after it (0 by default).
   */
  readonly trustedReserve?: number;
  /**
   * Places a new caller's item that already ran once and was stopped to make room (`tried`) must
   * leave free (at least `reserve`; none by default): such a caller's second run is the one that
   * may be a runaway, and a flood of fresh callers then holds at most the pool less these.
   */
  readonly requeuedReserve?: number;
  /** Whether an item already ran once and was stopped to make room (`ShellHost`'s preemption). None by default. */
  readonly tried?: (item: T) => boolean;
  /**
   * Among new callers never served whose next item has not run (trials), the one that arrived
   * last goes first (false by default: the first). With trials, a runaway among them holds a
   * worker for one trial, so a newcomer waits for the trials in front of it: newest first, a
   * burst of fresh addresses already waiting does not stand in front of a reader arriving after
   * it (issue 25, adversary F1).
   */
  readonly newestNewcomerFirst?: boolean;
  /**
   * With `newestNewcomerFirst`: a trial that this many trials of callers who arrived after it
   * were started ahead of goes before the newer ones (those so passed over, the one that arrived
   * first). Newest first alone starved a trial under a steady stream of fresh callers: each new
   * wave went ahead of a reader already waiting, which waited until the stream stopped (issue 25,
   * bench row (h) at load ~40: a new reader's `ls /` queued behind 32 later runaways' trials,
   * 35 s). A count of starts, never time. None by default (newest first without bound).
   */
  readonly newcomerOvertakes?: number;
  /**
   * A new caller with nothing running that items of trusted or heavy callers were started ahead
   * of this many times while it waited takes the next place as a trusted caller with nothing
   * running does (its floor 0; never served, it goes first among them). Without it, callers who
   * had earned trust by one quick answer and then kept a long, legal command each always queued
   * (adversary round 35 F1: six addresses, two 3 s `jq` sorts each) took every place as it came
   * free, and a new reader's `ls /` waited 57-87 s. A count of starts, never time. None by default.
   */
  readonly newcomerPasses?: number;
  /**
   * Each caller's standing (`CallerStanding`): a heavy caller's next item counts as a further
   * one even with nothing running; a new caller's may not take the trusted reserve. Everyone is
   * trusted by default.
   */
  readonly standing?: (caller: string) => Standing;
  /**
   * Items of a caller running in other pools that share its bounds (the other worker processes
   * of `serve --http --workers N`, counted by their primary): they count against `maxRunning`,
   * and a caller running one there is not a caller with nothing running here. None by default.
   */
  readonly elsewhere?: (caller: string) => number;
  /**
   * Starts remembered (`RecentStarts`), counted, never timed; none by default. With it, callers
   * are served by least work started among the last `recentStarts` starts (items, or their
   * `weight`), then by whose last start is oldest (never started first), and a caller with more
   * than half as much of that work as a caller running now leaves `reserve` free as one running
   * does (`tookMore`): the reserve is for callers who took little lately.
   * Without it, callers with nothing running were alike however much they had just run, so
   * twenty addresses each keeping one slow render in flight took every worker in turn, in order
   * of arrival, ahead of a reader's page (adversary round 51 F3). It holds against as many
   * addresses as it counts starts; more each take the reserve, but still go after a caller who
   * started less.
   */
  readonly recentStarts?: number;
  /**
   * With `recentStarts`: what an item is expected to cost, counted from the item before it runs
   * (never timed), so that callers are compared by the work they started lately, not by how many
   * items: 1 each by default. Counting items alone, a reader who opened four small pages had
   * "started more" than four addresses each flooding the render pool with pages of 40x40 tables
   * (each had started two or three in the time, each taking seconds), so the reader left the
   * kept worker free for them and its page waited for one of theirs to end: 2-8 s against
   * 10-50 ms idle (adversary round 65 F3).
   */
  readonly weight?: (item: T) => number;
  /** With `recentStarts`: callers whose last start is remembered (least recently started forgotten first). */
  readonly rememberedCallers?: number;
  /**
   * A caller that could have started its next item while this many items of others started goes
   * next, whatever it started lately (the most passed over first); none by default. Fewest
   * started lately first passed over a reader's page for as long as new addresses kept coming,
   * each having started none: ten pages in flight, each from a never-seen address, held it
   * 1.3-16 s at p50 and let 3-12 of its pages through in 40 s (adversary round 52 F5).
   */
  readonly passedOverAtMost?: number;
}

interface Entry<T> {
  readonly queue: T[];
  running: number;
  lastTurn: number;
  /** Items of trusted or heavy callers started while this new caller waited with nothing running (`newcomerPasses`). */
  passed: number;
  /** Trials of callers who arrived after this one started while its own trial waited (`newcomerOvertakes`). */
  overtaken: number;
  /** Items of others, waiting since after its own, started while this caller could have started its next (`passedOverAtMost`). */
  skipped: number;
  /** When its next item began to wait, in items pushed or started (`FairQueue.arrivals`). */
  since: number;
}

/**
 * Waiting work of many callers, served fairly: one FIFO queue per caller, callers taken in
 * turn (round-robin: the caller served longest ago goes first, a newcomer before everyone who
 * was served; trusted callers before new ones before the rest: `choose`), each with a cap on what it holds (running and waiting) and on what it runs at
 * once. The places are shared by class of caller, so that no class can take them all: a caller
 * already running one, or heavy (known to hold places for long), leaves `reserve` places free;
 * a new caller (nothing known of it) leaves `trustedReserve` free; a trusted caller with nothing
 * running may take any. So callers that send runaways, however many addresses they come from,
 * leave places for callers whose commands answer. A caller who sends fifty commands waits for
 * its own or is refused; a caller who sends one is next in line and finds a place. Decisions
 * count items and standings, never time, so a busy machine decides the same.
 */
export class FairQueue<T> {
  /** Callers with queued or running work (by arrival, which breaks ties between newcomers). */
  private readonly callers = new Map<string, Entry<T>>();
  /** Turns given so far: `lastTurn` of the caller served most recently. */
  private turns = 0;
  /** Items pushed to an empty queue or left at a queue's head by a start: when each caller's next item began to wait (`Entry.since`). */
  private arrivals = 0;
  /** Items running, over all callers. */
  private runningNow = 0;
  /** Callers with an item running here. */
  private readonly runningCallers = new Set<string>();
  /** Who started lately (`recentStarts`). */
  private readonly recent: RecentStarts | undefined;

  constructor(private readonly bounds: CallerBounds<T>) {
    const window = bounds.recentStarts;
    this.recent = window === undefined ? undefined : new RecentStarts(window, Math.max(window, bounds.rememberedCallers ?? window));
  }

  /** Queue an item; false (and nothing queued) when the caller already holds `maxHeld`. */
  push(caller: string, item: T): boolean {
    let entry = this.callers.get(caller);
    if (entry === undefined) {
      entry = { queue: [], running: 0, lastTurn: 0, passed: 0, overtaken: 0, skipped: 0, since: 0 };
      this.callers.set(caller, entry);
    }
    if (entry.queue.length + entry.running >= this.bounds.maxHeld) {
      this.forgetIfIdle(caller, entry);
      return false;
    }
    if (entry.queue.length === 0) entry.since = ++this.arrivals;
    entry.queue.push(item);
    return true;
  }

  /**
   * Put back an item `take` returned that was stopped before it ended, first in its caller's
   * queue (it runs again from its start). Its place was counted when it was pushed, so `maxHeld`
   * does not refuse it; its running place is given back (`done`).
   */
  unshift(caller: string, item: T): void {
    this.done(caller);
    let entry = this.callers.get(caller);
    if (entry === undefined) {
      entry = { queue: [], running: 0, lastTurn: this.turns, passed: 0, overtaken: 0, skipped: 0, since: 0 };
      this.callers.set(caller, entry);
    }
    if (entry.queue.length === 0) entry.since = ++this.arrivals;
    entry.queue.unshift(item);
  }

  /**
   * Callers waiting with nothing running whose next item leaves at most the trusted reserve
   * (trusted callers, and new ones whose next item has not run yet): those a worker freed by
   * stopping a new caller's first item is for.
   */
  waitingNewcomers(): number {
    let n = 0;
    const trialFloor = this.bounds.trustedReserve ?? 0;
    for (const [caller, entry] of this.callers) {
      if (entry.queue.length > 0 && this.runningOf(caller, entry) === 0 && this.floorOf(caller, entry) <= trialFloor) n++;
    }
    return n;
  }

  /** The item `take` would return now, left queued. */
  peek(): { readonly caller: string; readonly item: T } | undefined {
    const pick = this.choose();
    if (pick === undefined) return undefined;
    return { caller: pick, item: (this.callers.get(pick) as Entry<T>).queue[0] as T };
  }

  /** The next item to run: the oldest of the caller served longest ago who may run one more now. */
  take(): { readonly caller: string; readonly item: T } | undefined {
    const pick = this.choose();
    if (pick === undefined) return undefined;
    const entry = this.callers.get(pick) as Entry<T>;
    if (this.bounds.newcomerOvertakes !== undefined && this.isTrial(pick, entry)) {
      // Callers are kept in order of arrival: those before `pick` arrived before it.
      for (const [caller, other] of this.callers) {
        if (other === entry) break;
        if (other.lastTurn === 0 && this.isTrial(caller, other)) other.overtaken++;
      }
    }
    if (this.bounds.newcomerPasses !== undefined && this.standingOf(pick) !== "new") {
      for (const [caller, other] of this.callers) {
        if (other.queue.length > 0 && this.runningOf(caller, other) === 0 && this.standingOf(caller) === "new") other.passed++;
      }
    }
    if (this.bounds.passedOverAtMost !== undefined) {
      for (const [caller, other] of this.callers) {
        if (other !== entry && other.queue.length > 0 && other.since < entry.since && this.runningOf(caller, other) < this.bounds.maxRunning) other.skipped++;
      }
    }
    entry.passed = 0;
    entry.overtaken = 0;
    entry.skipped = 0;
    entry.running++;
    this.runningCallers.add(pick);
    this.runningNow++;
    entry.lastTurn = ++this.turns;
    const item = entry.queue.shift() as T;
    this.recent?.started(pick, this.bounds.weight?.(item) ?? 1);
    if (entry.queue.length > 0) entry.since = ++this.arrivals;
    return { caller: pick, item };
  }

  /** How many waiting items could start now if a worker were free for each (workers to start). */
  startable(): number {
    const { capacity, maxRunning } = this.bounds;
    // Callers' next items first (those that must leave the most places free before those that
    // must leave fewer, which starts the most), then their further items, which leave every reserve.
    const next: number[] = [];
    let further = 0;
    for (const [caller, entry] of this.callers) {
      const may = Math.min(entry.queue.length, maxRunning - this.runningOf(caller, entry));
      if (may <= 0) continue;
      next.push(this.floorOf(caller, entry));
      further += may - 1;
    }
    next.sort((a, b) => b - a);
    let running = this.runningNow;
    for (const floor of next) if (capacity - running - 1 >= floor) running++;
    for (let k = 0; k < further && capacity - running - 1 >= this.furtherFloor(); k++) running++;
    return running - this.runningNow;
  }

  /** Take a waiting item out (its caller cancelled it); false when it is not waiting. */
  remove(caller: string, item: T): boolean {
    const entry = this.callers.get(caller);
    if (entry === undefined) return false;
    const k = entry.queue.indexOf(item);
    if (k === -1) return false;
    entry.queue.splice(k, 1);
    this.forgetIfIdle(caller, entry);
    return true;
  }

  /** An item `take` returned has finished. */
  done(caller: string): void {
    const entry = this.callers.get(caller);
    if (entry === undefined || entry.running === 0) return;
    entry.running--;
    if (entry.running === 0) this.runningCallers.delete(caller);
    this.runningNow--;
    this.forgetIfIdle(caller, entry);
  }

  /** Remove and return every waiting item (shutting down). */
  drain(): T[] {
    const items: T[] = [];
    for (const [caller, entry] of this.callers) {
      appendAll(items, entry.queue.splice(0));
      this.forgetIfIdle(caller, entry);
    }
    return items;
  }

  /** Items waiting, over all callers. */
  get waiting(): number {
    let n = 0;
    for (const entry of this.callers.values()) n += entry.queue.length;
    return n;
  }

  /** Items running, over all callers. */
  get running(): number {
    return this.runningNow;
  }

  /**
   * Who goes next: of the callers who may start one more now, those who must leave the fewest
   * places free (trusted callers with nothing running and new ones passed over `newcomerPasses`
   * times, then other new ones, then the rest), each class in turn by who was served longest ago. Why trusted first: places are workers, and a worker
   * freed or started while attackers' runaways hold the others went to whoever waited longest,
   * fresh addresses (never served) before a reader who had been reading; under load, when
   * replacing a worker takes seconds, the reader waited for several (measured in process, workers
   * run from the sources at load ~13: 15 s for `ls /`, then 12 s, the time one worker took to start).
   */
  private choose(): string | undefined {
    const { capacity, maxRunning } = this.bounds;
    let pick: string | undefined;
    let bestFloor = Infinity;
    let bestCount = Infinity;
    let bestTurn = Infinity;
    /** The pick is a trial passed over `newcomerOvertakes` times: no newer trial goes before it. */
    let bestDue = false;
    /** The pick's items of others started while it waited (`passedOverAtMost`), when at the bound. */
    let bestSkipped = -1;
    const skippedBound = this.bounds.passedOverAtMost;
    const overtakes = this.bounds.newcomerOvertakes;
    for (const [caller, entry] of this.callers) {
      if (entry.queue.length === 0 || this.runningOf(caller, entry) >= maxRunning) continue;
      const floor = this.floorOf(caller, entry);
      if (capacity - this.runningNow - 1 < floor) continue;
      const trial = this.bounds.newestNewcomerFirst === true && entry.lastTurn === 0 && this.isTrial(caller, entry);
      const due = trial && overtakes !== undefined && entry.overtaken >= overtakes;
      // Among trials of the same floor: one passed over enough goes first (the earliest of
      // those), else the newest.
      const later = trial && floor === bestFloor && bestTurn === 0 && !bestDue;
      // With `recentStarts`: fewest started lately first, then the one whose last start is oldest.
      const count = this.recent?.count(caller) ?? 0;
      const turn = this.recent?.lastStart(caller) ?? entry.lastTurn;
      // Passed over enough: before any not so, the most passed over first.
      const skipped = skippedBound !== undefined && entry.skipped >= skippedBound ? entry.skipped : -1;
      if (skipped < bestSkipped) continue;
      if (skipped > bestSkipped) {
        bestSkipped = skipped;
        bestFloor = floor;
        bestCount = count;
        bestTurn = turn;
        bestDue = due;
        pick = caller;
        continue;
      }
      if (floor < bestFloor || (floor === bestFloor && (count < bestCount || (count === bestCount && turn < bestTurn))) || later) {
        bestFloor = floor;
        bestCount = count;
        bestTurn = turn;
        bestDue = due;
        pick = caller;
      }
    }
    return pick;
  }

  /** The places that must stay free after `caller`'s next item starts (0: a trusted caller with nothing running). */
  floorFor(caller: string): number {
    const entry = this.callers.get(caller);
    return entry === undefined ? 0 : this.floorOf(caller, entry);
  }

  /**
   * The places that must stay free after the caller's next item starts: none for a trusted
   * caller with nothing running, the trusted reserve for a new one, the reserve for a caller
   * already running one or heavy, and `requeuedReserve` for a new one's item run once and
   * stopped to make room.
   */
  private floorOf(caller: string, entry: Entry<T>): number {
    const standing = this.standingOf(caller);
    if (this.runningOf(caller, entry) > 0 || standing === "heavy" || this.tookMore(caller)) return this.furtherFloor();
    if (standing !== "new") return 0;
    const head = entry.queue[0];
    if (head !== undefined && this.bounds.tried?.(head) === true) return Math.max(this.furtherFloor(), this.bounds.requeuedReserve ?? 0);
    const passes = this.bounds.newcomerPasses;
    if (passes !== undefined && entry.passed >= passes) return 0;
    return this.bounds.trustedReserve ?? 0;
  }

  private standingOf(caller: string): Standing {
    return this.bounds.standing?.(caller) ?? "trusted";
  }

  /** A new caller with nothing running whose next item has not run yet. */
  private isTrial(caller: string, entry: Entry<T>): boolean {
    const head = entry.queue[0];
    return (this.bounds.standing?.(caller) ?? "trusted") === "new" && this.runningOf(caller, entry) === 0 && head !== undefined && this.bounds.tried?.(head) !== true;
  }

  /**
   * With `recentStarts`: whether the caller started items lately, and more than half as much
   * work (items, or their `weight`) as some caller running now, so it leaves the reserve free as
   * one running does. A caller that started none, or at most half as much as each caller
   * holding a place, took clearly less than they lately and may take the reserve. Half, not "fewer": callers keeping one item in
   * flight each are kept level by serving the fewest first, yet at any start, the oldest start
   * leaving the count, one of them is one start lighter than another (20 addresses: 12 or 13
   * of 256 starts each), and "fewer" let that one take the reserve.
   */
  private tookMore(caller: string): boolean {
    const mine = this.recent?.count(caller) ?? 0;
    if (mine === 0 || this.recent === undefined) return false;
    for (const other of this.runningCallers) if (2 * mine > this.recent.count(other)) return true;
    return false;
  }

  /** Items of `caller` running here. */
  runningHere(caller: string): number {
    return this.callers.get(caller)?.running ?? 0;
  }

  /** The caller's items running here and in the pools it shares its bounds with (`elsewhere`). */
  private runningOf(caller: string, entry: Entry<T>): number {
    return entry.running + (this.bounds.elsewhere?.(caller) ?? 0);
  }

  /** The places a further item (or a heavy caller's) must leave free: every reserve. */
  private furtherFloor(): number {
    return Math.max(this.bounds.reserve, this.bounds.trustedReserve ?? 0);
  }

  private forgetIfIdle(caller: string, entry: Entry<T>): void {
    if (entry.running === 0 && entry.queue.length === 0) this.callers.delete(caller);
  }
}
