import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { type Harness, TestClock, startBridge } from "./harness.js";

/**
 * Adversary round 51 F5: the per-address limit (5,000 an hour) bounded the hour's total, not its
 * pace, so an address could spend all of it at once; twenty addresses each under every bound
 * sent ~500 cheap discovery GETs a second and slowed another caller's search 30 times. Now the
 * hour's 5,000 come back evenly (one every 0.72 s) and an address holds at most 1,000 to spend
 * at once. Real HTTP from loopback addresses, the limits `serve --http` has, a clock moved by hand.
 */

interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly body: string;
}

/** A GET from `from` (any 127/8 address reaches the loopback server). */
function get(port: number, path: string, from: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, localAddress: from }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"], body: Buffer.concat(chunks).toString() }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the per-address limit spread over the hour", () => {
  const clock = new TestClock();
  let h: Harness;
  let port: number;
  beforeAll(async () => {
    h = await startBridge({ clock });
    port = Number(new URL(h.origin).port);
  });
  afterAll(() => h?.close());

  it("answers an address's requests past a burst of 1,000 with 429 until one comes back (every 0.72 s), other addresses unaffected", async () => {
    expect([LIMITS.rateLimits.perIp, LIMITS.rateLimits.perIpBurstDivisor]).toEqual([5000, 5]);
    const card = "/.well-known/mcp.json";
    // The burst, all at the same moment, ten at a time.
    const statuses: number[] = [];
    for (let i = 0; i < 1000; i += 10) statuses.push(...(await Promise.all(Array.from({ length: 10 }, () => get(port, card, "127.0.0.81")))).map((a) => a.status));
    expect(statuses).toEqual(Array.from({ length: 1000 }, () => 200));
    const over = await get(port, card, "127.0.0.81");
    expect([over.status, over.retryAfter, JSON.parse(over.body)]).toEqual([
      429,
      "1",
      { error: { code: "rate_limited", message: "Rate limit exceeded: at most 1000 requests at once from one IP address (they come back at 5000 an hour, evenly). Retry after 1 seconds." } },
    ]);
    // Another address has its own burst.
    expect((await get(port, card, "127.0.0.82")).status).toBe(200);
    // One comes back 720 ms later (5,000 an hour), not before.
    clock.advance(719);
    expect((await get(port, card, "127.0.0.81")).status).toBe(429);
    clock.advance(1);
    expect([(await get(port, card, "127.0.0.81")).status, (await get(port, card, "127.0.0.81")).status]).toEqual([200, 429]);
    // Ten seconds give back 13 (and a part).
    clock.advance(10_000);
    const after: number[] = [];
    for (let i = 0; i < 14; i++) after.push((await get(port, card, "127.0.0.81")).status);
    expect(after).toEqual([...Array.from({ length: 13 }, () => 200), 429]);
  });
});
