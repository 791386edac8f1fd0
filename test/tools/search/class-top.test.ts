import { describe, expect, it } from "vitest";
import { ClassTop } from "../../../src/engine/search/heaps.js";

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
});
