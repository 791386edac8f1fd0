import { LIMITS } from "../../limits.js";
import type { WindowCounters } from "../../store/counters.js";

/**
 * Hourly limits (spec "Limits"): requests per client IP, calls per tool per site (lower figures
 * for the authenticated endpoint), and per-IP budgets of the apps mounted on the bridge.
 * `Infinity` means no limit.
 */
export interface RateLimits {
  readonly perIp: number;
  /** By tool key (`search`, `filesystem`, or an added tool's key). Tools not listed are only
   *  counted against the per-IP limit. */
  readonly tools: Readonly<Record<string, { readonly public: number; readonly authed: number }>>;
  /** Per client IP, for what anonymous callers can make the server store or send elsewhere. */
  readonly clients: Readonly<Record<ClientBudgetKey, number>>;
  /** Window length; the spec's figures are per hour. */
  readonly windowMs: number;
}

/**
 * The per-IP budgets, by `--rate-limit` key: feedback entries and their bytes (what one address
 * can add to the feedback database), and playground relay requests (what one address can make
 * the server send to an API). Each says what it counts, for the 429 message.
 */
export const CLIENT_BUDGETS = {
  feedback: { limit: LIMITS.rateLimits.feedbackEntries, what: "feedback entries per hour from one IP address" },
  "feedback-bytes": { limit: LIMITS.rateLimits.feedbackBytes, what: "bytes of feedback per hour from one IP address" },
  relay: { limit: LIMITS.rateLimits.relay, what: "playground relay requests per hour from one IP address" },
} as const;
export type ClientBudgetKey = keyof typeof CLIENT_BUDGETS;

export const DEFAULT_RATE_LIMITS: RateLimits = {
  perIp: LIMITS.rateLimits.perIp,
  tools: {
    search: { public: LIMITS.rateLimits.search, authed: LIMITS.rateLimits.authedSearch },
    filesystem: { public: LIMITS.rateLimits.filesystem, authed: LIMITS.rateLimits.authedFilesystem },
  },
  clients: { feedback: CLIENT_BUDGETS.feedback.limit, "feedback-bytes": CLIENT_BUDGETS["feedback-bytes"].limit, relay: CLIENT_BUDGETS.relay.limit },
  windowMs: LIMITS.rateLimits.windowMs,
};

/**
 * The tools a limit can be set for: `search` and `filesystem` (limited by default), and the
 * tools the bridge adds (`submit_feedback`, the API playground's `api_request`), each by its
 * stable `DocsTool.key` (test/bridge/rate-limit.test.ts holds this list to the tools').
 */
export const LIMITED_TOOL_KEYS = ["search", "filesystem", "submit_feedback", "api_request"] as const;

/** Every `--rate-limit` key, in the order the error lists them. */
export const RATE_LIMIT_KEYS: readonly string[] = ["ip", ...LIMITED_TOOL_KEYS, ...LIMITED_TOOL_KEYS.map((k) => `authed-${k}`), ...Object.keys(CLIENT_BUDGETS)];

/**
 * `--rate-limit KEY=N` flags over the defaults. Keys: `ip`, the per-IP budgets (`feedback`,
 * `feedback-bytes`, `relay`), a tool key (`search`, `filesystem`) for `/mcp`, `authed-<tool key>`
 * for `/authed/mcp`; N is a positive integer or `off`. Returns an error message for a bad flag.
 */
export function parseRateLimits(flags: readonly string[], base: RateLimits = DEFAULT_RATE_LIMITS): RateLimits | string {
  let perIp = base.perIp;
  const clients = { ...base.clients };
  const tools: Record<string, { public: number; authed: number }> = {};
  for (const [k, v] of Object.entries(base.tools)) tools[k] = { ...v };
  for (const flag of flags) {
    const m = /^([a-z][a-z0-9_-]*)=(\d+|off)$/.exec(flag);
    if (m === null) return `--rate-limit ${JSON.stringify(flag)}: expected KEY=N or KEY=off (e.g. search=20000, authed-search=off, ip=5000)`;
    const key = m[1] as string;
    // An unknown key (a typo: `serch=100`) set a limit nothing counted, and the server started
    // as if it held (adversary round 32).
    if (!RATE_LIMIT_KEYS.includes(key)) return `--rate-limit ${flag}: unknown key ${JSON.stringify(key)}; the keys are ${RATE_LIMIT_KEYS.join(", ")}`;
    const value = m[2] === "off" ? Number.POSITIVE_INFINITY : Number(m[2]);
    if (value === 0) return `--rate-limit ${flag}: the limit must be at least 1 (use off for no limit)`;
    if (key === "ip") {
      perIp = value;
      continue;
    }
    if (Object.hasOwn(CLIENT_BUDGETS, key)) {
      clients[key as ClientBudgetKey] = value;
      continue;
    }
    const authed = key.startsWith("authed-");
    const tool = authed ? key.slice("authed-".length) : key;
    const current = tools[tool] ?? { public: Number.POSITIVE_INFINITY, authed: Number.POSITIVE_INFINITY };
    tools[tool] = authed ? { ...current, authed: value } : { ...current, public: value };
  }
  return { perIp, tools, clients, windowMs: base.windowMs };
}

