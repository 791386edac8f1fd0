import { statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { LazyFeedbackStore } from "../../src/store/feedback/lazy-store.js";
import { openFeedbackStore } from "../../src/store/feedback/sqlite-store.js";
import { entry, tempState } from "./harness.js";
import { describeFeedbackStore } from "./store-contract.js";

describeFeedbackStore("SQLite", async () => {
  const state = tempState();
  const store = openFeedbackStore(state.dir);
  return { store, cleanup: async () => (await store.close(), state.cleanup()) };
});

describeFeedbackStore("SQLite, opened lazily", async () => {
  const state = tempState();
  const store = new LazyFeedbackStore(async () => openFeedbackStore(state.dir));
  return { store, cleanup: async () => (await store.close(), state.cleanup()) };
});

describe("SQLite feedback store", () => {
  it("keeps entries and the cursor secret across reopening: old cursors stay valid", async () => {
    const state = tempState();
    const first = openFeedbackStore(state.dir);
    for (let i = 0; i < 5; i++) await first.insert(entry({ comment: `e${i}`, createdAt: i }));
    const page = await first.list({ projectId: "docs", limit: 2 });
    await first.close();
    const second = openFeedbackStore(state.dir);
    const next = await second.list({ projectId: "docs", limit: 10, cursor: page.nextCursor! });
    expect(next.feedback.map((e) => e.comment)).toEqual(["e2", "e1", "e0"]);
    await second.close();
    state.cleanup();
  });

  it("creates feedback.db with mode 0600, in WAL mode, synchronous FULL, at schema version 1", async () => {
    const state = tempState();
    const store = openFeedbackStore(state.dir);
    await store.insert(entry({ createdAt: 1 }));
    const file = join(state.dir, "feedback.db");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const db = new Database(file, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("user_version", { simple: true })).toBe(1);
    db.close();
    await store.close();
    state.cleanup();
  });

  it("serves every filter shape from one index range, in page order (no sort, no scan)", async () => {
    const state = tempState();
    const store = openFeedbackStore(state.dir);
    // Page through each shape once so its statement is prepared, then read the plans back.
    const shapes = [
      {},
      { source: "agent" as const },
      { statuses: ["pending" as const, "resolved" as const] },
      { source: "agent" as const, statuses: ["pending" as const] },
      { dateFrom: 0, dateTo: 100 },
      { source: "agent" as const, statuses: ["pending" as const], dateFrom: 0, dateTo: 100 },
    ];
    for (let i = 0; i < 3; i++) await store.insert(entry({ createdAt: i }));
    const db = new Database(join(state.dir, "feedback.db"), { readonly: true });
    const plans: string[] = [];
    for (const shape of shapes) {
      const first = await store.list({ projectId: "docs", limit: 1, ...shape });
      await store.list({ projectId: "docs", limit: 1, ...shape, cursor: first.nextCursor! });
    }
    for (const sql of (store as unknown as { listStatements: Map<string, { source: string }> }).listStatements.values()) {
      const params = sql.source.match(/@\w+/g) ?? [];
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql.source}`).all(Object.fromEntries(params.map((p) => [p.slice(1), 1]))) as { detail: string }[];
      plans.push(plan.map((p) => p.detail).join(" | "));
    }
    db.close();
    expect(plans).toEqual([
      "SEARCH feedback USING INDEX feedback_by_time (project_id=?)",
      "SEARCH feedback USING INDEX feedback_by_time (project_id=? AND (created_at,rowid)<(?,?))",
      "SEARCH feedback USING INDEX feedback_by_source (project_id=? AND source=?)",
      "SEARCH feedback USING INDEX feedback_by_source (project_id=? AND source=? AND (created_at,rowid)<(?,?))",
      "SEARCH feedback USING INDEX feedback_by_status (project_id=? AND status=?)",
      "SEARCH feedback USING INDEX feedback_by_status (project_id=? AND status=? AND (created_at,rowid)<(?,?))",
      "SEARCH feedback USING INDEX feedback_by_source_status (project_id=? AND source=? AND status=?)",
      "SEARCH feedback USING INDEX feedback_by_source_status (project_id=? AND source=? AND status=? AND (created_at,rowid)<(?,?))",
      "SEARCH feedback USING INDEX feedback_by_time (project_id=? AND created_at>? AND created_at<?)",
      "SEARCH feedback USING INDEX feedback_by_time (project_id=? AND created_at>? AND (created_at,rowid)<(?,?))",
      "SEARCH feedback USING INDEX feedback_by_source_status (project_id=? AND source=? AND status=? AND created_at>? AND created_at<?)",
      "SEARCH feedback USING INDEX feedback_by_source_status (project_id=? AND source=? AND status=? AND created_at>? AND (created_at,rowid)<(?,?))",
    ]);
    await store.close();
    state.cleanup();
  });
});
