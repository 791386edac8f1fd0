// Bench-only (issue 23): preloaded into every `serve --http` process by bench/wrk-ab.ts --probe
// (NODE_OPTIONS=--import), never by the server itself. It counts the events that make a tail:
// - blocking events: a 10 ms timer that fires more than 20 ms late, each split by the main
//   thread's /proc schedstat into time on a core (JavaScript, GC on the main thread), time
//   runnable but waiting for a core (the machine: other processes, the other worker, wrk), and
//   the rest, asleep (waiting on V8's helper threads in a parallel collection, synchronous I/O);
// - garbage-collection pauses by kind (perf_hooks), with how many exceeded 20 ms.
// SIGUSR2 writes the totals so far, and the young generation's size now (V8 sizes it up to
// --max-semi-space-size as it sees fit: a small one collects more often per call), to
// $BENCH_LOOP_PROBE_DIR/<pid>.json (bench/loop-probe.ts reads them before and after a run). Reading schedstat 100 times a second costs ~2 ms of CPU a second.
import { subscribe } from "node:diagnostics_channel";
import { readFileSync, writeFileSync } from "node:fs";
import { Server } from "node:http";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics } from "node:v8";
import { isMainThread } from "node:worker_threads";

const dir = process.env.BENCH_LOOP_PROBE_DIR;
// NODE_OPTIONS preloads into worker threads too (the shell's, the renderer's): the probe is the
// main thread's, where requests are served.
if (dir !== undefined && dir !== "" && isMainThread) {
  const TICK_MS = 10;
  const path = `/proc/self/task/${process.pid}/schedstat`;
  const sched = () => {
    const [run, wait] = readFileSync(path, "utf8").split(" ").map(Number);
    return { run: run / 1e6, wait: wait / 1e6 };
  };
  const s = { requests: 0, connections: 0, blocked20: 0, blocked50: 0, blocked100: 0, blockedMs: 0, blockedRunMs: 0, blockedRunnableMs: 0, blockedAsleepMs: 0, maxBlockedMs: 0, gc: {} };
  let last = performance.now();
  let lastSched = sched();
  const tick = () => {
    const now = performance.now();
    const at = sched();
    const span = now - last;
    if (span - TICK_MS > 20) {
      const run = at.run - lastSched.run;
      const wait = at.wait - lastSched.wait;
      s.blocked20++;
      if (span - TICK_MS > 50) s.blocked50++;
      if (span - TICK_MS > 100) s.blocked100++;
      s.blockedMs += span;
      s.blockedRunMs += run;
      s.blockedRunnableMs += wait;
      s.blockedAsleepMs += Math.max(0, span - run - wait);
      s.maxBlockedMs = Math.max(s.maxBlockedMs, span);
    }
    last = now;
    lastSched = at;
    setTimeout(tick, TICK_MS).unref();
  };
  setTimeout(tick, TICK_MS).unref();
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: "markCompact",
    [constants.NODE_PERFORMANCE_GC_MINOR]: "scavenge",
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incrementalMarking",
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakCallbacks",
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = kinds[e.detail?.kind] ?? "other";
      const g = (s.gc[kind] ??= { n: 0, ms: 0, maxMs: 0, over20: 0 });
      g.n++;
      g.ms += e.duration;
      g.maxMs = Math.max(g.maxMs, e.duration);
      if (e.duration > 20) g.over20++;
    }
  }).observe({ entryTypes: ["gc"] });
  // Calls and connections this process was given: a worker's share of the run's work, and (its
  // connections less the run's) how many its clients had to reopen (a shed excess, issue 23).
  subscribe("http.server.request.start", () => void s.requests++);
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (event, ...args) {
    if (event === "connection") s.connections++;
    return emit.call(this, event, ...args);
  };
  process.on("SIGUSR2", () => writeFileSync(`${dir}/${process.pid}.json`, JSON.stringify({ ...s, ...sched(), newSpaceMb: (getHeapSpaceStatistics().find((x) => x.space_name === "new_space")?.space_size ?? 0) / 2 ** 20 })));
}
