import { LIMITS } from "../limits.js";

/**
 * How a reload gives the thread back while it builds the new snapshot aside: after each slice of
 * `ms` of work, `turn` (default: a `setImmediate`, which runs after the I/O pending, so a caller's
 * request that arrived is read and answered from the snapshot still served). A test passes its own
 * `turn` (and `ms: 0`) to hold a reload half way and see what callers are answered meanwhile; a
 * turn taken between the stages of docs.json's reading (`stage`) is given the stage just done.
 */
export interface ReloadSliceOptions {
  readonly ms?: number;
  readonly turn?: (stage?: string) => Promise<void>;
}

/** A reload's clock for its long loops: `due()` says a slice is over, `turn()` gives the thread back. */
export class ReloadSlices {
  private began = performance.now();
  private readonly ms: number;
  private readonly giveBack: (stage?: string) => Promise<void>;

  constructor(options: ReloadSliceOptions = {}) {
    this.ms = options.ms ?? LIMITS.load.reloadSliceMs;
    this.giveBack = options.turn ?? (() => new Promise((resolve) => setImmediate(resolve)));
  }

  /** Whether this slice's time is spent (checked without a turn, so a loop pays no await per step). */
  due(): boolean {
    return performance.now() - this.began >= this.ms;
  }

  /** Give the thread back, then begin the next slice; `stage`: the stage of work just done, if
   *  the turn is taken between stages. */
  async turn(stage?: string): Promise<void> {
    await (stage === undefined ? this.giveBack() : this.giveBack(stage));
    this.began = performance.now();
  }

  /** Between two stages of work that cannot be cut (a walk of the whole navigation): a turn if
   *  the slice is spent, told which stage ended. */
  async stage(done: string): Promise<void> {
    if (this.due()) await this.turn(done);
  }

  /** A turn if the slice is spent. */
  async maybe(): Promise<void> {
    if (this.due()) await this.turn();
  }
}
