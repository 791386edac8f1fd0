/**
 * One lane per caller for the messages of JSON-RPC batches: a caller's batches run one message
 * at a time between them, in order of arrival, and each message starts on a later turn of the
 * event loop than the one before it. A single call arrives on its own connection, and a caller
 * has a handful of connections read at once (`LIMITS.bridge.maxConnectionsReadPerCaller`); a
 * batch of 100 messages handed whole to the SDK ran all 100 at once, on one turn, so 16 batches
 * from two addresses held another caller's `ls /` for 24 s (issue 25, adversary F1). In a lane,
 * a caller's batches together weigh what one connection sending its calls one after another does.
 */
export class CallerLanes {
  /** The end of each caller's lane: its last message queued settles it; gone when the lane is empty. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Run `step` in `caller`'s lane, after every step queued before it and a turn of the event loop. */
  async run<T>(caller: string, step: () => Promise<T>): Promise<T> {
    const before = this.tails.get(caller) ?? Promise.resolve();
    const ran = before.then(nextTurn).then(step);
    const tail = ran.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(caller, tail);
    void tail.then(() => {
      if (this.tails.get(caller) === tail) this.tails.delete(caller);
    });
    return ran;
  }

  /** Callers with a message running or waiting (tests). */
  get size(): number {
    return this.tails.size;
  }
}

/** Resolves on a later turn, after the I/O ready now (other callers' requests) was handled. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
