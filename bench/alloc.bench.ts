import { join, resolve } from "node:path";
import { CORPORA } from "../test/helpers/paths.js";
import type { BenchRow, BenchSuite } from "./bench.js";
import { type AllocServer, type AllocWindow, measureWindow, medianWindow, sendCalls, startAllocServer, stopAllocServer } from "./http-alloc.js";
import { QueryStream } from "./query-stream.js";

const SPREE = join(CORPORA, "spree");
/** Calls per measured window, windows, warm-up calls and connections (`BENCH_ALLOC_CALLS`, `_ROUNDS`, `_WARM_UP`, `_CLIENTS`). */
const CALLS = Number(process.env.BENCH_ALLOC_CALLS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ALLOC_ROUNDS ?? 3);
const WARM_UP = Number(process.env.BENCH_ALLOC_WARM_UP ?? 3000);
const CLIENTS = Number(process.env.BENCH_ALLOC_CLIENTS ?? 32);
const TRAFFIC = "distinct questions, result cache off";

/**
 * Garbage per HTTP call (issue 23; bench/http-alloc.ts): one `serve --http` worker on spree under
 * 32 connections of distinct 2026-07-28 `tools/call`s, V8's own counts of bytes allocated,
 * promoted and retained per call, and of collections per 1,000 calls, with the server's CPU per
 * call. These move little with the machine's load, where calls/s and p99 are noise. With
 * `BENCH_ALLOC_BASE=<checkout>` (another commit's worktree, built) the same is measured on it
 * side by side, windows alternating, as the baseline column.
 */
export const allocSuite: BenchSuite = {
  name: "alloc",
  async run(log) {
    const base = process.env.BENCH_ALLOC_BASE;
    const dirs = [resolve("."), ...(base !== undefined ? [resolve(base)] : [])];
    const servers: AllocServer[] = [];
    try {
      for (const dir of dirs) servers.push(await startAllocServer(dir, SPREE));
      const streams = servers.map(() => new QueryStream());
      log(`alloc: warming ${servers.length} server(s) with ${WARM_UP} calls each`);
      await Promise.all(servers.map((s, i) => sendCalls(s, streams[i] as QueryStream, WARM_UP, CLIENTS)));
      const windows: AllocWindow[][] = servers.map(() => []);
      for (let round = 0; round < ROUNDS; round++) {
        const order = servers.map((_, i) => i);
        for (const i of round % 2 === 0 ? order : order.reverse()) {
          const w = await measureWindow(servers[i] as AllocServer, streams[i] as QueryStream, CALLS, CLIENTS);
          log(`alloc: ${dirs[i]} window ${round + 1}: ${(w.allocatedPerCall / 1024).toFixed(1)} KB allocated, ${(w.promotedPerCall / 1024).toFixed(1)} KB promoted a call, ${w.cpuMsPerCall.toFixed(3)} ms CPU`);
          windows[i]?.push(w);
        }
      }
      const ours = medianWindow(windows[0] as AllocWindow[]);
      const theirs = base !== undefined ? medianWindow(windows[1] as AllocWindow[]) : undefined;
      const what = `(spree, 1 worker, ${CLIENTS} connections, ${TRAFFIC}, ${ROUNDS === 1 ? "one window" : `median of ${ROUNDS} windows`} of ${CALLS} calls)`;
      const row = (metric: string, unit: string, f: (w: AllocWindow) => number): BenchRow => ({
        area: "alloc",
        metric: `${metric} ${what}`,
        value: Math.round(f(ours) * 100) / 100,
        unit,
        ...(theirs !== undefined ? { baseline: { name: base as string, value: Math.round(f(theirs) * 100) / 100 } } : {}),
      });
      return [
        row("bytes allocated per HTTP call", "KB", (w) => w.allocatedPerCall / 1024),
        row("bytes promoted to the old generation per call", "KB", (w) => w.promotedPerCall / 1024),
        row("bytes still live after a full collection per call", "KB", (w) => w.retainedPerCall / 1024),
        row("scavenges per 1,000 calls", "", (w) => w.scavengesPer1000),
        row("scavenge pauses per 1,000 calls", "ms", (w) => w.scavengeMsPer1000),
        row("mark-compacts per 1,000 calls", "", (w) => w.markCompactsPer1000),
        row("mark-compact pauses per 1,000 calls", "ms", (w) => w.markCompactMsPer1000),
        row("server CPU per call", "ms", (w) => w.cpuMsPerCall),
      ];
    } finally {
      for (const s of servers) await stopAllocServer(s);
    }
  },
};
