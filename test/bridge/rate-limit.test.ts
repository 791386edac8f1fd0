import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS, FixedWindowLimiter, LIMITED_TOOL_KEYS, parseRateLimits } from "../../src/bridge/middleware/rate-limit.js";
import { apiRequestTool } from "../../src/mcp/api-request-tool.js";
import { createFeedbackTool } from "../../src/mcp/feedback-tool.js";
import { CORE_TOOLS } from "../../src/mcp/tools.js";
import { VERSION } from "../../src/version.js";
import { BATCH_PROTOCOL, FS, type Harness, PROTOCOL, SEARCH, TestClock, credentialTokens, openSession, postJson, startBridge } from "./harness.js";

/** The spec's hourly limits, at their exact boundaries, with an injected clock. */

const HOUR = 3_600_000;

describe("the limits table", () => {
  it("defaults to the spec's figures per hour, and the per-IP budgets of feedback and the relay", () => {
    expect(DEFAULT_RATE_LIMITS).toEqual({
      perIp: 5000,
      tools: { search: { public: 10000, authed: 5000 }, filesystem: { public: 10000, authed: 5000 } },
      clients: { feedback: 100, "feedback-bytes": 1048576, relay: 300 },
      windowMs: HOUR,
    });
  });

  it("is configurable with KEY=N|off, and says what is wrong with a bad flag", () => {
    expect(parseRateLimits(["ip=100", "search=off", "authed-filesystem=7", "submit_feedback=20", "feedback=5", "feedback-bytes=off", "relay=9"])).toEqual({
      perIp: 100,
      tools: {
        search: { public: Number.POSITIVE_INFINITY, authed: 5000 },
        filesystem: { public: 10000, authed: 7 },
        submit_feedback: { public: 20, authed: Number.POSITIVE_INFINITY },
      },
      clients: { feedback: 5, "feedback-bytes": Number.POSITIVE_INFINITY, relay: 9 },
      windowMs: HOUR,
    });
    expect(parseRateLimits(["search"])).toBe('--rate-limit "search": expected KEY=N or KEY=off (e.g. search=20000, authed-search=off, ip=5000)');
    expect(parseRateLimits(["ip=0"])).toBe("--rate-limit ip=0: the limit must be at least 1 (use off for no limit)");
    expect(parseRateLimits(["serch=100"])).toBe(
      '--rate-limit serch=100: unknown key "serch"; the keys are ip, search, filesystem, submit_feedback, api_request, authed-search, authed-filesystem, authed-submit_feedback, authed-api_request, feedback, feedback-bytes, relay',
    );
    expect(parseRateLimits([" search=1"])).toBe('--rate-limit " search=1": expected KEY=N or KEY=off (e.g. search=20000, authed-search=off, ip=5000)');
  });

  it("knows a key for every tool the bridge serves, and for nothing else", () => {
    expect([...LIMITED_TOOL_KEYS].sort()).toEqual([...CORE_TOOLS, createFeedbackTool({ store: undefined as never, projectId: "p" }), apiRequestTool].map((t) => t.key).sort());
  });
});

