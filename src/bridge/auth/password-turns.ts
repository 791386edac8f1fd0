import { FairQueue } from "../../engine/shell/fair-queue.js";
import { LIMITS } from "../../limits.js";

/** What a sign-in form says when its caller already holds `LIMITS.oauth.passwordChecksPerCaller` checks. */
export const SIGN_INS_IN_PROGRESS = `Too many sign-ins from your address are being checked at once (at most ${LIMITS.oauth.passwordChecksPerCaller}). Try again in a moment.`;

export interface PasswordTurnsOptions {
  /** Checks running at once (default `LIMITS.oauth.passwordChecksAtOnce`). */
  readonly atOnce?: number;
  /** Checks one caller may have running or waiting (default `LIMITS.oauth.passwordChecksPerCaller`). */
  readonly perCaller?: number;
  /** Told of each check queued, started or refused, in order: tests watch it. */
  readonly onEvent?: (event: PasswordTurnEvent) => void;
}

export interface PasswordTurnEvent {
  readonly t: "queued" | "start" | "refused";
  readonly caller: string;
}

/**
 * The password checks of the sign-in forms (the MCP sign-in page and the site's `/_svc/login`),
 * run a few at a time over every caller, callers in turn (`FairQueue`), each holding at most a
 * few at once.
 *
 * Why: a password check is scrypt (32 MiB, ~50-100 ms of CPU), which Node runs on the process's
 * shared pool of four I/O threads, the pool that also reads files. Eight addresses each posting
 * four sign-ins with a new user name at a time (each within every per-account and per-address
 * limit) kept ~28 checks queued there; a thread starting meanwhile (a `jq` command's, after a
 * runaway ended its last one) read its code behind them, and another reader's `jq` took 14-52 s
 * (20 ms idle) for as long as the flood lasted (adversary round 66 F1). Now at most
 * `LIMITS.oauth.passwordChecksAtOnce` checks are in that pool at once, leaving its other threads
 * to file reads, and a person signing in waits for at most about one check per caller ahead of
 * them, not for a queue a flood filled.
 */
export class PasswordTurns {
  private readonly queue: FairQueue<() => void>;
  private readonly emit: (event: PasswordTurnEvent) => void;

  constructor(options: PasswordTurnsOptions = {}) {
    const { atOnce = LIMITS.oauth.passwordChecksAtOnce, perCaller = LIMITS.oauth.passwordChecksPerCaller } = options;
    this.queue = new FairQueue({ maxHeld: perCaller, maxRunning: 1, capacity: atOnce, reserve: 0 });
    this.emit = options.onEvent ?? (() => {});
  }

  /**
   * `check` once it is the caller's turn; `undefined`, and `check` never called, when the
   * caller already holds `perCaller` checks (running or waiting).
   */
  run<T>(caller: string, check: () => Promise<T>): Promise<{ readonly value: T } | undefined> {
    return new Promise((resolve, reject) => {
      const start = (): void => {
        this.emit({ t: "start", caller });
        // After a tick: a check that throws at once settles like one that rejects.
        Promise.resolve()
          .then(check)
          .then(
            (value) => this.finish(caller, () => resolve({ value })),
            (error: unknown) => this.finish(caller, () => reject(error)),
          );
      };
      if (!this.queue.push(caller, start)) {
        this.emit({ t: "refused", caller });
        resolve(undefined);
        return;
      }
      this.emit({ t: "queued", caller });
      this.pump();
    });
  }

  private finish(caller: string, settle: () => void): void {
    this.queue.done(caller);
    settle();
    this.pump();
  }

  private pump(): void {
    for (let next = this.queue.take(); next !== undefined; next = this.queue.take()) next.item();
  }
}
