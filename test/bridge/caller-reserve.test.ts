import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { callerReserve, siteToolCharge, takeWithReserves } from "../../src/bridge/middleware/caller-reserve.js";
import { FixedWindowLimiter, parseRateLimits, type RateLimits } from "../../src/bridge/middleware/rate-limit.js";
import { localSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { createWebApp } from "../../src/bridge/web/web-app.js";
import { FS, type Harness, SEARCH, TestClock, credentialTokens, postJson, startBridge } from "./harness.js";

/**
 * A per-site tool limit is the site's, with a reserve per caller behind it: whoever spends the
 * site's hourly budget, every other caller keeps its reserve (adversary round 41, F1: three
 * addresses spent the 10,000 filesystem calls of an hour in 34 s and everyone else got 429).
 */

const HOUR = 3_600_000;

describe("the reserve of a caller", () => {
  it("is a fiftieth of the site's limit, none under 50 or for no limit", () => {
    expect([10_000, 5_000, 100, 99, 49, 1, Number.POSITIVE_INFINITY].map(callerReserve)).toEqual([200, 100, 2, 1, 0, 0, 0]);
    expect(siteToolCharge("tool:public:search", 3, "search calls", "address:203.0.113.1")).toEqual({ key: "tool:public:search", limit: 3, what: "search calls per hour on this documentation site" });
    expect(siteToolCharge("tool:public:search", 100, "search calls", "address:203.0.113.1")).toEqual({
      key: "tool:public:search",
      limit: 100,
      what: "search calls per hour on this documentation site",
      fallback: { key: "tool:public:search:address:203.0.113.1", limit: 2, what: "search calls per hour from one caller once this documentation site's 100 are spent" },
    });
  });

  it("is charged only once the site's counter refuses, all or none with the rest of the request", async () => {
    const limiter = new FixedWindowLimiter(HOUR, () => 0);
    const a = siteToolCharge("tool:public:fs", 100, "fs calls", "a");
    const b = siteToolCharge("tool:public:fs", 100, "fs calls", "b");
    const ip = { key: "ip:b", limit: 100, what: "requests" };
    for (let i = 0; i < 99; i++) expect((await takeWithReserves(limiter, [a])).taken).toEqual([a]);
    // A batch of two calls with one unit left of the site's: both from b's reserve of 2.
    expect(await takeWithReserves(limiter, [ip, b, b])).toEqual({ decision: { ok: true }, taken: [ip, b.fallback, b.fallback] });
    expect((await takeWithReserves(limiter, [b])).taken).toEqual([b]);
    // The site's 100 are spent; a's reserve of 2 is its own, then a is refused on it.
    for (let i = 0; i < 2; i++) expect((await takeWithReserves(limiter, [a])).taken).toEqual([a.fallback]);
    expect(await takeWithReserves(limiter, [a])).toEqual({ decision: { ok: false, charge: a.fallback, retryAfterSec: 3600, resetAt: HOUR }, taken: [a.fallback] });
    // A refusal on another counter is that counter's, and takes nothing: c's reserve is whole.
    const spentIp = { key: "ip:c", limit: 0.5, what: "requests" };
    const c = siteToolCharge("tool:public:fs", 100, "fs calls", "c");
    expect((await takeWithReserves(limiter, [spentIp, c])).decision).toEqual({ ok: false, charge: spentIp, retryAfterSec: 3600, resetAt: HOUR });
    expect((await takeWithReserves(limiter, [c])).taken).toEqual([c.fallback]);
  });
});

describe("over HTTP, callers by address", () => {
  const clock = new TestClock();
  let h: Harness;
  beforeAll(async () => {
    h = await startBridge({ clock, rateLimits: ["ip=off", "search=3", "filesystem=100"], bridge: { trustProxy: true } });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    // Each test starts 20 minutes into a fresh hour.
    clock.t = (Math.floor(clock.t / HOUR) + 1) * HOUR + 20 * 60 * 1000;
  });

  const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
  const call = (from: string, name: string, args: Record<string, unknown>) =>
    postJson(h.urls.mcp, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, _meta } }, { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name, "x-forwarded-for": from });
  const shell = (from: string) => call(from, FS, { command: "echo hi" });
  const statuses = async (from: string, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await shell(from)).status);
    return out;
  };
  const refusal = (limit: number, message: string) => ({
    jsonrpc: "2.0",
    id: 1,
    error: { code: -32029, message: `Rate limit exceeded: at most ${limit} ${message}. Retry after 2400 seconds.`, data: { limit, retryAfter: 2400, reset: new Date(Math.ceil(clock.t / HOUR) * HOUR).toISOString() } },
  });

  it("leaves every other caller its reserve once two callers spent the site's hourly calls", async () => {
    await Promise.all([statuses("203.0.113.1", 50), statuses("203.0.113.2", 50)]);
    // Past the site's 100: each spender has its own 2 more, then 429 on its reserve.
    expect(await statuses("203.0.113.1", 2)).toEqual([200, 200]);
    const over = await shell("203.0.113.1");
    expect([over.status, over.headers.get("retry-after"), over.body]).toEqual([429, "2400", refusal(2, "filesystem calls per hour from one caller once this documentation site's 100 are spent")]);
    // A caller who had not called yet is answered, with the whole output, twice.
    const first = await shell("198.51.100.7");
    expect([first.status, (first.body as { result: { content: unknown } }).result.content]).toEqual([200, [{ type: "text", text: "hi\n" }]]);
    expect(await statuses("198.51.100.7", 2)).toEqual([200, 429]);
    // An IPv6 caller is its /64: two addresses of one /64 share one reserve, another /64 has its own.
    expect([...(await statuses("2001:db8:0:1::1", 1)), ...(await statuses("2001:db8:0:1::2", 2)), ...(await statuses("2001:db8:0:2::1", 1))]).toEqual([200, 200, 429, 200]);
    // The next hour starts afresh: the site's count and every reserve.
    clock.t = Math.ceil(clock.t / HOUR) * HOUR;
    expect(await statuses("203.0.113.1", 1)).toEqual([200]);
  });

  it("has no reserve behind a limit under 50: the site's figure is the cap", async () => {
    for (let i = 0; i < 3; i++) expect((await call(`192.0.2.${i + 1}`, SEARCH, { query: "bucket" })).status).toBe(200);
    const over = await call("192.0.2.9", SEARCH, { query: "bucket" });
    expect([over.status, over.body]).toEqual([429, refusal(3, "search calls per hour on this documentation site")]);
  });
});

