import { LIMITS } from "../../../limits.js";

export interface MediaTurnLimits {
  /** Transfers of one caller being sent at once (`LIMITS.preview.maxMediaSendingPerCaller`). */
  readonly sending: number;
  /** Transfers of one caller sent or waiting (`LIMITS.preview.maxMediaHeldPerCaller`). */
  readonly held: number;
}

/** A caller's bounds on media transfers (`LIMITS.preview`). */
export function mediaTurnLimits(): MediaTurnLimits {
  return { sending: LIMITS.preview.maxMediaSendingPerCaller, held: LIMITS.preview.maxMediaHeldPerCaller };
}

/** What `MediaTurns.take` gives: a place (its `release` gives it back, once), or why none. */
export type MediaTurn = { readonly ok: true; readonly release: () => void } | { readonly ok: false; readonly reason: "full" | "gone" };

/**
 * What hands out a caller's turns: `MediaTurns` in a lone process, `RemoteMediaTurns` in a worker
 * of `serve --http --workers N` (the primary keeps every worker's callers' turns).
 */
export interface MediaTurnKeeper {
  readonly limits: MediaTurnLimits;
  /** A place for `caller`, when its turn comes; `full` past its bound, `gone` when `signal` aborted first. */
  take(caller: string, signal?: AbortSignal): Promise<MediaTurn>;
}

interface CallerTurns {
  sending: number;
  readonly waiting: (() => void)[];
}

/**
 * Places for the media one caller (an address, an IPv6 /64, a token: the bridge's callers) is
 * sent at once: `sending` at a time, the next ones waiting their turn in order, and past `held`
 * (sending and waiting) refused, so that one caller's transfers (a video asked for 8 at a time,
 * issue 25) take a bounded share of the server's disk, memory and sockets whatever others do.
 * A request whose client hung up while waiting leaves the queue at once.
 */
export class MediaTurns implements MediaTurnKeeper {
  private readonly callers = new Map<string, CallerTurns>();

  constructor(readonly limits: MediaTurnLimits = mediaTurnLimits()) {}

  /** A place to send one medium to `caller`, when its turn comes; `full` past its bound, `gone` when `signal` aborted first. */
  take(caller: string, signal?: AbortSignal): Promise<MediaTurn> {
    const turns = this.callers.get(caller) ?? { sending: 0, waiting: [] };
    if (turns.sending + turns.waiting.length >= this.limits.held) return Promise.resolve({ ok: false, reason: "full" });
    if (signal?.aborted === true) return Promise.resolve({ ok: false, reason: "gone" });
    this.callers.set(caller, turns);
    if (turns.sending < this.limits.sending) {
      turns.sending++;
      return Promise.resolve({ ok: true, release: this.releaser(caller, turns) });
    }
    return new Promise((resolve) => {
      const granted = (): void => {
        signal?.removeEventListener("abort", gone);
        resolve({ ok: true, release: this.releaser(caller, turns) });
      };
      const gone = (): void => {
        const at = turns.waiting.indexOf(granted);
        if (at >= 0) turns.waiting.splice(at, 1);
        this.forget(caller, turns);
        resolve({ ok: false, reason: "gone" });
      };
      turns.waiting.push(granted);
      signal?.addEventListener("abort", gone, { once: true });
    });
  }

  /** Transfers of `caller` sent or waiting now. */
  heldBy(caller: string): number {
    const turns = this.callers.get(caller);
    return turns === undefined ? 0 : turns.sending + turns.waiting.length;
  }

  private releaser(caller: string, turns: CallerTurns): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = turns.waiting.shift();
      // The place passes to the caller's next transfer, if one waits.
      if (next !== undefined) next();
      else {
        turns.sending--;
        this.forget(caller, turns);
      }
    };
  }

  private forget(caller: string, turns: CallerTurns): void {
    if (turns.sending === 0 && turns.waiting.length === 0 && this.callers.get(caller) === turns) this.callers.delete(caller);
  }
}
