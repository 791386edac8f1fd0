import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The reading side of bench/loop-probe.mjs (issue 23): what made a run's tail, per server
 * process, counted rather than timed, so that a busy machine says which it was. A process's
 * blocking events (its event loop late by > 20 ms) split into time on a core, time waiting for
 * one (the machine) and time asleep (V8's helper threads, synchronous I/O); its garbage
 * collections by kind; and how wrk's connections were spread over the workers (node:cluster
 * hands each new connection to whichever worker acknowledged its last one first, so a worker busy
 * while wrk connects gets fewer, and the other's queue, and tail, grows).
 */

const PRELOAD = fileURLToPath(new URL("./loop-probe.mjs", import.meta.url));

export interface GcKind {
  readonly n: number;
  readonly ms: number;
  readonly maxMs: number;
  readonly over20: number;
}

interface Totals {
  readonly requests: number;
  readonly connections: number;
  readonly blocked20: number;
  readonly blocked50: number;
  readonly blocked100: number;
  readonly blockedMs: number;
  readonly blockedRunMs: number;
  readonly blockedRunnableMs: number;
  readonly blockedAsleepMs: number;
  readonly maxBlockedMs: number;
  /** The main thread's time on a core and waiting for one, in all (schedstat). */
  readonly run: number;
  readonly wait: number;
  readonly gc: Record<string, GcKind>;
  readonly newSpaceMb: number;
}

/** One process's counts over a run. */
export interface ProbeRound {
  readonly pid: number;
  /** HTTP requests this process answered, and connections it was given (handed or accepted). */
  readonly requests: number;
  readonly connections: number;
  /** Blocking events over 20, 50 and 100 ms. */
  readonly blocked: readonly [number, number, number];
  /** Of the blocking events' time: on a core, runnable waiting for a core, asleep (ms). */
  readonly blockedRunMs: number;
  readonly blockedRunnableMs: number;
  readonly blockedAsleepMs: number;
  /** The main thread over the whole run: on a core, and runnable but waiting for one (ms). */
  readonly mainRunMs: number;
  readonly mainRunnableMs: number;
  /** Per kind: collections, their pauses' total and how many exceeded 20 ms (max: the process's longest so far). */
  readonly gc: Record<string, GcKind>;
  /** The young generation's size at the run's end (MB). */
  readonly newSpaceMb: number;
}

/** The environment and Node option that load the probe into a server and its workers. */
export function probeEnv(): { dir: string; env: Record<string, string>; nodeOption: string } {
  const dir = mkdtempSync(join(tmpdir(), "svc-loop-probe-"));
  return { dir, env: { BENCH_LOOP_PROBE_DIR: dir }, nodeOption: `--import=${PRELOAD}` };
}

/** Every process's totals so far (each writes them on SIGUSR2). */
export async function probeTotals(dir: string, pids: readonly number[]): Promise<Map<number, Totals>> {
  const file = (pid: number): string => join(dir, `${pid}.json`);
  for (const pid of pids) {
    rmSync(file(pid), { force: true });
    process.kill(pid, "SIGUSR2");
  }
  // A busy process writes at its next turn, and a file can be seen before its writeFileSync has
  // written it (on a loaded machine a read found it empty): read until each parses.
  const read = (pid: number): Totals | undefined => {
    try {
      return JSON.parse(readFileSync(file(pid), "utf8")) as Totals;
    } catch {
      return undefined;
    }
  };
  for (let i = 0; i < 200 && !pids.every((pid) => existsSync(file(pid)) && read(pid) !== undefined); i++) await new Promise((r) => setTimeout(r, 50));
  return new Map(pids.map((pid) => [pid, read(pid) as Totals]));
}

/** What happened between two totals, per process. */
export function probeRound(before: Map<number, Totals>, after: Map<number, Totals>): ProbeRound[] {
  return [...after].map(([pid, a]) => {
    const b = before.get(pid) as Totals;
    const ms = (x: number): number => Math.round(x);
    const gc = Object.fromEntries(
      Object.entries(a.gc).map(([kind, g]) => {
        const was = b.gc[kind] ?? { n: 0, ms: 0, maxMs: 0, over20: 0 };
        return [kind, { n: g.n - was.n, ms: ms(g.ms - was.ms), maxMs: ms(g.maxMs), over20: g.over20 - was.over20 }];
      }),
    );
    return {
      pid,
      requests: a.requests - b.requests,
      connections: a.connections - b.connections,
      blocked: [a.blocked20 - b.blocked20, a.blocked50 - b.blocked50, a.blocked100 - b.blocked100],
      blockedRunMs: ms(a.blockedRunMs - b.blockedRunMs),
      blockedRunnableMs: ms(a.blockedRunnableMs - b.blockedRunnableMs),
      blockedAsleepMs: ms(a.blockedAsleepMs - b.blockedAsleepMs),
      mainRunMs: ms(a.run - b.run),
      mainRunnableMs: ms(a.wait - b.wait),
      gc,
      newSpaceMb: Math.round(a.newSpaceMb * 10) / 10,
    };
  });
}

/**
 * Established connections to `port` per server process, `afterMs` from now (`ss`; run while wrk
 * holds this thread in execFileSync: the answer is read once it returns).
 */
export function connectionsLater(port: number, afterMs: number): { child: ChildProcess; read: () => Promise<Record<number, number>> } {
  const child = spawn("sh", ["-c", `sleep ${afterMs / 1000}; ss -tnpH state established '( sport = :${port} )'`], { stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    child,
    read: async () => {
      await exited;
      const counts: Record<number, number> = {};
      for (const m of out.matchAll(/pid=(\d+),/g)) counts[Number(m[1])] = (counts[Number(m[1])] ?? 0) + 1;
      return counts;
    },
  };
}
