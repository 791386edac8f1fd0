import { Worker } from "node:worker_threads";
import { LIMITS } from "../../../limits.js";
import type { CallCpu } from "../call-cpu.js";
import { cpuLimitMessage } from "../shell.js";
import { threadCpuMs } from "../thread-cpu.js";
import { workerExecArgv } from "../worker-exec-argv.js";
import type { JqOutcome, JqRun } from "./wasm-host.mjs";

/** What the thread is given: the compiled jq, and the tests' counter of runs (`countJqRuns`). */
interface JqThreadData {
  readonly module: WebAssembly.Module;
  readonly runs: Int32Array | undefined;
}

/** Tests only (`countJqRuns`). */
let runs: Int32Array | undefined;

/**
 * Tests only (`ShellHostOptions.jqRuns`): each jq thread started after this adds one to
 * `counter[0]` (and notifies it) as it enters jq for a run, so that a test cancels a jq that is
 * inside WebAssembly, not one still being set up, without timing anything.
 */
export function countJqRuns(counter: Int32Array): void {
  runs = counter;
}

/** Whether `signal` has aborted (read again after an await: TypeScript keeps an earlier check's answer). */
function givenUp(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** What the thread says (`jq-thread.mjs`): its thread id once, then one outcome per run. */
type FromJqThread = { readonly t: "tid"; readonly tid: number | undefined } | { readonly t: "done"; readonly outcome: JqOutcome };

/** A started jq thread: the worker, and its Linux thread id once it said it. */
interface JqThread {
  readonly worker: Worker;
  readonly ready: Promise<number | undefined>;
}

/**
 * Idle jq threads, kept for the next command: starting one costs tens of milliseconds, once per
 * thread rather than per command.
 * Each command still gets a fresh jq instance; a thread ended at a limit is not kept. Idle
 * threads are unreferenced, so they never keep the process alive.
 */
const idle: JqThread[] = [];
/** Idle threads kept: two commands of one call can run at once (a pipeline of two jq). */
const MAX_IDLE = 2;

function startThread(module: WebAssembly.Module): JqThread {
  // Plain JavaScript beside this module, in the sources and in the bundle (dist/jq-thread.mjs,
  // an entry of scripts/build.mjs): no TypeScript loader to start.
  const worker = new Worker(new URL("./jq-thread.mjs", import.meta.url), {
    workerData: { module, runs } satisfies JqThreadData,
    execArgv: workerExecArgv(process.execArgv),
    // jq's memory is WebAssembly memory, outside this heap; the heap holds a run's bytes.
    resourceLimits: { maxOldGenerationSizeMb: LIMITS.shellWorker.maxHeapMb },
    // Never on the process's stdout (the stdio transport): jq writes only into its run's buffers.
    stdout: true,
    stderr: true,
  });
  worker.unref();
  const ready = new Promise<number | undefined>((resolve, reject) => {
    const onMessage = (message: FromJqThread): void => {
      if (message.t !== "tid") return;
      worker.off("message", onMessage);
      resolve(message.tid);
    };
    worker.on("message", onMessage);
    worker.once("error", reject);
    worker.once("exit", () => reject(new Error("the jq thread stopped before it was ready")));
  });
  // Known failures are answered by `runJqInThread`; an idle thread that fails is dropped.
  ready.catch(() => {});
  worker.on("exit", () => {
    const i = idle.findIndex((t) => t.worker === worker);
    if (i >= 0) idle.splice(i, 1);
  });
  return { worker, ready };
}

/**
 * Run jq in a thread of its own and wait for it (issue 25): jq spins inside WebAssembly, where no
 * step count, timer or abort reaches it, and only a thread can be ended from outside. So a jq
 * that never ends (`def f: f; f`) is ended alone, wherever the shell runs: in the process's own
 * thread (`serve --no-shell-worker`, the tests) it would hold that thread past every limit, and
 * in a shell worker a cancelled jq could only be stopped by ending the whole worker (after
 * `cancelGraceMs`), whose views and loaded snapshots the next calls then waited to rebuild. The
 * thread is ended when its CPU time for this run passes what is left of `maxCpuMs` (read from
 * /proc as a shell worker's is: exit 124 and the CPU limit's message), or when `signal` aborts
 * (the call's time limit or the caller's cancellation; the shell then says which). `cpu`, the
 * call's account, is charged each run's CPU of this thread, and ends the call once the whole
 * passes `maxCpuMs` (a loop of short runs; issue 25, adversary round 35 F2).
 */
export async function runJqInThread(module: WebAssembly.Module, run: JqRun, signal: AbortSignal | undefined, maxCpuMs: number = LIMITS.shell.maxCpuMs, cpu?: CallCpu): Promise<JqOutcome> {
  const stopped = (stderr: string, exitCode: number): JqOutcome => ({ stdout: new Uint8Array(), stderr: new TextEncoder().encode(stderr), exitCode, outputFull: false });
  if (signal?.aborted === true) return stopped("", 1);
  // What is left of the call's CPU limit: its shell thread's and earlier jq runs' CPU count too
  // (issue 25, adversary round 35 F2: a loop of short jq runs each stayed under it alone).
  const left = cpu === undefined ? maxCpuMs : maxCpuMs - cpu.used();
  // With the call's account, the shell ends the line and says why (once); alone, jq says it.
  const cpuOut = (): JqOutcome => {
    if (cpu === undefined) return stopped(cpuLimitMessage(maxCpuMs), 124);
    cpu.stop(maxCpuMs);
    return stopped("", 124);
  };
  if (left <= 0) return cpuOut();
  const kept = idle.pop();
  const thread = kept ?? startThread(module);
  let tid: number | undefined;
  try {
    tid = await thread.ready;
  } catch (error) {
    void thread.worker.terminate();
    return stopped(`jq: ${error instanceof Error ? error.message : String(error)}\n`, 1);
  }
  // Given up while the thread started (a new thread takes tens of milliseconds, seconds under
  // load): the abort came before anyone listened for it, and the jq would have run to its CPU
  // limit for a caller long gone (adversary round 37 F1). The thread has run nothing: keep it.
  if (givenUp(signal)) {
    if (idle.length < MAX_IDLE) idle.push(thread);
    else void thread.worker.terminate();
    return stopped("", 1);
  }
  const { worker } = thread;
  worker.ref();
  return new Promise<JqOutcome>((resolve) => {
    // A thread started for this run is charged from its birth: its start (~70-100 ms of CPU
    // here, as much as a new caller's whole trial) is this call's work. Uncounted, a flood of
    // fresh runaway jq (each trial stopped, its thread ended, the next one starting another)
    // cost the pool twice a trial's CPU per runaway, and a newcomer behind them waited twice as
    // long (issue 25, bench row (h)). A kept thread counts from its CPU now.
    const start = tid === undefined ? undefined : kept === undefined ? 0 : threadCpuMs(tid);
    if (cpu !== undefined && tid !== undefined && start !== undefined) cpu.helperRunning(tid, start);
    let settled = false;
    const settle = (outcome: JqOutcome, keep: boolean): void => {
      if (settled) return;
      settled = true;
      const end = tid === undefined ? undefined : threadCpuMs(tid);
      if (cpu !== undefined) {
        cpu.addHelper(start !== undefined && end !== undefined ? end - start : 0);
        // A run that ended in time may still leave the call past its limit: the call ends here.
        if (cpu.used() > maxCpuMs) cpu.stop(maxCpuMs);
      }
      clearInterval(poll);
      signal?.removeEventListener("abort", onAbort);
      worker.off("message", onMessage);
      worker.off("exit", onExit);
      worker.off("error", onError);
      worker.unref();
      if (keep && idle.length < MAX_IDLE) idle.push(thread);
      else void worker.terminate();
      resolve(outcome);
    };
    const poll = setInterval(() => {
      const used = tid === undefined ? undefined : threadCpuMs(tid);
      if (start !== undefined && used !== undefined && used - start > left) settle(cpuOut(), false);
    }, LIMITS.shellWorker.cpuPollMs);
    const onAbort = (): void => settle(stopped("", 1), false);
    const onMessage = (message: FromJqThread): void => {
      if (message.t === "done") settle(message.outcome, true);
    };
    const onError = (error: Error): void => settle(stopped(`jq: ${error.message}\n`, 1), false);
    const onExit = (): void => settle(stopped("jq: its thread stopped\n", 1), false);
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage(run);
  });
}
