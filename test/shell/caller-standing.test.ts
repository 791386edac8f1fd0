/**
 * What the shell pool remembers of its callers (`CallerStanding`): trusted once a command
 * answered, heavy after a long hold, and heaviness wearing off by the clock (moved by hand: no
 * test waits for it).
 */
import { describe, expect, it } from "vitest";
import { CallerStanding } from "../../src/engine/shell/caller-standing.js";

const MINUTE = 60_000;

function standing(capacity = 10): { s: CallerStanding; advance: (ms: number) => void } {
  let t = 1_000_000;
  return { s: new CallerStanding({ capacity, heavyForMs: 10 * MINUTE, now: () => t }), advance: (ms) => (t += ms) };
}

describe("CallerStanding", () => {
  it("a caller is new until a command of theirs answers, then trusted", () => {
    const { s } = standing();
    expect(s.of("a")).toBe("new");
    s.answered("a");
    expect(s.of("a")).toBe("trusted");
    expect(s.of("b")).toBe("new");
  });

  it("a long hold makes a caller heavy, trusted or not; answers do not lift it; it wears off after heavyForMs from the last hold, leaving the caller new", () => {
    const { s, advance } = standing();
    s.answered("a");
    s.heldLong("a");
    expect(s.of("a")).toBe("heavy");
    s.answered("a");
    advance(9 * MINUTE);
    expect(s.of("a")).toBe("heavy");
    // Held long again: the ten minutes count from now.
    s.heldLong("a");
    advance(9 * MINUTE);
    expect(s.of("a")).toBe("heavy");
    advance(MINUTE);
    expect(s.of("a")).toBe("new");
    s.answered("a");
    expect(s.of("a")).toBe("trusted");
  });

  it("remembers at most `capacity` callers in each standing, forgetting the least recently marked", () => {
    const { s } = standing(2);
    for (const c of ["a", "b", "c"]) s.answered(c);
    expect(["a", "b", "c"].map((c) => s.of(c))).toEqual(["new", "trusted", "trusted"]);
    for (const c of ["x", "y", "x", "z"]) s.heldLong(c);
    expect(["x", "y", "z"].map((c) => s.of(c))).toEqual(["heavy", "new", "heavy"]);
  });
});