describe("fixed windows on the clock hour", () => {
  const clock = new TestClock();
  const start = Date.UTC(2030, 0, 1, 12, 0, 0);

  it.each([
    ["per IP", DEFAULT_RATE_LIMITS.perIp],
    ["search on /mcp", DEFAULT_RATE_LIMITS.tools.search?.public ?? 0],
    ["search on /authed/mcp", DEFAULT_RATE_LIMITS.tools.search?.authed ?? 0],
  ])("%s: exactly the limit is allowed in an hour, one more is refused until the next hour", async (_name, limit) => {
    clock.t = start + 15 * 60 * 1000;
    const limiter = new FixedWindowLimiter(HOUR, clock.now);
    const charge = { key: "k", limit, what: "requests" };
    for (let i = 0; i < limit; i++) expect((await limiter.take([charge])).ok).toBe(true);
    expect(await limiter.take([charge])).toEqual({ ok: false, charge, retryAfterSec: 45 * 60, resetAt: start + HOUR });
    clock.t = start + HOUR - 1;
    expect(await limiter.take([charge])).toEqual({ ok: false, charge, retryAfterSec: 1, resetAt: start + HOUR });
    clock.t = start + HOUR;
    expect((await limiter.take([charge])).ok).toBe(true);
  });

  it("charges all counters or none", async () => {
    clock.t = start;
    const limiter = new FixedWindowLimiter(HOUR, clock.now);
    const a = { key: "a", limit: 1, what: "a" };
    const b = { key: "b", limit: 5, what: "b" };
    expect((await limiter.take([a, b])).ok).toBe(true);
    expect((await limiter.take([a, b])).ok).toBe(false);
    // b was not charged by the refused request: 4 left.
    for (let i = 0; i < 4; i++) expect((await limiter.take([b])).ok).toBe(true);
    expect((await limiter.take([b])).ok).toBe(false);
    // One request charging a counter twice (a batch) needs two units.
    const c = { key: "c", limit: 1, what: "c" };
    expect((await limiter.take([c, c])).ok).toBe(false);
    expect((await limiter.take([c])).ok).toBe(true);
  });
});

