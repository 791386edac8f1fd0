import { LIMITS } from "../limits.js";

/**
 * Hourly limits (spec "Limits"): requests per client IP, and calls per tool per site, with
 * lower figures for the authenticated endpoint. `Infinity` means no limit.
 */
export interface RateLimits {
  readonly perIp: number;
  /** By tool key (`search`, `filesystem`, or an added tool's key). Tools not listed are only
   *  counted against the per-IP limit. */
  readonly tools: Readonly<Record<string, { readonly public: number; readonly authed: number }>>;
  /** Window length; the spec's figures are per hour. */
  readonly windowMs: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  perIp: LIMITS.rateLimits.perIp,
  tools: {
    search: { public: LIMITS.rateLimits.search, authed: LIMITS.rateLimits.authedSearch },
    filesystem: { public: LIMITS.rateLimits.filesystem, authed: LIMITS.rateLimits.authedFilesystem },
  },
  windowMs: LIMITS.rateLimits.windowMs,
};

/**
 * `--rate-limit KEY=N` flags over the defaults. Keys: `ip`, a tool key (`search`, `filesystem`)
 * for `/mcp`, `authed-<tool key>` for `/authed/mcp`; N is a positive integer or `off`.
 * Returns an error message for a bad flag.
 */
export function parseRateLimits(flags: readonly string[], base: RateLimits = DEFAULT_RATE_LIMITS): RateLimits | string {
  let perIp = base.perIp;
  const tools: Record<string, { public: number; authed: number }> = {};
  for (const [k, v] of Object.entries(base.tools)) tools[k] = { ...v };
  for (const flag of flags) {
    const m = /^([a-z][a-z0-9_-]*)=(\d+|off)$/.exec(flag.trim());
    if (m === null) return `--rate-limit ${JSON.stringify(flag)}: expected KEY=N or KEY=off (e.g. search=20000, authed-search=off, ip=5000)`;
    const key = m[1] as string;
    const value = m[2] === "off" ? Number.POSITIVE_INFINITY : Number(m[2]);
    if (value === 0) return `--rate-limit ${flag}: the limit must be at least 1 (use off for no limit)`;
    if (key === "ip") {
      perIp = value;
      continue;
    }
    const authed = key.startsWith("authed-");
    const tool = authed ? key.slice("authed-".length) : key;
    const current = tools[tool] ?? { public: Number.POSITIVE_INFINITY, authed: Number.POSITIVE_INFINITY };
    tools[tool] = authed ? { ...current, authed: value } : { ...current, public: value };
  }
  return { perIp, tools, windowMs: base.windowMs };
}

/** One counter to charge: `key` names it (`ip:1.2.3.4`, `tool:public:search`). */
export interface Charge {
  readonly key: string;
  readonly limit: number;
  /** Words for the error: "requests from your IP address", "search calls on this site". */
  readonly what: string;
}

export type RateDecision =
  | { readonly ok: true }
  | { readonly ok: false; readonly charge: Charge; readonly retryAfterSec: number; readonly resetAt: number };

/**
 * Fixed windows aligned to the clock (each UTC hour): at most `limit` units per key per window.
 * Exact at the boundaries, O(1) memory per active key, and all keys roll over together, so the
 * whole table is dropped when a new window starts. `take` is synchronous, so concurrent
 * requests on the event loop can never both take the last unit.
 */
export class FixedWindowLimiter {
  private window = Number.NaN;
  private counts = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether one more unit would pass `charge`'s limit, without charging it. */
  check(charge: Charge): RateDecision {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    const resetAt = (window + 1) * this.windowMs;
    const used = window === this.window ? (this.counts.get(charge.key) ?? 0) : 0;
    if (used < charge.limit) return { ok: true };
    return { ok: false, charge, retryAfterSec: Math.max(1, Math.ceil((resetAt - now) / 1000)), resetAt };
  }

  /** Charge one unit per entry (all of them, or none when any counter would pass its limit). */
  take(charges: readonly Charge[]): RateDecision {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    const resetAt = (window + 1) * this.windowMs;
    // A batch may charge one counter several times (two searches in one request).
    const needed = new Map<string, { charge: Charge; units: number }>();
    for (const c of charges) {
      if (c.limit === Number.POSITIVE_INFINITY) continue;
      const n = needed.get(c.key);
      needed.set(c.key, { charge: c, units: (n?.units ?? 0) + 1 });
    }
    for (const { charge, units } of needed.values()) {
      if ((this.counts.get(charge.key) ?? 0) + units > charge.limit) {
        return { ok: false, charge, retryAfterSec: Math.max(1, Math.ceil((resetAt - now) / 1000)), resetAt };
      }
    }
    for (const [key, { units }] of needed) this.counts.set(key, (this.counts.get(key) ?? 0) + units);
    return { ok: true };
  }
}
