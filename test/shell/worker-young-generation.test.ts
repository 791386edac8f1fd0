/**
 * A shell worker's young generation is `LIMITS.shellWorker.youngGenerationMb`, not V8's default:
 * every thread of the pool, idle ones too, kept the default's semi-spaces resident once it had
 * run a command (issue 22).
 */
import type { Worker } from "node:worker_threads";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ShellHost } from "../../src/engine/shell/shell-host.js";
import { localContext } from "../../src/vfs/request-context.js";
import { fixture } from "../helpers/paths.js";

let runtime: DocsRuntime;

beforeAll(async () => {
  runtime = await DocsRuntime.load({ root: fixture("demo") });
});

afterAll(async () => {
  await runtime?.close();
});

it("a shell worker runs with the pool's young generation and its old generation limit", async () => {
  const host = new ShellHost({ workers: 1, spareWorkers: 0 });
  try {
    expect(await host.shellFor(runtime.site, runtime.readerState(localContext()).view).run("echo hi", "a")).toEqual({ stdout: "hi\n", stderr: "", exitCode: 0, truncated: false });
    // The pool's workers are its own; what each was started with is read off the thread (node's `Worker.resourceLimits`).
    const slots = (host as unknown as { slots: { worker: Worker }[] }).slots;
    expect(slots.map((s) => [s.worker.resourceLimits?.maxYoungGenerationSizeMb, s.worker.resourceLimits?.maxOldGenerationSizeMb])).toEqual([[LIMITS.shellWorker.youngGenerationMb, LIMITS.shellWorker.maxHeapMb]]);
  } finally {
    await host.close();
  }
});
