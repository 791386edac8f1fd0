import type { FeedbackEntry, FeedbackSource, FeedbackStatus, NewFeedback } from "./model.js";
import type { FeedbackFilter, FeedbackQuery } from "./query.js";

/** One page of entries, newest first, as the API serves it. */
export interface FeedbackPage {
  readonly feedback: readonly FeedbackEntry[];
  /** Opaque; null exactly when `hasMore` is false. */
  readonly nextCursor: string | null;
  readonly hasMore: boolean;
}

/** Entries of one UTC day, counted by source and by status (the dashboard's chart). */
export interface FeedbackDay {
  /** `2024-05-01` */
  readonly date: string;
  readonly total: number;
  readonly bySource: Readonly<Record<FeedbackSource, number>>;
  readonly byStatus: Readonly<Record<FeedbackStatus, number>>;
}

/** Aggregate figures of the entries a filter selects (`GET /v1/analytics/{projectId}/feedback-summary`). */
export interface FeedbackSummary {
  readonly total: number;
  /** Days with at least one entry, oldest first. */
  readonly days: readonly FeedbackDay[];
  /** Pages with the most "not helpful" votes (ratings and contextual feedback), most first, then by path. */
  readonly negativePages: readonly { readonly path: string; readonly count: number }[];
}

/** Result of a status change. */
export interface StatusChange {
  readonly entry: FeedbackEntry;
  readonly previous: FeedbackStatus;
}

/**
 * Where feedback lives. The SQLite implementation (`sqlite-store.ts`) serves one machine; the
 * interface is asynchronous so a PostgreSQL implementation can follow for multi-instance hosting.
 *
 * Contract every implementation keeps:
 * - `insert` resolves only once the entry is durable (a crash right after loses nothing).
 * - `list` orders by `createdAt` descending, ties broken by insertion order (newest first), and
 *   paginates by keyset: a cursor names a position, not an offset, so entries inserted while a
 *   client pages through are never returned twice and never push an older entry out of view.
 * - `list` throws `InvalidCursorError` (cursor.ts) for a cursor it did not issue for this query.
 * - `setStatus` throws `FeedbackNotFoundError` or `InvalidTransitionError`.
 */
export interface FeedbackStore {
  insert(entry: NewFeedback): Promise<FeedbackEntry>;
  /** Many entries in one transaction (imports, seeding); a generator keeps memory flat. */
  insertMany(entries: Iterable<NewFeedback>): Promise<number>;
  list(query: FeedbackQuery): Promise<FeedbackPage>;
  get(projectId: string, id: string): Promise<FeedbackEntry | undefined>;
  /** Counts per day by source and status, and the pages with most negative votes. */
  summary(filter: FeedbackFilter): Promise<FeedbackSummary>;
  setStatus(projectId: string, id: string, status: FeedbackStatus, now: number): Promise<StatusChange>;
  close(): Promise<void>;
}

export class FeedbackNotFoundError extends Error {
  constructor(
    readonly projectId: string,
    readonly id: string,
  ) {
    super(`no feedback entry ${JSON.stringify(id)} in project ${JSON.stringify(projectId)}`);
    this.name = "FeedbackNotFoundError";
  }
}

export class InvalidTransitionError extends Error {
  constructor(
    readonly from: FeedbackStatus,
    readonly to: FeedbackStatus,
    readonly allowed: readonly FeedbackStatus[],
  ) {
    super(`cannot change status from ${from} to ${to}; from ${from} it can change to ${allowed.join(" or ")}`);
    this.name = "InvalidTransitionError";
  }
}
