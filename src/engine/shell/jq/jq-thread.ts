import { parentPort, workerData } from "node:worker_threads";
import { ownThreadId } from "../thread-cpu.js";
import { type JqOutcome, type JqRun, runJq } from "./wasm-host.js";

/**
 * A thread that runs jq commands one at a time for shells in the process's own thread
 * (`jq-in-thread.ts`): jq spins inside WebAssembly, where no step count or timer reaches it, and
 * only a thread can be ended from outside. It says its Linux thread id first, so that its starter
 * can read its CPU time; then each `run` it is sent gets a fresh jq instance and an answer.
 */

/** What the starter gives the thread: the compiled jq (compiled once, in the starter's thread). */
export interface JqThreadData {
  readonly module: WebAssembly.Module;
}

/** What the thread says: its thread id once, then one outcome per run. */
export type FromJqThread = { readonly t: "tid"; readonly tid: number | undefined } | { readonly t: "done"; readonly outcome: JqOutcome };

const port = parentPort;
if (port === null) throw new Error("jq-thread runs as a worker thread (see runJqInThread)");
const { module } = workerData as JqThreadData;
port.on("message", (run: JqRun) => port.postMessage({ t: "done", outcome: runJq(module, run) } satisfies FromJqThread));
port.postMessage({ t: "tid", tid: ownThreadId() } satisfies FromJqThread);
