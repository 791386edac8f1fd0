/** What `CallerTurns` did with a search: tests and the bench watch it (`CallerTurns.observe`). */
export type TurnEvent =
  /** It waits: behind its own caller's search, or for the thread. */
  | { readonly t: "queued"; readonly caller: string | undefined }
  /** Its turn came: it runs now. */
  | { readonly t: "run"; readonly caller: string | undefined }
  /** A turn of the event loop passed with no search started, I/O arriving took it (`CallerTurns.yieldTo`): every ready search waits a turn more; `caller` is the first's. */
  | { readonly t: "yielded"; readonly caller: string | undefined }
  /** Its caller gave it up (a dropped HTTP request, `notifications/cancelled`, a closed session) before it ran: it never runs. */
  | { readonly t: "given-up"; readonly caller: string | undefined };

/** How many turns of the event loop I/O may take from the searches (`CallerTurns.yieldTo`). */
export interface YieldBound {
  /** Turns in a row before the next search starts: each search in a queue costs the searches behind it this many. */
  readonly inARow: number;
  /** Turns in all that one search waits, counted from when it became ready, whatever is ahead of it. */
  readonly inAll: number;
}

/** A search waiting for its turn. */
interface Waiter {
  readonly caller: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (end: (() => void) | undefined) => void;
  /** Stops listening to `signal`. */
  unlisten: () => void;
  /** `CallerTurns.yieldedTurns` when it became ready (its caller's turn): the turns given up since are what it has waited for I/O. */
  yieldedAtReady: number;
}

/**
 * Searches run on the server's one thread, each to its end: a search over a large versioned and
 * multilingual site without filters can take most of a second, and a caller sending many at once
 * (or sending and hanging up) held the thread for all of them in a row, so every other caller's
 * shell commands and searches waited behind (an adversary's finding: 8.8 s for another reader's
 * `ls /`). So:
 *
 * - each caller (its address, /64 or token: `RequestContext.caller`) has one search running or
 *   ready at a time, its others waiting their turn behind it; callers take turns in the order
 *   their searches became ready (round-robin: a caller's next search goes to the back);
 * - searches run one at a time over all callers, and never two in one turn of the event loop:
 *   between two searches the loop polls its sockets, so requests that arrived meanwhile are
 *   read and a client that hung up meanwhile is seen as gone. (Before, every search ready at
 *   once ran back to back in one `setImmediate` phase, and twelve searches whose clients had
 *   hung up all ran: a hang-up read after the first was not acted on until all had run.)
 * - a search whose caller gives it up while it waits leaves at once and never runs (its caller's
 *   next search takes its place); the bridge's signal aborts as soon as the client's connection
 *   ends (`connectionGone`), not one turn later as the HTTP library's own does.
 *
 * Measured over HTTP on a 5,600-page site of 35 versions x 4 languages (quiet): this does not
 * bound a victim's wait behind other callers' searches that are still wanted (~0.5 s each,
 * unfiltered, `pageSize: 50`): searches must be made cheaper or interruptible for that.
 */
export class CallerTurns {
  /** Per caller with a search ready or running: its other searches, oldest first. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** Searches whose caller's turn it is, waiting for the thread, in the order they became ready. */
  private readonly ready: Waiter[] = [];
  /** A search runs (between its turn and the end of its turn). */
  private running = false;
  /** The next ready search is to start at the event loop's next check phase. */
  private scheduled = false;
  private readonly observers = new Set<(event: TurnEvent) => void>();
  /** `whenIdle`'s waiters, and whether a check for them is due at the next check phase. */
  private readonly idle: (() => void)[] = [];
  private idleCheck = false;
  /** I/O that a ready search gives way to (`yieldTo`), and how many turns it may take. */
  private readonly yields = new Set<{ readonly waiting: () => boolean; readonly atMost: YieldBound }>();
  /** Turns given up to `yields` since this was made: a ready search has waited for I/O the turns given up since it became ready. */
  private yieldedTurns = 0;
  /** Turns given up in a row since the last search started. */
  private yieldedInARow = 0;

