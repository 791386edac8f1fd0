import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidCursorError } from "../../src/store/feedback/cursor.js";
import type { NewFeedback } from "../../src/store/feedback/model.js";
import { FeedbackNotFoundError, type FeedbackStore, InvalidTransitionError } from "../../src/store/feedback/store.js";
import { entry, ms } from "./harness.js";

/**
 * The behaviour every FeedbackStore implementation owes its callers (see store.ts). Run against
 * each implementation; a PostgreSQL store adds one line calling this.
 */
export function describeFeedbackStore(name: string, open: () => Promise<{ store: FeedbackStore; cleanup: () => Promise<void> }>): void {
  describe(`FeedbackStore contract: ${name}`, () => {
    let store: FeedbackStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await open());
    });
    afterEach(async () => {
      await cleanup();
    });

    it("insert returns the entry as the API shows it, and get finds it in its project only", async () => {
      const created = await store.insert(
        entry({ source: "contextual", helpful: true, contact: "a@b.co", path: "/x", comment: "ok", createdAt: ms("2024-05-01T00:00:00.5Z") } as NewFeedback),
      );
      expect(created).toEqual({
        id: expect.stringMatching(/^fb_[a-z2-7]{20}$/),
        path: "/x",
        comment: "ok",
        createdAt: "2024-05-01T00:00:00.500Z",
        source: "contextual",
        status: "pending",
        helpful: true,
        contact: "a@b.co",
      });
      expect(await store.get("docs", created.id)).toEqual(created);
      expect(await store.get("other", created.id)).toBeUndefined();
      expect(await store.get("docs", "fb_missing")).toBeUndefined();
    });

    it("text is read back exactly as insert answered it: pairs beyond the BMP, U+FFFD, NUL-free controls (adversary round 58, F11)", async () => {
      const created = await store.insert(entry({ source: "code_snippet", comment: "x\u{1f600}y \ufffd \u202e", code: "\t\u{10ffff}\r\n", filename: "\u00e9.sh", lang: null, createdAt: 1 } as NewFeedback));
      expect([created.comment, (created as { code?: string }).code]).toEqual(["x\u{1f600}y \ufffd \u202e", "\t\u{10ffff}\r\n"]);
      expect(await store.get("docs", created.id)).toEqual(created);
      expect((await store.list({ projectId: "docs", limit: 1 })).feedback).toEqual([created]);
    });

    it("concurrent inserts are all stored, each with its own id", async () => {
      const created = await Promise.all(Array.from({ length: 2_500 }, (_, i) => store.insert(entry({ comment: `c${i}`, createdAt: 1_000 + i }))));
      expect(new Set(created.map((e) => e.id)).size).toBe(2_500);
      const page = await store.list({ projectId: "docs", limit: 100 });
      expect(page.feedback[0]?.comment).toBe("c2499");
      expect(page.hasMore).toBe(true);
    });

    it("insertMany stores every entry in one call", async () => {
      expect(await store.insertMany(Array.from({ length: 10 }, (_, i) => entry({ comment: `m${i}`, createdAt: i })))).toBe(10);
      const page = await store.list({ projectId: "docs", limit: 100 });
      expect(page.feedback.map((e) => e.comment)).toEqual(["m9", "m8", "m7", "m6", "m5", "m4", "m3", "m2", "m1", "m0"]);
    });

    it("orders by createdAt, newest first, ties by insertion (later first)", async () => {
      await store.insert(entry({ comment: "old", createdAt: 5 }));
      await store.insert(entry({ comment: "tie-first", createdAt: 10 }));
      await store.insert(entry({ comment: "tie-second", createdAt: 10 }));
      await store.insert(entry({ comment: "older-but-later", createdAt: 1 }));
      const page = await store.list({ projectId: "docs", limit: 10 });
      expect(page.feedback.map((e) => e.comment)).toEqual(["tie-second", "tie-first", "old", "older-but-later"]);
    });

    it("setStatus changes status, keeps a same-status call a no-op, and throws typed errors", async () => {
      const e = await store.insert(entry({ createdAt: 1 }));
      expect(await store.setStatus("docs", e.id, "resolved", 2)).toEqual({ entry: { ...e, status: "resolved" }, previous: "pending" });
      expect(await store.setStatus("docs", e.id, "resolved", 3)).toEqual({ entry: { ...e, status: "resolved" }, previous: "resolved" });
      await expect(store.setStatus("docs", e.id, "dismissed", 4)).rejects.toBeInstanceOf(InvalidTransitionError);
      await expect(store.setStatus("other", e.id, "pending", 4)).rejects.toBeInstanceOf(FeedbackNotFoundError);
      expect((await store.get("docs", e.id))?.status).toBe("resolved");
    });

    it("summary counts the filtered entries by day, source and status, and ranks the most downvoted pages", async () => {
      const day1 = ms("2024-05-01T10:00:00Z");
      const day2 = ms("2024-05-02T23:59:59Z");
      await store.insert(entry({ source: "thumbs_only", helpful: false, path: "/b", comment: "", createdAt: day1 } as NewFeedback));
      await store.insert(entry({ source: "thumbs_only", helpful: false, path: "/a", comment: "", createdAt: day1 + 1 } as NewFeedback));
      await store.insert(entry({ source: "contextual", helpful: false, path: "/b", comment: "no", createdAt: day2 } as NewFeedback));
      await store.insert(entry({ source: "contextual", helpful: true, path: "/c", comment: "yes", createdAt: day2 } as NewFeedback));
      const resolved = await store.insert(entry({ createdAt: day2 }));
      await store.setStatus("docs", resolved.id, "resolved", day2);
      await store.insert(entry({ projectId: "other", createdAt: day2 }));
      const zero = { code_snippet: 0, contextual: 0, agent: 0, thumbs_only: 0 };
      const none = { pending: 0, in_progress: 0, resolved: 0, dismissed: 0 };
      expect(await store.summary({ projectId: "docs" })).toEqual({
        total: 5,
        days: [
          { date: "2024-05-01", total: 2, bySource: { ...zero, thumbs_only: 2 }, byStatus: { ...none, pending: 2 } },
          { date: "2024-05-02", total: 3, bySource: { ...zero, contextual: 2, agent: 1 }, byStatus: { ...none, pending: 2, resolved: 1 } },
        ],
        negativePages: [
          { path: "/b", count: 2 },
          { path: "/a", count: 1 },
        ],
      });
      expect(await store.summary({ projectId: "docs", source: "contextual", statuses: ["pending"], dateFrom: ms("2024-05-02T00:00:00Z") })).toEqual({
        total: 2,
        days: [{ date: "2024-05-02", total: 2, bySource: { ...zero, contextual: 2 }, byStatus: { ...none, pending: 2 } }],
        negativePages: [{ path: "/b", count: 1 }],
      });
    });

    it("list rejects a cursor it did not issue for the query", async () => {
      for (let i = 0; i < 3; i++) await store.insert(entry({ createdAt: i }));
      const page = await store.list({ projectId: "docs", limit: 1 });
      expect(page.nextCursor).not.toBeNull();
      await expect(store.list({ projectId: "docs", limit: 1, cursor: "nope" })).rejects.toBeInstanceOf(InvalidCursorError);
      await expect(store.list({ projectId: "docs", source: "agent", limit: 1, cursor: page.nextCursor! })).rejects.toBeInstanceOf(InvalidCursorError);
      const next = await store.list({ projectId: "docs", limit: 5, cursor: page.nextCursor! });
      expect(next.feedback).toHaveLength(2);
    });
  });
}
