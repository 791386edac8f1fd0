/**
 * One batch in flight: a call submitted while the previous batch is still running waits for it
 * and goes with every other call that arrived meanwhile, in one `run`. A lone call goes at once
 * (no timer, no added latency when idle); under load the batches grow with the round trip, so
 * the number of round trips stays near one per round-trip time whatever the request rate.
 */
export class BatchInFlight<T, R> {
  private queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private running = false;

  /**
   * @param run handles the items together and returns one result per item, in order; a throw
   *   (or rejection) fails every call of the batch.
   * @param maxBatch items per `run`.
   */
  constructor(
    private readonly run: (items: readonly T[]) => Promise<readonly R[]>,
    private readonly maxBatch: number,
  ) {}

  submit(item: T): Promise<R>;
  submit(this: BatchInFlight<void, R>): Promise<R>;
  submit(item?: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item: item as T, resolve, reject });
      if (!this.running) void this.next();
    });
  }

  private async next(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const results = await this.run(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(results[i] as R));
      } catch (error) {
        for (const b of batch) b.reject(error);
      }
    }
    this.running = false;
  }
}
