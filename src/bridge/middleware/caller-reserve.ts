import { LIMITS } from "../../limits.js";
import type { Charge, RateDecision, RateLimiter } from "./rate-limit.js";

/** The counter of a site's hourly `tool` limit on an endpoint (`tool:mcp:search`): one name for every way in to it (`/mcp` and the preview's panels). */
export function siteToolKey(endpoint: "mcp" | "authed", tool: string): string {
  return `tool:${endpoint}:${tool}`;
}

/**
 * A tool's per-site hourly limit (spec "Limits") with a reserve per caller behind it. The spec's
 * figure is the site's: before, any few callers could spend it for everyone (three loopback
 * addresses spent the 10,000 filesystem calls of an hour in 34 s, six calls at a time each, and
 * every other caller got 429 until the hour ended; adversary round 41, F1). A call the site's
 * counter refuses is charged instead to its caller's own counter of `reserve` calls that hour, so
 * whoever spends the site's budget, every other caller keeps that many. While the site's budget
 * lasts nothing changes (one counter a call, as before); the hour's total is at most the site's
 * limit plus one reserve per caller who used one (a caller is an address, an IPv6 /64 or a
 * signed-in reader, whose every call also counts against the per-IP limit).
 */
export function siteToolCharge(key: string, limit: number, what: string, caller: string): Charge {
  const site: Charge = { key, limit, what: `${what} per hour on this documentation site` };
  const reserve = callerReserve(limit);
  if (reserve === 0) return site;
  return {
    ...site,
    fallback: { key: `${key}:${caller}`, limit: reserve, what: `${what} per hour from one caller once this documentation site's ${limit} are spent` },
  };
}

/** A caller's reserve of a site limit: a fiftieth of it (200 of 10,000); none for a limit under 50, or none at all. */
export function callerReserve(limit: number): number {
  return Number.isFinite(limit) ? Math.floor(limit / LIMITS.rateLimits.callerReserveDivisor) : 0;
}

/**
 * `limiter.take(charges)`, where a refused counter with a `fallback` is charged by its fallback
 * instead (all its occurrences: a batch's calls of that tool), and the whole taken again, all or
 * none as ever. What was taken, for a refund; the last refusal otherwise.
 */
export async function takeWithReserves(limiter: RateLimiter, charges: readonly Charge[]): Promise<{ readonly decision: RateDecision; readonly taken: readonly Charge[] }> {
  let taken = charges;
  // Each round swaps one counter for its fallback, which has none: at most one round per counter.
  for (;;) {
    const decision = await limiter.take(taken);
    if (decision.ok) return { decision, taken };
    const refused = decision.charge;
    const fallback = taken.find((c) => c.key === refused.key)?.fallback;
    if (fallback === undefined) return { decision, taken };
    taken = taken.map((c) => (c.key === refused.key ? fallback : c));
  }
}
