import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FixedWindowLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { localSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { createWebApp } from "../../src/bridge/web/web-app.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { openStateStore } from "../../src/store/state/sqlite-state-store.js";
import { RenderRecorder } from "../helpers/render-events.js";

/**
 * Issue 25: an API page's descriptions (OpenAPI and AsyncAPI Markdown) rendered on the thread
 * that answers everyone, on every request (a description of 1 MB took 7 s of CPU), while MDX
 * pages rendered in the render workers. They now render in the workers too: the gate holds every
 * render, so an API page's answer waits for its worker, and a render past the time limit is a 503
 * saying why, as a page's is. No clock decides: the limit is fired by hand.
 */
const root = mkdtempSync(join(tmpdir(), "svc-api-description-"));
const stateDir = mkdtempSync(join(tmpdir(), "svc-api-description-state-"));
const state = openStateStore(stateDir);
afterAll(async () => {
  await state.close();
  for (const d of [root, stateDir]) rmSync(d, { recursive: true, force: true });
});

writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Widgets", navigation: { groups: [{ group: "API", openapi: "openapi.json", pages: ["GET /widgets"] }] } }));
writeFileSync(
  join(root, "openapi.json"),
  JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Widgets", version: "1" },
    servers: [{ url: "https://api.example.com" }],
    paths: {
      "/widgets": {
        get: {
          summary: "List widgets",
          description: "Lists *all* widgets.",
          parameters: [{ name: "limit", in: "query", description: "At most **this** many.", schema: { type: "integer" } }],
          responses: { "200": { description: "The widgets" } },
        },
      },
    },
  }),
);

describe("API descriptions render off the thread that answers everyone", () => {
  it("renders an operation's descriptions in a render worker: 503 past the time limit, the HTML when it ends", async () => {
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const limits: (() => void)[] = [];
    const limitTimer = (fire: () => void) => {
      limits.push(fire);
      return { cancel: () => {} };
    };
    const rec = new RenderRecorder();
    const logged: string[] = [];
    const runtime = await DocsRuntime.load({ root, indexLater: true, log: (m) => logged.push(m), renderWorker: { onEvent: rec.onEvent, gate, timeLimitMs: 200, limitTimer } });
    const app = createWebApp({ runtime, state, sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(3_600_000), projectId: "docs", publicUrl: undefined });
    const get = () => Promise.resolve(app.request("/api-reference/list-widgets", { headers: { accept: "text/html" } }));
    try {
      const stuck = get();
      await rec.next((e) => e.t === "start" && e.job === 1);
      (limits[0] as () => void)();
      const res = await stuck;
      expect([res.status, /<p class="notice" data-testid="not-rendered">[^<]*<\/p>/.exec(await res.text())?.[0]]).toEqual([
        503,
        '<p class="notice" data-testid="not-rendered">This page could not be shown: rendering this page took more than 200 ms, the most the preview allows; it was stopped.</p>',
      ]);
      expect(logged.filter((l) => l.includes("render"))).toEqual(["warning: rendering /api-reference/list-widgets.mdx took more than 200 ms; stopped it and its render worker"]);
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      const page = await get();
      const html = await page.text();
      expect([page.status, /<div class="description">.*?<\/div>/s.exec(html)?.[0], /<dd class="description">.*?<\/dd>/s.exec(html)?.[0]]).toEqual([
        200,
        '<div class="description"><p>Lists <em>all</em> widgets.</p></div>',
        '<dd class="description"><p>At most <strong>this</strong> many.</p></dd>',
      ]);
      expect(rec.lines(["start", "end"])).toEqual(["job 1 started on worker 1", "job 1 ended: time-limit", "job 2 started on worker 2", "job 2 ended: result"]);
    } finally {
      await runtime.close();
    }
  });
});