describe("over HTTP", () => {
  const clock = new TestClock();
  let h: Harness;
  let credential = "";
  beforeAll(async () => {
    h = await startBridge({ clock, rateLimits: ["ip=off", "search=3", "filesystem=5", "authed-search=2"] });
    credential = (await credentialTokens(h)).access_token;
  });
  afterAll(() => h.close());
  beforeEach(() => {
    // Each test starts 20 minutes into a fresh hour.
    clock.t = (Math.floor(clock.t / HOUR) + 1) * HOUR + 20 * 60 * 1000;
  });

  const search = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: SEARCH, arguments: { query: "bucket" } } });

  it("answers the call past the limit with 429, Retry-After and a JSON-RPC error carrying its id", async () => {
    const session = await openSession(h.urls.mcp);
    const headers = { "mcp-session-id": session, "mcp-protocol-version": PROTOCOL };
    for (let i = 1; i <= 3; i++) expect((await postJson(h.urls.mcp, search(i), headers)).status).toBe(200);
    const over = await postJson(h.urls.mcp, search(4), headers);
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBe("2400");
    expect(over.body).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: {
        code: -32029,
        message: "Rate limit exceeded: at most 3 search calls per hour on this documentation site. Retry after 2400 seconds.",
        data: { limit: 3, retryAfter: 2400, reset: new Date(Math.ceil(clock.t / HOUR) * HOUR).toISOString() },
      },
    });
    // Other tools, other methods and the authenticated endpoint have their own counters.
    const fs = { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: FS, arguments: { command: "ls /" } } };
    expect((await postJson(h.urls.mcp, fs, headers)).status).toBe(200);
    expect((await postJson(h.urls.mcp, { jsonrpc: "2.0", id: 6, method: "tools/list" }, headers)).status).toBe(200);
    credential = (await credentialTokens(h)).access_token;
    const authed = await openSession(h.urls.authedMcp, { Authorization: `Bearer ${credential}` });
    const authedHeaders = { "mcp-session-id": authed, "mcp-protocol-version": PROTOCOL, Authorization: `Bearer ${credential}` };
    expect((await postJson(h.urls.authedMcp, search(7), authedHeaders)).status).toBe(200);
    // The next hour starts fresh.
    clock.t = Math.ceil(clock.t / HOUR) * HOUR;
    expect((await postJson(h.urls.mcp, search(8), headers)).status).toBe(200);
  });

  it("counts 2026-07-28 calls (no session) against the same hourly limit", async () => {
    const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const headers = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": SEARCH };
    const call = (id: number) => ({ ...search(id), params: { ...search(id).params, _meta } });
    for (let i = 1; i <= 3; i++) expect((await postJson(h.urls.mcp, call(i), headers)).status).toBe(200);
    const over = await postJson(h.urls.mcp, call(4), headers);
    expect([over.status, over.headers.get("retry-after"), (over.body as { id: number; error: { code: number } }).error.code]).toEqual([429, "2400", -32029]);
  });

  it("gives back what a request refused whole (400) was charged, and charges no call its schema refuses: only calls that ran count", async () => {
    const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const headers = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": SEARCH };
    const call = (id: number) => ({ ...search(id), params: { ...search(id).params, _meta } });
    const refused = [
      // A batch, which 2026-07-28 does not take; a name header that disagrees with the body; a method header missing.
      await postJson(h.urls.mcp, [call(1), call(2)], headers),
      await postJson(h.urls.mcp, call(3), { ...headers, "Mcp-Name": FS }),
      await postJson(h.urls.mcp, call(4), { "MCP-Protocol-Version": "2026-07-28", "Mcp-Name": SEARCH }),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400]);
    // Calls no path runs, answered with an error in a 200: a task (this server runs none) and
    // arguments that are not an object.
    const task = await postJson(h.urls.mcp, { ...call(5), params: { ...call(5).params, task: { ttl: 1000 } } }, headers);
    const array = await postJson(h.urls.mcp, { ...call(6), params: { ...call(6).params, arguments: ["bucket"] } }, headers);
    expect([task.status, task.body, array.status, array.body]).toEqual([
      200,
      { jsonrpc: "2.0", id: 5, error: { code: -32602, message: "Invalid params for tools/call: task: this server does not run requests as tasks" } },
      200,
      { jsonrpc: "2.0", id: 6, error: { code: -32602, message: `Invalid arguments for ${SEARCH}: arguments: must be an object (got an array)` } },
    ]);
    // Arguments the tool's schema refuses: a tool error naming the argument, and nothing ran.
    const typo = await postJson(h.urls.mcp, { ...call(11), params: { ...call(11).params, arguments: { query: "bucket", pageSize: 0 } } }, headers);
    expect([typo.status, typo.body]).toEqual([
      200,
      { jsonrpc: "2.0", id: 11, result: {
          _meta: { "io.modelcontextprotocol/serverInfo": { name: "svc-mcp", title: "Nimbus Storage docs", version: VERSION } },
          content: [{ type: "text", text: `Invalid arguments for ${SEARCH}: pageSize: must be an integer from 1 to 50 (got 0)` }],
          isError: true,
          resultType: "complete",
        },
      },
    ]);
    // The whole hourly limit (3) is still there.
    for (let i = 7; i <= 9; i++) expect((await postJson(h.urls.mcp, call(i), headers)).status).toBe(200);
    expect((await postJson(h.urls.mcp, call(10), headers)).status).toBe(429);
  });

  it("counts a batch's messages as separate calls: the N+1th is refused as the N+1th call is, the ones before it run", async () => {
    const session = await openSession(h.urls.mcp, {}, BATCH_PROTOCOL);
    const headers = { "mcp-session-id": session, "mcp-protocol-version": BATCH_PROTOCOL };
    const batch = [search(1), { jsonrpc: "2.0", method: "notifications/progress", params: {} }, search(2), { jsonrpc: "2.0", id: "list", method: "tools/list" }, search(3), search(4)];
    const r = await postJson(h.urls.mcp, batch, headers);
    const error = {
      code: -32029,
      message: "Rate limit exceeded: at most 3 search calls per hour on this documentation site. Retry after 2400 seconds.",
      data: { limit: 3, retryAfter: 2400, reset: new Date(Math.ceil(clock.t / HOUR) * HOUR).toISOString() },
    };
    // The notification gets no answer (JSON-RPC 2.0 section 6); the three searches the limit
    // allows and the list ran, in order; the fourth search is refused as a fourth call would be.
    const answers = r.body as { id: unknown; result?: { isError?: boolean }; error?: unknown }[];
    expect([r.status, answers.map((a) => [a.id, a.error === undefined ? "result" : "error"])]).toEqual([
      200,
      [
        [1, "result"],
        [2, "result"],
        ["list", "result"],
        [3, "result"],
        [4, "error"],
      ],
    ]);
    expect(answers[4]).toEqual({ jsonrpc: "2.0", id: 4, error });
    // A batch none of whose messages may run is refused whole: 429, one error per request.
    const refused = await postJson(h.urls.mcp, [search(5), search(6)], headers);
    expect([refused.status, refused.headers.get("retry-after"), refused.body]).toEqual([429, "2400", [5, 6].map((id) => ({ jsonrpc: "2.0", id, error }))]);
  });

  it("counts correctly under concurrency: exactly the limit succeeds", async () => {
    credential = (await credentialTokens(h)).access_token;
    const sessions = await Promise.all(Array.from({ length: 4 }, () => openSession(h.urls.authedMcp, { Authorization: `Bearer ${credential}` })));
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        postJson(h.urls.authedMcp, search(i + 1), {
          "mcp-session-id": sessions[i % 4] as string,
          "mcp-protocol-version": PROTOCOL,
          Authorization: `Bearer ${credential}`,
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(38);
  });
});

