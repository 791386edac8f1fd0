import type { CursorCodec } from "./cursor.js";
import type { FeedbackEntry } from "./model.js";
import type { FeedbackFilter, FeedbackQuery } from "./query.js";
import type { FeedbackPage } from "./store.js";

/** The filters of a query: what its cursors are bound to (paging aside). */
export function filterOf(query: FeedbackQuery): FeedbackFilter {
  return {
    projectId: query.projectId,
    ...(query.dateFrom === undefined ? {} : { dateFrom: query.dateFrom }),
    ...(query.dateTo === undefined ? {} : { dateTo: query.dateTo }),
    ...(query.source === undefined ? {} : { source: query.source }),
    ...(query.statuses === undefined ? {} : { statuses: query.statuses }),
  };
}

/**
 * A page from the rows a store read newest first, at most `limit + 1` of them: the one past the
 * limit only says there is more, and the page's last row is where the next cursor points.
 */
export function pageOf<R extends { readonly created_at: number; readonly seq: number }>(
  rows: readonly R[],
  limit: number,
  filter: FeedbackFilter,
  codec: CursorCodec,
  entryOf: (row: R) => FeedbackEntry,
): FeedbackPage {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    feedback: page.map(entryOf),
    nextCursor: hasMore && last !== undefined ? codec.encode({ createdAt: last.created_at, seq: last.seq }, filter) : null,
    hasMore,
  };
}
