import { expect, it } from "vitest";
import type { NewFeedback } from "../../../src/store/feedback/model.js";
import { type IngestContext, ingestFeedback } from "../../../src/engine/use-cases/ingest-feedback.js";
import {
  type ReviewContext,
  changeFeedbackStatus,
  exportFeedback,
  getFeedback,
  listFeedback,
  summarizeFeedback,
} from "../../../src/engine/use-cases/review-feedback.js";
import { ANONYMOUS } from "../../../src/vfs/access.js";
import { requestContext } from "../../../src/vfs/request-context.js";
import { entry, ms } from "../../feedback/harness.js";
import { type Backend, describeBackends } from "./state-backends.js";

/** The feedback API's use cases driven directly over real stores: no HTTP, no CLI. */
const NOW = ms("2024-05-02T12:00:00.000Z");
const request = requestContext(ANONYMOUS, "public", () => NOW);

describeBackends("feedback use cases", () => NOW, (backend: () => Backend, engine) => {
  const ingest = async (over: Partial<IngestContext> = {}): Promise<IngestContext> => ({ request, projectId: "docs", store: await backend().stores.feedback(), ...over });
  const review = async (): Promise<ReviewContext> => ({ request, projectId: "docs", store: await backend().stores.feedback() });

  it("ingests each widget's body as its source, dated by the context's clock, charging the caller its bytes", async () => {
    const charged: { entries: number; bytes: number }[] = [];
    const context = await ingest({ admit: async (cost) => void charged.push(cost) });
    const rating = await ingestFeedback(context, "rating", { path: "guides/setup.mdx", helpful: false });
    expect(rating).toEqual({
      ok: true,
      value: { id: expect.stringMatching(/^fb_/), path: "/guides/setup", comment: "not helpful", createdAt: "2024-05-02T12:00:00.000Z", source: "thumbs_only", status: "pending" },
    });
    const snippet = await ingestFeedback(context, "code-snippet", { path: "/api", comment: "typo", code: "  x = 1\n" });
    expect(snippet).toEqual({
      ok: true,
      value: {
        id: expect.stringMatching(/^fb_/),
        path: "/api",
        comment: "typo",
        code: "  x = 1\n",
        filename: null,
        lang: null,
        createdAt: "2024-05-02T12:00:00.000Z",
        source: "code_snippet",
        status: "pending",
      },
    });
    expect(charged).toEqual([
      { entries: 1, bytes: Buffer.byteLength(JSON.stringify({ source: "thumbs_only", path: "/guides/setup", helpful: false, comment: "not helpful" })) },
      { entries: 1, bytes: Buffer.byteLength(JSON.stringify({ source: "code_snippet", path: "/api", comment: "typo", code: "  x = 1\n", filename: null, lang: null })) },
    ]);
  });

  it("refuses a bad body (every field named, nothing charged) and a spent budget (nothing stored)", async () => {
    let charges = 0;
    const spent = await ingest({ admit: async () => ((charges += 1), { kind: "rate_limited", message: "Rate limit exceeded.", retryAfterSec: 7 }) });
    expect(await ingestFeedback(spent, "contextual", { path: "", helpful: "yes", extra: 1 })).toEqual({
      ok: false,
      issues: [
        { code: "invalid_parameter", param: "path", message: "path must not be empty" },
        { code: "invalid_parameter", param: "helpful", message: 'helpful must be a boolean (true or false); got "yes"' },
        { code: "missing_parameter", param: "comment", message: "comment is required" },
        { code: "unknown_parameter", param: "extra", message: 'unknown field "extra"; allowed: path, helpful, comment, contact' },
      ],
    });
    expect(charges).toBe(0);
    expect(await ingestFeedback(spent, "rating", { path: "/a", helpful: true })).toEqual({
      ok: false,
      refusal: { kind: "rate_limited", message: "Rate limit exceeded.", retryAfterSec: 7 },
    });
    expect(charges).toBe(1);
    expect(await listFeedback(await review(), [])).toEqual({ ok: true, value: { feedback: [], nextCursor: null, hasMore: false } });
  });

  it("lists a page with its filters, refuses bad parameters and a cursor from another query, summarizes, gets one", async () => {
    const store = await backend().stores.feedback();
    const a = await store.insert(entry({ source: "agent", path: "/a", comment: "old", createdAt: ms("2024-05-01T10:00:00Z") }));
    const b = await store.insert(entry({ source: "thumbs_only", path: "/b", helpful: false, comment: "not helpful", createdAt: ms("2024-05-01T11:00:00Z") } as Partial<NewFeedback> & { createdAt: number }));
    const c = await store.insert(entry({ source: "agent", path: "/c", comment: "new", createdAt: ms("2024-05-02T10:00:00Z") }));
    const first = await listFeedback(await review(), [["limit", "2"]]);
    if (!first.ok) throw new Error(JSON.stringify(first));
    expect(first.value).toEqual({ feedback: [c, b], nextCursor: expect.any(String), hasMore: true });
    expect(await listFeedback(await review(), [["limit", "2"], ["cursor", first.value.nextCursor!]])).toEqual({ ok: true, value: { feedback: [a], nextCursor: null, hasMore: false } });
    expect(await listFeedback(await review(), [["source", "agent"], ["cursor", first.value.nextCursor!]])).toEqual({
      ok: false,
      refusal: { kind: "invalid_cursor", message: "cursor belongs to a different query; repeat the dateFrom, dateTo, source and status of the request that returned it" },
    });
    expect(await listFeedback(await review(), [["limit", "0"], ["sort", "x"]])).toEqual({
      ok: false,
      issues: [
        { code: "unknown_parameter", param: "sort", message: 'unknown query parameter "sort"; known: dateFrom, dateTo, source, status, limit, cursor' },
        { code: "invalid_parameter", param: "limit", message: 'limit must be an integer from 1 to 100; got "0"' },
      ],
    });
    const summary = await summarizeFeedback(await review(), [["dateFrom", "2024-05-01"], ["limit", "1"]]);
    expect(summary).toEqual({
      ok: true,
      value: {
        total: 3,
        days: [
          { date: "2024-05-01", total: 2, bySource: { code_snippet: 0, contextual: 0, agent: 1, thumbs_only: 1 }, byStatus: { pending: 2, in_progress: 0, resolved: 0, dismissed: 0 } },
          { date: "2024-05-02", total: 1, bySource: { code_snippet: 0, contextual: 0, agent: 1, thumbs_only: 0 }, byStatus: { pending: 1, in_progress: 0, resolved: 0, dismissed: 0 } },
        ],
        negativePages: [{ path: "/b", count: 1 }],
      },
    });
    expect(await getFeedback(await review(), a.id)).toEqual({ ok: true, value: a });
    expect(await getFeedback({ ...(await review()), projectId: "other" }, a.id)).toEqual({
      ok: false,
      refusal: { kind: "not_found", message: `no feedback entry "${a.id}" in project "other"` },
    });
  });

  it("changes a status dated by the context's clock, and refuses what the review order forbids or an unknown entry", async () => {
    const store = await backend().stores.feedback();
    const a = await store.insert(entry({ createdAt: ms("2024-05-01T10:00:00Z") }));
    expect(await changeFeedbackStatus(await review(), a.id, "in_progress")).toEqual({ ok: true, value: { entry: { ...a, status: "in_progress" }, previous: "pending" } });
    expect(await changeFeedbackStatus(await review(), a.id, "in_progress")).toEqual({ ok: true, value: { entry: { ...a, status: "in_progress" }, previous: "in_progress" } });
    expect(await changeFeedbackStatus(await review(), a.id, "resolved")).toEqual({ ok: true, value: { entry: { ...a, status: "resolved" }, previous: "in_progress" } });
    expect(await changeFeedbackStatus(await review(), a.id, "dismissed")).toEqual({
      ok: false,
      refusal: { kind: "invalid_transition", message: "cannot change status from resolved to dismissed; from resolved it can change to pending or in_progress" },
    });
    expect(await changeFeedbackStatus(await review(), "fb_none", "resolved")).toEqual({ ok: false, refusal: { kind: "not_found", message: 'no feedback entry "fb_none" in project "docs"' } });
  });

  it("exports every matching entry across pages, newest first; without a store every read is empty and creates nothing", async () => {
    const store = await backend().stores.feedback();
    const base = ms("2024-05-01T00:00:00Z");
    await store.insertMany(Array.from({ length: 105 }, (_, i) => entry({ comment: `n${i}`, createdAt: base + i * 1000 })));
    const exported = exportFeedback(await review(), [["dateFrom", "2024-05-01T00:00:02Z"]]);
    if (!exported.ok) throw new Error(JSON.stringify(exported));
    const comments: string[] = [];
    for await (const e of exported.value) comments.push(e.comment);
    expect(comments).toEqual(Array.from({ length: 103 }, (_, i) => `n${104 - i}`));
    expect(exportFeedback(await review(), [["status", "open"]])).toEqual({
      ok: false,
      issues: [{ code: "invalid_parameter", param: "status", message: 'status "open" is not one of pending, in_progress, resolved, dismissed (comma-separated)' }],
    });
  });

  if (engine === "sqlite") {
    it("reads without a store answer empty", async () => {
      const none: ReviewContext = { request, projectId: "docs", store: undefined };
      expect(await listFeedback(none, [["cursor", "anything"]])).toEqual({ ok: true, value: { feedback: [], nextCursor: null, hasMore: false } });
      expect(await summarizeFeedback(none, [])).toEqual({ ok: true, value: { total: 0, days: [], negativePages: [] } });
      const exported = exportFeedback(none, []);
      const seen: unknown[] = [];
      if (exported.ok) for await (const e of exported.value) seen.push(e);
      expect({ ok: exported.ok, seen }).toEqual({ ok: true, seen: [] });
      expect(await getFeedback(none, "fb_x")).toEqual({ ok: false, refusal: { kind: "not_found", message: 'no feedback entry "fb_x" in project "docs"' } });
      expect(backend().created("feedback.db")).toBe(false);
    });
  }
});
