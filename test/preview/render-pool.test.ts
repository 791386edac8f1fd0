import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FixedWindowLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { localSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { createWebApp } from "../../src/bridge/web/web-app.js";
import { renderMdx } from "../../src/engine/render/render-mdx.js";
import { RenderPool, type RenderPoolOptions } from "../../src/engine/render/render-pool.js";
import { RenderUnavailable } from "../../src/engine/render/render-unavailable.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { openStateStore } from "../../src/store/state/sqlite-state-store.js";
import { RenderRecorder } from "../helpers/render-events.js";
import { CORPORA } from "../helpers/paths.js";
import { describeShared } from "../helpers/shared.js";

/**
 * Issue 25, adversary finding 39: a page just under the markup limits took seconds of CPU to
 * render on the thread that answers everyone. Pages now render in worker threads (`RenderPool`):
 * while a slow page renders, other pages are answered; a render past the time limit ends with
 * its worker and a 503 page saying why; the HTML is the same as the main thread's.
 */

/** A table of 97 x 97 cells (9,409, under the 10,000 the preview allows): ~1.5 s of CPU to render. */
function nearLimitTable(): string {
  const n = 97;
  const row = (i: number): string => `| ${Array.from({ length: n }, (_, j) => `c${i}x${j}`).join(" | ")} |`;
  return [row(0), `|${" --- |".repeat(n)}`, ...Array.from({ length: n - 1 }, (_, i) => row(i + 1))].join("\n");
}

const dirs: string[] = [];
const stateDir = mkdtempSync(join(tmpdir(), "svc-render-pool-state-"));
const state = openStateStore(stateDir);
afterAll(async () => {
  await state.close();
  for (const d of [stateDir, ...dirs]) rmSync(d, { recursive: true, force: true });
});

/** A site of the given pages (name -> MDX), in a temporary folder. */
function site(pages: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "svc-render-pool-"));
  dirs.push(root);
  writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Render test", navigation: { groups: [{ group: "Pages", pages: Object.keys(pages) }] } }));
  for (const [name, body] of Object.entries(pages)) writeFileSync(join(root, `${name}.mdx`), `---\ntitle: ${name}\n---\n\n${body}\n`);
  return root;
}

/** The pages' web app over a runtime whose render pool is `renderWorker`; a request's caller is its `x-test-ip` header. */
async function webApp(root: string, renderWorker: RenderPoolOptions) {
  const runtime = await DocsRuntime.load({ root, indexLater: true, log: () => {}, renderWorker });
  const app = createWebApp({
    runtime,
    state,
    sessions: localSiteSessions(new SiteSessions()),
    limiter: new FixedWindowLimiter(3_600_000),
    projectId: "docs",
    publicUrl: undefined,
    clientIp: (c) => c.req.header("x-test-ip") ?? "unknown",
  });
  const get = (path: string, ip: string): Promise<Response> => Promise.resolve(app.request(path, { headers: { accept: "text/html", "x-test-ip": ip } }));
  return { runtime, get };
}

