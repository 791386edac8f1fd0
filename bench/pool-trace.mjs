// Preloaded into a `svc-mcp serve` process by bench/shell-crowd.ts (`node --import`): writes
// what the shell pool did (its `svc-mcp:shell-pool` diagnostics channel, `PoolEvent`), the main
// thread's event-loop stalls and its garbage collections, one JSON line each with an epoch time
// in milliseconds, to the file SVC_POOL_TRACE names. A preload, not a server option: the same
// trace is taken of a build from before a change (a copy of dist/), which has no such option.
// Buffered and written at exit and every second: a write per event would itself load the thread.
import { appendFileSync, writeFileSync } from "node:fs";
import { subscribe } from "node:diagnostics_channel";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

const file = process.env.SVC_POOL_TRACE;
// The main thread only: the shell workers inherit `--import` (`workerExecArgv`), and their own
// loops are blocked by the commands they run, which is their job.
if (isMainThread && file !== undefined && file !== "") {
  writeFileSync(file, "");
  const now = () => performance.timeOrigin + performance.now();
  let lines = [];
  const flush = () => {
    if (lines.length === 0) return;
    appendFileSync(file, lines.join("\n") + "\n");
    lines = [];
  };
  subscribe("svc-mcp:shell-pool", (event) => lines.push(JSON.stringify({ at: now(), ...event })));
  // A stall of the main thread: a 5 ms timer that fired late by more than 20 ms.
  const TICK_MS = 5;
  let last = now();
  setInterval(() => {
    const at = now();
    if (at - last - TICK_MS > 20) lines.push(JSON.stringify({ at, t: "loop-stall", ms: Math.round(at - last - TICK_MS) }));
    last = at;
  }, TICK_MS).unref();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.duration >= 5) lines.push(JSON.stringify({ at: performance.timeOrigin + entry.startTime, t: "gc", ms: Math.round(entry.duration) }));
  }).observe({ entryTypes: ["gc"] });
  setInterval(flush, 1000).unref();
  process.on("exit", flush);
  for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => { flush(); process.exit(0); });
}
