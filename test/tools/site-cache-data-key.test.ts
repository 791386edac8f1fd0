import { describe, expect, it } from "vitest";
import { dataKey, SharedObjects } from "../../src/engine/site-cache-columns.js";

/**
 * How the cache's writer tells pages' meta and front matter apart without V8's serializer
 * (`dataKey`, issue 22: each `serialize` left ~4.6 KB of resident memory behind): plain data
 * equal as data shares one stored object, anything that differs (a date and its ISO string, 0
 * and -0, key order aside) does not, and what is not plain data is left to the serializer.
 */
describe("the cache's data keys", () => {
  it("gives equal data one key and different data different keys", () => {
    const date = new Date("2026-11-30T08:00:00Z");
    const keys = [
      dataKey({ title: "A", tags: ["x", 1, true, null], nested: { when: date } }),
      dataKey({ title: "A", tags: ["x", 1, true, null], nested: { when: new Date(date.getTime()) } }),
      dataKey({ title: "A", tags: ["x", 1, true, null], nested: { when: date.toISOString() } }),
      dataKey({ title: "A", tags: ["x", "1", true, null], nested: { when: date } }),
      dataKey({ title: "A", tags: ["x", 1, true, "null"], nested: { when: date } }),
      dataKey({ "\u0000date": date.getTime() }),
      dataKey(date),
    ];
    // The first two are equal; the key holding the date's mark is not plain data.
    expect(keys.map((k) => (k === undefined ? "none" : k === keys[0] ? "first" : "other"))).toEqual(["first", "first", "other", "other", "other", "none", "other"]);
    expect(new Set(keys).size).toBe(6);
  });

  it("leaves what JSON cannot hold to the serializer", () => {
    expect([dataKey(-0), dataKey({ n: Number.NaN }), dataKey({ n: Infinity }), dataKey({ u: undefined }), dataKey([1, , 3]), dataKey(new Map()), dataKey({ b: 1n })]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("stores equal meta once and keeps -0 and 0, or a date and its text, apart", () => {
    const shared = new SharedObjects();
    const date = new Date("2026-01-02T00:00:00Z");
    const ids = [shared.id({ a: 1, d: date }), shared.id({ a: 1, d: new Date(date.getTime()) }), shared.id({ a: 1, d: date.toISOString() }), shared.id({ z: 0 }), shared.id({ z: -0 }), shared.id({ z: 0 })];
    expect(ids).toEqual([0, 0, 1, 2, 3, 2]);
  });

  it("tells values apart by their keys, not by the hash it files them by: a plain value and data of the same JSON, and many values, each once", () => {
    const shared = new SharedObjects();
    // Placements (plain) and meta (data) alike: `{}` of each kind is its own object.
    expect([shared.id({}, true), shared.id({}), shared.id({}, true), shared.id({})]).toEqual([0, 1, 0, 1]);
    // 20,000 values, each met twice as another object: 32-bit hashes of this many keys collide
    // now and then, and no two values share an id for it.
    const values = Array.from({ length: 20_000 }, (_, i) => ({ title: `Page ${i}`, n: i % 7 }));
    const ids = values.map((v) => shared.id(v));
    expect(values.map((v) => shared.id({ ...v }))).toEqual(ids);
    expect(new Set(ids).size).toBe(values.length);
  });
});
