import { LIMITS } from "../../limits.js";
import { type Charge, type RateDecision, type RateLimiter, unitsByKey } from "./rate-limit.js";

/**
 * Shared counters (PostgreSQL state, or the primary of `serve --http --workers N`) asked less
 * often: a process takes units of a counter in blocks (a lease of `LIMITS.rateLimits.leaseUnits`)
 * and spends them without a round trip. The call that leaves `leaseRefillAt` units of a block
 * asks for the next one without waiting for it, so calls go on spending while the store answers
 * and, in a steady stream, no call waits for the store at all; only a call that finds its block
 * empty (the first of a window, or a stream faster than the round trip) goes to the shared store
 * itself, and asks for the next block beside its own charge. Every call used to cost one to three
 * round trips (the per-IP counter, the tool's counter), each a database transaction on the one
 * site-wide search row, which held PostgreSQL state to half the rate of SQLite's (issue 23); then
 * the call that emptied a block, and the calls arriving while it waited, waited for a round trip
 * (a few in every 64 under load, at the tail of the latency).
 *
 * Never more than a limit passes: a leased unit is counted in the shared store when it is
 * leased. What a process holds unspent can be refused to another: at most `leaseUnits +
 * leaseRefillAt` per counter per process (one lease in flight per counter, asked for once the
 * block is down to `leaseRefillAt`, and single-unit charges only), and a
 * lease is granted only while `LIMITS.rateLimits.leaseHeadroom` units would remain after it, so
 * the end of every limit, and the whole of a small one, is decided call by call in the store,
 * exactly. Units leased and unspent when the window ends are lost with it, as the store's counts;
 * a block the store counts in the next window (asked for at the turn, answered after it) is
 * dropped here: one more block per process, once a window, that can be refused to others.
 */
export class LeasingLimiter implements RateLimiter {
  private window = Number.NaN;
  /** Leased units not yet spent, by counter key, in `window`. */
  private allotments = new Map<string, number>();
  /** Counters with a lease in flight: one at a time, so a burst cannot lease many blocks. */
  private readonly leasing = new Set<string>();
  /** Counters whose lease was refused in `window`: near its limit, each call asks alone. */
  private refused = new Set<string>();

  constructor(
    private readonly inner: RateLimiter,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly leaseUnits: number = LIMITS.rateLimits.leaseUnits,
    private readonly headroom: number = LIMITS.rateLimits.leaseHeadroom,
    private readonly refillAt: number = LIMITS.rateLimits.leaseRefillAt,
  ) {}

  async take(charges: readonly Charge[]): Promise<RateDecision> {
    this.roll();
    const window = this.window;
    // Spent synchronously, before any await: two calls of this process never spend one unit twice.
    const spent: [string, number][] = [];
    const remote: Charge[] = [];
    for (const { charge, units } of unitsByKey(charges).values()) {
      const left = this.allotments.get(charge.key) ?? 0;
      if (left >= units) {
        this.allotments.set(charge.key, left - units);
        spent.push([charge.key, units]);
        // The next block is asked for before this one runs out: no call waits for it.
        if (left - units <= this.refillAt && units === 1 && this.leasable(charge)) this.lease(charge, window);
      } else {
        remote.push({ ...charge, units });
      }
    }
    if (remote.length === 0) return { ok: true };
    const own = this.inner.take(remote);
    for (const charge of remote) if (charge.units === 1 && this.leasable(charge)) this.lease(charge, window);
    let decision: RateDecision;
    try {
      decision = await own;
    } catch (error) {
      this.giveBack(spent, window);
      throw error;
    }
    // All or none: units spent from the blocks for a refused call are this process's again.
    if (!decision.ok) this.giveBack(spent, window);
    return decision;
  }

  refund(charges: readonly Charge[]): Promise<void> {
    return this.inner.refund(charges);
  }

  /** Whether a block of `charge`'s counter may be asked for now (`charge` is single-unit). */
  private leasable(charge: Charge): boolean {
    return Number.isFinite(charge.limit) && charge.limit - this.headroom >= this.leaseUnits && !this.leasing.has(charge.key) && !this.refused.has(charge.key);
  }

  /**
   * Ask for a block after the call's own charge (the store sends both in one round trip): a
   * separate take, so a refused lease never refuses the call. It is granted only if the counter
   * stays `headroom` below its limit; once refused, no other is asked for until the window ends.
   */
  private lease(charge: Charge, window: number): void {
    this.leasing.add(charge.key);
    this.inner.take([{ key: charge.key, what: charge.what, units: this.leaseUnits, limit: charge.limit - this.headroom }]).then(
      (decision) => {
        this.leasing.delete(charge.key);
        if (this.window !== window) return;
        if (decision.ok) this.allotments.set(charge.key, (this.allotments.get(charge.key) ?? 0) + this.leaseUnits);
        else this.refused.add(charge.key);
      },
      // A failed lease only means the next calls ask the store themselves, and a store that
      // fails answers them with its error (503 state_unavailable): nothing is lost by dropping it.
      () => this.leasing.delete(charge.key),
    );
  }

  private giveBack(spent: readonly [string, number][], window: number): void {
    if (this.window !== window) return;
    for (const [key, units] of spent) this.allotments.set(key, (this.allotments.get(key) ?? 0) + units);
  }

  private roll(): void {
    const window = Math.floor(this.now() / this.windowMs);
    if (window === this.window) return;
    this.window = window;
    this.allotments = new Map();
    this.refused = new Set();
  }
}
