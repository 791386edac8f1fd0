/**
 * The shell pool's lifecycle, asserted by the pool's own events (never by time): a caller's
 * cancellation frees its place at once, waiting or running; a worker takes no call before it
 * holds the snapshot, and loading never counts against a command's time limit; a worker that
 * dies while loading is replaced and the call waiting for it answers as if nothing happened.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import type { PoolEvent } from "../../src/engine/shell/pool-events.js";
import { ShellHost } from "../../src/engine/shell/shell-host.js";
import { cpuLimitMessage } from "../../src/engine/shell/shell.js";
import { ANONYMOUS } from "../../src/vfs/access.js";
import { localContext, requestContext } from "../../src/vfs/request-context.js";
import type { Site } from "../../src/vfs/site.js";
import { SiteView } from "../../src/vfs/view.js";
import { fixture } from "../helpers/paths.js";
import { PoolRecorder } from "../helpers/pool-events.js";

/** Synchronous code (with `maxLoopIterations: 1e12, maxAwkSedIterations: 1e13, maxSteps: 1e15`) that only a cancellation stops: the interpreter checks for one as it loops. */
const RUNAWAY = "awk 'BEGIN { for (i = 0; i < 1e12; i++) s += i; print s }'";
/** Runaways run for an hour: past the suite's hang detector, so only a cancellation ends one in a test. */
const RUNAWAY_LIMITS = { ...LIMITS.shell, maxExecutionMs: 3_600_000, maxLoopIterations: 1e12, maxAwkSedIterations: 1e13, maxSteps: 1e15 };
/** And an hour of their thread's CPU (`LIMITS.shellWorker.maxCpuMs`), for the same reason. */
const RUNAWAY_CPU_MS = 3_600_000;
/**
 * An hour for a cancelled command to stop inside its worker before the worker is ended
 * (`LIMITS.shellWorker.cancelGraceMs`, 2 s of wall clock). The tests that assert it stops there
 * (the worker kept, the next call on it) wait for that event; with the default grace a worker
 * thread given little CPU on a busy machine (issue 25, load 30-40) could reach its next check
 * after 2 s, and the worker was ended and replaced: an order decided by the machine's speed.
 */
const STOP_IN_WORKER_MS = 3_600_000;
/**
 * Trust by one answer (`trustAnswers`): the tests whose reader is made trusted by an answer or
 * two, the rule before adversary round 54 F3, assert other rules; the count itself is asserted
 * in "callers prepared with one answer each", with the default.
 */
const TRUSTED_BY_ONE = 1;
const CANCELLED = { stdout: "", stderr: "bash: cancelled by the client\n", exitCode: 130, truncated: false };
const HI = { stdout: "hi\n", stderr: "", exitCode: 0, truncated: false };

/** Resolves once `cell[0]` is no longer 0: `Atomics.waitAsync` (Node has it; the project's lib setting does not type it). */
async function whenNotZero(cell: Int32Array): Promise<void> {
  const waitAsync = (Atomics as unknown as { waitAsync: (a: Int32Array, at: number, value: number) => { value: Promise<string> | string } }).waitAsync;
  await waitAsync(cell, 0, 0).value;
}

/** Resolves once `cell[0]` is at least `n` (`Atomics.waitAsync`, as `whenNotZero`). */
async function whenAtLeast(cell: Int32Array, n: number): Promise<void> {
  const waitAsync = (Atomics as unknown as { waitAsync: (a: Int32Array, at: number, value: number) => { value: Promise<string> | string } }).waitAsync;
  for (let seen = Atomics.load(cell, 0); seen < n; seen = Atomics.load(cell, 0)) await waitAsync(cell, 0, seen).value;
}

let runtime: DocsRuntime;
let lsRoot: unknown;

beforeAll(async () => {
  runtime = await DocsRuntime.load({ root: fixture("demo") });
  lsRoot = await runtime.readerState(localContext()).shell.run("ls /");
});

afterAll(async () => {
  await runtime?.close();
});

const view = () => runtime.readerState(localContext()).view;

