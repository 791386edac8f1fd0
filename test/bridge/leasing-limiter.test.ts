import { describe, expect, it } from "vitest";
import { LeasingLimiter } from "../../src/bridge/middleware/leasing-limiter.js";
import { type Charge, FixedWindowLimiter, type RateDecision, type RateLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { LIMITS } from "../../src/limits.js";
import { TestClock } from "./harness.js";

/**
 * Shared counters leased in blocks (`LeasingLimiter`): what reaches the shared store, and the
 * bound on calls refused early. The store here is one `FixedWindowLimiter` that several
 * "processes" (leasing limiters) share, as the primary of --workers holds it for its workers.
 */

const HOUR = 3_600_000;
const START = Date.UTC(2030, 0, 1, 12, 0, 0);

/** The shared store, recording every take that reaches it (each a round trip in production) and the units it counted. */
class Store implements RateLimiter {
  readonly takes: { key: string; units: number; limit: number }[][] = [];
  private readonly limiter: FixedWindowLimiter;
  private readonly units = new Map<string, number>();

  constructor(clock: TestClock) {
    this.limiter = new FixedWindowLimiter(HOUR, clock.now);
  }

  async take(charges: readonly Charge[]): Promise<RateDecision> {
    this.takes.push(charges.map((c) => ({ key: c.key, units: c.units ?? 1, limit: c.limit })));
    const decision = await this.limiter.take(charges);
    if (decision.ok) for (const c of charges) this.units.set(c.key, this.counted(c.key) + (c.units ?? 1));
    return decision;
  }

  refund(charges: readonly Charge[]): Promise<void> {
    return this.limiter.refund(charges);
  }

  /** Units counted on `key` since the test began (every window). */
  counted(key: string): number {
    return this.units.get(key) ?? 0;
  }
}

const search = (limit: number): Charge => ({ key: "tool:public:search", limit, what: "search calls per hour on this documentation site" });

describe("a limiter leasing shared counters", () => {
  it("takes a block beside the first call and spends it without asking the store; the call that leaves 16 of it asks for the next, so no other call waits for the store", async () => {
    const clock = new TestClock();
    clock.t = START;
    const store = new Store(clock);
    const limiter = new LeasingLimiter(store, HOUR, clock.now);
    const waited: boolean[] = [];
    for (let i = 0; i < 1 + 2 * LIMITS.rateLimits.leaseUnits; i++) {
      const before = store.takes.length;
      expect(await limiter.take([search(100_000)])).toEqual({ ok: true });
      // A call whose own charge went to the store (not a block asked for beside it).
      waited.push(store.takes.slice(before).some((t) => t[0]?.units === 1));
    }
    expect(store.takes).toEqual([
      [{ key: "tool:public:search", units: 1, limit: 100_000 }],
      [{ key: "tool:public:search", units: 64, limit: 100_000 - 4096 }],
      // Asked for by the 49th call (16 left of the first block) and the 113th (16 left of 80).
      [{ key: "tool:public:search", units: 64, limit: 100_000 - 4096 }],
      [{ key: "tool:public:search", units: 64, limit: 100_000 - 4096 }],
    ]);
    expect(waited.indexOf(true)).toBe(0);
    expect(waited.lastIndexOf(true)).toBe(0);
    // 129 calls spent, 193 units counted: 64 are this process's to spend (at most 64 + 16 held).
    expect(store.counted("tool:public:search")).toBe(193);
  });

  it("asks the store for every call of a limit too small to lease (the tests' and the feedback budgets), and of the last 4,096 units of any", async () => {
    const clock = new TestClock();
    clock.t = START;
    const store = new Store(clock);
    const limiter = new LeasingLimiter(store, HOUR, clock.now);
    const limit = 4096 + 63;
    for (let i = 0; i < limit; i++) expect((await limiter.take([search(limit)])).ok).toBe(true);
    expect((await limiter.take([search(limit)])).ok).toBe(false);
    expect(store.takes.length).toBe(limit + 1);
    expect(store.takes.every((t) => t.length === 1 && t[0]?.units === 1)).toBe(true);
    // A larger limit is leased until 4,096 units would remain, then asked call by call.
    const big = 4096 + 64 * 3;
    const other: Charge = { ...search(big), key: "tool:public:filesystem" };
    const start = store.takes.length;
    for (let i = 0; i < big; i++) expect((await limiter.take([other])).ok).toBe(true);
    expect((await limiter.take([other])).ok).toBe(false);
    // Two blocks granted (at 1 and 66 units counted), the third refused (131 + 64 > 192): asked no more.
    const leases = store.takes.slice(start).filter((t) => t[0]?.units === 64);
    expect(leases.length).toBe(3);
    expect(store.takes.length - start).toBe(big - 2 * 64 + 1 + 3);
    expect(store.counted(other.key)).toBe(big);
    // Multi-unit charges (bytes of feedback) are never leased.
    const bytes: Charge = { key: "feedback-bytes:ip:1.2.3.4", limit: 1_048_576, what: "bytes", units: 300 };
    await limiter.take([bytes]);
    await limiter.take([bytes]);
    expect(store.takes.slice(-2)).toEqual([[{ key: bytes.key, units: 300, limit: 1_048_576 }], [{ key: bytes.key, units: 300, limit: 1_048_576 }]]);
  });

  it("two processes on one store: never more than the limit passes, and at most a block each is refused early", async () => {
    const clock = new TestClock();
    clock.t = START;
    const store = new Store(clock);
    const limit = 10_000;
    const processes = [new LeasingLimiter(store, HOUR, clock.now), new LeasingLimiter(store, HOUR, clock.now)];
    const passed = [0, 0];
    // In turn until both are refused: the first refused goes on asking (its calls are refused
    // at the store) while the other spends what it holds.
    for (let i = 0, refusedInARow = 0; refusedInARow < 2; i++) {
      const p = i % 2;
      if ((await processes[p]!.take([search(limit)])).ok) {
        passed[p]!++;
        refusedInARow = 0;
      } else refusedInARow++;
    }
    const total = passed[0]! + passed[1]!;
    expect(total).toBeLessThanOrEqual(limit);
    expect(total).toBeGreaterThanOrEqual(limit - 2 * LIMITS.rateLimits.leaseUnits);
    expect(store.counted("tool:public:search")).toBe(limit);
    // Exactly: the store counted the limit, and the blocks leased and never spent are the difference.
    expect({ passed, total }).toEqual({ passed: [5000, 5000], total: 10_000 });
    // 10,002 calls, 4,208 round trips: one per block while leasing (the next asked for before
    // the last is spent; 4,334 when it was asked for beside the call that found it empty), one
    // per call for the last 4,096.
    expect(store.takes.length).toBe(4208);
  });

  it("what one process holds unspent is refused to the other until it spends it: early by at most its block", async () => {
    const clock = new TestClock();
    clock.t = START;
    const store = new Store(clock);
    const limit = 5000;
    const [a, b] = [new LeasingLimiter(store, HOUR, clock.now), new LeasingLimiter(store, HOUR, clock.now)];
    expect((await a.take([search(limit)])).ok).toBe(true);
    let passedB = 0;
    while ((await b.take([search(limit)])).ok) passedB++;
    // A holds 64 units: B was refused 64 calls before the limit.
    expect(passedB).toBe(limit - 1 - LIMITS.rateLimits.leaseUnits);
    let passedA = 1;
    while ((await a.take([search(limit)])).ok) passedA++;
    expect(passedA + passedB).toBe(limit);
    expect(store.counted("tool:public:search")).toBe(limit);
  });

  it("a refused call gives back the units it spent from its blocks: all or none", async () => {
    const clock = new TestClock();
    clock.t = START;
    const store = new Store(clock);
    const limiter = new LeasingLimiter(store, HOUR, clock.now);
    const ip: Charge = { key: "ip:1.2.3.4", limit: 100_000, what: "requests per hour from one IP address" };
    expect((await limiter.take([ip])).ok).toBe(true);
    // The block of the IP's counter is held; the tool's small limit is refused at the store.
    const tool: Charge = { key: "tool:public:filesystem", limit: 1, what: "filesystem calls" };
    expect((await limiter.take([ip, tool])).ok).toBe(true);
    const refusal = await limiter.take([ip, tool]);
    expect(refusal).toEqual({ ok: false, charge: { ...tool, units: 1 }, retryAfterSec: 3600, resetAt: START + HOUR });
    // 64 leased, 1 spent on the second call and given back by the third: 63 left in the block,
    // so the 47th call from here leaves 16 and asks for the next block (the 46th, had the unit
    // not been given back).
    const before = store.takes.length;
    for (let i = 0; i < 46; i++) expect((await limiter.take([ip])).ok).toBe(true);
    expect(store.takes.length).toBe(before);
    expect((await limiter.take([ip])).ok).toBe(true);
    expect(store.takes.slice(before)).toEqual([[{ key: ip.key, units: 64, limit: 100_000 - 4096 }]]);
  });

  it("drops what it holds when the window ends: a new hour starts from the store's fresh counts", async () => {
    const clock = new TestClock();
    clock.t = START;
    const store = new Store(clock);
    const limiter = new LeasingLimiter(store, HOUR, clock.now);
    expect((await limiter.take([search(100_000)])).ok).toBe(true);
    clock.t = START + HOUR;
    const before = store.takes.length;
    expect((await limiter.take([search(100_000)])).ok).toBe(true);
    expect(store.takes.length).toBe(before + 2);
    // 65 in the first hour, 65 in the second: the block of the first was dropped with its hour.
    expect(store.counted("tool:public:search")).toBe(130);
  });
});
