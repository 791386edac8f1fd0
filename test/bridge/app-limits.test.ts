import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Harness, PROTOCOL, TestClock, openSession, postJson, startBridge } from "./harness.js";

/**
 * Feedback ingestion and the playground relay, mounted on the bridge as `serve --http` mounts
 * them, are under the per-IP request limit and under per-IP budgets of their own: feedback
 * entries and bytes (what one address can add to the database in an hour), relay requests.
 */

const HOUR = 3_600_000;
const clock = new TestClock();
let h: Harness | undefined;

beforeEach(() => {
  // 20 minutes into an hour: every refusal says 2400 seconds.
  clock.t = Date.UTC(2030, 2, 1, 8, 20, 0);
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(rateLimits: string[], trustProxy = false): Promise<Harness> {
  h = await startBridge({ clock, apps: true, rateLimits, bridge: { trustProxy } });
  return h;
}

async function post(path: string, body: unknown, forwardedFor?: string) {
  const headers = { "content-type": "application/json", ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }) };
  const res = await fetch(`${h?.origin}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as unknown, retryAfter: res.headers.get("retry-after"), cors: res.headers.get("access-control-allow-origin") };
}

const rating = (_n: number) => post("/v1/feedback/docs/rating", { path: "/quickstart", helpful: true });
const stored = async () => (await h?.feedback?.list({ projectId: "docs", limit: 100 }))?.feedback.length;
const limited = (message: string) => ({ error: { code: "rate_limited", message: `Rate limit exceeded: at most ${message}. Retry after 2400 seconds.` } });

describe("feedback ingestion", () => {
  it("stops writing when the per-IP request limit is spent", async () => {
    await start(["ip=4"]);
    for (let n = 1; n <= 4; n++) expect((await rating(n)).status).toBe(201);
    expect(await rating(5)).toEqual({ status: 429, body: limited("4 requests per hour from one IP address"), retryAfter: "2400", cors: null });
    expect(await stored()).toBe(4);
    clock.advance(HOUR);
    expect((await rating(6)).status).toBe(201);
  });

  it("bounds the entries one IP address adds per hour (feedback=N), counting only what is stored", async () => {
    await start(["feedback=3"]);
    for (let n = 1; n <= 3; n++) expect((await rating(n)).status).toBe(201);
    // A refused body stores nothing and is not counted.
    expect((await post("/v1/feedback/docs/rating", { path: "/p" })).status).toBe(400);
    expect(await rating(4)).toEqual({ status: 429, body: limited("3 feedback entries per hour from one IP address"), retryAfter: "2400", cors: "*" });
    expect(await stored()).toBe(3);
    clock.advance(HOUR);
    expect((await rating(5)).status).toBe(201);
  });

  it("bounds the bytes one IP address adds per hour (feedback-bytes=N)", async () => {
    // Stored as JSON, each comment below is 573 bytes and a rating 80.
    await start(["feedback-bytes=1250"]);
    const comment = (_n: number) => post("/v1/feedback/docs/contextual", { path: "/quickstart", helpful: false, comment: "x".repeat(500) });
    expect((await comment(1)).status).toBe(201);
    expect((await comment(2)).status).toBe(201);
    expect(await comment(3)).toEqual({ status: 429, body: limited("1250 bytes of feedback per hour from one IP address"), retryAfter: "2400", cors: "*" });
    // A small entry still fits in what is left.
    expect((await rating(4)).status).toBe(201);
    expect(await stored()).toBe(3);
  });
});

describe("a caller's address, behind --trust-proxy (issue 25)", () => {
  const ratingFrom = (address: string) => post("/v1/feedback/docs/rating", { path: "/quickstart", helpful: true }, `198.51.100.1, ${address}`);

  it("is its /64 for the budgets: eight addresses of one /64 share one, however each is written; another /64 has its own", async () => {
    await start(["feedback=8"], true);
    for (let n = 1; n <= 8; n++) expect((await ratingFrom(`2001:db8:cc:dd::${n}`)).status).toBe(201);
    const spent = { status: 429, body: limited("8 feedback entries per hour from one IP address"), retryAfter: "2400", cors: "*" };
    for (const spelling of ["2001:db8:cc:dd::9", "2001:DB8:CC:DD::1", "[2001:db8:cc:dd::1]", "[2001:db8:cc:dd::1]:443", "2001:db8:cc:dd::1%eth0", "2001:db8:cc:dd:ffff:ffff:ffff:ffff", "2001:0db8:00cc:00dd:0:0:0:1"]) {
      expect([spelling, await ratingFrom(spelling)]).toEqual([spelling, spent]);
    }
    expect((await ratingFrom("2001:db8:cc:de::1")).status).toBe(201);
    expect(await stored()).toBe(9);
  });

  it("is its /64 for the request limit too, and an IPv4-mapped address is its IPv4 address", async () => {
    await start(["ip=2"], true);
    expect((await ratingFrom("2001:db8:1:2::a")).status).toBe(201);
    expect((await ratingFrom("2001:db8:1:2:b::b")).status).toBe(201);
    const spent = { status: 429, body: limited("2 requests per hour from one IP address"), retryAfter: "2400", cors: null };
    expect(await ratingFrom("[2001:db8:1:2::c]:8080")).toEqual(spent);
    expect((await ratingFrom("203.0.113.7")).status).toBe(201);
    expect((await ratingFrom("::ffff:203.0.113.7")).status).toBe(201);
    expect(await ratingFrom("[::FFFF:203.0.113.7]:8080")).toEqual(spent);
    expect(await ratingFrom("203.0.113.7:5000")).toEqual(spent);
    expect((await ratingFrom("203.0.113.8")).status).toBe(201);
  });
});

describe("submit_feedback over MCP: the same budgets as the feedback routes", () => {
  const call = (id: number, feedback: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "submit_feedback", arguments: { path: "/quickstart", feedback } } });
  async function session() {
    const id = await openSession(`${h?.origin}/mcp`);
    return (body: unknown) => postJson(`${h?.origin}/mcp`, body, { "mcp-session-id": id, "mcp-protocol-version": PROTOCOL });
  }
  /** The JSON-RPC 429 the bridge answers a call past a budget with (as past a tool limit). */
  const refused = (id: number, limit: number, what: string) => ({
    status: 429,
    retryAfter: "2400",
    body: {
      jsonrpc: "2.0",
      id,
      error: { code: -32029, message: `Rate limit exceeded: at most ${limit} ${what}. Retry after 2400 seconds.`, data: { limit, retryAfter: 2400, reset: new Date(Math.ceil(clock.t / HOUR) * HOUR).toISOString() } },
    },
  });
  const answer = async (r: Promise<{ status: number; headers: Headers; body: unknown }>) => {
    const { status, headers, body } = await r;
    return { status, retryAfter: headers.get("retry-after"), body };
  };

  it("counts entries (feedback=N) with the HTTP routes, only for calls that store something", async () => {
    h = await startBridge({ clock, apps: true, feedbackTool: true, rateLimits: ["feedback=2"] });
    const send = await session();
    // Refused by the tool (blank feedback): nothing stored, nothing counted.
    expect((await send(call(1, " "))).status).toBe(200);
    expect((await send(call(2, "The example is outdated."))).status).toBe(200);
    expect((await rating(3)).status).toBe(201);
    expect(await answer(send(call(4, "The example is outdated.")))).toEqual(refused(4, 2, "feedback entries per hour from one IP address"));
    expect(await stored()).toBe(2);
    clock.advance(HOUR);
    expect((await send(call(5, "The example is outdated."))).status).toBe(200);
  });

  it("counts a call whose arguments carry a \"__proto__\" member like any other (the tool never sees the member)", async () => {
    h = await startBridge({ clock, apps: true, feedbackTool: true, rateLimits: ["feedback=1"] });
    const send = await session();
    const sneaky = (id: number) => ({ ...call(id, "x"), params: { name: "submit_feedback", arguments: JSON.parse(`{"__proto__":{},"path":"/quickstart","feedback":"Uncounted?"}`) as unknown } });
    expect(JSON.stringify(sneaky(1))).toContain('"__proto__":{}');
    expect((await send(sneaky(1))).status).toBe(200);
    expect(await answer(send(sneaky(2)))).toEqual(refused(2, 1, "feedback entries per hour from one IP address"));
    expect(await stored()).toBe(1);
  });

  it("counts bytes (feedback-bytes=N) as the HTTP routes store them", async () => {
    // Stored as JSON, each entry below is 948 bytes: two fit in 2000, a third does not.
    h = await startBridge({ clock, apps: true, feedbackTool: true, rateLimits: ["feedback-bytes=2000"] });
    const send = await session();
    expect((await send(call(1, "x".repeat(900)))).status).toBe(200);
    expect((await send(call(2, "x".repeat(900)))).status).toBe(200);
    expect(await answer(send(call(3, "x".repeat(900))))).toEqual(refused(3, 2000, "bytes of feedback per hour from one IP address"));
    expect(await stored()).toBe(2);
  });
});

describe("playground relay", () => {
  const relay = () => post("/_svc/api/request", { page: "/api/overview", method: "GET", url: "https://api.nimbus.example/v1/buckets" });
  const unknown = { status: 404, body: { error: { code: "unknown_page", message: "/api/overview is not an API page of this site" } }, retryAfter: null, cors: null };

  it("bounds relay requests per IP address (relay=N), whatever they ask for", async () => {
    await start(["relay=2"]);
    expect(await relay()).toEqual(unknown);
    expect(await relay()).toEqual(unknown);
    expect(await relay()).toEqual({ status: 429, body: limited("2 playground relay requests per hour from one IP address"), retryAfter: "2400", cors: null });
    // Its own budget: feedback from the same address still goes in.
    expect((await rating(1)).status).toBe(201);
  });

  it("counts against the per-IP request limit", async () => {
    await start(["ip=2"]);
    expect(await relay()).toEqual(unknown);
    expect((await rating(1)).status).toBe(201);
    expect(await relay()).toEqual({ status: 429, body: limited("2 requests per hour from one IP address"), retryAfter: "2400", cors: null });
  });
});