describe("a cancelled call", () => {
  it("running (a runaway awk loop): it stops inside its worker, which is kept and runs the call waiting behind it (a pool of one)", async () => {
    const rec = new PoolRecorder();
    const host = new ShellHost({ workers: 1, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, cancelGraceMs: STOP_IN_WORKER_MS, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      const abort = new AbortController();
      const runaway = shell.run(RUNAWAY, "attacker", abort.signal);
      await rec.next((e) => e.t === "start" && e.call === 1);
      const victim = shell.run("ls /", "victim");
      await rec.next((e) => e.t === "queued" && e.call === 2);
      abort.abort();
      expect(await runaway).toEqual(CANCELLED);
      expect(await victim).toEqual(lsRoot);
      expect(rec.lines()).toEqual([
        "call 1 queued by attacker",
        "spawn worker 1",
        "worker 1 loading snapshot 1",
        "worker 1 loaded snapshot 1",
        "call 1 started on worker 1",
        "call 2 queued by victim",
        "call 1 ended: cancelled",
        "call 1 stopped on worker 1: exit 130",
        "call 2 started on worker 1",
        "call 2 ended: result",
      ]);
    } finally {
      await host.close();
    }
  });

  it("running a command that checks for aborts (a runaway awk): it stops inside its worker, which is kept and runs the next call; no worker is started again", async () => {
    const rec = new PoolRecorder();
    const host = new ShellHost({ workers: 1, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, cancelGraceMs: STOP_IN_WORKER_MS, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      const abort = new AbortController();
      const runaway = shell.run(RUNAWAY, "attacker", abort.signal);
      await rec.next((e) => e.t === "start" && e.call === 1);
      const victim = shell.run("ls /", "victim");
      await rec.next((e) => e.t === "queued" && e.call === 2);
      abort.abort();
      expect(await runaway).toEqual(CANCELLED);
      expect(await victim).toEqual(lsRoot);
      expect(rec.lines()).toEqual([
        "call 1 queued by attacker",
        "spawn worker 1",
        "worker 1 loading snapshot 1",
        "worker 1 loaded snapshot 1",
        "call 1 started on worker 1",
        "call 2 queued by victim",
        "call 1 ended: cancelled",
        "call 1 stopped on worker 1: exit 130",
        "call 2 started on worker 1",
        "call 2 ended: result",
      ]);
    } finally {
      await host.close();
    }
  });

  it("running a jq that never ends (inside WebAssembly, where nothing checks for aborts): only its jq thread is ended; the worker is kept and answers the call waiting behind it (issue 25)", async () => {
    const rec = new PoolRecorder();
    // An hour of grace: were the jq not ended alone, the worker would only be ended at the grace
    // (as before, after 2 s), and this test would wait for it instead of answering.
    const jqRuns = new Int32Array(new SharedArrayBuffer(4));
    const host = new ShellHost({ workers: 1, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, cancelGraceMs: 3_600_000, jqRuns, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      const abort = new AbortController();
      const runaway = shell.run("jq -n 'def f: f; f'", "attacker", abort.signal);
      await rec.next((e) => e.t === "start" && e.call === 1);
      const victim = shell.run("jq -n '[1, 2] | add' && ls /", "victim");
      await rec.next((e) => e.t === "queued" && e.call === 2);
      // The runaway is inside jq (its thread entered it), not still being set up.
      await whenNotZero(jqRuns);
      abort.abort();
      expect(await runaway).toEqual(CANCELLED);
      expect(await victim).toEqual({ ...(lsRoot as object), stdout: `3\n${(lsRoot as { stdout: string }).stdout}` });
      expect(rec.lines()).toEqual([
        "call 1 queued by attacker",
        "spawn worker 1",
        "worker 1 loading snapshot 1",
        "worker 1 loaded snapshot 1",
        "call 1 started on worker 1",
        "call 2 queued by victim",
        "call 1 ended: cancelled",
        "call 1 stopped on worker 1: exit 130",
        "call 2 started on worker 1",
        "call 2 ended: result",
      ]);
    } finally {
      await host.close();
    }
  });

  it("waiting: it leaves the queue at once, and its caller's place with it; the running call goes on", async () => {
    const rec = new PoolRecorder();
    const host = new ShellHost({ workers: 1, maxHeldPerCaller: 2, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, cancelGraceMs: STOP_IN_WORKER_MS, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      const first = new AbortController();
      const second = new AbortController();
      const running = shell.run(RUNAWAY, "a", first.signal);
      await rec.next((e) => e.t === "start" && e.call === 1);
      const waiting = shell.run("echo hi", "a", second.signal);
      second.abort();
      expect(await waiting).toEqual(CANCELLED);
      // Its place is free: a holds one (running) again, so one more may wait.
      const third = shell.run("echo hi", "a");
      await rec.next((e) => e.t === "queued" && e.call === 3);
      first.abort();
      expect(await running).toEqual(CANCELLED);
      expect(await third).toEqual(HI);
      expect(rec.lines(["queued", "refused", "start", "end"])).toEqual([
        "call 1 queued by a",
        "call 1 started on worker 1",
        "call 2 queued by a",
        "call 2 ended: cancelled",
        "call 3 queued by a",
        "call 1 ended: cancelled",
        "call 3 started on worker 1",
        "call 3 ended: result",
      ]);
    } finally {
      await host.close();
    }
  });

  it("given up before it was asked: nothing is queued", async () => {
    const rec = new PoolRecorder();
    const host = new ShellHost({ workers: 1, onEvent: rec.onEvent });
    try {
      const abort = new AbortController();
      abort.abort();
      expect(await host.shellFor(runtime.site, view()).run("echo hi", "a", abort.signal)).toEqual(CANCELLED);
      expect(rec.lines(["queued", "start", "end"])).toEqual([]);
    } finally {
      await host.close();
    }
  });
});

describe("bounds per caller", () => {
  it("a caller already running may not take the last free workers (the reserve); a caller with nothing running may", async () => {
    const rec = new PoolRecorder();
    // A pool of four keeping two: a caller running one may start a second only while two stay free.
    const host = new ShellHost({ workers: 4, reserveWorkers: 2, maxRunningPerCaller: 2, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      const aborts = [new AbortController(), new AbortController(), new AbortController()];
      const a1 = shell.run(RUNAWAY, "a", aborts[0]?.signal);
      await rec.next((e) => e.t === "start" && e.call === 1);
      const b1 = shell.run(RUNAWAY, "b", aborts[1]?.signal);
      await rec.next((e) => e.t === "start" && e.call === 2);
      // Two running, two free: a's second would leave one free, under the reserve. It waits.
      const a2 = shell.run(RUNAWAY, "a", aborts[2]?.signal);
      await rec.next((e) => e.t === "queued" && e.call === 3);
      expect(await shell.run("ls /", "victim")).toEqual(lsRoot);
      // The waiting one first (else it would start when a's first ends).
      for (const k of [2, 0, 1]) aborts[k]?.abort();
      expect(await Promise.all([a1, b1, a2])).toEqual([CANCELLED, CANCELLED, CANCELLED]);
      // Which worker takes which call depends on which starts first; the calls' order does not.
      expect(rec.lines(["start", "end"]).map((l) => l.replace(/ on worker \d+$/, ""))).toEqual([
        "call 1 started",
        "call 2 started",
        // Call 3 (a's second) never started: the victim's call took a worker first.
        "call 4 started",
        "call 4 ended: result",
        "call 3 ended: cancelled",
        "call 1 ended: cancelled",
        "call 2 ended: cancelled",
      ]);
    } finally {
      await host.close();
    }
  });
});

describe("new callers", () => {
  it("fresh callers, as many as the pool has workers, each sending a first runaway, leave a worker for a caller whose commands answer", async () => {
    const rec = new PoolRecorder();
    // A pool of four keeping two, one of them for trusted callers (issue 25 on the pool of six: six fresh addresses held every worker).
    // Preemption off (`trialMs: 0`): this asserts the reserves alone (preemption: "a newcomer behind a stream of fresh runaways").
    const host = new ShellHost({ trustAnswers: TRUSTED_BY_ONE, workers: 4, reserveWorkers: 2, trustedWorkers: 1, maxRunningPerCaller: 2, trialMs: 0, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      // The victim has been reading: its commands answer, so it is trusted.
      expect(await shell.run("ls /", "victim")).toEqual(lsRoot);
      const fresh = ["f1", "f2", "f3", "f4"];
      const aborts = fresh.map(() => new AbortController());
      const held = fresh.map((caller, k) => shell.run(RUNAWAY, caller, aborts[k]?.signal));
      await rec.next((e) => e.t === "queued" && e.call === 5);
      // Three start as workers are ready, each leaving a warm one.
      await rec.next((e) => e.t === "start" && e.call === 4);
      expect(await shell.run("ls /", "victim")).toEqual(lsRoot);
      // Three new callers' runaways run; the fourth waits (it would take the trusted worker); the victim's ls ran.
      expect(rec.events.flatMap((e) => (e.t === "start" ? [e.call] : []))).toEqual([1, 2, 3, 4, 6]);
      for (const a of aborts) a.abort();
      expect(await Promise.all(held)).toEqual(fresh.map(() => CANCELLED));
    } finally {
      await host.close();
    }
  });

  it("at the adversary's numbers (a pool of six, six fresh addresses each sending one runaway at once, 2026-11-28): a trusted reader's command starts while five runaways run, before any ends", async () => {
    const rec = new PoolRecorder();
    // The pool of a 2-core machine with its default bounds but preemption (`trialMs: 0`: the
    // reserves alone); callers keyed as the bridge keys addresses.
    const host = new ShellHost({ trustAnswers: TRUSTED_BY_ONE, workers: 6, trialMs: 0, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      const reader = "address:198.51.100.9";
      // Two answered `ls /`: trusted.
      expect(await shell.run("ls /", reader)).toEqual(lsRoot);
      expect(await shell.run("ls /", reader)).toEqual(lsRoot);
      const fresh = [1, 2, 3, 4, 5, 6].map((k) => `address:10.25.0.${k}`);
      const aborts = fresh.map(() => new AbortController());
      const held = fresh.map((caller, k) => shell.run(RUNAWAY, caller, aborts[k]?.signal));
      // Five start as workers are ready; the sixth would take the last worker, kept for trusted callers.
      await rec.next((e) => e.t === "start" && e.call === 7);
      expect(await shell.run("ls /", reader)).toEqual(lsRoot);
      for (const a of aborts) a.abort();
      expect(await Promise.all(held)).toEqual(fresh.map(() => CANCELLED));
      // Which worker takes which call depends on which starts first; the calls' order does not.
      expect(rec.lines(["start", "end"]).map((l) => l.replace(/ on worker \d+$/, ""))).toEqual([
        "call 1 started",
        "call 1 ended: result",
        "call 2 started",
        "call 2 ended: result",
        "call 3 started",
        "call 4 started",
        "call 5 started",
        "call 6 started",
        "call 7 started",
        // Call 8 (the sixth address) never started; the reader's call 9 ran while the five held theirs.
        "call 9 started",
        "call 9 ended: result",
        "call 3 ended: cancelled",
        "call 4 ended: cancelled",
        "call 5 ended: cancelled",
        "call 6 ended: cancelled",
        "call 7 ended: cancelled",
        "call 8 ended: cancelled",
      ]);
    } finally {
      await host.close();
    }
  });
});

describe("callers prepared with one answer each (adversary round 54 F3)", () => {
  it("at the adversary's numbers (a pool of six; loopback addresses, one `ls /` answered from each, then one runaway from each at once): they are new, not trusted, so five runaways run, the sixth waits, and a reader with a longer record gets the last worker while they run", async () => {
    const rec = new PoolRecorder();
    // The pool of a 2-core machine with its default bounds but preemption (`trialMs: 0`: the
    // count and the reserves alone). Loopback addresses have no network (`callerNetwork`): the
    // count alone must hold. Before, one answer made a caller trusted, free to take any worker:
    // the sixth runaway took the last worker and the reader waited for one to end.
    const host = new ShellHost({ workers: 6, trialMs: 0, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      const reader = "address:127.0.0.2";
      // The reader has been reading: calls 1-8, `LIMITS.shellWorker.trustAnswers` answers.
      for (let k = 0; k < LIMITS.shellWorker.trustAnswers; k++) expect(await shell.run("ls /", reader)).toEqual(lsRoot);
      const prepared = [1, 2, 3, 4, 5, 6].map((k) => `address:127.0.54.${k}`);
      // Calls 9-14: one answered `ls /` from each.
      for (const caller of prepared) expect(await shell.run("ls /", caller)).toEqual(lsRoot);
      const aborts = prepared.map(() => new AbortController());
      // Calls 15-20: one runaway from each.
      const held = prepared.map((caller, k) => shell.run(RUNAWAY, caller, aborts[k]?.signal));
      await rec.next((e) => e.t === "start" && e.call === 19);
      const read = shell.run("cat /index.mdx | head -3", reader);
      // The sixth runaway (call 20) or the reader's `cat` (call 21): which the last worker took.
      const first = await rec.next((e) => e.t === "start" && (e.call === 20 || e.call === 21));
      expect(first.t === "start" && first.call).toBe(21);
      const cat = await read;
      expect(cat).toEqual(await runtime.readerState(localContext()).shell.run("cat /index.mdx | head -3"));
      for (const a of aborts) a.abort();
      expect(await Promise.all(held)).toEqual(prepared.map(() => CANCELLED));
      expect(rec.lines(["start", "end"]).slice(28).map((l) => l.replace(/ on worker \d+$/, ""))).toEqual([
        "call 15 started",
        "call 16 started",
        "call 17 started",
        "call 18 started",
        "call 19 started",
        // Call 20 never started; the reader's call 21 ran while the five held theirs.
        "call 21 started",
        "call 21 ended: result",
        "call 15 ended: cancelled",
        "call 16 ended: cancelled",
        "call 17 ended: cancelled",
        "call 18 ended: cancelled",
        "call 19 ended: cancelled",
        "call 20 ended: cancelled",
      ]);
    } finally {
      await host.close();
    }
  });
});

describe("a new caller's trial", () => {
  it("a runaway jq's trial ends by its jq thread's CPU, not the wall: a newcomer waiting for the full pool gets the jq's worker (issue 25; before, only `trialMs` of wall time stopped a jq, whose thread the pool did not read)", async () => {
    const rec = new PoolRecorder();
    // Two workers, one kept for callers with nothing running; the wall never decides (`trialMs`: an hour).
    const host = new ShellHost({ trustAnswers: TRUSTED_BY_ONE, workers: 2, reserveWorkers: 1, trialMs: 3_600_000, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      // A trusted caller's runaway (not a trial: never stopped to make room) holds one worker.
      expect(await shell.run("ls /", "trusted")).toEqual(lsRoot);
      const abortAwk = new AbortController();
      const awk = shell.run(RUNAWAY, "trusted", abortAwk.signal);
      await rec.next((e) => e.t === "start" && e.call === 2);
      // A fresh caller's runaway jq (it spins in its jq thread; the worker's own thread waits) the other.
      const abortJq = new AbortController();
      const jq = shell.run("jq -n 'def f: f; f'", "fresh", abortJq.signal);
      await rec.next((e) => e.t === "start" && e.call === 3);
      // A new reader waits with no worker it may take; the jq's trial ends once its thread has
      // used `trialCpuMs`, and the reader's command runs on its worker.
      expect(await shell.run("ls /", "reader")).toEqual(lsRoot);
      abortJq.abort();
      expect(await jq).toEqual(CANCELLED);
      abortAwk.abort();
      expect(await awk).toEqual(CANCELLED);
      expect(rec.lines(["queued", "start", "end", "preempted", "requeued"]).map((l) => l.replace(/ on worker \d+$/, ""))).toEqual([
        "call 1 queued by trusted",
        "call 1 started",
        "call 1 ended: result",
        "call 2 queued by trusted",
        "call 2 started",
        "call 3 queued by fresh",
        "call 3 started",
        "call 4 queued by reader",
        "call 3 preempted",
        "call 3 requeued by fresh",
        "call 4 started",
        "call 4 ended: result",
        "call 3 ended: cancelled",
        "call 2 ended: cancelled",
      ]);
    } finally {
      await host.close();
    }
  });
});

describe("ready workers and the reserves", () => {
  it("a heavy caller waits for a worker to start rather than take one of the last ready ones; a newcomer arriving meanwhile takes one at once (issue 25)", async () => {
    const rec = new PoolRecorder();
    // [open, crashes]: open while the first workers start; closed, a worker started later waits in its load.
    const gate = new Int32Array(new SharedArrayBuffer(8));
    gate[0] = 1;
    // A pool of four keeping two for callers with nothing running, one of them for trusted ones;
    // no trials (`trialMs: 0`): the reserves alone.
    const host = new ShellHost({ trustAnswers: TRUSTED_BY_ONE, workers: 4, reserveWorkers: 2, trustedWorkers: 1, maxRunningPerCaller: 2, trialMs: 0, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, cancelGraceMs: STOP_IN_WORKER_MS, loadGate: gate, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      // The reader's commands answer: trusted.
      expect(await shell.run("ls /", "reader")).toEqual(lsRoot);
      // h gives up a running runaway: heavy (its floor: both reserved workers).
      const abortFirst = new AbortController();
      const first = shell.run(RUNAWAY, "h", abortFirst.signal);
      await rec.next((e) => e.t === "start" && e.call === 2);
      abortFirst.abort();
      expect(await first).toEqual(CANCELLED);
      await rec.next((e) => e.t === "stopped" && e.call === 2);
      // The workers started so far hold the snapshot; any started from now on waits at the gate.
      const spawned = rec.events.flatMap((e) => (e.t === "spawn" ? [e.worker] : []));
      await Promise.all(spawned.map((w) => rec.next((e) => e.t === "loaded" && e.worker === w)));
      expect(spawned).toEqual([1, 2, 3]);
      Atomics.store(gate, 0, 0);
      // The reader's own runaway takes a ready worker (a trusted caller may take any): two are left.
      const abortReader = new AbortController();
      const readerRunaway = shell.run(RUNAWAY, "reader", abortReader.signal);
      // h's runaway would leave one ready worker where its floor is two, with places free only
      // for workers still to start: it waits, and a fourth worker starts (held at the gate).
      const abortSecond = new AbortController();
      const second = shell.run(RUNAWAY, "h", abortSecond.signal);
      // Said at once (a call is given a worker as it is queued), before anything else happens.
      expect(rec.lines(["spawn", "queued", "start"]).slice(-4)).toEqual(["call 3 queued by reader", "call 3 started on worker 1", "call 4 queued by h", "spawn worker 4"]);
      // A newcomer finds a ready worker and is answered while the fourth is still starting.
      expect(await shell.run("ls /", "newcomer")).toEqual(lsRoot);
      expect(rec.events.some((e) => e.t === "loaded" && e.worker === 4)).toBe(false);
      // Once it holds the snapshot three are ready: h's runaway takes one, leaving the reserve.
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      await rec.next((e) => e.t === "start" && e.call === 4);
      abortSecond.abort();
      abortReader.abort();
      expect(await Promise.all([second, readerRunaway])).toEqual([CANCELLED, CANCELLED]);
      expect(rec.lines(["queued", "start", "end"]).slice(6)).toEqual([
        "call 3 queued by reader",
        "call 3 started on worker 1",
        "call 4 queued by h",
        "call 5 queued by newcomer",
        "call 5 started on worker 2",
        "call 5 ended: result",
        // Worker 4 loaded: three ready, h's floor of two left after it.
        "call 4 started on worker 2",
        "call 4 ended: cancelled",
        "call 3 ended: cancelled",
      ]);
    } finally {
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      await host.close();
    }
  });
});

describe("places owed to callers with nothing running are started workers (docs/security.md row 169)", () => {
  it("a trusted reader arriving while runaways hold every started worker and the free places are workers still starting gets a started worker: a trial is stopped for it, no start is waited for", async () => {
    const rec = new PoolRecorder();
    // [open, crashes]: open while the first workers start; closed, a worker started later never
    // holds the snapshot, as a start on cores the runaways saturate (10-50 s) does not in time.
    const gate = new Int32Array(new SharedArrayBuffer(8));
    gate[0] = 1;
    const jqRuns = new Int32Array(new SharedArrayBuffer(4));
    // The pool of a 2-core machine with its default bounds (six workers, two kept for callers
    // with nothing running, one of them for trusted ones); a trial may be stopped from its first
    // CPU (`trialCpuMs: 0`), so the pool decides as the reader's call is queued; never by the
    // wall (`trialMs`: an hour); a stopped command stops inside its worker, which is kept.
    const host = new ShellHost({ trustAnswers: TRUSTED_BY_ONE, workers: 6, trialCpuMs: 0, trialMs: 3_600_000, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, cancelGraceMs: STOP_IN_WORKER_MS, loadGate: gate, jqRuns, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      // The reader's and t1's commands answer: both trusted.
      expect(await shell.run("ls /", "reader")).toEqual(lsRoot);
      expect(await shell.run("ls /", "t1")).toEqual(lsRoot);
      const spawned = rec.events.flatMap((e) => (e.t === "spawn" ? [e.worker] : []));
      await Promise.all(spawned.map((w) => rec.next((e) => e.t === "loaded" && e.worker === w)));
      expect(spawned).toEqual([1, 2, 3]);
      Atomics.store(gate, 0, 0);
      // Two fresh callers' jq runaways (trials) on workers 1 and 2, inside jq; t1's own runaway
      // (a trusted caller may take the last ready worker) on worker 3.
      const aborts = [new AbortController(), new AbortController(), new AbortController()];
      // One after the other, so fresh1's trial is the older.
      const f1 = shell.run("jq -n 'def f: f; f'", "fresh1", aborts[0]?.signal);
      await whenAtLeast(jqRuns, 1);
      const f2 = shell.run("jq -n 'def f: f; f'", "fresh2", aborts[1]?.signal);
      await whenAtLeast(jqRuns, 2);
      const t1 = shell.run(RUNAWAY, "t1", aborts[2]?.signal);
      // Three places of six run, three are free: two of them workers still starting (held at the gate).
      expect(rec.lines(["spawn", "start"]).slice(-5)).toEqual(["call 3 started on worker 1", "call 4 started on worker 2", "spawn worker 4", "call 5 started on worker 3", "spawn worker 5"]);
      // The reader's `ls /`: no started worker is free, so the oldest trial is stopped for it as
      // it is queued (said at once). Before, the three free places counted as the reader's, and it
      // waited for a start.
      const read = shell.run("ls /", "reader");
      expect(rec.lines(["queued", "preempted"]).slice(-2)).toEqual(["call 6 queued by reader", "call 3 preempted on worker 1"]);
      expect(await read).toEqual(lsRoot);
      // Answered on the worker the trial left, while the starts are still held.
      expect(rec.events.some((e) => e.t === "loaded" && e.worker > 3)).toBe(false);
      for (const a of aborts) a.abort();
      expect(await Promise.all([f1, f2, t1])).toEqual([CANCELLED, CANCELLED, CANCELLED]);
      expect(rec.lines(["start", "end", "preempted", "requeued"]).slice(4)).toEqual([
        "call 3 started on worker 1",
        "call 4 started on worker 2",
        "call 5 started on worker 3",
        "call 3 preempted on worker 1",
        "call 3 requeued by fresh1",
        "call 6 started on worker 1",
        "call 6 ended: result",
        // fresh1's second run waits (it leaves three workers free); given up, it leaves the queue.
        "call 3 ended: cancelled",
        "call 4 ended: cancelled",
        "call 5 ended: cancelled",
      ]);
    } finally {
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      await host.close();
    }
  });
});

describe("a command stopped at its limit", () => {
  it("by its work budget or its CPU limit: the worker answers, is kept and runs the next call; none is started again (issue 25)", async () => {
    const rec = new PoolRecorder();
    const limits = { ...RUNAWAY_LIMITS, maxSteps: 100_000 };
    const host = new ShellHost({ workers: 1, limits, maxCpuMs: 300, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      expect(await shell.run(RUNAWAY, "attacker")).toEqual({ stdout: "", stderr: "bash: awk: work limit reached (100000 steps per call; a limit of the docs shell: do less in one call)\n", exitCode: 124, truncated: false });
      expect(await shell.run("ls /", "victim")).toEqual(lsRoot);
      // jq compiled and its thread started (CPU of the worker's own, which the pool reads against the same limit).
      expect(await shell.run("jq -n 1", "victim")).toEqual({ stdout: "1\n", stderr: "", exitCode: 0, truncated: false });
      // A jq that never ends, stopped at the call's CPU limit in its own thread.
      expect(await shell.run("jq -n 'def f: f; f'", "attacker")).toEqual({ stdout: "", stderr: cpuLimitMessage(300), exitCode: 124, truncated: false });
      expect(await shell.run("ls /", "victim")).toEqual(lsRoot);
      // One worker throughout: none ended, none started again.
      expect(rec.lines()).toEqual([
        "call 1 queued by attacker",
        "spawn worker 1",
        "worker 1 loading snapshot 1",
        "worker 1 loaded snapshot 1",
        "call 1 started on worker 1",
        "call 1 ended: result",
        "call 2 queued by victim",
        "call 2 started on worker 1",
        "call 2 ended: result",
        "call 3 queued by victim",
        "call 3 started on worker 1",
        "call 3 ended: result",
        "call 4 queued by attacker",
        "call 4 started on worker 1",
        "call 4 ended: result",
        "call 5 queued by victim",
        "call 5 started on worker 1",
        "call 5 ended: result",
      ]);
    } finally {
      await host.close();
    }
  });
});

describe("a new caller's command stopped to make room", () => {
  it("runs again from its start on the worker that stopped it, not answered as cancelled (issue 25: a CI flake, `jq --help | head -2` said exit 130 on a loaded machine)", async () => {
    const rec = new PoolRecorder();
    const jqRuns = new Int32Array(new SharedArrayBuffer(4));
    // Two workers, one kept for callers with nothing running; a trial ends at its first
    // millisecond of CPU (the wall never decides: `trialMs` an hour).
    const host = new ShellHost({ trustAnswers: TRUSTED_BY_ONE, workers: 2, reserveWorkers: 1, trialCpuMs: 1, trialMs: 3_600_000, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, cancelGraceMs: STOP_IN_WORKER_MS, jqRuns, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      expect(await shell.run("ls /", "trusted")).toEqual(lsRoot);
      const spawned = rec.events.flatMap((e) => (e.t === "spawn" ? [e.worker] : []));
      await Promise.all(spawned.map((w) => rec.next((e) => e.t === "loaded" && e.worker === w)));
      expect(spawned).toEqual([1, 2]);
      // A fresh caller's jq that never ends, inside jq, on worker 1 (both ready: the first).
      const abortJq = new AbortController();
      const jq = shell.run("jq -n 'def f: f; f'", "fresh", abortJq.signal);
      await whenAtLeast(jqRuns, 1);
      // A trusted caller's runaway on worker 2.
      const abortAwk = new AbortController();
      const awk = shell.run(RUNAWAY, "trusted", abortAwk.signal);
      // A new reader waits: the jq's trial is stopped and the reader runs on its worker.
      expect(await shell.run("ls /", "reader")).toEqual(lsRoot);
      // The awk stops: the jq, queued again, runs again on worker 1, the worker that stopped it.
      abortAwk.abort();
      expect(await awk).toEqual(CANCELLED);
      const again = await Promise.race([jq.then((answer) => ({ answer })), whenAtLeast(jqRuns, 2).then(() => "inside jq again")]);
      expect(again).toBe("inside jq again");
      abortJq.abort();
      expect(await jq).toEqual(CANCELLED);
      // Call 1 ran on whichever worker was ready first; both were before call 2.
      expect(rec.lines(["start", "end", "preempted", "requeued"]).slice(2)).toEqual([
        "call 2 started on worker 1",
        "call 3 started on worker 2",
        "call 2 preempted on worker 1",
        "call 2 requeued by fresh",
        "call 4 started on worker 1",
        "call 4 ended: result",
        "call 3 ended: cancelled",
        "call 2 started on worker 1",
        "call 2 ended: cancelled",
      ]);
    } finally {
      await host.close();
    }
  });
});

describe("heavy callers", () => {
  it("callers that gave up a running command are heavy: their next runaways never take the reserve, so a caller with nothing running finds a worker", async () => {
    const rec = new PoolRecorder();
    const host = new ShellHost({ workers: 4, reserveWorkers: 2, maxRunningPerCaller: 2, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      const callers = ["h1", "h2", "h3", "h4"];
      // Each gives up a running runaway once (the bench's abandoned calls): now heavy.
      for (const caller of callers) {
        const abort = new AbortController();
        const call = shell.run(RUNAWAY, caller, abort.signal);
        const id = rec.events.filter((x) => x.t === "queued").length;
        const start = (await rec.next((e) => e.t === "start" && e.call === id)) as Extract<PoolEvent, { t: "start" }>;
        abort.abort();
        await call;
        // Its place is held until the command has stopped in its worker (or the worker was ended).
        await rec.next((e) => (e.t === "stopped" && e.call === id) || (e.t === "exit" && e.worker === start.worker));
      }
      // Then each holds one runaway: two run, two wait, two workers stay for others.
      const aborts = callers.map(() => new AbortController());
      const held = callers.map((caller, k) => shell.run(RUNAWAY, caller, aborts[k]?.signal));
      await rec.next((e) => e.t === "queued" && e.call === 8);
      expect(await shell.run("ls /", "victim")).toEqual(lsRoot);
      // Which of h2's runaway and the victim's ls starts first depends on when workers have
      // started (the last idle one is not a heavy caller's); that h3 and h4 never start does not.
      await rec.next((e) => e.t === "start" && e.call === 6);
      const started = rec.events.flatMap((e) => (e.t === "start" && e.call > 4 ? [e.call] : []));
      expect(started.sort((x, y) => x - y)).toEqual([5, 6, 9]);
      for (const a of aborts) a.abort();
      expect(await Promise.all(held)).toEqual(callers.map(() => CANCELLED));
    } finally {
      await host.close();
    }
  });
});

describe("callers whose commands answer after long CPU work", () => {
  it("are heavy, as callers stopped at a limit are: six of them, each then holding a runaway, leave the reserve, and a reader's call starts on a ready worker while their runaways run, before any ends (bench/shell-crowd.ts; before, trusted, they took all six workers and the reader waited for one to end)", async () => {
    const rec = new PoolRecorder();
    // The pool of a 2-core machine with its default bounds; heavy at 200 ms of CPU, a fifth of
    // what the long command below uses here (~0.9 s), so a machine five times faster still
    // counts it long, while the reader's `echo hi` uses a few milliseconds. Preemption off
    // (`trialMs: 0`): this asserts standing and the reserves alone.
    const host = new ShellHost({ trustAnswers: TRUSTED_BY_ONE, workers: 6, trialMs: 0, heavyCpuMs: 200, limits: RUNAWAY_LIMITS, maxCpuMs: RUNAWAY_CPU_MS, cancelGraceMs: STOP_IN_WORKER_MS, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      const reader = "address:198.51.100.9";
      expect(await shell.run("echo hi", reader)).toEqual(HI);
      const crowd = [1, 2, 3, 4, 5, 6].map((k) => `address:127.0.0.${k + 1}`);
      // Each answers once after long CPU work (the adversary's jq stopped by its own 256 MB bound, exit 134, is such an answer).
      const long = await Promise.all(crowd.map((caller) => shell.run("seq 1000000 | wc -l", caller)));
      expect(long).toEqual(crowd.map(() => ({ stdout: "1000000\n", stderr: "", exitCode: 0, truncated: false })));
      expect(rec.lines(["heavy"]).sort()).toEqual(crowd.map((c) => `${c} heavy: cpu`).sort());
      // Then each sends two runaways (calls 8-19): four run, the rest wait, two ready workers stay free.
      const aborts = crowd.map(() => new AbortController());
      const held = crowd.flatMap((caller, k) => [shell.run(RUNAWAY, caller, aborts[k]?.signal), shell.run(RUNAWAY, caller, aborts[k]?.signal)]);
      await rec.next((e) => e.t === "queued" && e.call === 19);
      const running = (): number[] => rec.events.flatMap((e) => (e.t === "start" && e.call >= 8 && e.call <= 19 ? [e.call] : []));
      for (let n = 1; n <= 4; n++) await rec.next(() => running().length >= n);
      expect(await shell.run("echo hi", reader)).toEqual(HI);
      // The reader's call 20 was given a worker as it was queued: no runaway ended, no worker started for it.
      const lines = rec.lines(["spawn", "queued", "start", "end"]);
      const queuedAt = lines.indexOf(`call 20 queued by ${reader}`);
      expect(lines.slice(queuedAt, queuedAt + 3).map((l) => l.replace(/ on worker \d+$/, ""))).toEqual([`call 20 queued by ${reader}`, "call 20 started", "call 20 ended: result"]);
      expect(lines.filter((l) => /^call (8|9|1\d) ended/.test(l))).toEqual([]);
      expect(running()).toHaveLength(4);
      for (const a of aborts) a.abort();
      expect(await Promise.all(held)).toEqual(held.map(() => CANCELLED));
    } finally {
      await host.close();
    }
  });
});

describe("loading a snapshot", () => {
  it("never counts against a command's time limit: a worker loading for longer than the limit, then the command runs within it", async () => {
    const rec = new PoolRecorder();
    // [open, crashes]: open while the worker starts and runs a first command (its code warm).
    const gate = new Int32Array(new SharedArrayBuffer(8));
    gate[0] = 1;
    // A limit long enough for a worker's first command on a very busy machine (a 1 s limit was
    // reached at load 44 by the cold first `echo hi`): only a load that counted could reach it.
    const limits = { ...LIMITS.shell, maxExecutionMs: 8_000 };
    const host = new ShellHost({ workers: 1, limits, stuckGraceMs: 0, loadGate: gate, onEvent: rec.onEvent });
    try {
      expect(await host.shellFor(runtime.site, view()).run("echo hi", "a")).toEqual(HI);
      // A reload (a new snapshot of the same files): the worker loads it, held at the gate.
      Atomics.store(gate, 0, 0);
      const reloaded: Site = { ...runtime.site };
      host.prepare(reloaded);
      await rec.next((e) => e.t === "loading" && e.sid === 2);
      const call = host.shellFor(reloaded, new SiteView(reloaded, ANONYMOUS, "public")).run("echo hi", "a");
      await rec.next((e) => e.t === "queued" && e.call === 2);
      // Not waiting for an event: this only makes the load last past the command's limit.
      await sleep(1.25 * limits.maxExecutionMs);
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      expect(await call).toEqual(HI);
      expect(rec.lines()).toEqual([
        "call 1 queued by a",
        "spawn worker 1",
        "worker 1 loading snapshot 1",
        "worker 1 loaded snapshot 1",
        "call 1 started on worker 1",
        "call 1 ended: result",
        "worker 1 loading snapshot 2",
        "call 2 queued by a",
        "worker 1 loaded snapshot 2",
        "call 2 started on worker 1",
        "call 2 ended: result",
      ]);
    } finally {
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      await host.close();
    }
  });

  it("a worker that dies while loading is replaced from the shared snapshot, and the waiting call answers correctly", async () => {
    const rec = new PoolRecorder();
    // One crash: the first worker to pass the gate ends itself, as a crash would.
    const gate = new Int32Array(new SharedArrayBuffer(8));
    gate[1] = 1;
    const host = new ShellHost({ workers: 1, loadGate: gate, onEvent: rec.onEvent });
    try {
      host.start(runtime.site);
      await rec.next((e) => e.t === "loading");
      const call = host.shellFor(runtime.site, view()).run("ls /", "a");
      await rec.next((e) => e.t === "queued");
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      expect(await call).toEqual(lsRoot);
      expect(rec.lines()).toEqual([
        "spawn worker 1",
        "worker 1 loading snapshot 1",
        "call 1 queued by a",
        "worker 1 exited: died",
        "spawn worker 2",
        "worker 2 loading snapshot 1",
        "worker 2 loaded snapshot 1",
        "call 1 started on worker 2",
        "call 1 ended: result",
      ]);
    } finally {
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      await host.close();
    }
  });

  it("whenLoaded resolves once a worker holds the snapshot, not before, a worker that died loading it replaced (what serve --http waits for to open its port)", async () => {
    const rec = new PoolRecorder();
    const gate = new Int32Array(new SharedArrayBuffer(8));
    gate[1] = 1;
    const host = new ShellHost({ workers: 1, loadGate: gate, onEvent: rec.onEvent });
    try {
      host.start(runtime.site);
      // What the pool had done when it said it was loaded.
      const loaded = host.whenLoaded().then(() => rec.lines());
      await rec.next((e) => e.t === "loading");
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      expect(await loaded).toEqual(["spawn worker 1", "worker 1 loading snapshot 1", "worker 1 exited: died", "spawn worker 2", "worker 2 loading snapshot 1", "worker 2 loaded snapshot 1"]);
      // Already loaded: at once, and a command is taken without a load.
      await host.whenLoaded();
      expect(await host.shellFor(runtime.site, view()).run("ls /", "a")).toEqual(lsRoot);
    } finally {
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
      await host.close();
    }
  });

  it("whenLoaded waits for the view of the reader prepared first, built in a worker: that reader's first command starts without building it (issue 22: over HTTP, the first echo waited for a view of 50,000 files)", async () => {
    const rec = new PoolRecorder();
    const host = new ShellHost({ workers: 1, onEvent: rec.onEvent });
    try {
      const shell = host.shellFor(runtime.site, view());
      shell.prepare?.();
      host.start(runtime.site);
      const seen = ["spawn", "loading", "loaded", "viewed", "start"] as const;
      expect(await host.whenLoaded().then(() => rec.lines(seen))).toEqual(["spawn worker 1", "worker 1 loading snapshot 1", "worker 1 loaded snapshot 1", "worker 1 built view 1"]);
      expect(await shell.run("ls /", "a")).toEqual(lsRoot);
      // Built once: the command found it.
      expect(rec.lines(seen).slice(4)).toEqual(["call 1 started on worker 1"]);
    } finally {
      await host.close();
    }
  });

  it("a runtime serving over HTTP (no shellLater): prepareShell then whenShellLoaded leave the anonymous reader's view built in a worker, as serve --http does before it opens its port", async () => {
    const rec = new PoolRecorder();
    const served = await DocsRuntime.load({ root: fixture("demo"), indexLater: true, shellWorker: { workers: 1, onEvent: rec.onEvent } });
    try {
      const anonymous = requestContext(ANONYMOUS, "public");
      served.prepareShell(anonymous);
      await served.whenShellLoaded();
      expect(rec.lines(["loaded", "viewed", "start"])).toEqual(["worker 1 loaded snapshot 1", "worker 1 built view 1"]);
      expect((await served.readerState(anonymous).shell.run("echo hi", "a")).stdout).toBe("hi\n");
      expect(rec.lines(["viewed", "start"])).toEqual(["worker 1 built view 1", "call 1 started on worker 1"]);
    } finally {
      await served.close();
    }
  });

  it("workers that keep dying while loading: the waiting calls are answered with the reason, not held", async () => {
    const logs: string[] = [];
    const rec = new PoolRecorder();
    const gate = new Int32Array(new SharedArrayBuffer(8));
    gate[0] = 1;
    gate[1] = LIMITS.shellWorker.maxBootFailures;
    const host = new ShellHost({ workers: 1, loadGate: gate, onEvent: rec.onEvent, log: (m) => logs.push(m) });
    try {
      const call = host.shellFor(runtime.site, view()).run("ls /", "a");
      expect(await call).toEqual({ stdout: "", stderr: "bash: the docs shell could not start (its worker ended while starting); try again later\n", exitCode: 1, truncated: false });
      expect(logs).toEqual([`warning: ${LIMITS.shellWorker.maxBootFailures} shell workers in a row ended while starting: no reason given`]);
      expect(rec.lines(["exit", "end"])).toEqual([
        ...Array.from({ length: LIMITS.shellWorker.maxBootFailures }, (_, k) => `worker ${k + 1} exited: died`),
        "call 1 ended: boot-failed",
      ]);
      // Workers that start again serve the next call.
      expect(await host.shellFor(runtime.site, view()).run("ls /", "a")).toEqual(lsRoot);
    } finally {
      await host.close();
    }
  });
});
