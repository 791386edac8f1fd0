import { setTimeout as sleep } from "node:timers/promises";
import { LIMITS } from "../src/limits.js";
import type { DocsRuntime } from "../src/engine/runtime.js";
import { SHELL_COMMANDS } from "../src/engine/shell/commands/index.js";
import { DocsShell, createDocsBash } from "../src/engine/shell/docs-shell.js";
import { ShellHost } from "../src/engine/shell/shell-host.js";
import { localContext } from "../src/vfs/request-context.js";
import { type BenchRow, percentile, timeMany } from "./bench.js";

/** Stuck in synchronous code until its worker is stopped (with `maxLoopIterations: 1e12, maxSteps: 1e15`). */
const RUNAWAY = "awk 'BEGIN { for (i = 0; i < 1e12; i++) s += i; print s }'";

/** The default limits, with loops bounded only by time: a runaway runs until it is stopped. */
const RUNAWAY_LIMITS = { ...LIMITS.shell, maxLoopIterations: 1e12, maxSteps: 1e15 };

/** What the victim saw, and when the runaways were stopped (ms after they were sent; empty when not waited for). */
interface Scenario {
  readonly victimMs: readonly number[];
  readonly stoppedMs: readonly number[];
}

/**
 * Three runaway commands (of one caller or of three) start; once they run, another reader's
 * `ls /` is timed (`victims` times in a row, each waiting for the one before). Then, with
 * `waitForStops`, the runaways are left to be stopped at their limit.
 */
async function scenario(runtime: DocsRuntime, workers: number | undefined, callers: readonly string[], victims: number, waitForStops: boolean): Promise<Scenario> {
  const host = new ShellHost({ limits: RUNAWAY_LIMITS, ...(workers !== undefined ? { workers } : {}) });
  try {
    const shell = host.shellFor(runtime.site, runtime.readerState(localContext()).view);
    // A server that has been serving: its workers are loaded (what a victim meets in practice).
    await Promise.all(Array.from({ length: host.size }, (_, k) => shell.run("ls /", `warm-${k}`)));
    const started = performance.now();
    const stopped = callers.map((caller) => shell.run(RUNAWAY, caller).then(() => performance.now() - started));
    // Let them take their workers (a pause in a benchmark, never in a test).
    await sleep(300);
    const victimMs = await timeMany(victims, () => shell.run("ls /", "victim"));
    return { victimMs, stoppedMs: waitForStops ? await Promise.all(stopped) : [] };
  } finally {
    await host.close();
  }
}

/**
 * The shell pool's figures: another reader's latency while runaways run, before (one worker:
 * what `serve --http` had) and after (the pool); how soon a runaway is stopped; what a fresh
 * interpreter per call costs.
 */
export async function shellPoolRows(runtime: DocsRuntime, log: (message: string) => void): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const { maxExecutionMs } = LIMITS.shell;
  const grace = LIMITS.shellWorker.stuckGraceMs;
  for (const [what, callers] of [
    ["one caller", ["attacker", "attacker", "attacker"]],
    ["three callers", ["attacker-1", "attacker-2", "attacker-3"]],
  ] as const) {
    log(`victim while 3 runaways of ${what} run: one worker...`);
    const before = await scenario(runtime, 1, callers, 1, false);
    log(`victim while 3 runaways of ${what} run: the pool...`);
    // Three callers' runaways all run at once (one caller's third waits for a worker of its own).
    const after = await scenario(runtime, undefined, callers, 10, callers.length === new Set(callers).size);
    const worst = Math.max(...after.victimMs);
    rows.push({
      area: "shell",
      metric: `another reader's \`ls /\` while 3 runaway commands of ${what} run (spree; worst of 10; baseline: one shell worker)`,
      value: worst,
      unit: "ms",
      baseline: { name: "one worker", value: percentile(before.victimMs, 50) },
      target: "< 1500 ms",
      ok: worst < 1_500,
    });
    if (after.stoppedMs.length === 0) continue;
    const lastStop = Math.max(...after.stoppedMs);
    rows.push({
      area: "shell",
      metric: `3 runaway commands stuck in synchronous code, the last stopped after (limit ${maxExecutionMs} ms + grace ${grace} ms)`,
      value: lastStop,
      unit: "ms",
      target: `<= ${maxExecutionMs + grace + 250} ms`,
      ok: lastStop <= maxExecutionMs + grace + 250,
    });
  }

  // Bounds that used to be wall-clock assertions in test/shell/limits.test.ts.
  const view = runtime.readerState(localContext()).view;
  const commands = SHELL_COMMANDS.map((make) => make(view));
  const loopLimits = { ...LIMITS.shell, maxExecutionMs: 200, maxCommandCount: 1e9, maxLoopIterations: 1e9 };
  const loop = new DocsShell(view, commands, loopLimits);
  const [loopMs] = await timeMany(1, () => loop.run("while true; do rg -c zzzz / > /dev/null; grep -r zzzz / > /dev/null; done"));
  rows.push({
    area: "shell",
    metric: "a loop of our commands stopped after (in-thread; limit 200 ms, checked between files)",
    value: loopMs as number,
    unit: "ms",
    target: "<= 2000 ms",
    ok: (loopMs as number) <= 2_000,
  });
  const regex = new DocsShell(view, commands, { ...LIMITS.shell, maxExecutionMs: 1_000 });
  const [regexMs] = await timeMany(1, () => regex.run(`printf '${"a".repeat(40)}!\\n' | rg -c '(\\w|\\w)+#'`));
  rows.push({
    area: "shell",
    metric: "a catastrophic regex refused after (tried in a probe worker; limit 1000 ms)",
    value: regexMs as number,
    unit: "ms",
    target: "<= 1500 ms",
    ok: (regexMs as number) <= 1_500,
  });

  // A fresh interpreter per call (isolation) against one kept between calls (what leaked state).
  const shell = new DocsShell(view, commands);
  const kept = createDocsBash(view, commands, LIMITS.shell);
  for (let k = 0; k < 50; k++) {
    await shell.run("ls /");
    await kept.exec("ls /", { cwd: "/" });
  }
  const fresh = percentile(await timeMany(300, () => shell.run("ls /")), 50);
  const reused = percentile(await timeMany(300, () => kept.exec("ls /", { cwd: "/" })), 50);
  rows.push({
    area: "shell",
    metric: "`ls /` p50 with a fresh interpreter per call (spree; baseline: one interpreter kept between calls)",
    value: fresh,
    unit: "ms",
    baseline: { name: "kept interpreter", value: reused },
  });
  return rows;
}
