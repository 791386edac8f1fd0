import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FeedbackEntry, FeedbackSource, NewFeedback } from "../../src/store/feedback/model.js";
import { type FeedbackServer, entry, ms, postJson, startFeedbackServer } from "./harness.js";

const T0 = ms("2024-01-01T00:00:00Z");
const SEEDED = 1_200;
const SOURCES: FeedbackSource[] = ["agent", "thumbs_only", "contextual", "code_snippet"];

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let srv: FeedbackServer;
const random = prng(42);
const seededIds = new Set<string>();

beforeAll(async () => {
  // New entries get createdAt anywhere in the seeded range (and some later): the worst case for
  // a pager, with inserts landing both in the part already read and the part still ahead.
  srv = await startFeedbackServer({ clock: () => T0 + Math.floor(random() * (SEEDED + 200) * 1000) });
  // Entries three to a millisecond: ties must be broken the same way on every page.
  const rows: NewFeedback[] = Array.from({ length: SEEDED }, (_, i) => {
    const source = SOURCES[i % 4]!;
    const details = source === "code_snippet" ? { code: "x", filename: null, lang: null } : source === "agent" ? {} : { helpful: i % 3 === 0 };
    return entry({ source, ...details, comment: `seed ${i}`, createdAt: T0 + Math.floor(i / 3) * 1000 } as NewFeedback);
  });
  // Stored through the one-entry path (concurrently, so group-committed) to get their ids.
  const created = await Promise.all(rows.map((r) => srv.store.insert(r)));
  for (const e of created) seededIds.add(e.id);
});
afterAll(async () => {
  await srv.close();
});

/**
 * Post ratings and contextual feedback over HTTP until `stop()` is called; count them.
 * `more(n)` resolves once n more have been stored: the walk waits on it between pages, so the
 * entries arrive during the walk by construction, however fast either side runs.
 */
function writer(): { stop: () => Promise<number>; more: (n: number) => Promise<void> } {
  let running = true;
  let count = 0;
  let waiting: { at: number; resolve: () => void } | undefined;
  const lanes = Array.from({ length: 3 }, async (_, lane) => {
    while (running) {
      const res =
        lane === 0
          ? await postJson(`${srv.url}/v1/feedback/docs/contextual`, { path: "/concurrent", helpful: false, comment: `new ${count}` })
          : await postJson(`${srv.url}/v1/feedback/docs/rating`, { path: "/concurrent", helpful: true });
      expect(res.status).toBe(201);
      count++;
      if (waiting !== undefined && count >= waiting.at) {
        waiting.resolve();
        waiting = undefined;
      }
    }
  });
  return {
    more: (n) => new Promise<void>((resolve) => (waiting = { at: count + n, resolve })),
    stop: async () => {
      running = false;
      await Promise.all(lanes);
      return count;
    },
  };
}

/** Every page of a query, following nextCursor. */
async function walk(query: string, w: ReturnType<typeof writer>): Promise<FeedbackEntry[]> {
  const seen: FeedbackEntry[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const url = `/v1/analytics/docs/feedback?${query}${cursor === null ? "" : `&cursor=${cursor}`}`;
    const res = await srv.api(url);
    const body = (await res.json()) as { feedback: FeedbackEntry[]; nextCursor: string | null; hasMore: boolean };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.nextCursor === null).toBe(!body.hasMore);
    seen.push(...body.feedback);
    cursor = body.nextCursor;
    pages++;
    // Entries arrive between pages (an event, not a pause).
    await w.more(2);
  } while (cursor !== null);
  expect(pages).toBeGreaterThan(10);
  return seen;
}

function expectNewestFirst(entries: readonly FeedbackEntry[]): void {
  for (let i = 1; i < entries.length; i++) {
    if (entries[i]!.createdAt > entries[i - 1]!.createdAt) throw new Error(`out of order at ${i}: ${entries[i - 1]!.createdAt} then ${entries[i]!.createdAt}`);
  }
}

function countIds(entries: readonly FeedbackEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.id, (counts.get(e.id) ?? 0) + 1);
  return counts;
}

describe("keyset pagination while entries arrive", () => {
  it("sees each of 1,200 entries exactly once, and nothing twice", async () => {
    const w = writer();
    const seen = await walk("limit=25", w);
    const inserted = await w.stop();

    const counts = countIds(seen);
    expect([...counts.values()].filter((n) => n > 1)).toEqual([]);
    expect([...seededIds].filter((id) => counts.get(id) !== 1)).toEqual([]);
    expectNewestFirst(seen);
    // The concurrency was real: entries were inserted during the walk, and some landed ahead.
    expect(inserted).toBeGreaterThan(50);
    const newSeen = seen.filter((e) => !seededIds.has(e.id)).length;
    expect(newSeen).toBeGreaterThan(0);
    expect(newSeen).toBeLessThan(inserted + 1);
  });

  it("does the same with filters, across sources, statuses and a date range", async () => {
    // Resolve a share of the seeded ratings first, so the status filter selects a subset.
    const ratings = (await srv.store.list({ projectId: "docs", source: "thumbs_only", limit: 100 })).feedback;
    for (const r of ratings.slice(0, 40)) await srv.store.setStatus("docs", r.id, "resolved", Date.now());
    const dateFrom = new Date(T0 + 50_000).toISOString();
    const dateTo = new Date(T0 + 350_000).toISOString();
    const expected = new Set(
      (await srv.store.list({ projectId: "docs", source: "thumbs_only", statuses: ["pending"], dateFrom: T0 + 50_000, dateTo: T0 + 350_000, limit: 100 }))
        .feedback.map((e) => e.id)
        .filter((id) => seededIds.has(id)),
    );
    expect(expected.size).toBeGreaterThan(50);

    const w = writer();
    const seen = await walk(`limit=4&source=thumbs_only&status=pending&dateFrom=${dateFrom}&dateTo=${dateTo}`, w);
    await w.stop();
    const counts = countIds(seen);
    expect([...counts.values()].filter((n) => n > 1)).toEqual([]);
    expect([...expected].filter((id) => counts.get(id) !== 1)).toEqual([]);
    expect(seen.every((e) => e.source === "thumbs_only" && e.status === "pending" && e.createdAt >= dateFrom && e.createdAt < dateTo)).toBe(true);
    expectNewestFirst(seen);
  });
});
