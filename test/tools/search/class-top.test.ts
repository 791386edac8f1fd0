import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ClassTop, TopScores } from "../../../src/engine/search/heaps.js";

/** The top of classes that ranking counts when it folds copies (`rankPages`' `classes`). */
describe("ClassTop", () => {
  it("counts each class once, at its best score, and returns the limit-th best class score", () => {
    const top = new ClassTop(2);
    expect([top.add(7, 0.5), top.add(7, 0.9), top.add(7, 0.4)]).toEqual([0, 0, 0]);
    expect(top.add(3, 0.2)).toBe(0.2);
    // A third class below the second place changes nothing; above it, it takes the place.
    expect(top.add(5, 0.1)).toBe(0.2);
    expect(top.add(5, 0.6)).toBe(0.6);
    // The class that left comes back only by passing the last place.
    expect(top.add(3, 0.5)).toBe(0.6);
    expect(top.add(3, 0.95)).toBe(0.9);
  });

  it("is never below 0, as `TopScores`", () => {
    const top = new ClassTop(1);
    expect(top.add(1, -1)).toBe(0);
  });

  it("adds in bulk (`addAll`, the floor of a search's top) exactly as one by one, and goes on from there", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.double({ min: -1, max: 1, noNaN: true }))), (limit, added) => {
        const one = new ClassTop(limit);
        let expected = 0;
        for (const [cls, x] of added) expected = one.add(cls, x);
        const bulk = new ClassTop(limit);
        const ids = Int32Array.from(added, (_, i) => i);
        const classOf = Int32Array.from(added, ([cls]) => cls);
        expect(bulk.addAll(Float64Array.from(added, ([, x]) => x), ids, classOf, added.length)).toBe(expected);
        expect(bulk.add(3, 0.5)).toBe(one.add(3, 0.5));
      }),
    );
  });

  it("answers after a reset (`RankScratch.classTop` reuses one per search) as a new one", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.double({ min: -1, max: 1, noNaN: true }))), fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.double({ min: -1, max: 1, noNaN: true }))), (limit, before, added) => {
        const used = new ClassTop(limit);
        for (const [cls, x] of before) used.add(cls, x);
        used.reset();
        const fresh = new ClassTop(limit);
        expect(added.map(([cls, x]) => used.add(cls, x))).toEqual(added.map(([cls, x]) => fresh.add(cls, x)));
        expect(used.last()).toBe(fresh.last());
      }),
    );
  });
});

describe("TopScores", () => {
  it("returns the limit-th best so far, 0 while there are fewer, never below 0", () => {
    const top = new TopScores(2);
    expect([top.add(0.5), top.add(0.25), top.add(0.75), top.add(0.1), top.add(-1)]).toEqual([0, 0.25, 0.5, 0.5, 0.5]);
    expect(new TopScores(1).add(-0.5)).toBe(0);
  });

  it("adds in bulk (`addAll`) exactly as one by one, and goes on from there", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.double({ min: -1, max: 1, noNaN: true })), (limit, added) => {
        const one = new TopScores(limit);
        let expected = 0;
        for (const x of added) expected = one.add(x);
        const bulk = new TopScores(limit);
        expect(bulk.addAll(Float64Array.from(added), added.length)).toBe(expected);
        expect(bulk.add(0.5)).toBe(one.add(0.5));
      }),
    );
  });

  it("answers after a reset (`RankScratch.scoreTop` reuses one per search) as a new one", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.double({ min: -1, max: 1, noNaN: true })), fc.array(fc.double({ min: -1, max: 1, noNaN: true })), (limit, before, added) => {
        const used = new TopScores(limit);
        for (const x of before) used.add(x);
        used.reset();
        const fresh = new TopScores(limit);
        expect(added.map((x) => used.add(x))).toEqual(added.map((x) => fresh.add(x)));
      }),
    );
  });
});
