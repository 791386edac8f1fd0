/**
 * The shell pool's queue: callers served in turn, a newcomer first, what one caller holds
 * (running and waiting) capped, and places kept for callers with nothing running.
 */
import { describe, expect, it } from "vitest";
import { type CallerBounds, FairQueue } from "../../src/engine/shell/fair-queue.js";

/** Take items until none may run, finishing each at once: the order work would run in on one worker. */
function runOrder(q: FairQueue<string>): string[] {
  const order: string[] = [];
  for (let next = q.take(); next !== undefined; next = q.take()) {
    order.push(next.item);
    q.done(next.caller);
  }
  return order;
}

const bounds = (b: Partial<CallerBounds>): CallerBounds => ({ maxHeld: 10, maxRunning: 1, capacity: 1, reserve: 0, ...b });

describe("FairQueue", () => {
  it("serves callers in turn, each caller's own calls in order", () => {
    const q = new FairQueue<string>(bounds({}));
    for (const item of ["a1", "a2", "a3", "a4"]) q.push("a", item);
    q.push("b", "b1");
    q.push("b", "b2");
    q.push("c", "c1");
    expect(runOrder(q)).toEqual(["a1", "b1", "c1", "a2", "b2", "a3", "a4"]);
  });

  it("puts a newcomer before callers already served", () => {
    const q = new FairQueue<string>(bounds({ capacity: 2 }));
    for (const item of ["a1", "a2", "a3"]) q.push("a", item);
    const first = q.take();
    expect(first).toEqual({ caller: "a", item: "a1" });
    // While a1 runs, another caller arrives: it goes next, before a2.
    q.push("b", "b1");
    q.done("a");
    expect(runOrder(q)).toEqual(["b1", "a2", "a3"]);
  });

  it("lets one caller run at most its share at once", () => {
    const q = new FairQueue<string>(bounds({ maxRunning: 2, capacity: 4 }));
    for (const item of ["a1", "a2", "a3"]) q.push("a", item);
    expect(q.take()).toEqual({ caller: "a", item: "a1" });
    expect(q.take()).toEqual({ caller: "a", item: "a2" });
    expect(q.take()).toBeUndefined();
    q.push("b", "b1");
    expect(q.take()).toEqual({ caller: "b", item: "b1" });
    q.done("a");
    expect(q.take()).toEqual({ caller: "a", item: "a3" });
    expect(q.waiting).toBe(0);
    expect(q.running).toBe(3);
  });

  it("keeps the reserve for callers with nothing running: a caller running one may not take the last free places", () => {
    // A pool of 6 keeping 2: callers already running stop at 4 running in all; newcomers take the rest.
    const q = new FairQueue<string>(bounds({ maxRunning: 2, capacity: 6, reserve: 2 }));
    for (const c of ["a", "b", "c"]) for (const k of [1, 2]) q.push(c, `${c}${k}`);
    expect(q.startable()).toBe(4);
    const taken = [q.take(), q.take(), q.take(), q.take(), q.take()].map((t) => t?.item);
    expect(taken).toEqual(["a1", "b1", "c1", "a2", undefined]);
    expect(q.startable()).toBe(0);
    q.push("victim", "v1");
    q.push("other", "o1");
    expect(q.startable()).toBe(2);
    expect([q.take()?.item, q.take()?.item, q.take()]).toEqual(["v1", "o1", undefined]);
    expect(q.running).toBe(6);
  });

  it("refuses a caller's call past what it may hold, running and waiting together, and only that caller's", () => {
    const q = new FairQueue<string>(bounds({ maxHeld: 2 }));
    expect([q.push("a", "a1"), q.push("a", "a2"), q.push("a", "a3"), q.push("b", "b1")]).toEqual([true, true, false, true]);
    expect(q.take()).toEqual({ caller: "a", item: "a1" });
    // a1 runs: it still counts, so a holds two.
    expect(q.push("a", "a3")).toBe(false);
    q.done("a");
    expect(q.push("a", "a3")).toBe(true);
    expect(q.drain()).toEqual(["a2", "a3", "b1"]);
    expect(q.waiting).toBe(0);
  });

  it("takes a cancelled call out of its queue; the caller's place goes with it", () => {
    const q = new FairQueue<string>(bounds({ maxHeld: 2 }));
    q.push("a", "a1");
    q.push("a", "a2");
    expect(q.remove("a", "a1")).toBe(true);
    expect(q.remove("a", "a1")).toBe(false);
    expect(q.push("a", "a3")).toBe(true);
    expect(runOrder(q)).toEqual(["a2", "a3"]);
  });

  it("a caller known to hold places for long (heavy) never takes the reserve, even with nothing running; others still do", () => {
    const heavy = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
    // The pool of 6 of a 2-core machine, 2 kept: six heavy addresses with one call each run four.
    const q = new FairQueue<string>(bounds({ capacity: 6, reserve: 2, trustedReserve: 1, maxRunning: 2, standing: (c) => (heavy.has(c) ? "heavy" : c === "victim" ? "trusted" : "new") }));
    for (const caller of heavy) q.push(caller, `${caller}-runaway`);
    const started: string[] = [];
    for (let next = q.take(); next !== undefined; next = q.take()) started.push(next.item);
    expect(started).toEqual(["h1-runaway", "h2-runaway", "h3-runaway", "h4-runaway"]);
    expect(q.startable()).toBe(0);
    // A trusted caller goes first (though it came second); a new one may take a place only
    // while one stays free after it, so it waits.
    q.push("newcomer", "newcomer-ls");
    q.push("victim", "victim-ls");
    expect([q.take()?.item, q.take()]).toEqual(["victim-ls", undefined]);
    q.done("victim");
    // With two free, the new caller takes one, leaving the last.
    expect([q.take()?.item, q.take()]).toEqual(["newcomer-ls", undefined]);
  });

  it("new callers, however many, leave the trusted reserve: fresh addresses each sending a runaway hold all places but it", () => {
    // Issue 25: six fresh addresses each with a first runaway held all six workers of a 2-core machine.
    const trusted = new Set(["victim", "victim2"]);
    const q = new FairQueue<string>(bounds({ capacity: 6, reserve: 2, trustedReserve: 1, maxRunning: 2, standing: (c) => (trusted.has(c) ? "trusted" : "new") }));
    for (let k = 1; k <= 7; k++) q.push(`fresh${k}`, `fresh${k}-runaway`);
    expect(q.startable()).toBe(5);
    const started: string[] = [];
    for (let next = q.take(); next !== undefined; next = q.take()) started.push(next.item);
    expect(started).toEqual(["fresh1-runaway", "fresh2-runaway", "fresh3-runaway", "fresh4-runaway", "fresh5-runaway"]);
    // A trusted caller takes the last place, before the new callers that waited longer.
    q.push("victim", "ls");
    expect(q.startable()).toBe(1);
    expect(q.take()).toEqual({ caller: "victim", item: "ls" });
    q.done("victim");
    // Its place freed, another trusted caller finds it; a new one still does not.
    q.push("victim2", "ls");
    expect([q.take()?.item, q.take()]).toEqual(["ls", undefined]);
    q.done("victim2");
    // A runaway ends: a new caller may take a place again (the longest waiting first).
    q.done("fresh1");
    expect(q.take()).toEqual({ caller: "fresh6", item: "fresh6-runaway" });
    expect(q.take()).toBeUndefined();
  });
  it("a new caller's item stopped to make room goes back first in its queue, not refused past maxHeld, and runs again only while requeuedReserve places stay free; newcomers waiting are counted (issue 25, adversary F1)", () => {
    const tried = new Set<string>();
    const q = new FairQueue<string>(bounds({ capacity: 6, reserve: 2, trustedReserve: 1, requeuedReserve: 3, maxRunning: 2, maxHeld: 1, standing: () => "new", tried: (item) => tried.has(String(item)) }));
    for (let k = 1; k <= 5; k++) q.push(`f${k}`, `f${k}-runaway`);
    q.push("reader", "ls");
    const started: string[] = [];
    for (let next = q.take(); next !== undefined; next = q.take()) started.push(next.item);
    // Five run; the reader, new as they are, may not take the trusted callers' place.
    expect(started).toEqual(["f1-runaway", "f2-runaway", "f3-runaway", "f4-runaway", "f5-runaway"]);
    expect(q.waitingNewcomers()).toBe(1);
    // f1's and f2's runaways are stopped and put back: the reader goes first, then nobody (a
    // second run leaves 3 free), though f1 holds its one place (maxHeld 1).
    for (const caller of ["f1", "f2"]) {
      tried.add(`${caller}-runaway`);
      q.unshift(caller, `${caller}-runaway`);
    }
    expect(q.waitingNewcomers()).toBe(1);
    expect(q.take()).toEqual({ caller: "reader", item: "ls" });
    expect(q.take()).toBeUndefined();
    expect(q.push("f1", "f1-again")).toBe(false);
    expect(q.waitingNewcomers()).toBe(0);
    q.done("reader");
    q.done("f3");
    // Two of six running: a second run may start (3 stay free), the next may not.
    expect(q.take()).toEqual({ caller: "f1", item: "f1-runaway" });
    expect(q.take()).toBeUndefined();
  });
  it("with trials, the newest of the never-served newcomers goes first: a reader arriving behind a burst of fresh addresses is not behind them (issue 25, adversary F1)", () => {
    const q = new FairQueue<string>(bounds({ capacity: 3, reserve: 1, trustedReserve: 1, requeuedReserve: 2, maxRunning: 2, standing: (c) => (c === "known" ? "trusted" : "new"), tried: () => false, newestNewcomerFirst: true }));
    for (let k = 1; k <= 4; k++) q.push(`f${k}`, `f${k}-runaway`);
    expect([q.take()?.item, q.take()?.item, q.take()]).toEqual(["f4-runaway", "f3-runaway", undefined]);
    q.push("reader", "ls");
    q.push("known", "cat");
    // A trusted caller still goes first; then the reader, the newest of the newcomers.
    expect(q.take()?.item).toBe("cat");
    q.done("known");
    q.done("f4");
    expect(q.take()?.item).toBe("ls");
    q.done("reader");
    q.done("f3");
    expect(runOrder(q)).toEqual(["f2-runaway", "f1-runaway"]);
  });
  it("with trials, a newcomer passed over newcomerOvertakes times by later newcomers' trials goes before newer ones: a steady stream of fresh callers does not starve a reader waiting among them (issue 25, bench row (h))", () => {
    // One place for trials; waves of fresh callers arrive while the reader waits; each trial
    // ends (stopped to make room) before the next starts.
    const stream = (overtakes: number | undefined): string[] => {
      const q = new FairQueue<string>(bounds({ capacity: 3, reserve: 1, trustedReserve: 1, requeuedReserve: 2, maxRunning: 2, standing: () => "new", tried: () => false, newestNewcomerFirst: true, ...(overtakes !== undefined ? { newcomerOvertakes: overtakes } : {}) }));
      const started: string[] = [];
      q.push("a1", "a1");
      q.push("a2", "a2");
      q.push("reader", "ls");
      for (let wave = 1; wave <= 4; wave++) {
        q.push(`w${wave}a`, `w${wave}a`);
        q.push(`w${wave}b`, `w${wave}b`);
        for (let k = 0; k < 2; k++) {
          const next = q.take();
          if (next === undefined) continue;
          started.push(next.item);
          q.done(next.caller);
        }
      }
      return started;
    };
    // Passed over twice (by w1b and w1a), the reader and the two before it go before newer
    // trials, in the order they came; then the newest again, and so on (w2a, w2b passed over
    // twice by w3b and w4b).
    expect(stream(2)).toEqual(["w1b", "w1a", "a1", "a2", "ls", "w3b", "w4b", "w2a"]);
    // Newest first alone: every wave goes before the reader, for as long as the stream lasts.
    expect(stream(undefined)).toEqual(["w1b", "w1a", "w2b", "w2a", "w3b", "w3a", "w4b", "w4a"]);
  });
  it("a new caller passed over newcomerPasses times by trusted callers' starts goes next: trusted callers each keeping a long command queued do not hold every place for ever (adversary round 35 F1)", () => {
    // Six addresses trusted by a quick first answer, each keeping two legal 3 s commands in flight.
    const flood = (passes: number | undefined): string[] => {
      const q = new FairQueue<string>(bounds({ capacity: 6, reserve: 2, trustedReserve: 1, maxRunning: 2, standing: (c) => (c === "reader" ? "new" : "trusted"), ...(passes !== undefined ? { newcomerPasses: passes } : {}) }));
      for (let k = 1; k <= 6; k++) for (let n = 1; n <= 2; n++) q.push(`t${k}`, `t${k}-sort${n}`);
      const started: string[] = [];
      for (let next = q.take(); next !== undefined; next = q.take()) started.push(next.item);
      q.push("reader", "ls");
      // Commands end one at a time, each caller queueing another as its own ends (t3, passed
      // over by the reader, goes next).
      for (let k = 1; k <= 4; k++) {
        q.done(`t${k}`);
        q.push(`t${k}`, `t${k}-sort${k + 2}`);
        const next = q.take();
        if (next !== undefined) started.push(next.item);
      }
      return started;
    };
    expect(flood(2)).toEqual(["t1-sort1", "t2-sort1", "t3-sort1", "t4-sort1", "t5-sort1", "t6-sort1", "t1-sort2", "t2-sort2", "ls", "t3-sort2"]);
    // Without it, the reader waits as long as the flood lasts.
    expect(flood(undefined)).toEqual(["t1-sort1", "t2-sort1", "t3-sort1", "t4-sort1", "t5-sort1", "t6-sort1", "t1-sort2", "t2-sort2", "t3-sort2", "t4-sort2"]);
  });
  it("with recentStarts, remembers callers between their items: fewest started lately first, and the reserve for those who took at most half as many as each caller running", () => {
    // The render pool's bounds: two places, one kept (adversary round 51 F3).
    const q = new FairQueue<string>(bounds({ maxRunning: 2, capacity: 2, reserve: 1, recentStarts: 256 }));
    // Three addresses each keep one item in flight, three rounds; a reader had one item.
    for (const round of [1, 2, 3]) {
      for (const c of ["f1", "f2", "f3"]) q.push(c, `${c}.${round}`);
      if (round === 1) q.push("reader", "r.1");
      expect(runOrder(q)).toEqual(round === 1 ? ["f1.1", "f2.1", "f3.1", "r.1"] : [`f1.${round}`, `f2.${round}`, `f3.${round}`]);
    }
    // Each waits again, f1's item runs: none of them may take the kept place (3 started each, as f1).
    for (const c of ["f1", "f2", "f3"]) q.push(c, `${c}.4`);
    expect([q.take()?.item, q.take()]).toEqual(["f1.4", undefined]);
    // The reader (1 lately, at most half of f1's 4) and a newcomer (none) may; the newcomer goes first.
    q.push("reader", "r.2");
    q.push("newcomer", "n.1");
    expect([q.take()?.item, q.take()]).toEqual(["n.1", undefined]);
    q.done("newcomer");
    expect([q.take()?.item, q.take()]).toEqual(["r.2", undefined]);
    // With the places free, the reader and the newcomer again go before the three (fewest started lately first).
    q.done("f1");
    q.done("reader");
    q.push("reader", "r.3");
    q.push("newcomer", "n.2");
    expect(runOrder(q)).toEqual(["n.2", "r.3", "f2.4", "f3.4"]);
  });

  it("with passedOverAtMost, a caller passed over that many times goes next, however few the others started", () => {
    const flood = (passedOverAtMost: number | undefined): string[] => {
      const q = new FairQueue<string>(bounds({ recentStarts: 256, ...(passedOverAtMost !== undefined ? { passedOverAtMost } : {}) }));
      // A reader who started two pages lately, then a stream of never-seen addresses, one page each.
      for (const item of ["r.1", "r.2"]) q.push("reader", item);
      expect(runOrder(q)).toEqual(["r.1", "r.2"]);
      q.push("reader", "r.3");
      for (let k = 1; k <= 6; k++) q.push(`n${k}`, `n${k}.1`);
      return runOrder(q);
    };
    expect(flood(3)).toEqual(["n1.1", "n2.1", "n3.1", "r.3", "n4.1", "n5.1", "n6.1"]);
    // Without it, each newcomer (none started) goes first for as long as they come (adversary round 52 F5).
    expect(flood(undefined)).toEqual(["n1.1", "n2.1", "n3.1", "n4.1", "n5.1", "n6.1", "r.3"]);
  });
});
