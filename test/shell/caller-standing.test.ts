/**
 * What the shell pool remembers of its callers (`CallerStanding`): trusted once `trustAnswers`
 * commands answered, heavy after a long hold, and heaviness wearing off by the clock (moved by hand: no
 * test waits for it).
 */
import { describe, expect, it } from "vitest";
import { callerNetwork } from "../../src/engine/shell/caller-network.js";
import { CallerStanding } from "../../src/engine/shell/caller-standing.js";

const MINUTE = 60_000;

/** Trust by one answer unless told (the rules these tests are about are the others). */
function standing(capacity = 10, trustAnswers = 1): { s: CallerStanding; advance: (ms: number) => void } {
  let t = 1_000_000;
  return { s: new CallerStanding({ capacity, heavyForMs: 10 * MINUTE, trustAnswers, now: () => t }), advance: (ms) => (t += ms) };
}

function answer(s: CallerStanding, caller: string, times: number): boolean[] {
  return Array.from({ length: times }, () => s.answered(caller));
}

describe("CallerStanding", () => {
  it("a caller is new until a command of theirs answers, then trusted", () => {
    const { s } = standing();
    expect(s.of("a")).toBe("new");
    s.answered("a");
    expect(s.of("a")).toBe("trusted");
    expect(s.of("b")).toBe("new");
  });

  it("trust is counted: a caller is new until `trustAnswers` commands answered, each counted once (and told to the other pools) until then; a long hold starts the count again (adversary round 54 F3)", () => {
    const { s, advance } = standing(10, 3);
    expect(answer(s, "a", 2)).toEqual([true, true]);
    expect(s.of("a")).toBe("new");
    expect(answer(s, "a", 2)).toEqual([true, false]);
    expect(s.of("a")).toBe("trusted");
    s.heldLong("a");
    advance(10 * MINUTE);
    expect(s.of("a")).toBe("new");
    answer(s, "a", 2);
    expect(s.of("a")).toBe("new");
    s.answered("a");
    expect(s.of("a")).toBe("trusted");
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

describe("CallerStanding by network", () => {
  function networked(trustAnswers = 1): { s: CallerStanding; advance: (ms: number) => void } {
    let t = 1_000_000;
    return { s: new CallerStanding({ capacity: 10, heavyForMs: 10 * MINUTE, trustAnswers, now: () => t, networkOf: callerNetwork }), advance: (ms) => (t += ms) };
  }

  it("a long hold makes heavy the callers of its /24 or /48 counted on the way to trust before it, not only those never seen; those with `trustAnswers` answers keep their trust (adversary round 54 F3: addresses warmed before the first runaway stayed trusted)", () => {
    const { s, advance } = networked(3);
    // Warmed before any runaway: .5 and :5 answered three times (trusted), .6 and :6 once.
    for (const c of ["address:203.0.113.5", "address:2001:db8:1:5::/64"]) answer(s, c, 3);
    for (const c of ["address:203.0.113.6", "address:2001:db8:1:6::/64"]) answer(s, c, 1);
    const callers = ["address:203.0.113.5", "address:203.0.113.6", "address:2001:db8:1:5::/64", "address:2001:db8:1:6::/64", "address:203.0.114.6"];
    expect(callers.map((c) => s.of(c))).toEqual(["trusted", "new", "trusted", "new", "new"]);
    s.heldLong("address:203.0.113.7");
    s.heldLong("address:2001:db8:1:7::/64");
    expect(callers.map((c) => s.of(c))).toEqual(["trusted", "heavy", "trusted", "heavy", "new"]);
    // Their answers while the mark lasts count for nothing.
    expect(answer(s, "address:203.0.113.6", 3)).toEqual([false, false, false]);
    advance(10 * MINUTE);
    expect(callers.map((c) => s.of(c))).toEqual(["trusted", "new", "trusted", "new", "new"]);
    answer(s, "address:203.0.113.6", 2);
    expect(s.of("address:203.0.113.6")).toBe("trusted");
  });

  it("a long hold makes the other callers of its /24 or /48 heavy until they are trusted; trusted neighbours keep their trust; it wears off with the caller's", () => {
    const { s, advance } = networked();
    s.answered("address:203.0.113.9");
    s.answered("address:2001:db8:1:9::/64");
    s.heldLong("address:203.0.113.7");
    s.heldLong("address:2001:db8:1:7::/64");
    const callers = ["address:203.0.113.8", "address:203.0.113.9", "address:203.0.114.8", "address:2001:db8:1:ffff::/64", "address:2001:db8:1:9::/64", "address:2001:db8:2:8::/64", "token:alice"];
    expect(callers.map((c) => s.of(c))).toEqual(["heavy", "trusted", "new", "heavy", "trusted", "new", "new"]);
    // A new caller of a marked network that answers stays heavy (answers do not lift heaviness).
    s.answered("address:203.0.113.8");
    expect(s.of("address:203.0.113.8")).toBe("heavy");
    advance(10 * MINUTE);
    expect(callers.map((c) => s.of(c))).toEqual(["new", "trusted", "new", "new", "trusted", "new", "new"]);
  });

  it("callerNetwork: an IPv4 /24 and an IPv6 /48; none for tokens, the local reader and loopback", () => {
    expect(["address:198.51.100.23", "address:2001:db8:abcd:12::/64", "address:127.0.0.2", "address:0:0:0:0::/64", "token:alice", "local", "address:unknown"].map(callerNetwork)).toEqual([
      "198.51.100.0/24",
      "2001:db8:abcd::/48",
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
