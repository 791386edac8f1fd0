import { describe, expect, it } from "vitest";
import { SessionLedger } from "../../src/bridge/mcp/session-ledger.js";

/**
 * The primary's record of which 2025 sessions live under `--workers` (adversary round 26, F1):
 * an ended session is absent, so no worker takes it up again; a copy dropped for idleness ends
 * the session only if no other worker holds it; a session whose last holder exited is kept for
 * the idle time. Its size is the live sessions, whatever ended before.
 */
const IDLE = 1_000;

describe("SessionLedger", () => {
  it("a session ended by one worker is held by none and taken up by none; the others are told to close it", () => {
    const ledger = new SessionLedger<string>(IDLE);
    expect(ledger.answer("a", { op: "opened", id: "s", caller: "mcp address:x" }, 0)).toEqual({ held: true });
    expect(ledger.answer("b", { op: "hold", id: "s" }, 0)).toEqual({ held: true });
    expect(ledger.answer("c", { op: "hold", id: "s" }, 0)).toEqual({ held: true });
    expect(ledger.answer("b", { op: "end", id: "s" }, 0)).toEqual({ closeIn: ["a", "c"] });
    for (const w of ["a", "b", "c"]) expect(ledger.answer(w, { op: "hold", id: "s" }, 0)).toEqual({ held: false });
    expect(ledger.answer("a", { op: "end", id: "s" }, 0)).toEqual({ closeIn: [] });
    expect(ledger.size).toBe(0);
  });

  it("an idle copy dropped while another worker holds the session leaves it live; the last one dropped ends it", () => {
    const ledger = new SessionLedger<string>(IDLE);
    ledger.answer("a", { op: "opened", id: "s", caller: "mcp address:x" }, 0);
    ledger.answer("b", { op: "hold", id: "s" }, 0);
    ledger.dropped("a", "s", 5_000);
    expect(ledger.holdersBesides("a", "s")).toEqual(["b"]);
    expect(ledger.answer("a", { op: "hold", id: "s" }, 5_000)).toEqual({ held: true });
    ledger.dropped("a", "s", 9_000);
    ledger.dropped("b", "s", 9_000);
    expect(ledger.answer("a", { op: "hold", id: "s" }, 9_000)).toEqual({ held: false });
    expect(ledger.size).toBe(0);
  });

  it("a session whose last holder exited is kept for the idle time for a sibling to take up, then dropped; an exited worker takes none up", () => {
    const ledger = new SessionLedger<string>(IDLE);
    ledger.answer("a", { op: "opened", id: "kept", caller: "mcp address:x" }, 0);
    ledger.answer("a", { op: "opened", id: "lost", caller: "mcp address:x" }, 0);
    ledger.forget("a", 100);
    expect(ledger.answer("a", { op: "hold", id: "kept" }, 200)).toEqual({ held: false });
    expect(ledger.answer("b", { op: "hold", id: "kept" }, 200)).toEqual({ held: true });
    ledger.sweep(1_099);
    expect(ledger.size).toBe(2);
    ledger.sweep(1_100);
    expect(ledger.size).toBe(1);
    expect(ledger.answer("b", { op: "hold", id: "lost" }, 1_100)).toEqual({ held: false });
    // Held again, it lives as long as b holds it.
    ledger.sweep(5_000);
    expect(ledger.answer("c", { op: "hold", id: "kept" }, 5_000)).toEqual({ held: true });
  });
  it("a caller's sessions past its bound end its oldest, held anywhere; another caller's and ended ones do not count (adversary round 39, F2)", () => {
    const ledger = new SessionLedger<string>(IDLE, 2);
    const opened = (w: string, id: string, caller = "mcp address:x") => ledger.answer(w, { op: "opened", id, caller }, 0);
    expect(opened("a", "s1")).toEqual({ held: true });
    expect(ledger.answer("b", { op: "hold", id: "s1" }, 0)).toEqual({ held: true });
    expect(opened("b", "s2")).toEqual({ held: true });
    expect(opened("a", "y1", "mcp address:y")).toEqual({ held: true });
    expect(opened("b", "s3")).toEqual({ held: true, evicted: { id: "s1", closeIn: ["a", "b"] } });
    expect(ledger.answer("a", { op: "hold", id: "s1" }, 0)).toEqual({ held: false });
    // The same owner on the other endpoint is another caller.
    expect(opened("a", "t1", "authed address:x")).toEqual({ held: true });
    // An ended session gives its place back.
    ledger.answer("a", { op: "end", id: "s2" }, 0);
    expect(opened("a", "s4")).toEqual({ held: true });
    expect(opened("a", "s5")).toEqual({ held: true, evicted: { id: "s3", closeIn: ["b"] } });
    expect(ledger.size).toBe(4);
  });
});
