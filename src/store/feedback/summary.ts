import { type FeedbackSource, type FeedbackStatus, SOURCES, STATUSES } from "./model.js";
import type { FeedbackDay, FeedbackSummary } from "./store.js";

/** Counts grouped by day (days since the epoch), source and status, as both stores query them. */
export interface SummaryGroup {
  day: number;
  source: FeedbackSource;
  status: FeedbackStatus;
  n: number;
}

/** The summary from the grouped counts (in day order) and the most-downvoted pages. */
export function summaryOf(groups: readonly SummaryGroup[], negative: readonly { path: string; count: number }[]): FeedbackSummary {
    const days = new Map<number, { total: number; bySource: Record<FeedbackSource, number>; byStatus: Record<FeedbackStatus, number> }>();
    let total = 0;
    for (const g of groups) {
      let d = days.get(g.day);
      if (d === undefined) {
        d = { total: 0, bySource: zeroes(SOURCES), byStatus: zeroes(STATUSES) };
        days.set(g.day, d);
      }
      d.total += g.n;
      d.bySource[g.source] += g.n;
      d.byStatus[g.status] += g.n;
      total += g.n;
    }
    const dayList: FeedbackDay[] = [...days].map(([day, d]) => ({ date: new Date(day * 86_400_000).toISOString().slice(0, 10), ...d }));
    return { total, days: dayList, negativePages: negative.map((r) => ({ path: r.path, count: r.count })) };
}

function zeroes<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
}
