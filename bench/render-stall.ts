// Issue 25, adversary finding 39: while a page just under the markup limits (a 97 x 97 table)
// renders, how long the server's event loop is held (the longest gap between 20 ms ticks) and
// when another reader's page, requested 300 ms later and not rendered yet, is answered.
// A/B: `TSX_DISABLE_CACHE=1 node_modules/.bin/tsx bench/render-stall.ts <checkout>` with each
// checkout's path in turn (the sources of that checkout are imported), alternating.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const repo = process.argv[2] ?? new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const { DocsRuntime } = await import(`${repo}/src/engine/runtime.ts`);
const { createWebApp } = await import(`${repo}/src/bridge/web/web-app.ts`);
const { FixedWindowLimiter } = await import(`${repo}/src/bridge/middleware/rate-limit.ts`);
const { localSiteSessions, SiteSessions } = await import(`${repo}/src/bridge/web/site-sessions.ts`);
const { openStateStore } = await import(`${repo}/src/store/state/sqlite-state-store.ts`);
const n = 97;
const row = (i: number) => `| ${Array.from({ length: n }, (_, j) => `c${i}x${j}`).join(" | ")} |`;
const table = [row(0), `|${" --- |".repeat(n)}`, ...Array.from({ length: n - 1 }, (_, i) => row(i + 1))].join("\n");
const root = mkdtempSync(join(tmpdir(), "stall-"));
const pages: Record<string, string> = { slow: table, a: "A.", b: "B.", ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`p${i}`, `Page *${i}*.`])) };
writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "t", navigation: { groups: [{ group: "g", pages: Object.keys(pages) }] } }));
for (const [k, v] of Object.entries(pages)) writeFileSync(join(root, `${k}.mdx`), `---\ntitle: ${k}\n---\n\n${v}\n`);
const runtime = await DocsRuntime.load({ root, indexLater: true, log: () => {} });
const app = createWebApp({ runtime, state: openStateStore(mkdtempSync(join(tmpdir(), "stall-state-"))), sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(3_600_000), projectId: "docs", publicUrl: undefined, clientIp: (c: { req: { header: (name: string) => string | undefined } }) => c.req.header("x-ip") ?? "u" });
const get = (p: string, ip: string) => Promise.resolve(app.request(p, { headers: { accept: "text/html", "x-ip": ip } }));
await Promise.all([get("/a", "1"), get("/b", "2")]); // warm: workers (or the parser in this thread) loaded
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let slowAt = 0;
let last = performance.now(); let gap = 0;
const tick = setInterval(() => { const now = performance.now(); gap = Math.max(gap, now - last); last = now; }, 20);
const slow = get("/slow", "1").then(async (r) => { await r.text(); slowAt = performance.now() - t0; });
await new Promise((r) => setTimeout(r, 300)); // the slow page is rendering by then (in this thread before the change)
const others: number[] = [];
let firstOtherAt = 0;
for (let i = 0; i < 5; i++) { const s = performance.now(); await (await get(`/p${i}`, "2")).text(); others.push(Math.round(performance.now() - s)); if (i === 0) firstOtherAt = Math.round(performance.now() - t0); }
await slow;
clearInterval(tick);
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ repo: repo.split("/").pop(), slowMs: Math.round(slowAt), otherPagesMs: others, firstOtherAnsweredAtMs: firstOtherAt, longestTickGapMs: Math.round(gap), processCpuMs: Math.round((cpu.user + cpu.system) / 1000) }));
await runtime.close();
process.exit(0);
