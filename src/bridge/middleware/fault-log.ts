import { LIMITS } from "../../limits.js";
import type { StateFaultKind } from "../../store/errors.js";

interface Episode {
  readonly since: number;
  last: number;
  count: number;
  reminded: number;
}

/** The log line that opens an episode, by kind. */
const OPENING: Readonly<Record<StateFaultKind, string>> = {
  unavailable: "warning: the state database is unavailable",
  full: "error: the state storage is full",
};

/**
 * The log of state faults, by episode: a full disk or a database away fails every request that
 * writes, thousands a minute, and a line (or a stack trace) for each buries the one that matters.
 * The first failure of a kind logs one line; later ones are counted, with a reminder of the count
 * every `LIMITS.bridge.faultReminderMs`; a failure after `faultQuietMs` without one opens a new
 * episode. Decided on the bridge's clock, never on how fast requests are served.
 */
export class FaultLog {
  private readonly episodes = new Map<StateFaultKind, Episode>();

  constructor(
    private readonly log: (message: string) => void,
    private readonly now: () => number,
  ) {}

  /** One request answered 503 for a state fault of `kind` (`code`: the driver's or system's error code). */
  report(kind: StateFaultKind, code: string): void {
    const t = this.now();
    const episode = this.episodes.get(kind);
    if (episode === undefined || t - episode.last >= LIMITS.bridge.faultQuietMs) {
      this.episodes.set(kind, { since: t, last: t, count: 1, reminded: t });
      this.log(`${OPENING[kind]} (${code}): answering 503 with Retry-After until it clears; later failures of this kind are counted, not logged`);
      return;
    }
    episode.last = t;
    episode.count++;
    if (t - episode.reminded >= LIMITS.bridge.faultReminderMs) {
      episode.reminded = t;
      this.log(`${OPENING[kind]} (${code}): still; ${episode.count} requests answered 503 since ${new Date(episode.since).toISOString()}`);
    }
  }
}

/** What a request failed by a state fault is answered: the message and how long to wait, by kind. */
export const FAULT_ANSWERS: Readonly<Record<StateFaultKind, { readonly message: string; readonly retryAfterSec: number }>> = {
  // A lock or a lost connection clears within a second or two.
  unavailable: { message: "the state database is busy or unreachable; retry shortly", retryAfterSec: 1 },
  // Room comes back when someone frees it: retrying every second only adds load.
  full: { message: "the state storage is full; retry later", retryAfterSec: 30 },
};
