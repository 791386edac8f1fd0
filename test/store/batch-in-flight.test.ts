import { describe, expect, it } from "vitest";
import { BatchInFlight } from "../../src/store/batch-in-flight.js";

/** A `run` whose batches the test finishes by hand. */
function controlled() {
  const batches: { items: readonly number[]; finish: (results: readonly string[] | Error) => void }[] = [];
  const batcher = new BatchInFlight<number, string>(
    (items) =>
      new Promise((resolve, reject) => {
        batches.push({ items, finish: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
      }),
    3,
  );
  return { batcher, batches };
}

describe("BatchInFlight", () => {
  it("sends a lone call at once, and calls that arrive meanwhile together in the next run, never in the one already running", async () => {
    const { batcher, batches } = controlled();
    const first = batcher.submit(1);
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    const later = [batcher.submit(2), batcher.submit(3)];
    // Calls submitted while run 1 is in flight are not answered by it.
    batches[0]!.finish(["one"]);
    expect(await first).toBe("one");
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3]]);
    batches[1]!.finish(["two", "three"]);
    expect(await Promise.all(later)).toEqual(["two", "three"]);
  });

  it("splits a long queue into runs of at most maxBatch, one after the other", async () => {
    const { batcher, batches } = controlled();
    const all = [1, 2, 3, 4, 5].map((n) => batcher.submit(n));
    batches[0]!.finish(["1"]);
    await all[0];
    batches[1]!.finish(["2", "3", "4"]);
    await all[3];
    batches[2]!.finish(["5"]);
    expect(await Promise.all(all)).toEqual(["1", "2", "3", "4", "5"]);
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4], [5]]);
  });

  it("fails every call of a failed run, and goes on with the next", async () => {
    const { batcher, batches } = controlled();
    const first = batcher.submit(1);
    const second = [batcher.submit(2), batcher.submit(3)];
    batches[0]!.finish(["one"]);
    await first;
    batches[1]!.finish(new Error("connection lost"));
    await expect(second[0]).rejects.toThrow("connection lost");
    await expect(second[1]).rejects.toThrow("connection lost");
    const third = batcher.submit(4);
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3], [4]]);
    batches[2]!.finish(["four"]);
    expect(await third).toBe("four");
  });
});
