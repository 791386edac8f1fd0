/**
 * A thread's CPU time as the shell pool reads it (`thread-cpu.ts`): in nanoseconds where the
 * kernel counts them (`schedstat`), not in 10 ms clock ticks, so that work shorter than a tick
 * (a jq thread's start, a reader's `ls /`) is not read as none, and decisions taken on it (a new
 * caller's trial, the CPU limit, the cancel grace) do not move by a tick's sampling (issue 25).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ownThreadId, threadCpuMs } from "../../src/engine/shell/thread-cpu.js";

/** The scheduler's nanoseconds for `tid`, in ms, read straight from /proc. */
function schedstatMs(tid: number): number {
  return Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "latin1").split(" ")[0]) / 1e6;
}

describe.runIf(process.platform === "linux")("a thread's CPU time", () => {
  it("is the scheduler's count in nanoseconds, not whole ticks: read between two reads of schedstat, less than a tick apart", () => {
    const tid = ownThreadId() as number;
    const before = schedstatMs(tid);
    const read = threadCpuMs(tid) as number;
    const after = schedstatMs(tid);
    // Three reads of a small file use microseconds of this thread: never a tick (10 ms), which
    // is the least a figure in ticks could move by.
    expect(after - before).toBeLessThan(10);
    expect(read).toBeGreaterThanOrEqual(before);
    expect(read).toBeLessThanOrEqual(after);
  });

  it("is undefined for a thread that is not this process's", () => {
    expect(threadCpuMs(0)).toBe(undefined);
  });
});
