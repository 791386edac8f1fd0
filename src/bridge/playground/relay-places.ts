import { LIMITS } from "../../limits.js";
import { CallerConnections } from "../caller-connections.js";
import { ConnectionCap } from "../connection-cap.js";

export interface RelayPlaceLimits {
  /** Calls of one caller in flight at once (`LIMITS.relay.maxInFlightPerCaller`). */
  readonly perCaller: number;
  /** Calls in flight at once, every caller's (`LIMITS.relay.maxInFlight`). */
  readonly total: number;
  /** The last of `total`, for callers with none in flight (`LIMITS.relay.newcomerReserve`). */
  readonly newcomerReserve: number;
}

/** Why no place was given: the caller's own bound, or the process's. */
export interface RelayRefusal {
  readonly status: 429 | 503;
  readonly code: "too_many_relay_requests" | "relay_busy";
  readonly message: string;
}

/** A place taken: `release` gives it back (once; later calls do nothing). */
export type RelayPlace = { readonly ok: true; readonly release: () => void } | ({ readonly ok: false } & RelayRefusal);

/**
 * What hands out the relay's places: `RelayPlaces` in a lone process, `RemoteRelayPlaces` in a
 * worker of `serve --http --workers N` (the primary counts for all workers).
 */
export interface RelayPlaceKeeper {
  /** A place for one call of `caller`, or the refusal naming the bound it is at. */
  take(caller: string): RelayPlace | Promise<RelayPlace>;
}

/**
 * The relay calls in flight, per caller (an address, an IPv6 /64, a token: `RequestContext.caller`)
 * and in all, shared by `POST /_svc/api/request` and the MCP Apps' Send tool. A call holds its
 * place from before its upstream request until the upstream connection is closed and its answer
 * is handed over (written to the client, or built for the MCP response), so a client that hangs
 * up frees its place only once the upstream fetch it started has really stopped (issue 25,
 * adversary round 18 F3: 40 hung-up calls kept downloading, and 60 at once held another
 * reader's search 22 s). Taken only once the call's request is whole (the HTTP route reads its
 * body first; an MCP call's came with its message), so a client slow to send one holds none
 * (adversary F1). Refused at once past a bound, never queued: a queued call would hold its
 * client's connection and a request body for nothing.
 *
 * The counting is the bridge's own for connections: `CallerConnections` per caller, and
 * `ConnectionCap` for the process, whose newcomer reserve keeps the last places for callers with
 * nothing in flight (no signed-in reserve here: a token is a caller of its own already).
 */
export class RelayPlaces implements RelayPlaceKeeper {
  private readonly callers: CallerConnections;
  private readonly cap: ConnectionCap;
  /** `whenHolding`'s waiters, per caller: how many it may hold, and whom to tell. */
  private readonly waiters = new Map<string, { readonly atMost: number; readonly resolve: () => void }[]>();

  constructor(
    readonly limits: RelayPlaceLimits = {
      perCaller: LIMITS.relay.maxInFlightPerCaller,
      total: LIMITS.relay.maxInFlight,
      newcomerReserve: LIMITS.relay.newcomerReserve,
    },
  ) {
    this.callers = new CallerConnections(limits.perCaller);
    this.cap = new ConnectionCap(limits.total, Math.min(limits.newcomerReserve, limits.total - 1), 0);
  }

  /** A place for one call of `caller`, or the refusal naming the bound it is at. */
  take(caller: string): RelayPlace {
    const holds = this.callers.heldBy(caller);
    if (holds >= this.limits.perCaller) {
      return {
        ok: false,
        status: 429,
        code: "too_many_relay_requests",
        message: `too many playground requests of this client in flight: at most ${this.limits.perCaller} at once per client (an address, an IPv6 /64 or a token); wait for one to finish, then send again`,
      };
    }
    if (!this.cap.admits(holds, false)) {
      return {
        ok: false,
        status: 503,
        code: "relay_busy",
        message: `the relay has as many requests in flight as it takes (${this.limits.total}, the last ${this.limits.newcomerReserve} kept for clients with none in flight); try again in a moment`,
      };
    }
    this.callers.take(caller);
    this.cap.take();
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.callers.release(caller);
        this.cap.release();
        this.wake(caller);
      },
    };
  }

  /** Calls of `caller` in flight now. */
  heldBy(caller: string): number {
    return this.callers.heldBy(caller);
  }

  /** Calls in flight now, every caller's. */
  get count(): number {
    return this.cap.count;
  }

  /** Resolves once `caller` holds at most `atMost` places (tests wait on it instead of sleeping). */
  whenHolding(caller: string, atMost = 0): Promise<void> {
    if (this.callers.heldBy(caller) <= atMost) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.waiters.get(caller);
      if (list === undefined) this.waiters.set(caller, [{ atMost, resolve }]);
      else list.push({ atMost, resolve });
    });
  }

  private wake(caller: string): void {
    const list = this.waiters.get(caller);
    if (list === undefined) return;
    const holds = this.callers.heldBy(caller);
    const still = list.filter((w) => w.atMost < holds);
    for (const w of list) if (w.atMost >= holds) w.resolve();
    if (still.length === 0) this.waiters.delete(caller);
    else this.waiters.set(caller, still);
  }
}