/** One counter to charge: `key` names it (`ip:1.2.3.4`, `tool:public:search`). */
export interface Charge {
  readonly key: string;
  readonly limit: number;
  /** Words for the error: "requests from your IP address", "search calls on this site". */
  readonly what: string;
  /** Units this charge takes (bytes of a feedback entry); 1 when not given. */
  readonly units?: number;
  /** Charged instead when this counter refuses (`takeWithReserves`): the caller's own reserve of a per-site tool limit. */
  readonly fallback?: Charge;
}

export type RateDecision =
  | { readonly ok: true }
  | { readonly ok: false; readonly charge: Charge; readonly retryAfterSec: number; readonly resetAt: number };

/**
 * Where the counters live. Today one process's memory (`FixedWindowLimiter`); a deployment of
 * several instances will keep them in the state database, so the interface is asynchronous and
 * each call must be atomic there too (one transaction, or one conditional UPDATE per key).
 */
export interface RateLimiter {
  /** Charge every entry, or none when any counter would pass its limit (the first such is named). */
  take(charges: readonly Charge[]): Promise<RateDecision>;
  /** Give back units taken in the current window (a sign-in that turned out to succeed). */
  refund(charges: readonly Charge[]): Promise<void>;
}

/**
 * Fixed windows aligned to the clock (each UTC hour): at most `limit` units per key per window.
 * Exact at the boundaries, O(1) memory per active key, and all keys roll over together, so the
 * whole table is dropped when a new window starts. The work of `take` happens synchronously
 * before its promise settles, so concurrent requests on the event loop can never both take the
 * last unit.
 */
export class FixedWindowLimiter implements RateLimiter {
  private window = Number.NaN;
  private counts = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(charges: readonly Charge[]): Promise<RateDecision> {
    const now = this.now();
    this.roll(now);
    const resetAt = (this.window + 1) * this.windowMs;
    const needed = unitsByKey(charges);
    for (const { charge, units } of needed.values()) {
      if ((this.counts.get(charge.key) ?? 0) + units > charge.limit) {
        return Promise.resolve({ ok: false, charge, retryAfterSec: Math.max(1, Math.ceil((resetAt - now) / 1000)), resetAt });
      }
    }
    for (const [key, { units }] of needed) this.counts.set(key, (this.counts.get(key) ?? 0) + units);
    return Promise.resolve({ ok: true });
  }

  refund(charges: readonly Charge[]): Promise<void> {
    // A unit taken in an earlier window was dropped with it: nothing to give back.
    this.roll(this.now());
    for (const [key, { units }] of unitsByKey(charges)) {
      const left = (this.counts.get(key) ?? 0) - units;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    }
    return Promise.resolve();
  }

  private roll(now: number): void {
    const window = Math.floor(now / this.windowMs);
    if (window === this.window) return;
    this.window = window;
    this.counts = new Map();
  }
}

/**
 * Fixed windows like `FixedWindowLimiter`, with the counters kept by the state store (shared by
 * every process and instance on it). Atomicity is the store's: `take` charges every counter or
 * none, and of concurrent takes exactly as many pass as the limits allow.
 */
export class CountersLimiter implements RateLimiter {
  constructor(
    private readonly counters: WindowCounters,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async take(charges: readonly Charge[]): Promise<RateDecision> {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    const needed = [...unitsByKey(charges).values()];
    const refused = await this.counters.take(
      window,
      needed.map(({ charge, units }) => ({ key: charge.key, units, limit: charge.limit })),
    );
    if (refused < 0) return { ok: true };
    const resetAt = (window + 1) * this.windowMs;
    return { ok: false, charge: needed[refused]!.charge, retryAfterSec: Math.max(1, Math.ceil((resetAt - now) / 1000)), resetAt };
  }

  async refund(charges: readonly Charge[]): Promise<void> {
    const window = Math.floor(this.now() / this.windowMs);
    await this.counters.refund(window, [...unitsByKey(charges).entries()].map(([key, { units }]) => ({ key, units })));
  }
}

/** Units per counter: a batch may charge one counter several times (two searches in one request). */
export function unitsByKey(charges: readonly Charge[]): Map<string, { charge: Charge; units: number }> {
  const needed = new Map<string, { charge: Charge; units: number }>();
  for (const c of charges) {
    if (c.limit === Number.POSITIVE_INFINITY) continue;
    const n = needed.get(c.key);
    needed.set(c.key, { charge: c, units: (n?.units ?? 0) + (c.units ?? 1) });
  }
  return needed;
}
