import { describe, expect, it } from "vitest";
import { ChunkedIds } from "../../../src/engine/search/chunked-ids.js";

/**
 * The postings a build stages (`chunked-ids.ts`, issue 22): ids kept in fixed 32 MB chunks, so
 * that growing copies nothing and the spare room is at most one chunk, and read back exactly.
 */
describe("chunked ids", () => {
  it("reads back every id pushed, across chunk boundaries, in order", () => {
    const ids = new ChunkedIds();
    const count = (1 << 23) * 2 + 3;
    for (let i = 0; i < count; i++) ids.push(i % 7 === 0 ? -1 : i * 3);
    expect(ids.length).toBe(count);
    const wrong: number[] = [];
    for (let i = 0; i < count; i++) if (ids.get(i) !== (i % 7 === 0 ? -1 : i * 3)) wrong.push(i);
    expect(wrong).toEqual([]);
  });

  it("holds one chunk more than its ids need at most, and none before the first id", () => {
    const ids = new ChunkedIds();
    expect(ids.bytes).toBe(0);
    ids.push(1);
    expect(ids.bytes).toBe(32 << 20);
    for (let i = 1; i < 1 << 23; i++) ids.push(i);
    expect(ids.bytes).toBe(32 << 20);
    ids.push(0);
    expect(ids.bytes).toBe(64 << 20);
  });
});
