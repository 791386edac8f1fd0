import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Harness, TestClock, startBridge } from "./harness.js";

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

async function start(rateLimits: string[]): Promise<Harness> {
  h = await startBridge({ clock, apps: true, rateLimits });
  return h;
}

async function post(path: string, body: unknown) {
  const res = await fetch(`${h?.origin}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as unknown, retryAfter: res.headers.get("retry-after"), cors: res.headers.get("access-control-allow-origin") };
}

const rating = (n: number) => post("/v1/feedback/docs/rating", { path: `/page-${n}`, helpful: true });
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
    // Stored as JSON, each comment below is 569 bytes and a rating 76.
    await start(["feedback-bytes=1250"]);
    const comment = (n: number) => post("/v1/feedback/docs/contextual", { path: `/page-${n}`, helpful: false, comment: "x".repeat(500) });
    expect((await comment(1)).status).toBe(201);
    expect((await comment(2)).status).toBe(201);
    expect(await comment(3)).toEqual({ status: 429, body: limited("1250 bytes of feedback per hour from one IP address"), retryAfter: "2400", cors: "*" });
    // A small entry still fits in what is left.
    expect((await rating(4)).status).toBe(201);
    expect(await stored()).toBe(3);
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
