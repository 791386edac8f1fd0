import type { CallerPlaces, ElsewhereNews } from "./shared-places.js";

/** A call as its places are counted with other processes: its caller, and its place there. */
export interface PlaceHolder {
  readonly caller: string;
  /** Its place in the shared count; undefined before it has one, and when counted here alone (the primary did not answer). */
  place: number | undefined;
  /** The primary let it start: its caller's running commands, every process's, are below the bound. */
  mayRun: boolean;
}

/**
 * One shell pool's side of the count of its callers' places shared with the other worker
 * processes of `serve --http --workers N` (`ShellHost.shareCallerPlaces`). A call takes a place
 * before it is queued (`hold`: the caller's bound over every worker, refused past it as one
 * process refuses), asks leave before it starts (`mayStart`: the caller's running bound over
 * every worker), and gives the place back when it leaves the pool (`release`). What it learns
 * of the other workers (each caller's commands running there) feeds the pool's own choice
 * (`FairQueue`'s `elsewhere`), so the pool rarely asks for a start the primary refuses.
 *
 * One start is asked at a time: the pool waits for that answer before it gives out another
 * worker (a fraction of a millisecond), so no two asks race for one caller's last place.
 */
export class PoolPlaces {
  /** Per caller with places here: its commands running in other processes, by the primary's last word. */
  private readonly elsewhere = new Map<string, number>();
  /** Places held here per caller; its `elsewhere` is forgotten with its last. */
  private readonly held = new Map<string, number>();
  private asking: PlaceHolder | undefined;

  constructor(
    private readonly places: CallerPlaces,
    private readonly bounds: { readonly maxHeld: number; readonly maxRunning: number },
    /** The caller's commands running in this pool. */
    private readonly runningHere: (caller: string) => number,
    /** Whether a call now may start that could not (the pool then gives out its workers again). */
    private readonly changed: () => void,
  ) {
    places.listen((news: ElsewhereNews) => {
      if (!this.held.has(news.caller)) return;
      this.elsewhere.set(news.caller, news.running);
      this.changed();
    });
  }

  /** Commands of `caller` running in other processes, as last heard. */
  elsewhereOf(caller: string): number {
    return this.elsewhere.get(caller) ?? 0;
  }

  /** A place for `call`: false when its caller holds its bound over every process; unanswered, it is counted here alone. */
  async hold(call: PlaceHolder): Promise<boolean> {
    const reply = await this.places.hold(call.caller, this.bounds.maxHeld);
    if (reply.t === "refused") return false;
    if (reply.t === "held") {
      call.place = reply.id;
      this.held.set(call.caller, (this.held.get(call.caller) ?? 0) + 1);
      this.elsewhere.set(call.caller, reply.elsewhere);
    }
    return true;
  }

  /**
   * Whether `call`, the pool's next, may start now. If the primary has not said, it is asked
   * (unless an ask is under way) and false returned; its answer calls `changed`.
   */
  mayStart(call: PlaceHolder): boolean {
    const id = call.place;
    if (id === undefined || call.mayRun) return true;
    if (this.asking !== undefined) return false;
    this.asking = call;
    void this.places.run(id, this.bounds.maxRunning).then((reply) => {
      this.asking = undefined;
      // Given back meanwhile (cancelled, or the pool closed): the primary read the release after this ask.
      if (call.place !== id) return;
      if (reply.t === "run") call.mayRun = true;
      // At least what keeps it from being asked again until a place frees elsewhere (the
      // primary's count is never below what this pool runs).
      else if (reply.t === "wait") this.elsewhere.set(call.caller, Math.max(reply.elsewhere, this.bounds.maxRunning - this.runningHere(call.caller)));
      else this.release(call);
      this.changed();
    });
    return false;
  }

  /** `call` leaves the pool (ended, cancelled, refused here, shut down): its place is given back. */
  release(call: PlaceHolder): void {
    const id = call.place;
    if (id === undefined) return;
    call.place = undefined;
    call.mayRun = false;
    this.places.release(id);
    const left = (this.held.get(call.caller) ?? 1) - 1;
    if (left > 0) {
      this.held.set(call.caller, left);
    } else {
      this.held.delete(call.caller);
      this.elsewhere.delete(call.caller);
    }
  }
}
