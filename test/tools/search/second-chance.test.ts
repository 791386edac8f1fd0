import { describe, expect, it } from "vitest";
import { SecondChance } from "../../../src/engine/search/second-chance.js";

/** The keys a cache holds among `keys`. */
function held(cache: SecondChance<number, string>, keys: readonly number[]): number[] {
  return keys.filter((k) => cache.get(k) !== undefined);
}

describe("SecondChance", () => {
  it("keeps at most its capacity, dropping the oldest unread entries first", () => {
    const cache = new SecondChance<number, string>(3);
    for (const k of [1, 2, 3, 4, 5]) cache.set(k, `v${k}`);
    expect(cache.size).toBe(3);
    // Peeking marks, so look through a fresh cache of the same writes.
    const fresh = new SecondChance<number, string>(3);
    for (const k of [1, 2, 3, 4, 5]) fresh.set(k, `v${k}`);
    expect(held(fresh, [1, 2, 3, 4, 5])).toEqual([3, 4, 5]);
  });

  it("gives an entry read since it was last passed over another pass, then lets it go unread", () => {
    const cache = new SecondChance<number, string>(3);
    for (const k of [1, 2, 3]) cache.set(k, `v${k}`);
    expect(cache.get(1)).toBe("v1");
    cache.set(4, "v4"); // 1 was read: it moves to the back unmarked, and 2 goes
    cache.set(5, "v5"); // 3 goes
    expect(held(cache, [1, 2, 3, 4, 5])).toEqual([1, 4, 5]);
    cache.set(6, "v6"); // all three were read just now: each moves back unmarked, then 1 goes
    expect(held(cache, [1, 2, 3, 4, 5, 6])).toEqual([4, 5, 6]);
  });

  it("ends when every entry was read: one pass unmarks them all, then the oldest goes", () => {
    const cache = new SecondChance<number, string>(4);
    for (const k of [1, 2, 3, 4]) cache.set(k, `v${k}`);
    for (const k of [1, 2, 3, 4]) cache.get(k);
    cache.set(5, "v5");
    expect(held(cache, [1, 2, 3, 4, 5])).toEqual([2, 3, 4, 5]);
  });

  it("replaces a value in place, counting it as read; clear empties it", () => {
    const cache = new SecondChance<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("a", 3);
    cache.set("c", 4); // a was written again: it stays, b goes
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([3, undefined, 4]);
    cache.clear();
    expect([cache.size, cache.get("a")]).toEqual([0, undefined]);
  });
});
