/** What one caller may hold of a pool, and what the pool keeps for callers with nothing running. */
export interface CallerBounds {
  /** Items one caller may hold at once, running and waiting together; past it `push` refuses. */
  readonly maxHeld: number;
  /** Items one caller may have running at once. */
  readonly maxRunning: number;
  /** Items that may run at once over all callers (the pool's workers). */
  readonly capacity: number;
  /**
   * Places kept for callers with nothing running: a caller already running may start another
   * only while at least this many places stay free after it.
   */
  readonly reserve: number;
  /**
   * Callers whose next item counts as a further one even with nothing running (it may not take
   * the reserve): callers known to hold places for long (`HeavyCallers`). None by default.
   */
  readonly heavy?: (caller: string) => boolean;
}

interface Entry<T> {
  readonly queue: T[];
  running: number;
  lastTurn: number;
}

/**
 * Waiting work of many callers, served fairly: one FIFO queue per caller, callers taken in
 * turn (round-robin: the caller served longest ago goes first, a newcomer before everyone who
 * was served), each with a cap on what it holds (running and waiting) and on what it runs at
 * once, and a reserve of places only callers with nothing running (and not known to hold places
 * for long: `CallerBounds.heavy`) may take. A caller who sends
 * fifty commands waits for its own or is refused; a caller who sends one is next in line and
 * finds a place. Decisions count items, never time, so a busy machine decides the same.
 */
export class FairQueue<T> {
  /** Callers with queued or running work (by arrival, which breaks ties between newcomers). */
  private readonly callers = new Map<string, Entry<T>>();
  /** Turns given so far: `lastTurn` of the caller served most recently. */
  private turns = 0;
  /** Items running, over all callers. */
  private runningNow = 0;

  constructor(private readonly bounds: CallerBounds) {}

  /** Queue an item; false (and nothing queued) when the caller already holds `maxHeld`. */
  push(caller: string, item: T): boolean {
    let entry = this.callers.get(caller);
    if (entry === undefined) {
      entry = { queue: [], running: 0, lastTurn: 0 };
      this.callers.set(caller, entry);
    }
    if (entry.queue.length + entry.running >= this.bounds.maxHeld) {
      this.forgetIfIdle(caller, entry);
      return false;
    }
    entry.queue.push(item);
    return true;
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
    entry.running++;
    this.runningNow++;
    entry.lastTurn = ++this.turns;
    return { caller: pick, item: entry.queue.shift() as T };
  }

  /** How many waiting items could start now if a worker were free for each (workers to start). */
  startable(): number {
    const { capacity, reserve, maxRunning } = this.bounds;
    let running = this.runningNow;
    let n = 0;
    // Newcomers first (each may take any free place), then further items of callers already
    // running (or known to hold places for long), which leave the reserve free.
    const fresh = new Set<Entry<T>>();
    for (const [caller, entry] of this.callers) {
      if (this.isFresh(caller, entry) && entry.queue.length > 0 && running < capacity) {
        fresh.add(entry);
        running++;
        n++;
      }
    }
    for (const entry of this.callers.values()) {
      const more = Math.min(entry.queue.length - (fresh.has(entry) ? 1 : 0), maxRunning - entry.running - (fresh.has(entry) ? 1 : 0));
      for (let k = 0; k < more && capacity - running > reserve; k++) {
        running++;
        n++;
      }
    }
    return n;
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
    this.runningNow--;
    this.forgetIfIdle(caller, entry);
  }

  /** Remove and return every waiting item (shutting down). */
  drain(): T[] {
    const items: T[] = [];
    for (const [caller, entry] of this.callers) {
      items.push(...entry.queue.splice(0));
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

  private choose(): string | undefined {
    const { capacity, reserve, maxRunning } = this.bounds;
    let pick: string | undefined;
    let best = Infinity;
    for (const [caller, entry] of this.callers) {
      if (entry.queue.length === 0) continue;
      const may = this.isFresh(caller, entry) ? this.runningNow < capacity : entry.running < maxRunning && capacity - this.runningNow - 1 >= reserve;
      if (may && entry.lastTurn < best) {
        best = entry.lastTurn;
        pick = caller;
      }
    }
    return pick;
  }

  /** A caller with nothing running and not known to hold places for long: it may take any free place. */
  private isFresh(caller: string, entry: Entry<T>): boolean {
    return entry.running === 0 && this.bounds.heavy?.(caller) !== true;
  }

  private forgetIfIdle(caller: string, entry: Entry<T>): void {
    if (entry.running === 0 && entry.queue.length === 0) this.callers.delete(caller);
  }
}
