import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixedWindowLimiter } from "../../src/bridge/middleware/rate-limit.js";
import type { MediaTurns } from "../../src/bridge/web/preview/media-turns.js";
import { localSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { createWebApp } from "../../src/bridge/web/web-app.js";
import { type Harness, startBridge } from "../bridge/harness.js";
import { WatchedTurns } from "../helpers/watched-turns.js";

/**
 * The preview's searches and agent views take turns per caller (issue 25): one caller sending
 * many at once waits behind its own, and past its bound is refused before any work, while
 * another caller is answered.
 */
let h: Harness;
beforeAll(async () => {
  h = await startBridge();
});
afterAll(async () => {
  await h?.close();
});

/** The web app as `serve --http` mounts it, with `turns` for its preview calls, each request from `from`. */
function appWith(turns: MediaTurns) {
  let address = "203.0.113.7";
  const app = createWebApp({ runtime: h.runtime, state: h.state, sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(3_600_000), projectId: "docs", publicUrl: undefined, clientIp: () => address, previewTurns: turns });
  return (path: string, from: string) => {
    address = from;
    return app.fetch(new Request(`http://127.0.0.1${path}`));
  };
}

const search = (n: number) => `/_svc/preview/search?query=${encodeURIComponent(`how do I store objects, question ${n}`)}&pageSize=50`;

describe("preview searches per caller", () => {
  it("wait behind the caller's own (an IPv6 /64), are refused past its bound, and another caller is answered meanwhile", async () => {
    const turns = new WatchedTurns({ sending: 1, held: 2 });
    const get = appWith(turns);
    const caller = "address:2001:db8:1:2::/64";
    // The caller's search being answered (held by the test).
    const answering = await turns.take(caller);
    if (!answering.ok) throw new Error("no place");
    const waiting = get(search(1), "2001:db8:1:2::1");
    await turns.held(caller, 2);
    const refused = await get(search(2), "2001:db8:1:2::9");
    expect([refused.status, refused.headers.get("retry-after"), refused.headers.get("cache-control"), await refused.json()]).toEqual([
      429,
      "2",
      "no-store",
      { error: { code: "too_many_searches", message: "too many searches of this client: at most 2 answered or waiting at once per client (an address, an IPv6 /64 or a token); wait for their answers, then ask again" } },
    ]);
    const agent = await get("/_svc/preview/agent?page=/quickstart", "2001:db8:1:2::3");
    expect(agent.status).toBe(429);
    // Another caller's search and agent view are answered while the first caller's wait.
    const other = await get(search(3), "2001:db8:1:3::1");
    expect([other.status, ((await other.json()) as { results: unknown[] }).results.length > 0]).toEqual([200, true]);
    expect((await get("/_svc/preview/agent?page=/quickstart", "2001:db8:1:3::1")).status).toBe(200);
    expect(turns.heldBy(caller)).toBe(2);
    // Its turn comes when the one before it is answered.
    answering.release();
    const answered = await waiting;
    expect([answered.status, turns.heldBy(caller)]).toEqual([200, 0]);
  });
});
