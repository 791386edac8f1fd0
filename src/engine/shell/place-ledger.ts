import type { ElsewhereNews, HoldReply, RunReply, ShellPlaceRequest, StandingNews } from "./shared-places.js";

interface Place {
  readonly owner: number;
  readonly caller: string;
  running: boolean;
}

/** One caller's places held by one worker. */
interface Share {
  held: number;
  running: number;
}

/**
 * The primary's count of the shell pools' places for every worker process of `serve --http
 * --workers N` (issue 25): each caller's commands held (running and waiting) and running, over
 * all workers, so that its bounds (`maxHeldPerCaller`, `maxRunningPerCaller`) are the server's,
 * as in one process, and not each worker's (one caller held its bound in each). Workers ask
 * (`RemoteShellPlaces`), one at a time in the order they arrive.
 *
 * Each worker that holds places of a caller is told (`tell`) how many of that caller's commands
 * run in the other workers whenever that changes: its pool then decides its own reserves as one
 * process would (a caller running one anywhere is not a caller with nothing running) and starts
 * the caller's waiting command as soon as a place frees elsewhere.
 *
 * Owners are worker ids. The places of a worker that exits are given back (`forget`), before a
 * replacement starts; an ask still on its way from it afterwards takes nothing.
 */
export class ShellPlaceLedger {
  private nextId = 1;
  private readonly places = new Map<number, Place>();
  private readonly callers = new Map<string, Map<number, Share>>();
  private readonly gone = new Set<number>();

  /**
   * `tell`: news for one worker of a caller it holds places of. `passStanding`: what worker `from`
   * learnt of a caller's standing, for every other worker (the primary knows them all; a caller's
   * standing matters in a pool before the caller holds a place there).
   */
  constructor(
    private readonly tell: (owner: number, news: ElsewhereNews) => void,
    private readonly passStanding: (from: number, news: StandingNews) => void = () => {},
  ) {}

  /** Answer one worker's request. */
  answer(owner: number, message: ShellPlaceRequest): HoldReply | RunReply | Record<string, never> {
    if (message.op === "standing") {
      this.passStanding(owner, { caller: message.caller, mark: message.mark });
      return {};
    }
    if (message.op === "release") {
      const place = this.places.get(message.id);
      if (place?.owner === owner) this.release(message.id, place);
      return {};
    }
    if (this.gone.has(owner)) throw new Error("the worker process is gone");
    if (message.op === "hold") {
      if (this.held(message.caller) >= message.maxHeld) return { t: "refused" };
      const id = this.nextId++;
      this.places.set(id, { owner, caller: message.caller, running: false });
      this.shareOf(message.caller, owner).held++;
      return { t: "held", id, elsewhere: this.runningBesides(message.caller, owner) };
    }
    const place = this.places.get(message.id);
    if (place === undefined || place.owner !== owner) throw new Error(`no shell place ${message.id} held by this worker`);
    if (place.running) return { t: "run" };
    if (this.running(place.caller) >= message.maxRunning) return { t: "wait", elsewhere: this.runningBesides(place.caller, owner) };
    place.running = true;
    this.shareOf(place.caller, owner).running++;
    this.changed(place.caller, owner);
    return { t: "run" };
  }

  /** `owner` has exited: every place it held is given back. */
  forget(owner: number): void {
    this.gone.add(owner);
    for (const [id, place] of this.places) if (place.owner === owner) this.release(id, place);
  }

  /** Commands of `caller` held now (running and waiting), every worker's. */
  held(caller: string): number {
    let n = 0;
    for (const share of this.callers.get(caller)?.values() ?? []) n += share.held;
    return n;
  }

  /** Commands of `caller` running now, every worker's. */
  running(caller: string): number {
    let n = 0;
    for (const share of this.callers.get(caller)?.values() ?? []) n += share.running;
    return n;
  }

  private runningBesides(caller: string, owner: number): number {
    return this.running(caller) - (this.callers.get(caller)?.get(owner)?.running ?? 0);
  }

  private release(id: number, place: Place): void {
    this.places.delete(id);
    const shares = this.callers.get(place.caller);
    const share = shares?.get(place.owner);
    if (shares === undefined || share === undefined) return;
    share.held--;
    if (place.running) share.running--;
    if (share.held === 0) shares.delete(place.owner);
    if (shares.size === 0) this.callers.delete(place.caller);
    if (place.running) this.changed(place.caller, place.owner);
  }

  private shareOf(caller: string, owner: number): Share {
    let shares = this.callers.get(caller);
    if (shares === undefined) this.callers.set(caller, (shares = new Map()));
    let share = shares.get(owner);
    if (share === undefined) shares.set(owner, (share = { held: 0, running: 0 }));
    return share;
  }

  /** `caller`'s running commands changed in `by`: tell every other worker holding places of it. */
  private changed(caller: string, by: number): void {
    for (const owner of this.callers.get(caller)?.keys() ?? []) {
      if (owner !== by) this.tell(owner, { caller, running: this.runningBesides(caller, owner) });
    }
  }
}
