import { describe, expect, it } from "vitest";
import { httpWorkerExecArgv } from "../../src/cli/worker-heap.js";

describe("httpWorkerExecArgv", () => {
  it("adds a semi-space fixed at 64 MB (least and most) after the primary's own options", () => {
    expect(httpWorkerExecArgv([], undefined)).toEqual(["--max-semi-space-size=64", "--min-semi-space-size=64"]);
    expect(httpWorkerExecArgv(["--enable-source-maps", "--max-old-space-size=4096"], "--no-warnings")).toEqual(["--enable-source-maps", "--max-old-space-size=4096", "--max-semi-space-size=64", "--min-semi-space-size=64"]);
  });

  it.each([
    [["--max-semi-space-size=32"], undefined],
    [["--max_semi_space_size=32"], undefined],
    [["--min-semi-space-size=8"], undefined],
    [[], "--max-semi-space-size=128"],
    [[], "--no-warnings --min-semi-space-size 8"],
  ])("keeps the operator's young generation: execArgv %j, NODE_OPTIONS %j", (execArgv, nodeOptions) => {
    expect(httpWorkerExecArgv(execArgv, nodeOptions)).toEqual(execArgv);
  });

  it("does not mistake another option for a semi-space size", () => {
    expect(httpWorkerExecArgv(["--max-old-space-size=4096"], "--semi-space-growth-factor=2")).toEqual(["--max-old-space-size=4096", "--max-semi-space-size=64", "--min-semi-space-size=64"]);
  });
});