describe("per IP", () => {
  const clock = new TestClock();
  let h: Harness;
  beforeAll(async () => {
    clock.t = Date.UTC(2030, 5, 1, 9, 59, 0);
    h = await startBridge({ clock, rateLimits: ["ip=3"] });
  });
  afterAll(() => h.close());

  it("limits every request from one address, discovery and OAuth included", async () => {
    expect((await fetch(h.urls.wellKnownMcp)).status).toBe(200);
    expect((await fetch(h.urls.protectedResourceMetadata)).status).toBe(200);
    expect((await postJson(h.urls.register, {})).status).toBe(400);
    const over = await fetch(h.urls.authorizationServerMetadata);
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBe("60");
    expect(await over.json()).toEqual({
      error: { code: "rate_limited", message: "Rate limit exceeded: at most 3 requests per hour from one IP address. Retry after 60 seconds." },
    });
    const token = await fetch(h.urls.token, { method: "POST" });
    expect(token.status).toBe(429);
    expect(((await token.json()) as { error: string }).error).toBe("rate_limited");
    const mcp = await postJson(h.urls.mcp, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    expect(mcp.status).toBe(429);
    expect((mcp.body as { error: { code: number } }).error.code).toBe(-32029);
    clock.advance(60_000);
    expect((await fetch(h.urls.wellKnownMcp)).status).toBe(200);
  });

  it("answers a refused MCP request with its id, and a refused batch with one error per request", async () => {
    // The start of the next hour (the test above ends at the hour).
    clock.advance(60 * 60_000);
    for (let i = 0; i < 3; i++) expect((await fetch(h.urls.wellKnownMcp)).status).toBe(200);
    const error = {
      code: -32029,
      message: "Rate limit exceeded: at most 3 requests per hour from one IP address. Retry after 3600 seconds.",
      data: { limit: 3, retryAfter: 3600, reset: new Date((Math.floor(clock.t / HOUR) + 1) * HOUR).toISOString() },
    };
    const one = await postJson(h.urls.mcp, { jsonrpc: "2.0", id: 7, method: "ping" });
    expect([one.status, one.headers.get("retry-after"), one.body]).toEqual([429, "3600", { jsonrpc: "2.0", id: 7, error }]);
    const batch = await postJson(h.urls.mcp, [{ jsonrpc: "2.0", id: 8, method: "ping" }, { jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: "nine", method: "tools/list" }]);
    expect([batch.status, batch.body]).toEqual([429, [{ jsonrpc: "2.0", id: 8, error }, { jsonrpc: "2.0", id: "nine", error }]]);
    // Not JSON: one error with no id, as for any unreadable body.
    expect((await postJson(h.urls.mcp, "{nope")).body).toEqual({ jsonrpc: "2.0", id: null, error });
  });
});
