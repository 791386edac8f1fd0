/**
 * Who a pool started items for lately, counted in starts (never in time, so a busy machine
 * decides the same): how many of the last `window` starts were each caller's, and when (the
 * pool's start number) each caller's last item started, for the `remembered` callers started
 * most recently.
 *
 * Why a pool needs it (`FairQueue`'s `recentStarts`): a caller with nothing queued or running is
 * forgotten by the queue, so a caller keeping one item in flight looked, on each item, like a
 * caller never served; callers were then served in order of arrival, and one with nothing
 * running could take any free worker. Twenty addresses each keeping one slow page render in
 * flight held both render workers and stood in front of every other reader's page (adversary
 * round 51 F3). Remembered starts tell them from a reader who rendered little lately.
 */
export class RecentStarts {
  /** The callers of the last `window` starts, oldest first. */
  private readonly starts: string[] = [];
  private readonly counts = new Map<string, number>();
  /** Each caller's last start number (least recently started first). */
  private readonly last = new Map<string, number>();
  private turn = 0;

  constructor(
    private readonly window: number,
    private readonly remembered: number,
  ) {}

  /** An item of `caller` started. */
  started(caller: string): void {
    this.turn++;
    this.starts.push(caller);
    this.counts.set(caller, (this.counts.get(caller) ?? 0) + 1);
    if (this.starts.length > this.window) {
      const out = this.starts.shift() as string;
      const left = (this.counts.get(out) ?? 1) - 1;
      if (left === 0) this.counts.delete(out);
      else this.counts.set(out, left);
    }
    this.last.delete(caller);
    this.last.set(caller, this.turn);
    if (this.last.size > this.remembered) this.last.delete(this.last.keys().next().value as string);
  }

  /** How many of the last `window` starts were the caller's. */
  count(caller: string): number {
    return this.counts.get(caller) ?? 0;
  }

  /** The start number of the caller's last item; 0 when none is remembered (never started, or forgotten). */
  lastStart(caller: string): number {
    return this.last.get(caller) ?? 0;
  }
}
