// A thread that runs jq commands one at a time for shells in the process's own thread
// (jq-in-thread.ts): jq spins inside WebAssembly, where no step count or timer reaches it, and only
// a thread can be ended from outside. It says its Linux thread id first, so that its starter can
// read its CPU time (thread-cpu.ts); then each run it is sent gets a fresh jq instance and an
// answer. Plain JavaScript, as wasm-host.mjs is, so that it starts without a TypeScript loader,
// from the sources and from the bundle alike.
import { readlinkSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { runJq } from "./wasm-host.mjs";

/** This thread's Linux thread id (`/proc/thread-self` links to "PID/task/TID"), as thread-cpu.ts reads it; undefined without /proc. */
function ownThreadId() {
  try {
    const match = /^\d+\/task\/(\d+)$/.exec(readlinkSync("/proc/thread-self"));
    return match === null ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

const port = parentPort;
if (port === null) throw new Error("jq-thread runs as a worker thread (see runJqInThread)");
// workerData: { module, runs }, the compiled jq (compiled once, in the starter's thread), and
// the tests' counter of runs entered (`countJqRuns`), absent outside tests.
const { module, runs } = workerData;
port.on("message", (run) => {
  if (runs !== undefined) {
    Atomics.add(runs, 0, 1);
    Atomics.notify(runs, 0);
  }
  port.postMessage({ t: "done", outcome: runJq(module, run) });
});
port.postMessage({ t: "tid", tid: ownThreadId() });
