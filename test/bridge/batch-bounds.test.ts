import { afterEach, describe, expect, it } from "vitest";
import type { BatchStep } from "../../src/bridge/mcp/batch-runner.js";
import { BATCH_PROTOCOL, type Harness, TestClock, credentialTokens, openSession, postJson, startBridge } from "./harness.js";

/**
 * A JSON-RPC batch of a 2025-03-26 session runs as the calls it holds (issue 25, adversary F1):
 * each message against the per-IP limit as a call of its own, none once the client has gone,
 * none once the answers before it reached the batch's byte budget; more than 100 messages are
 * refused whole. On both endpoints.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });
const note = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } };

/** A session on `url` at the batch revision: its headers. */
async function batchSession(url: string, auth: Record<string, string> = {}): Promise<Record<string, string>> {
  const id = await openSession(url, auth, BATCH_PROTOCOL);
  return { ...auth, "mcp-session-id": id, "mcp-protocol-version": BATCH_PROTOCOL };
}

describe("JSON-RPC batches of a 2025-03-26 session", () => {
  it("refuses a batch of 101 messages whole, exactly", async () => {
    h = await startBridge();
    const session = await batchSession(h.urls.mcp);
    const r = await postJson(h.urls.mcp, Array.from({ length: 101 }, (_, i) => ping(i)), session);
    expect([r.status, r.body]).toEqual([400, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: a batch must not exceed 100 messages" } }]);
    const full = await postJson(h.urls.mcp, Array.from({ length: 100 }, (_, i) => ping(i)), session);
    expect([full.status, full.body]).toEqual([200, Array.from({ length: 100 }, (_, i) => ({ jsonrpc: "2.0", id: i, result: {} }))]);
  });

  it("counts each message against the per-IP limit: the N+1th is refused as the N+1th call is, the ones before it run", async () => {
    const clock = new TestClock();
    h = await startBridge({ clock, rateLimits: ["ip=6"] });
    // initialize and notifications/initialized: two requests of the six.
    const session = await batchSession(h.urls.mcp);
    expect((await postJson(h.urls.mcp, ping(1), session)).status).toBe(200);
    // The POST is the fourth request, its second message the fifth; the notification the sixth; none is left for the last two.
    const r = await postJson(h.urls.mcp, [ping(2), ping(3), note, ping(4), ping(5)], session);
    const error = {
      code: -32029,
      message: "Rate limit exceeded: at most 6 requests per hour from one IP address. Retry after 1800 seconds.",
      data: { limit: 6, retryAfter: 1800, reset: "2030-01-15T11:00:00.000Z" },
    };
    expect([r.status, r.body]).toEqual([
      200,
      [
        { jsonrpc: "2.0", id: 2, result: {} },
        { jsonrpc: "2.0", id: 3, result: {} },
        { jsonrpc: "2.0", id: 4, error },
        { jsonrpc: "2.0", id: 5, error },
      ],
    ]);
    // The next call alone is refused the same way; so is a batch none of whose messages may run.
    const single = await postJson(h.urls.mcp, ping(6), session);
    expect([single.status, single.headers.get("retry-after"), single.body]).toEqual([429, "1800", { jsonrpc: "2.0", id: 6, error }]);
    const none = await postJson(h.urls.mcp, [ping(7), ping(8)], session);
    expect([none.status, none.headers.get("retry-after"), none.body]).toEqual([429, "1800", [7, 8].map((id) => ({ jsonrpc: "2.0", id, error }))]);
  });

  it("answers a batch of responses whose last ones are past the per-IP limit with the refusal, never an empty array", async () => {
    const clock = new TestClock();
    h = await startBridge({ clock, rateLimits: ["ip=6"] });
    const session = await batchSession(h.urls.mcp);
    expect((await postJson(h.urls.mcp, ping(1), session)).status).toBe(200);
    // The POST covers the first response (the fourth request of six), the next two take the last; the other two are refused.
    const answers = Array.from({ length: 5 }, (_, i) => ({ jsonrpc: "2.0", id: `r${i}`, result: {} }));
    const r = await postJson(h.urls.mcp, answers, session);
    const error = {
      code: -32029,
      message: "Rate limit exceeded: at most 6 requests per hour from one IP address. Retry after 1800 seconds.",
      data: { limit: 6, retryAfter: 1800, reset: "2030-01-15T11:00:00.000Z" },
    };
    // Before: 429 with the body `[]`, which JSON-RPC 2.0 forbids.
    expect([r.status, r.headers.get("retry-after"), r.body]).toEqual([429, "1800", { jsonrpc: "2.0", id: null, error }]);
  });

  it("runs no message once the answers before it reached the byte budget, on /mcp and /authed/mcp", async () => {
    h = await startBridge({ bridge: { holdLimits: { maxBatchAnswerBytes: 60 } } });
    const bearer = { Authorization: `Bearer ${(await credentialTokens(h)).access_token}` };
    const error = {
      code: -32000,
      message: "Not run: the answers to this batch's earlier messages reached 60 bytes, the most one batch is answered with; send this request again, alone or in a later batch",
      data: { reason: "batch_answer_too_large", limit: 60 },
    };
    for (const [url, auth] of [
      [h.urls.mcp, {}],
      [h.urls.authedMcp, bearer],
    ] as const) {
      const session = await batchSession(url, auth);
      // Two pings (36 bytes each) reach 60: the tools/list and the last ping are not run; the notification after them gets nothing.
      const r = await postJson(url, [ping(1), ping(2), list(3), note, ping(4)], session);
      expect([r.status, r.body]).toEqual([
        200,
        [{ jsonrpc: "2.0", id: 1, result: {} }, { jsonrpc: "2.0", id: 2, result: {} }, { jsonrpc: "2.0", id: 3, error }, { jsonrpc: "2.0", id: 4, error }],
      ]);
      // A first message always runs, whatever its size: a batch is never worse than its first call.
      const one = await postJson(url, [list(5), ping(6)], session);
      const answers = one.body as { id: number; result?: { tools: unknown[] }; error?: unknown }[];
      expect([one.status, answers.map((a) => [a.id, a.result?.tools.length ?? a.error])]).toEqual([
        200,
        [
          [5, 2],
          [6, error],
        ],
      ]);
    }
  });

  it("starts no message after its client has gone", async () => {
    const steps: BatchStep[] = [];
    const leaving = new AbortController();
    h = await startBridge({
      bridge: {
        observeBatch: (step) => {
          steps.push(step);
          // The client hangs up as its second message is answered.
          if (step.index === 1) leaving.abort();
        },
      },
    });
    const session = await batchSession(h.urls.mcp);
    const request = new Request(h.urls.mcp, {
      method: "POST",
      // In process, as the HTTP server hands a request to the bridge (its Host, its client's address).
      headers: { Host: new URL(h.urls.mcp).host, "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...session },
      body: JSON.stringify([ping(1), ping(2), list(3), ping(4), ping(5)]),
      signal: leaving.signal,
    });
    const answer = await h.bridge.fetch(request, { incoming: { socket: { remoteAddress: "127.0.0.1" } } });
    expect([answer.status, await answer.text(), steps]).toEqual([
      499,
      "",
      [
        { index: 0, of: 5 },
        { index: 1, of: 5 },
      ],
    ]);
    // The session serves on: a batch not left runs whole.
    const r = await postJson(h.urls.mcp, [ping(6), ping(7)], session);
    expect([r.status, steps.length]).toEqual([200, 4]);
  });
});