describe("pages render off the thread that answers everyone", () => {
  it("answers another reader's page while a page just under the limits renders", async () => {
    const rec = new RenderRecorder();
    const { runtime, get } = await webApp(site({ slow: `# Slow\n\n${nearLimitTable()}`, fast: "Fast page.", other: "Other page.", third: "Third *page*." }), { onEvent: rec.onEvent });
    try {
      // Two readers at once: both workers start (jobs 1 and 2).
      const warm = await Promise.all([get("/fast", "10.0.0.1"), get("/other", "10.0.0.2")]);
      expect(warm.map((r) => r.status)).toEqual([200, 200]);
      let slowDone = false;
      const slow = get("/slow", "10.0.0.1").then((r) => {
        slowDone = true;
        return r;
      });
      // Job 3 is the slow page: once a worker renders it (or, rendered in this thread, once it is answered)...
      await Promise.race([rec.next((e) => e.t === "start" && e.job === 3), slow]);
      // ...another reader's page, not rendered yet, is answered before it.
      const third = await get("/third", "10.0.0.2");
      const answeredFirst = !slowDone;
      expect([third.status, (await third.text()).includes("<p>Third <em>page</em>.</p>"), answeredFirst]).toEqual([200, true, true]);
      const slowAnswer = await slow;
      expect([slowAnswer.status, (await slowAnswer.text()).includes("<td>c96x96</td>")]).toEqual([200, true]);
      // The slow page and the other reader's rendered side by side, on two workers; the other's ended first.
      const workerOf = (job: number) => rec.events.find((e) => e.t === "start" && e.job === job);
      expect(workerOf(3)).not.toEqual(workerOf(4));
      expect(rec.lines(["queued", "end"]).slice(-4)).toEqual(["job 3 queued by address:10.0.0.1", "job 4 queued by address:10.0.0.2", "job 4 ended: result", "job 3 ended: result"]);
    } finally {
      await runtime.close();
    }
  });

  it("ends a render past the time limit with its worker, answers 503 with the reason, and renders the next page in a new worker", async () => {
    // The gate holds every render until it opens: a render that never ends, without a slow page.
    // The time limit is fired by hand, once the render has started: no clock decides.
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const limits: (() => void)[] = [];
    const limitTimer = (fire: () => void) => {
      limits.push(fire);
      return { cancel: () => {} };
    };
    const rec = new RenderRecorder();
    const logged: string[] = [];
    const root = site({ stuck: "Stuck page.", next: "Next page." });
    const runtime = await DocsRuntime.load({ root, indexLater: true, log: (m) => logged.push(m), renderWorker: { onEvent: rec.onEvent, gate, timeLimitMs: 200, limitTimer } });
    const app = createWebApp({ runtime, state, sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(3_600_000), projectId: "docs", publicUrl: undefined });
    try {
      const answer = Promise.resolve(app.request("/stuck", { headers: { accept: "text/html" } }));
      await rec.next((e) => e.t === "start" && e.job === 1);
      (limits[0] as () => void)();
      const res = await answer;
      const html = await res.text();
      expect([res.status, res.headers.get("retry-after"), res.headers.get("content-type")]).toEqual([503, "60", "text/html; charset=utf-8"]);
      expect(/<p class="notice" data-testid="not-rendered">[^<]*<\/p>/.exec(html)?.[0]).toBe(
        '<p class="notice" data-testid="not-rendered">This page could not be shown: rendering this page took more than 200 ms, the most the preview allows; it was stopped.</p>',
      );
      expect(logged.filter((l) => l.includes("render"))).toEqual(["warning: rendering /stuck.mdx took more than 200 ms; stopped it and its render worker"]);
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      const next = await app.request("/next", { headers: { accept: "text/html" } });
      expect([next.status, (await next.text()).includes("<p>Next page.</p>")]).toEqual([200, true]);
      expect(rec.lines(["spawn", "start", "end", "exit"])).toEqual([
        "spawn worker 1",
        "job 1 started on worker 1",
        "worker 1 exited: time-limit",
        "job 1 ended: time-limit",
        "spawn worker 2",
        "job 2 started on worker 2",
        "job 2 ended: result",
      ]);
    } finally {
      await runtime.close();
    }
  });
});

describe("the render pool", () => {
  it("refuses a caller's page past its limit, naming it, and rejects what waits or runs when closed", async () => {
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const pool = new RenderPool({ gate, maxHeldPerCaller: 2, workers: 1 });
    const outcome = (p: Promise<unknown>) => p.then(() => "rendered", (e: Error) => `${e instanceof RenderUnavailable ? e.reason : e.name}: ${e.message}`);
    const held = [outcome(pool.render("a", { filePath: "/a.mdx" }, "address:10.0.0.1")), outcome(pool.render("b", { filePath: "/b.mdx" }, "address:10.0.0.1"))];
    const third = await outcome(pool.render("c", { filePath: "/c.mdx" }, "address:10.0.0.1"));
    expect(third).toBe("too-many: too many pages of this client are being rendered: at most 2 at once per client (an address, an IPv6 /64 or a token); try again when they have loaded");
    await pool.close();
    expect(await Promise.all(held)).toEqual(["shut-down: the server is shutting down", "shut-down: the server is shutting down"]);
  });
});

describeShared("pages rendered in a worker", () => {
  it("are byte for byte those rendered in this thread: every page of the shared corpora", { timeout: 900_000 }, async () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.mdx?$/.test(entry.name)) files.push(path);
      }
    };
    walk(CORPORA);
    const pool = new RenderPool();
    try {
      const differ: string[] = [];
      // Two at a time: the pool's two workers.
      for (let i = 0; i < files.length; i += 2) {
        await Promise.all(
          files.slice(i, i + 2).map(async (file) => {
            const source = readFileSync(file, "utf8");
            const filePath = `/${relative(CORPORA, file)}`;
            if (JSON.stringify(await pool.render(source, { filePath })) !== JSON.stringify(renderMdx(source, { filePath }))) differ.push(filePath);
          }),
        );
      }
      expect([files.length > 1_000, differ]).toEqual([true, []]);
    } finally {
      await pool.close();
    }
  });
});
