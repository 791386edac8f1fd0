/**
 * The shell pool's queue: callers served in turn, a newcomer first, one caller's running and
 * waiting work capped.
 */
import { describe, expect, it } from "vitest";
import { FairQueue } from "../../src/tools/shell/fair-queue.js";

/** Take items until none may run, finishing each at once: the order work would run in on one worker. */
function runOrder(q: FairQueue<string>): string[] {
  const order: string[] = [];
  for (let next = q.take(); next !== undefined; next = q.take()) {
    order.push(next.item);
    q.done(next.caller);
  }
  return order;
}

describe("FairQueue", () => {
  it("serves callers in turn, each caller's own calls in order", () => {
    const q = new FairQueue<string>(10, 1);
    for (const item of ["a1", "a2", "a3", "a4"]) q.push("a", item);
    q.push("b", "b1");
    q.push("b", "b2");
    q.push("c", "c1");
    expect(runOrder(q)).toEqual(["a1", "b1", "c1", "a2", "b2", "a3", "a4"]);
  });

  it("puts a newcomer before callers already served", () => {
    const q = new FairQueue<string>(10, 1);
    for (const item of ["a1", "a2", "a3"]) q.push("a", item);
    const first = q.take();
    expect(first).toEqual({ caller: "a", item: "a1" });
    // While a1 runs, another caller arrives: it goes next, before a2.
    q.push("b", "b1");
    q.done("a");
    expect(runOrder(q)).toEqual(["b1", "a2", "a3"]);
  });

  it("lets one caller run at most its share at once", () => {
    const q = new FairQueue<string>(10, 2);
    for (const item of ["a1", "a2", "a3"]) q.push("a", item);
    expect(q.take()).toEqual({ caller: "a", item: "a1" });
    expect(q.take()).toEqual({ caller: "a", item: "a2" });
    expect(q.take()).toBeUndefined();
    q.push("b", "b1");
    expect(q.take()).toEqual({ caller: "b", item: "b1" });
    q.done("a");
    expect(q.take()).toEqual({ caller: "a", item: "a3" });
    expect(q.waiting).toBe(0);
  });

  it("refuses a caller's call past its waiting cap, and only that caller's", () => {
    const q = new FairQueue<string>(2, 1);
    expect([q.push("a", "a1"), q.push("a", "a2"), q.push("a", "a3"), q.push("b", "b1")]).toEqual([true, true, false, true]);
    expect(q.take()).toEqual({ caller: "a", item: "a1" });
    // a1 runs: a has room to wait again.
    expect(q.push("a", "a3")).toBe(true);
    expect(q.drain()).toEqual(["a2", "a3", "b1"]);
    expect(q.waiting).toBe(0);
  });
});
