import { describe, expect, it } from "vitest";
import { httpWorkerExecArgv } from "../../src/cli/worker-heap.js";

describe("httpWorkerExecArgv", () => {
  it("adds a semi-space fixed at 64 MB (least and most) and no memory reducer after the primary's own options", () => {
    expect(httpWorkerExecArgv([], undefined)).toEqual(["--max-semi-space-size=64", "--min-semi-space-size=64", "--no-memory-reducer"]);
    expect(httpWorkerExecArgv(["--enable-source-maps", "--max-old-space-size=4096"], "--no-warnings")).toEqual(["--enable-source-maps", "--max-old-space-size=4096", "--max-semi-space-size=64", "--min-semi-space-size=64", "--no-memory-reducer"]);
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
    expect(httpWorkerExecArgv(execArgv, nodeOptions)).toEqual([...execArgv, "--max-semi-space-size=64", "--min-semi-space-size=64"]);
  });

  it("keeps both when the operator gave both", () => {
    expect(httpWorkerExecArgv(["--min-semi-space-size=8", "--memory-reducer"], undefined)).toEqual(["--min-semi-space-size=8", "--memory-reducer"]);
  });

  it("does not mistake another option for a semi-space size or the memory reducer", () => {
    expect(httpWorkerExecArgv(["--max-old-space-size=4096", "--memory-reducer-for-small-heaps"], "--semi-space-growth-factor=2 --gc-memory-reducer-start-delay-ms=100")).toEqual(["--max-old-space-size=4096", "--memory-reducer-for-small-heaps", "--max-semi-space-size=64", "--min-semi-space-size=64", "--no-memory-reducer"]);
  });
});
