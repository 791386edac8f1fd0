/**
 * Waiting work of many callers, served fairly: one FIFO queue per caller, callers taken in
 * turn (round-robin: the caller served longest ago goes first, a newcomer before everyone who
 * was served), each with a cap on how much of it runs at once and how much may wait. A caller
 * who sends fifty commands waits for their own; a caller who sends one is next in line.
 */
export class FairQueue<T> {
  /** Callers with queued or running work (by arrival, which breaks ties between newcomers). */
  private readonly callers = new Map<string, { readonly queue: T[]; running: number; lastTurn: number }>();
  /** Turns given so far: `lastTurn` of the caller served most recently. */
  private turns = 0;

  constructor(
    /** Items one caller may have waiting (running ones not counted). */
    private readonly maxQueued: number,
    /** Items one caller may have running at once. */
    private readonly maxRunning: number,
  ) {}

  /** Queue an item; false (and nothing queued) when the caller already has `maxQueued` waiting. */
  push(caller: string, item: T): boolean {
    let entry = this.callers.get(caller);
    if (entry === undefined) {
      entry = { queue: [], running: 0, lastTurn: 0 };
      this.callers.set(caller, entry);
    }
    if (entry.queue.length >= this.maxQueued) return false;
    entry.queue.push(item);
    return true;
  }

  /** The next item to run: the oldest of the caller served longest ago who may run one more. */
  take(): { readonly caller: string; readonly item: T } | undefined {
    let pick: string | undefined;
    let best = Infinity;
    for (const [caller, entry] of this.callers) {
      if (entry.queue.length === 0 || entry.running >= this.maxRunning) continue;
      if (entry.lastTurn < best) {
        best = entry.lastTurn;
        pick = caller;
      }
    }
    if (pick === undefined) return undefined;
    const entry = this.callers.get(pick) as { queue: T[]; running: number; lastTurn: number };
    entry.running++;
    entry.lastTurn = ++this.turns;
    return { caller: pick, item: entry.queue.shift() as T };
  }

  /** An item `take` returned has finished. */
  done(caller: string): void {
    const entry = this.callers.get(caller);
    if (entry === undefined) return;
    entry.running = Math.max(0, entry.running - 1);
    if (entry.running === 0 && entry.queue.length === 0) this.callers.delete(caller);
  }

  /** Remove and return every waiting item (shutting down). */
  drain(): T[] {
    const items: T[] = [];
    for (const [caller, entry] of this.callers) {
      items.push(...entry.queue.splice(0));
      if (entry.running === 0) this.callers.delete(caller);
    }
    return items;
  }

  /** Items waiting, over all callers. */
  get waiting(): number {
    let n = 0;
    for (const entry of this.callers.values()) n += entry.queue.length;
    return n;
  }
}
