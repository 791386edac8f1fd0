import { LIMITS } from "../../limits.js";

/**
 * What a shell pool asks the process that counts its callers' places for every worker process
 * (`ShellPlaceLedger`, in the primary of `serve --http --workers N`): a place for one more
 * command of a caller (`hold`, within `maxHeld` running and waiting), leave to start a held one
 * (`run`, within `maxRunning` running), and to give a place back (`release`, running or not).
 * The worker sends its own bounds: the primary counts, the worker decides what they are.
 */
export type ShellPlaceRequest =
  | { readonly op: "hold"; readonly caller: string; readonly maxHeld: number }
  | { readonly op: "run"; readonly id: number; readonly maxRunning: number }
  | { readonly op: "release"; readonly id: number }
  | ({ readonly op: "standing" } & StandingNews);

/**
 * What one pool learnt of a caller's standing (`CallerStanding`), passed by the primary to every
 * other worker's pool: a command of theirs held a worker for long (`heavy`), or answered while
 * the caller was not yet trusted there (`answered`). A caller's standing is then the server's,
 * not each worker's: one whose runaway reached its limit in one worker was a new caller in the
 * other, free to take the workers kept from heavy callers (issue 25).
 */
export interface StandingNews {
  readonly caller: string;
  readonly mark: "heavy" | "answered";
}

/** `hold`'s answer: the place (and the caller's commands running in the other workers), or the caller holds its bound. */
export type HoldReply = { readonly t: "held"; readonly id: number; readonly elsewhere: number } | { readonly t: "refused" };
/** `run`'s answer: start it, or wait (the caller runs its bound; `elsewhere` of them in other workers). */
export type RunReply = { readonly t: "run" } | { readonly t: "wait"; readonly elsewhere: number };
/** The primary did not answer (gone, or silent past `LIMITS.shellWorker.primaryAnswerMs`): the worker's own bounds alone apply. */
export interface Unanswered {
  readonly t: "unanswered";
}

/** What the primary tells a worker holding places of `caller`: how many of its commands now run in the other workers. */
export interface ElsewhereNews {
  readonly caller: string;
  readonly running: number;
}

/** The places of a pool's callers as counted with other pools (`ShellHost.shareCallerPlaces`). */
export interface CallerPlaces {
  hold(caller: string, maxHeld: number): Promise<HoldReply | Unanswered>;
  run(id: number, maxRunning: number): Promise<RunReply | Unanswered>;
  /** Give a place back (once per place; nothing to wait for). */
  release(id: number): void;
  /** Whom to tell the primary's `ElsewhereNews` (one listener: the pool). */
  listen(onElsewhere: (news: ElsewhereNews) => void): void;
  /** Tell the other pools what this one learnt of a caller's standing (nothing to wait for). */
  mark(news: StandingNews): void;
  /** Whom to tell the other pools' `StandingNews` (one listener: the pool). */
  listenStanding(onMark: (news: StandingNews) => void): void;
}

const UNANSWERED: Unanswered = Object.freeze({ t: "unanswered" });

/**
 * A worker's `CallerPlaces`: each ask goes to the primary over the worker's channel (`request`),
 * and the primary's news comes in through `elsewhere`. Every take is decided by that one process
 * in turn, and a release goes on the same channel before any later ask, so the counts are exact
 * across workers (issue 25: each worker counting its own let one caller hold its bound in each).
 *
 * Fail safe: an ask the primary does not answer (it is gone: the channel rejects it; or it is
 * silent for `answerMs`) is `unanswered`, and the pool then counts that command by its own bounds
 * alone, as a lone process does, rather than wait. A place granted after that is given back at
 * once, so a late answer never leaves a place held.
 */
export class RemoteShellPlaces implements CallerPlaces {
  private listener: ((news: ElsewhereNews) => void) | undefined;
  private standingListener: ((news: StandingNews) => void) | undefined;

  constructor(
    private readonly request: (message: ShellPlaceRequest) => Promise<unknown>,
    private readonly answerMs: number = LIMITS.shellWorker.primaryAnswerMs,
  ) {}

  hold(caller: string, maxHeld: number): Promise<HoldReply | Unanswered> {
    return this.ask<HoldReply>({ op: "hold", caller, maxHeld }, (late) => {
      if (late.t === "held") this.release(late.id);
    });
  }

  /** Unanswered, the pool gives the place back itself (`release`), which the primary reads after this ask. */
  run(id: number, maxRunning: number): Promise<RunReply | Unanswered> {
    return this.ask<RunReply>({ op: "run", id, maxRunning }, () => {});
  }

  release(id: number): void {
    // Nothing to wait for; a primary gone meanwhile took every count with it.
    this.request({ op: "release", id }).catch(() => {});
  }

  listen(onElsewhere: (news: ElsewhereNews) => void): void {
    this.listener = onElsewhere;
  }

  /** The primary's news, passed on to the pool. */
  elsewhere(news: ElsewhereNews): void {
    this.listener?.(news);
  }

  mark(news: StandingNews): void {
    // Nothing to wait for: a primary gone (or slow) leaves each pool its own standing, as before.
    this.request({ op: "standing", caller: news.caller, mark: news.mark }).catch(() => {});
  }

  listenStanding(onMark: (news: StandingNews) => void): void {
    this.standingListener = onMark;
  }

  /** Another pool's news of a caller's standing, passed on to the pool. */
  standing(news: StandingNews): void {
    this.standingListener?.(news);
  }

  private ask<R>(message: ShellPlaceRequest, late: (reply: R) => void): Promise<R | Unanswered> {
    return new Promise((resolve) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        resolve(UNANSWERED);
      }, this.answerMs);
      timer.unref();
      this.request(message).then(
        (reply) => {
          clearTimeout(timer);
          if (settled) late(reply as R);
          else resolve(reply as R);
          settled = true;
        },
        () => {
          clearTimeout(timer);
          if (!settled) resolve(UNANSWERED);
          settled = true;
        },
      );
    });
  }
}
