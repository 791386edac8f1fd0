/**
 * Who a pool started items for lately, counted in starts (never in time, so a busy machine
 * decides the same): how much work of the last `window` starts was each caller's (each start
 * weighs what its item is expected to cost, counted from the item before it runs: 1 unless the
 * pool says otherwise), and when (the pool's start number) each caller's last item started, for
 * the `remembered` callers started most recently.
 *
 * Why a pool needs it (`FairQueue`'s `recentStarts`): a caller with nothing queued or running is
 * forgotten by the queue, so a caller keeping one item in flight looked, on each item, like a
 * caller never served; callers were then served in order of arrival, and one with nothing
 * running could take any free worker. Twenty addresses each keeping one slow page render in
 * flight held both render workers and stood in front of every other reader's page (adversary
 * round 51 F3). Remembered starts tell them from a reader who rendered little lately.
 */
export class RecentStarts {
  /** The callers of the last `window` starts and their weights, oldest first. */
  private readonly starts: { readonly caller: string; readonly weight: number }[] = [];
  private readonly counts = new Map<string, number>();
  /** Each caller's last start number (least recently started first). */
  private readonly last = new Map<string, number>();
  private turn = 0;

  constructor(
    private readonly window: number,
    private readonly remembered: number,
  ) {}

  /** An item of `caller` started, expected to cost `weight` (at least 1). */
  started(caller: string, weight = 1): void {
    this.turn++;
    const w = Math.max(1, weight);
    this.starts.push({ caller, weight: w });
    this.counts.set(caller, (this.counts.get(caller) ?? 0) + w);
    if (this.starts.length > this.window) {
      const out = this.starts.shift() as { readonly caller: string; readonly weight: number };
      const left = (this.counts.get(out.caller) ?? out.weight) - out.weight;
      if (left <= 0) this.counts.delete(out.caller);
      else this.counts.set(out.caller, left);
    }
    this.last.delete(caller);
    this.last.set(caller, this.turn);
    if (this.last.size > this.remembered) this.last.delete(this.last.keys().next().value as string);
  }

  /** The weight of the caller's starts among the last `window` (how many, when each weighs 1). */
  count(caller: string): number {
    return this.counts.get(caller) ?? 0;
  }

  /** The start number of the caller's last item; 0 when none is remembered (never started, or forgotten). */
  lastStart(caller: string): number {
    return this.last.get(caller) ?? 0;
  }
}
