import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { collectGarbage } from "../../src/engine/collect-garbage.js";

/**
 * A full collection without `--expose-gc` on the command line (`collect-garbage.ts`, issue 22):
 * it runs, and no context made afterwards (the shell's sandboxes) is handed `gc`.
 */
describe("collectGarbage", () => {
  it("collects, and leaves later contexts without gc", () => {
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    expect(collectGarbage()).toBe(true);
    expect(runInNewContext("typeof gc")).toBe("undefined");
  });
});
