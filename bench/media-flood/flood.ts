// One address's flood of a medium (issue 25): `CONC` requests at a time for `DURATION_MS`, once
// READYFILE exists; conditional GETs (answered 304) or plain GETs. Writes DONEFILE at the end.
//   node --import tsx flood.ts URL SERVER_PID DURATION_MS CONC cond|get DONEFILE READYFILE
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const [url, pid, dur, conc, mode, done, ready] = process.argv.slice(2) as [string, string, string, string, string, string, string];
/** The server's CPU (all threads, user + system), ms. */
const cpu = (): number => {
  const f = (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1] ?? "").split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
};
const rss = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
while (!existsSync(ready)) await new Promise((r) => setTimeout(r, 100));
const etag = (await fetch(url, { method: "HEAD" })).headers.get("etag") ?? "";
const c0 = cpu();
const rss0 = rss();
const t0 = Date.now();
const codes: Record<number, number> = {};
let maxRss = 0;
const sampler = setInterval(() => (maxRss = Math.max(maxRss, rss())), 100);
let started = 0;
let bytes = 0;
const stop = Date.now() + Number(dur);
await Promise.all(
  Array.from({ length: Number(conc) }, async () => {
    while (Date.now() < stop) {
      started++;
      const r = await fetch(url, mode === "cond" ? { headers: { "if-none-match": etag } } : {});
      codes[r.status] = (codes[r.status] ?? 0) + 1;
      const got = (await r.arrayBuffer()).byteLength;
      bytes += got;
    }
  }),
);
clearInterval(sampler);
maxRss = Math.max(maxRss, rss());
writeFileSync(done, "1");
const used = cpu() - c0;
console.log(
  `flood ${mode} ${dur} ms, ${conc} at a time: ${started} requests ${JSON.stringify(codes)}, server CPU ${used} ms (${(used / started).toFixed(1)} ms a request), wall ${Date.now() - t0} ms, RSS ${rss0.toFixed(0)} MB before, ${maxRss.toFixed(0)} MB at most, ${(bytes / 1e6).toFixed(0)} MB received`,
);