describe("over HTTP, signed-in callers", () => {
  const clock = new TestClock();
  let h: Harness;
  beforeAll(async () => {
    h = await startBridge({ clock, rateLimits: ["ip=off", "authed-filesystem=50"] });
  });
  afterAll(() => h.close());

  it("gives each signed-in reader its own reserve, whatever address they share", async () => {
    clock.t = (Math.floor(clock.t / HOUR) + 1) * HOUR + 20 * 60 * 1000;
    const [a, b] = [(await credentialTokens(h, "a")).access_token, (await credentialTokens(h, "b")).access_token];
    const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const shell = (token: string) =>
      postJson(h.urls.authedMcp, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: FS, arguments: { command: "echo hi" }, _meta } }, { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": FS, Authorization: `Bearer ${token}` });
    const statuses: number[] = [];
    // a spends the site's 50 and its reserve of 1; b, from the same address, still has its own.
    for (let i = 0; i < 51; i++) statuses.push((await shell(a)).status);
    expect(statuses).toEqual(Array.from({ length: 51 }, () => 200));
    const over = await shell(a);
    expect([over.status, (over.body as { error: { message: string } }).error.message]).toEqual([
      429,
      "Rate limit exceeded: at most 1 authenticated filesystem calls per hour from one caller once this documentation site's 50 are spent. Retry after 2400 seconds.",
    ]);
    expect([(await shell(b)).status, (await shell(b)).status]).toEqual([200, 429]);
  });
});

describe("the preview's panels", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startBridge();
  });
  afterAll(() => h.close());

  it("charge the same site limit, with the same reserve per address, as the tools", async () => {
    let address = "203.0.113.7";
    const limits = parseRateLimits(["search=50", "filesystem=50"]) as RateLimits;
    const app = createWebApp({ runtime: h.runtime, state: h.state, sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(HOUR, () => 0), limits, projectId: "docs", publicUrl: undefined, clientIp: () => address });
    const get = async (path: string, from: string) => {
      address = from;
      return (await app.fetch(new Request(`http://127.0.0.1${path}`))).status;
    };
    const searches = async (from: string, n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push(await get(`/_svc/preview/search?query=${encodeURIComponent(`how do I store objects, question ${i}`)}`, from));
      return out;
    };
    expect(await searches("203.0.113.7", 51)).toEqual(Array.from({ length: 51 }, () => 200));
    address = "203.0.113.7";
    const over = await app.fetch(new Request("http://127.0.0.1/_svc/preview/search?query=bucket"));
    expect([over.status, await over.json()]).toEqual([
      429,
      { error: { code: "rate_limited", message: "Rate limit exceeded: at most 1 search calls per hour from one caller once this documentation site's 50 are spent. Retry after 3600 seconds." } },
    ]);
    // Another address keeps its own search, and the agent panel (filesystem) has its own count.
    expect([...(await searches("198.51.100.1", 2)), await get("/_svc/preview/agent?page=/quickstart", "203.0.113.7")]).toEqual([200, 429, 200]);
  });
});

describe("the preview's panels and /mcp, one server", () => {
  const clock = new TestClock();
  let h: Harness;
  beforeAll(async () => {
    h = await startBridge({ clock, apps: true, rateLimits: ["ip=off", "search=50"], bridge: { trustProxy: true } });
  });
  afterAll(() => h.close());

  // Adversary (2026-12-05): the panels counted under a key of their own, so once `/mcp`'s hourly
  // searches were spent the preview's search box answered the site's limit over again.
  it("count one site limit: once /mcp's searches are spent, the panel answers from the caller's reserve only", async () => {
    clock.t = (Math.floor(clock.t / HOUR) + 1) * HOUR + 20 * 60 * 1000;
    const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const mcpSearch = async (from: string, i: number) =>
      (await postJson(h.urls.mcp, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: SEARCH, arguments: { query: `how do I store objects, question ${i}` }, _meta } }, { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": SEARCH, "x-forwarded-for": from })).status;
    const panel = async (from: string) => {
      const r = await fetch(`${h.origin}/_svc/preview/search?query=bucket`, { headers: { "x-forwarded-for": from } });
      return { status: r.status, body: (await r.json()) as unknown };
    };
    const spent: number[] = [];
    for (let i = 0; i < 50; i++) spent.push(await mcpSearch("203.0.113.1", i));
    expect(spent).toEqual(Array.from({ length: 50 }, () => 200));
    // The spender's reserve of 1, in the panel; then refused, in the words of the reserve.
    expect((await panel("203.0.113.1")).status).toBe(200);
    expect(await panel("203.0.113.1")).toEqual({
      status: 429,
      body: { error: { code: "rate_limited", message: "Rate limit exceeded: at most 1 search calls per hour from one caller once this documentation site's 50 are spent. Retry after 2400 seconds." } },
    });
    // Another address: its own reserve, on /mcp as in the panel (one counter for both).
    expect([(await panel("198.51.100.1")).status, await mcpSearch("198.51.100.1", 99)]).toEqual([200, 429]);
  });
});
