/**
 * Group commit: writes submitted while the event loop is busy are committed together in one
 * transaction, and each caller's promise settles only after that transaction is durable.
 *
 * With `synchronous = FULL` every commit waits for an fsync. Committing each HTTP request on its
 * own caps ingestion at one fsync per entry; here the requests that arrive during one fsync all
 * share the next one. The flush runs on `setImmediate`, after pending I/O callbacks, so every
 * request already read from the sockets joins the batch. A lone request waits one loop turn.
 */
export class GroupCommit<T, R> {
  private queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  /**
   * @param commit writes all items in one transaction and returns one result per item, in order;
   *   a throw fails the whole batch (items are validated before they are submitted).
   * @param maxBatch items per transaction, bounding how long one commit blocks the loop.
   */
  constructor(
    private readonly commit: (items: readonly T[]) => readonly R[],
    private readonly maxBatch: number,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.scheduled ??= setImmediate(() => this.flush());
    });
  }

  /** Commit everything queued now (used before closing the database). */
  flushAll(): void {
    if (this.scheduled !== undefined) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    while (this.queue.length > 0) this.flushBatch();
  }

  private flush(): void {
    this.scheduled = undefined;
    this.flushBatch();
    if (this.queue.length > 0) this.scheduled = setImmediate(() => this.flush());
  }

  private flushBatch(): void {
    const batch = this.queue.splice(0, this.maxBatch);
    let results: readonly R[];
    try {
      results = this.commit(batch.map((b) => b.item));
    } catch (error) {
      for (const b of batch) b.reject(error);
      return;
    }
    batch.forEach((b, i) => b.resolve(results[i] as R));
  }
}
