import { type MediaTurn, MediaTurns } from "../../src/bridge/web/preview/media-turns.js";

/**
 * `MediaTurns` that tells each change of what its callers hold (a place taken, waited for, given
 * back, or left): a test waits for the count it means (`held`), never for time. Polled instead
 * (`vi.waitFor`, one second by default), the wait ran out on a busy machine before the request
 * reached its turn.
 */
export class WatchedTurns extends MediaTurns {
  private readonly waiters = new Set<() => void>();

  /** Resolves once `caller` holds `count` places (sent or waiting): at once when it does now. */
  held(caller: string, count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.heldBy(caller) !== count) return;
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
      check();
    });
  }

  override take(caller: string, signal?: AbortSignal): Promise<MediaTurn> {
    const taken = super.take(caller, signal);
    // A place given or a wait begun is counted before `take` returns; a wait left on abort, when it settles.
    this.changed();
    return taken.then((turn) => {
      this.changed();
      if (!turn.ok) return turn;
      return {
        ok: true,
        release: () => {
          turn.release();
          this.changed();
        },
      };
    });
  }

  private changed(): void {
    for (const check of [...this.waiters]) check();
  }
}