  /**
   * Wait for the search's turn; resolves to the function that ends it (call it in a `finally`),
   * or to undefined when `signal` aborted first: the search must not run. Callers without an
   * identity (stdio, in-process) are one caller each call.
   */
  take(caller: string | undefined, signal?: AbortSignal): Promise<(() => void) | undefined> {
    if (signal?.aborted === true) {
      this.emit({ t: "given-up", caller });
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = { caller, signal, resolve, unlisten: () => {}, yieldedAtReady: this.yieldedTurns };
      if (signal !== undefined) {
        const onAbort = (): void => this.giveUp(waiter);
        signal.addEventListener("abort", onAbort, { once: true });
        waiter.unlisten = () => signal.removeEventListener("abort", onAbort);
      }
      const own = caller === undefined ? undefined : this.waiting.get(caller);
      if (own !== undefined) own.push(waiter);
      else {
        if (caller !== undefined) this.waiting.set(caller, []);
        this.makeReady(waiter);
      }
      this.emit({ t: "queued", caller });
      this.dispatch();
    });
  }

  /**
   * Resolves at a check phase of the event loop at which no search runs or waits for the thread,
   * a turn after the last one ended: its answer is written by then (what follows a search's turn
   * is synchronous work and microtasks). Work that would hold the thread long but is wanted
   * later (`serve` encoding the site for the shell once `tools/list` is answered) waits for it, so
   * that a search the client sent meanwhile is not answered after it.
   */
  whenIdle(): Promise<void> {
    return new Promise((resolve) => {
      this.idle.push(resolve);
      this.checkIdle();
    });
  }

  /** Be told of every search queued, run and given up; returns the way to stop. */
  observe(listener: (event: TurnEvent) => void): () => void {
    this.observers.add(listener);
    return () => this.observers.delete(listener);
  }

  /**
   * Let `waiting` (asked once per turn, just before a search would start) hold the next search
   * back a turn while it answers true, at most `atMost.inARow` turns in a row and
   * `atMost.inAll` turns in all for any one search. The HTTP server says
   * whether it accepted a connection in the turn just past: Node 20 (libuv 1.46) accepts one
   * connection per turn of the event loop, so with a search in every turn, a flood of new
   * connections (each refilled as it is answered) kept the kernel's queue of connections to
   * accept full, and another caller's new connection waited behind all of them, a search each
   * (issue 25). Holding back never loses a search, and its cost to one search is a number of
   * turns whoever sends what (a turn's length is the sender's to stretch: adversary round 51 F2).
   * Returns the way to stop.
   */
  yieldTo(waiting: () => boolean, atMost: YieldBound): () => void {
    const entry = { waiting, atMost };
    this.yields.add(entry);
    return () => this.yields.delete(entry);
  }

  /** Callers with a search running or waiting (for tests and the bench). */
  get busyCallers(): number {
    return this.waiting.size;
  }

  /** Start the next ready search at the next check phase, once the thread is free. */
  private dispatch(): void {
    if (this.running || this.scheduled || this.ready.length === 0) return;
    this.scheduled = true;
    setImmediate(() => this.start());
  }

  /** The check phase's turn: start the next ready search, unless I/O arriving takes this turn (bounded). */
  private start(): void {
    if (this.ready.length === 0) {
      this.scheduled = false;
      return;
    }
    // The searches are ready in the order they became ready, so the first has waited for I/O
    // longest: while it has waited less than a source's bound, that source may take the turn.
    // Counted from when a search became ready, not from when the last one started: counted per
    // start, every search in a queue gave up its own 64 turns, and a flood of new connections
    // (each turn made long by what they asked for) held a search 20-31 s (adversary round 51 F2).
    const first = this.ready[0]!;
    const waited = this.yieldedTurns - first.yieldedAtReady;
    // Every source is asked each turn: each tells only what happened since it was last asked.
    let wait = false;
    for (const y of this.yields) if (y.waiting() && this.yieldedInARow < y.atMost.inARow && waited < y.atMost.inAll) wait = true;
    if (wait) {
      this.yieldedTurns++;
      this.yieldedInARow++;
      this.emit({ t: "yielded", caller: first.caller });
      setImmediate(() => this.start());
      return;
    }
    this.yieldedInARow = 0;
    this.scheduled = false;
    const next = this.ready.shift()!;
    next.unlisten();
    this.running = true;
    this.emit({ t: "run", caller: next.caller });
    let ended = false;
    next.resolve(() => {
      if (ended) return;
      ended = true;
      this.running = false;
      this.passTurn(next.caller);
      this.dispatch();
      this.checkIdle();
    });
  }

  /** At the next check phase, `whenIdle`'s waiters go if no search runs or is ready then; else when a turn ends. */
  private checkIdle(): void {
    if (this.idleCheck || this.idle.length === 0) return;
    this.idleCheck = true;
    setImmediate(() => {
      this.idleCheck = false;
      if (this.running || this.ready.length > 0) return;
      for (const resolve of this.idle.splice(0)) resolve();
    });
  }

  /** `waiter`'s caller gave it up before it ran: it leaves, and its caller's next search takes its place. */
  private giveUp(waiter: Waiter): void {
    const k = this.ready.indexOf(waiter);
    if (k !== -1) {
      this.ready.splice(k, 1);
      this.passTurn(waiter.caller);
    } else if (waiter.caller !== undefined) {
      const own = this.waiting.get(waiter.caller);
      const at = own?.indexOf(waiter) ?? -1;
      if (own === undefined || at === -1) return;
      own.splice(at, 1);
    }
    this.emit({ t: "given-up", caller: waiter.caller });
    waiter.resolve(undefined);
    this.dispatch();
    this.checkIdle();
  }

  /** The caller's search that held its turn is over: its next one (if any) is ready. */
  private passTurn(caller: string | undefined): void {
    if (caller === undefined) return;
    const next = this.waiting.get(caller)?.shift();
    if (next !== undefined) this.makeReady(next);
    else this.waiting.delete(caller);
  }

  /** `waiter`'s caller's turn has come: it waits for the thread, behind the searches ready before it. */
  private makeReady(waiter: Waiter): void {
    waiter.yieldedAtReady = this.yieldedTurns;
    this.ready.push(waiter);
  }

  private emit(event: TurnEvent): void {
    for (const observer of this.observers) observer(event);
  }
}
