import { addressNetwork } from "../address-network.js";

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

/** Searches run in all over which a caller's charge halves (`CallerTurns`): a caller that searched
 *  heavily comes back level with others after a few hundred searches by anyone, and a victim's
 *  charge stays far under a flood's while the flood lasts. Counted in searches, not time. */
const USAGE_HALF_LIFE = 256;

/** Searches made ready after one that may start before it (`CallerTurns`): least charge first must
 *  not starve a heavy caller while many light ones keep searching (cheap searches from many
 *  addresses: each charge grows slowly and the heavy one's decays slowly), so past this it goes
 *  next. Over all callers, a search waits at most this many searches that came after it. */
const PASSED_OVER_AT_MOST = 16;

/** Callers remembered (`CallerTurns.used`) past which those whose charge is under 1 are forgotten:
 *  a sweep at most once per caller's last search ended. */
const FORGET_PAST = 1_024;

/** A search waiting for its turn. */
interface Waiter {
  readonly caller: string | undefined;
  readonly signal: AbortSignal | undefined;
  /** The work the search is expected to make (`SearchIndex.expectedWork`), counted before it runs. */
  readonly expected: number;
  readonly resolve: (end: (() => void) | undefined) => void;
  /** Stops listening to `signal`. */
  unlisten: () => void;
  /** `CallerTurns.yieldedTurns` when it became ready (its caller's turn): the turns given up since are what it has waited for I/O. */
  yieldedAtReady: number;
  /** Searches made ready after it that started before it (`PASSED_OVER_AT_MOST`). */
  passedOver: number;
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
 * - among the ready searches, the one whose caller has made the least work lately goes first
 *   (least attained service): a search is charged the work it made (`SearchIndex.work`: page and
 *   section slots ranked, counted, never timed, so the order is the same on any machine), and a
 *   caller's charge halves every `USAGE_HALF_LIFE` searches run in all. Taking turns one per
 *   caller, a cheap search waited behind one search of every caller with one ready, and ten
 *   addresses each keeping one unfiltered `pageSize: 50` search of a 24,920-page site in flight
 *   held another caller's search 5-13 s (adversary round 51 F1); fair queuing by work still
 *   makes a newcomer wait one search of each (their next searches start where the work done
 *   stands, as its does). Charged by work, the caller who searched little goes next, those ten
 *   share the thread among themselves, and a heavy caller waits only for callers who have made
 *   less work than it, whose charges grow as they search.
 * - a search's own work, expected before it runs (`SearchIndex.expectedWork`: the pages holding
 *   its terms, under the share of pages its version and language filters keep; counted from the
 *   index in microseconds, never timed), is weighed with its caller's charge: the next search is
 *   the one whose caller's charge would be least once it ran (as fair queuing orders by finish
 *   tags, with the size known ahead). The charge alone knew nothing of the search: when no
 *   caller had one, or all were never seen (each charged the mean), every charge was equal and
 *   searches went in the order they came, so a cheap filtered search sent right after ten
 *   unfiltered `pageSize: 50` ones of a 24,920-page site waited for all ten (0.4-1.9 s loaded,
 *   every round's callers never seen; now 1-6 ms, `bench/search-crowd.ts --fresh`). A term no
 *   page holds is expected what a query term made lately (its prefix and typo forms'), not 0
 *   (adversary round 54 F1). Searches of equal charge and estimate take turns in the order they
 *   became ready.
 * - a caller's charge is at least its network's (an address's /24, an IPv6 /64's /48, loopback
 *   included: `addressNetwork`, as the connection places count), the work all its callers made,
 *   halved alike; a caller of a network not remembered is charged the mean of the networks (and
 *   callers without one: tokens) remembered (`chargeOf`). Per caller alone, a flood sending each
 *   search from an address never seen was charged the mean of callers, which its own one-search
 *   addresses held low, while a reader searching regularly built a charge above it: every
 *   fresh-address search went first and the reader waited for all those queued (its 16-passed-
 *   over bound counts only searches made ready after it): 35 searches ahead of it behind 20
 *   such addresses, 79 behind 64, its p50 over HTTP 17-39 ms -> 2.7-5.0 s (adversary round 54
 *   F2); now 0-5 ahead of it, the flood's addresses in one /24 (in process, callers keyed as
 *   the bridge keys them). A party with a fresh /24 (or /48) per search is still charged the
 *   mean of the networks, as a party holding addresses in many networks still counts as many
 *   for the connection places.
 *
 * This does not bound a caller's wait behind the search that runs (~0.1-1.3 s at 25,000 pages,
 * unfiltered, `pageSize: 50`, on a loaded machine): searches must be made interruptible for that.
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
  /** Searches started in all: the clock a caller's charge halves by (`USAGE_HALF_LIFE`). */
  private runs = 0;
  /** Per caller, its charge (work made, halved as searches run) as it stood when `at` searches
   *  had run. Forgotten once under 1 (`forget`). */
  private readonly used = new Map<string, { readonly work: number; readonly at: number }>();
  /** Per network (`networkOf`), the charge of its callers together, kept as `used` is (the work
   *  they made, halved as searches run): a caller's charge is at least its network's. Forgotten
   *  once under 1. */
  private readonly networks = new Map<string, { readonly work: number; readonly at: number }>();
  /** Callers in `used` without a network (a token's principal, a key that is no address): each a
   *  party of its own, as a network is (`chargeOf`'s mean). */
  private lone = 0;
  /** The sum of `used`'s charges as it stood when `at` searches had run (every charge halves
   *  alike, so their sum does): a caller of a network not remembered is charged the mean of the
   *  parties remembered (networks, and callers without one: `chargeOf`). */
  private total = { sum: 0, at: 0 };

  /**
   * Wait for the search's turn; resolves to the function that ends it (call it in a `finally`,
   * with the work the search made: `SearchIndex.work` across it; 1 when not given), or to
   * undefined when `signal` aborted first: the search must not run. `expected` is the work the
   * search is expected to make (`SearchIndex.expectedWork`, in the same units; 0 when not known):
   * it is weighed with its caller's charge (`nextReady`). Callers without an identity (stdio,
   * in-process) are one caller each call.
   */
  take(caller: string | undefined, signal?: AbortSignal, expected = 0): Promise<((work?: number) => void) | undefined> {
    if (signal?.aborted === true) {
      this.emit({ t: "given-up", caller });
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = { caller, signal, expected: Math.max(0, expected), resolve, unlisten: () => {}, yieldedAtReady: this.yieldedTurns, passedOver: 0 };
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
    const at = this.nextReady();
    for (let k = 0; k < at; k++) this.ready[k]!.passedOver++;
    const next = this.ready.splice(at, 1)[0]!;
    next.unlisten();
    this.running = true;
    this.runs++;
    this.emit({ t: "run", caller: next.caller });
    let ended = false;
    next.resolve((work = 1) => {
      if (ended) return;
      ended = true;
      this.running = false;
      // At least 1: an answer kept from before made no work, and its caller still had a turn.
      if (next.caller !== undefined) this.charge(next.caller, Math.max(1, work));
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
    else {
      this.waiting.delete(caller);
      this.forget();
    }
  }

  /**
   * Where in `ready` the next search to start is: the first made ready that has been passed over
   * `PASSED_OVER_AT_MOST` times, else the one whose caller's charge would be least once it ran:
   * its caller's charge now plus the work it is expected to make (the first made ready of those
   * tied). Its caller's charge alone said nothing of the search itself: when no caller had a
   * charge, or all were never seen (each charged the mean), searches went in the order they
   * came, and a cheap filtered search sent after ten unfiltered `pageSize: 50` ones of a
   * 24,920-page site waited for all ten (security row 167: 0.4-1.9 s loaded).
   */
  private nextReady(): number {
    const overdue = this.ready.findIndex((w) => w.passedOver >= PASSED_OVER_AT_MOST);
    if (overdue !== -1) return overdue;
    let best = 0;
    let least = this.after(this.ready[0]!);
    for (let k = 1; k < this.ready.length; k++) {
      const after = this.after(this.ready[k]!);
      if (after < least) [best, least] = [k, after];
    }
    return best;
  }

  /** `waiter`'s caller's charge as it would stand once `waiter` ran as expected (`nextReady`). */
  private after(waiter: Waiter): number {
    return this.chargeOf(waiter.caller) + waiter.expected;
  }

  /**
   * `caller`'s charge now: the greater of its own work and its network's (`networkOf`), each
   * halved every `USAGE_HALF_LIFE` searches run since. Its own alone was defeated by addresses:
   * a fresh address per search was never seen, and every search of a flood sent so went before a
   * reader who searched regularly (adversary round 54 F2: 35 searches ahead of it behind 20 such
   * addresses, 79 behind 64; over HTTP its p50 went from 17-39 ms to 2.7-5.0 s). Its network's
   * is taken as it is, not divided: a network counts as one caller here, as it does for the
   * connection places (`placesNetwork`), so the addresses of one /24 or /48 share the turns one
   * caller would have. Divided by a constant k, every network would weigh as k callers, and one
   * party's network k times a lone reader; divided by its addresses seen, the party who picks
   * how many addresses it sends from picks its charge. Genuine readers sharing a network (an
   * office's /24) share one caller's turns only while the thread is contended, and none waits
   * for more than `PASSED_OVER_AT_MOST` searches that became ready after it, whatever its charge.
   *
   * A caller of a network not remembered (or without one, itself not remembered) is charged the
   * mean of the parties remembered (each network, each caller without one), not nothing:
   * charged nothing, a fresh address per heavy search went before every caller who had searched
   * at all (adversary round 52 F3). The mean is over networks, not addresses: one-search
   * addresses of one network no longer each count as a light caller pulling it down. A caller
   * without an identity (stdio, in process) is charged nothing: it is one caller each call.
   */
  private chargeOf(caller: string | undefined): number {
    if (caller === undefined) return 0;
    const used = this.used.get(caller);
    const network = networkOf(caller);
    const shared = network === undefined ? undefined : this.networks.get(network);
    if (used === undefined && shared === undefined) {
      const parties = this.networks.size + this.lone;
      return parties === 0 ? 0 : this.totalNow() / parties;
    }
    return Math.max(used === undefined ? 0 : this.decayed(used.work, used.at), shared === undefined ? 0 : this.decayed(shared.work, shared.at));
  }

  /** Add `work` to `caller`'s charge, to its network's, and to the sum of charges. */
  private charge(caller: string, work: number): void {
    const own = this.used.get(caller);
    const network = networkOf(caller);
    this.total = { sum: this.totalNow() + work, at: this.runs };
    if (own === undefined && network === undefined) this.lone++;
    this.used.set(caller, { work: (own === undefined ? 0 : this.decayed(own.work, own.at)) + work, at: this.runs });
    if (network === undefined) return;
    const shared = this.networks.get(network);
    this.networks.set(network, { work: (shared === undefined ? 0 : this.decayed(shared.work, shared.at)) + work, at: this.runs });
  }

  /** The sum of the remembered charges now. */
  private totalNow(): number {
    return this.decayed(this.total.sum, this.total.at);
  }

  /** `work` as it stood when `at` searches had run, halved every `USAGE_HALF_LIFE` searches since. */
  private decayed(work: number, at: number): number {
    return work * 2 ** ((at - this.runs) / USAGE_HALF_LIFE);
  }

  /** Forget the callers with no search waiting whose own charge is under 1, and the networks whose
   *  charge is, once more than `FORGET_PAST` of either are remembered. */
  private forget(): void {
    if (this.used.size > FORGET_PAST) {
      for (const [caller, used] of this.used) {
        if (this.waiting.has(caller)) continue;
        const charge = this.decayed(used.work, used.at);
        if (charge >= 1) continue;
        this.used.delete(caller);
        if (networkOf(caller) === undefined) this.lone--;
        this.total = { sum: Math.max(0, this.totalNow() - charge), at: this.runs };
      }
    }
    if (this.networks.size > FORGET_PAST) {
      for (const [network, shared] of this.networks) if (this.decayed(shared.work, shared.at) < 1) this.networks.delete(network);
    }
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

/**
 * The network a caller counts under (`CallerTurns.chargeOf`): an address caller's
 * (`address:<key>`, as the bridge names callers: `callerAddress`) /24 or /48 (`addressNetwork`,
 * loopback included, as for the connection places); a token's principal and any other key has
 * none.
 */
function networkOf(caller: string): string | undefined {
  return caller.startsWith("address:") ? addressNetwork(caller.slice("address:".length)) : undefined;
}
