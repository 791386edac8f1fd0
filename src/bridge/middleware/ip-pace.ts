import { LIMITS } from "../../limits.js";

/**
 * The per-address hourly limit spread over the hour (adversary round 51 F5): a token bucket per
 * address, holding at most `burst` requests and given back continuously at the hourly rate
 * (`perIp` per `windowMs`: one every 0.72 s at 5,000 an hour). The hourly window bounds only
 * the total, so an address could spend all of it at once: twenty addresses, each under every
 * bound, sent about 500 cheap discovery GETs a second and slowed another caller's search 30
 * times. Now an address past its burst goes on at the hourly rate.
 *
 * Kept in this process's memory (each process of `serve --http --workers N` keeps its own):
 * a bound on the pace, not an account; the hourly limit stays the account, shared as it is.
 * Exact arithmetic: credit is counted in request-milliseconds (a request costs `windowMs`, a
 * millisecond gives back `perIp`), integers well inside a double's exact range.
 */
export class IpPace {
  /** Credit per address and when it was counted (the least recently used first). */
  private readonly credit = new Map<string, { units: number; at: number }>();
  private readonly full: number;

  constructor(
    private readonly perIp: number,
    private readonly windowMs: number,
    readonly burst: number,
    private readonly now: () => number,
    private readonly remembered: number = LIMITS.rateLimits.pacedAddresses,
  ) {
    this.full = burst * windowMs;
  }

  /** One request of `key`'s: 0 when taken, else the milliseconds until one is given back. */
  take(key: string): number {
    const now = this.now();
    const held = this.credit.get(key);
    const units = held === undefined ? this.full : Math.min(this.full, held.units + Math.max(0, now - held.at) * this.perIp);
    const taken = units >= this.windowMs;
    this.credit.delete(key);
    this.credit.set(key, { units: taken ? units - this.windowMs : units, at: now });
    // The least recently used go first: forgetting one gives it a full burst, no more.
    if (this.credit.size > this.remembered) this.credit.delete(this.credit.keys().next().value as string);
    return taken ? 0 : Math.ceil((this.windowMs - units) / this.perIp);
  }
}

/** The pace for an hourly limit: none when it is off; a burst of a fifth of it (`LIMITS.rateLimits.perIpBurstDivisor`), at least `LIMITS.rateLimits.perIpBurstMin`. */
export function ipPace(perIp: number, windowMs: number, now: () => number): IpPace | undefined {
  if (!Number.isFinite(perIp)) return undefined;
  const burst = Math.max(LIMITS.rateLimits.perIpBurstMin, Math.ceil(perIp / LIMITS.rateLimits.perIpBurstDivisor));
  // A burst of the whole limit or more never refuses before the hourly limit does.
  return burst >= perIp ? undefined : new IpPace(perIp, windowMs, burst, now);
}
