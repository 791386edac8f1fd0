import { LIMITS } from "../../limits.js";
import { InvalidCursorError } from "../../store/feedback/cursor.js";
import type { FieldIssue } from "../../store/feedback/issues.js";
import type { FeedbackEntry, FeedbackStatus } from "../../store/feedback/model.js";
import { type FeedbackQuery, parseFeedbackQuery } from "../../store/feedback/query.js";
import {
  FeedbackNotFoundError,
  type FeedbackPage,
  type FeedbackStore,
  type FeedbackSummary,
  InvalidTransitionError,
  type StatusChange,
} from "../../store/feedback/store.js";
import type { RequestContext } from "../../vfs/request-context.js";
import { type Refusal, type StateOutcome, invalid, refused, success } from "./outcome.js";

/**
 * What the docs team's reads and triage of one project's feedback work from (the admin API, the
 * `feedback` command). `store` is undefined where no feedback was ever kept: reads then answer
 * empty rather than create a database (a typo in `--state` would leave one behind).
 */
export interface ReviewContext {
  readonly request: RequestContext;
  readonly projectId: string;
  readonly store: FeedbackStore | undefined;
}

/** The list's filters and paging as their callers send them: `[name, value]` pairs, repeats included (`dateFrom`, `limit`...). */
export type QueryPairs = Iterable<readonly [string, string]>;

type FeedbackOutcome<T, R extends Refusal = never> = StateOutcome<T, R, FieldIssue>;

const EMPTY_PAGE: FeedbackPage = { feedback: [], nextCursor: null, hasMore: false };

/** One page of entries, newest first; a cursor the store did not issue for these filters is refused. */
export async function listFeedback(context: ReviewContext, params: QueryPairs): Promise<FeedbackOutcome<FeedbackPage, Refusal<"invalid_cursor">>> {
  const parsed = parseFeedbackQuery(params);
  if (!parsed.ok) return invalid(parsed.issues);
  if (context.store === undefined) return success(EMPTY_PAGE);
  try {
    return success(await context.store.list({ ...parsed.query, projectId: context.projectId }));
  } catch (error) {
    if (error instanceof InvalidCursorError) return refused({ kind: "invalid_cursor", message: error.message });
    throw error;
  }
}

/** Counts per day by source and status, and the pages most voted unhelpful, under the list's filters (paging ignored). */
export async function summarizeFeedback(context: ReviewContext, params: QueryPairs): Promise<FeedbackOutcome<FeedbackSummary>> {
  const parsed = parseFeedbackQuery(params);
  if (!parsed.ok) return invalid(parsed.issues);
  const { limit: _limit, cursor: _cursor, ...filter } = parsed.query;
  if (context.store === undefined) return success({ total: 0, days: [], negativePages: [] });
  return success(await context.store.summary({ ...filter, projectId: context.projectId }));
}

/** One entry by id. */
export async function getFeedback(context: ReviewContext, id: string): Promise<FeedbackOutcome<FeedbackEntry, Refusal<"not_found">>> {
  const entry = await context.store?.get(context.projectId, id);
  if (entry === undefined) return refused({ kind: "not_found", message: new FeedbackNotFoundError(context.projectId, id).message });
  return success(entry);
}

/** Move an entry along its review (pending -> in_progress -> resolved...), dated by the context's clock. */
export async function changeFeedbackStatus(
  context: ReviewContext,
  id: string,
  status: FeedbackStatus,
): Promise<FeedbackOutcome<StatusChange, Refusal<"not_found" | "invalid_transition">>> {
  try {
    if (context.store === undefined) throw new FeedbackNotFoundError(context.projectId, id);
    return success(await context.store.setStatus(context.projectId, id, status, context.request.clock()));
  } catch (error) {
    if (error instanceof FeedbackNotFoundError) return refused({ kind: "not_found", message: error.message });
    if (error instanceof InvalidTransitionError) return refused({ kind: "invalid_transition", message: error.message });
    throw error;
  }
}

/**
 * Every entry the filters select, newest first, read page by page as the caller consumes them
 * (memory stays flat for big exports). Paging parameters do not apply.
 */
export function exportFeedback(context: ReviewContext, params: QueryPairs): FeedbackOutcome<AsyncIterable<FeedbackEntry>> {
  const parsed = parseFeedbackQuery(params);
  if (!parsed.ok) return invalid(parsed.issues);
  // The largest page the store serves: fewest round trips, memory still bounded by the page.
  return success(allPages(context.store, { ...parsed.query, projectId: context.projectId, limit: LIMITS.feedback.maxPageSize }));
}

async function* allPages(store: FeedbackStore | undefined, first: FeedbackQuery): AsyncIterable<FeedbackEntry> {
  if (store === undefined) return;
  let query = first;
  for (;;) {
    const page = await store.list(query);
    yield* page.feedback;
    if (page.nextCursor === null) return;
    query = { ...query, cursor: page.nextCursor };
  }
}
