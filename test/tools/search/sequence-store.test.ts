import { describe, expect, it } from "vitest";
import { SequenceStore } from "../../../src/engine/search/sequence-store.js";

/**
 * Sections' term sequences as variable-length bytes in blocks (`SequenceStore`, issue 22): every
 * id comes back as stored, whatever its size, and a sequence is never split across blocks, also
 * one longer than a block, after a restore and after a compaction.
 */
describe("sequence store", () => {
  const BLOCK = 1 << 20;
  const all = (store: SequenceStore, count: number): number[][] => Array.from({ length: count }, (_, id) => [...store.terms(id)]);

  it("codes each id + 1 in 7-bit groups, low first, and reads back every size of id", () => {
    const store = new SequenceStore();
    const ids = [-1, 0, 126, 127, 128, 16382, 16383, 2 ** 21 - 2, 2 ** 21 - 1, 2 ** 28 - 2, 2 ** 28, 2 ** 31 - 2];
    store.set(0, Int32Array.from(ids));
    store.set(1, Int32Array.from([5, -1, -1, 7]));
    expect(all(store, 2)).toEqual([ids, [5, -1, -1, 7]]);
    const { blocks, starts, ends } = store.state(2, () => true);
    expect([...(blocks[0] as Uint8Array).subarray(0, 4)]).toEqual([0, 1, 127, 0x80]);
    // 1 + 1 + 1 + 2 + 2 + 2 + 3 + 3 + 4 + 4 + 5 + 5 bytes, then 4.
    expect({ starts: [...starts], ends: [...ends], length: blocks[0]?.length }).toEqual({ starts: [0, 33], ends: [33, 37], length: 37 });
  });

  it("starts a sequence that does not fit what is left of a block at the next block, and gives a longer one blocks of its own", () => {
    const store = new SequenceStore();
    const fill = new Int32Array(BLOCK - 10).fill(3);
    const long = new Int32Array(BLOCK + 5).map((_, i) => i % 200);
    store.set(0, fill);
    store.set(1, Int32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]));
    store.set(2, long);
    store.set(3, Int32Array.from([9]));
    const same = (a: Int32Array, b: Int32Array): boolean => a.length === b.length && a.every((v, i) => v === b[i]);
    expect([0, 1, 2, 3].map((id) => store.terms(id).length)).toEqual([BLOCK - 10, 11, BLOCK + 5, 1]);
    expect(same(store.terms(0), fill)).toBe(true);
    expect([...store.terms(1)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(same(store.terms(2), long)).toBe(true);
    const state = store.state(4, () => true);
    // Section 1 in the second block; the long one (ids past 126 take two bytes) from the third,
    // its bytes over two blocks' offsets (the second left empty); section 3 after them.
    const longBytes = long.reduce((sum, id) => sum + (id + 1 < 128 ? 1 : 2), 0);
    expect(Math.ceil(longBytes / BLOCK)).toBe(2);
    expect([...state.starts]).toEqual([0, BLOCK, 2 * BLOCK, 4 * BLOCK]);
    // A block before the last is stated whole (its unused tail too).
    expect(state.blocks.map((b) => b.length)).toEqual([BLOCK, BLOCK, longBytes, 0, 1]);
    const restored = new SequenceStore();
    restored.restore(state);
    restored.set(4, Int32Array.from([4, -1]));
    expect([same(restored.terms(0), fill), same(restored.terms(2), long), [...restored.terms(1)], [...restored.terms(3)], [...restored.terms(4)]]).toEqual([true, true, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], [9], [4, -1]]);
    expect([...restored.state(5, () => true).starts]).toEqual([0, BLOCK, 2 * BLOCK, 4 * BLOCK, 5 * BLOCK]);
  });

  it("leaves a removed sequence's bytes as a hole until compacted, and states what is left without it", () => {
    const store = new SequenceStore();
    store.set(0, Int32Array.from([1, 2]));
    store.set(1, Int32Array.from([300, -1]));
    store.set(2, Int32Array.from([3]));
    store.remove(1);
    expect(store.holeBytes).toBe(3);
    const live = (id: number): boolean => id !== 1;
    const state = store.state(3, live);
    expect({ blocks: state.blocks.map((b) => [...b]), starts: [...state.starts], ends: [...state.ends] }).toEqual({ blocks: [[2, 3, 4]], starts: [0, 2, 2], ends: [2, 2, 3] });
    // The state is a copy: the store is as it was.
    expect(store.holeBytes).toBe(3);
    store.compact(3, live);
    expect({ holes: store.holeBytes, sections: all(store, 3) }).toEqual({ holes: 0, sections: [[1, 2], [], [3]] });
    store.set(1, Int32Array.from([7]));
    expect(all(store, 3)).toEqual([[1, 2], [7], [3]]);
  });

  it("refuses a state whose sequence lies past its block", () => {
    const store = new SequenceStore();
    expect(() => store.restore({ blocks: [Uint8Array.from([1, 2])], starts: Int32Array.from([0]), ends: Int32Array.from([3]) })).toThrow("a term sequence out of its block");
    expect(() => new SequenceStore().restore({ blocks: [], starts: Int32Array.from([0]), ends: Int32Array.from([0, 1]) })).toThrow("sequence starts and ends of different lengths");
  });
});
