import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { httpWorkerEnv, httpWorkerExecArgv, SIZED_YOUNG_GENERATION_ENV } from "../../src/cli/worker-heap.js";
import { REPO } from "../helpers/paths.js";

/**
 * A process started with `flags` calls `threadsTakeDefaultYoungGeneration`, then its main thread
 * and a worker thread each allocate past any young generation; each says its new space's size (MB).
 */
function youngGenerations(flags: readonly string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const churn = "let a = []; for (let i = 0; i < 3e6; i++) { a.push({ i }); if (a.length > 1e5) a = []; }";
  const newSpace = "v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576";
  // The thread's code runs as a module too (it inherits --input-type): imports, no require.
  const thread = `${churn} Promise.all([import('node:v8'), import('node:worker_threads')]).then(([v8, { parentPort }]) => parentPort.postMessage(${newSpace}));`;
  const script = [
    'const { threadsTakeDefaultYoungGeneration } = await import("./src/cli/worker-heap.ts");',
    'const { Worker } = await import("node:worker_threads");',
    'const v8 = await import("node:v8");',
    "const reset = threadsTakeDefaultYoungGeneration(process.env);",
    churn,
    `const main = ${newSpace};`,
    `const thread = await new Promise((resolve) => new Worker(${JSON.stringify(thread)}, { eval: true }).once("message", resolve));`,
    "console.log(JSON.stringify({ reset, main, thread }));",
  ].join("\n");
  const run = spawnSync(process.execPath, [...flags, "--import", "tsx", "--input-type=module", "-e", script], { cwd: REPO, encoding: "utf8", env: { ...process.env, [SIZED_YOUNG_GENERATION_ENV]: "", ...env } });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("httpWorkerExecArgv", () => {
  it("adds a semi-space fixed at 32 MB (least and most) and no memory reducer after the primary's own options", () => {
    expect(httpWorkerExecArgv([], undefined)).toEqual(["--max-semi-space-size=32", "--min-semi-space-size=32", "--no-memory-reducer"]);
    expect(httpWorkerExecArgv(["--enable-source-maps", "--max-old-space-size=4096"], "--no-warnings")).toEqual(["--enable-source-maps", "--max-old-space-size=4096", "--max-semi-space-size=32", "--min-semi-space-size=32", "--no-memory-reducer"]);
  });

  it.each([
    [["--max-semi-space-size=32"], undefined],
    [["--max_semi_space_size=32"], undefined],
    [["--min-semi-space-size=8"], undefined],
    [[], "--max-semi-space-size=128"],
    [[], "--no-warnings --min-semi-space-size 8"],
  ])("keeps the operator's young generation: execArgv %j, NODE_OPTIONS %j", (execArgv, nodeOptions) => {
    expect(httpWorkerExecArgv(execArgv, nodeOptions)).toEqual([...execArgv, "--no-memory-reducer"]);
  });

  it.each([
    [["--memory-reducer"], undefined],
    [["--no-memory-reducer"], undefined],
    [["--no_memory_reducer"], undefined],
    [[], "--no-warnings --memory-reducer"],
  ])("keeps the operator's memory reducer: execArgv %j, NODE_OPTIONS %j", (execArgv, nodeOptions) => {
    expect(httpWorkerExecArgv(execArgv, nodeOptions)).toEqual([...execArgv, "--max-semi-space-size=32", "--min-semi-space-size=32"]);
  });

  it("keeps both when the operator gave both", () => {
    expect(httpWorkerExecArgv(["--min-semi-space-size=8", "--memory-reducer"], undefined)).toEqual(["--min-semi-space-size=8", "--memory-reducer"]);
  });

  it("does not mistake another option for a semi-space size or the memory reducer", () => {
    expect(httpWorkerExecArgv(["--max-old-space-size=4096", "--memory-reducer-for-small-heaps"], "--semi-space-growth-factor=2 --gc-memory-reducer-start-delay-ms=100")).toEqual(["--max-old-space-size=4096", "--memory-reducer-for-small-heaps", "--max-semi-space-size=32", "--min-semi-space-size=32", "--no-memory-reducer"]);
  });

  // V8 reads the semi-space options for every isolate: without the reset a worker process's
  // every thread had 2 x 64 MB of young generation (issue 22).
  it("a worker its primary sized gives its threads V8's default young generation; its main thread keeps 2 x 32 MB", () => {
    const sized = ["--max-semi-space-size=32", "--min-semi-space-size=32"];
    const plain = youngGenerations([], {});
    const defaultThread = (JSON.parse(plain.stdout) as { thread: number }).thread;
    expect(defaultThread).toBeLessThan(64);
    expect(plain).toEqual({ status: 0, stdout: `${JSON.stringify({ reset: false, main: defaultThread, thread: defaultThread })}\n`, stderr: "" });
    expect(youngGenerations(sized, { [SIZED_YOUNG_GENERATION_ENV]: "1" })).toEqual({ status: 0, stdout: `${JSON.stringify({ reset: true, main: 64, thread: defaultThread })}\n`, stderr: "" });
    // Sized by the operator (no mark from a primary): theirs, for every thread.
    expect(youngGenerations(sized, {})).toEqual({ status: 0, stdout: `${JSON.stringify({ reset: false, main: 64, thread: 64 })}\n`, stderr: "" });
  });
});

describe("httpWorkerEnv", () => {
  it("fixes glibc's mmap threshold at 128 KB, after any tunables the operator gave", () => {
    expect(httpWorkerEnv({})).toEqual({ GLIBC_TUNABLES: "glibc.malloc.mmap_threshold=131072" });
    expect(httpWorkerEnv({ GLIBC_TUNABLES: "glibc.malloc.arena_max=2" })).toEqual({ GLIBC_TUNABLES: "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072" });
  });

  it.each([
    [{ MALLOC_MMAP_THRESHOLD_: "65536" }],
    [{ GLIBC_TUNABLES: "glibc.malloc.mmap_threshold=1048576" }],
    [{ GLIBC_TUNABLES: "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=0" }],
  ])("keeps the operator's threshold: %j", (env) => {
    expect(httpWorkerEnv(env)).toEqual({});
  });

  it("does not mistake another tunable for the threshold", () => {
    expect(httpWorkerEnv({ GLIBC_TUNABLES: "glibc.malloc.trim_threshold=1" })).toEqual({ GLIBC_TUNABLES: "glibc.malloc.trim_threshold=1:glibc.malloc.mmap_threshold=131072" });
  });
});
