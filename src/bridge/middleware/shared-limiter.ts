import type { Charge, RateDecision, RateLimiter } from "./rate-limit.js";

/** What a worker asks the process that holds the counters. */
export type LimiterRequest = { readonly op: "take" | "refund"; readonly charges: readonly Charge[] };
/** The answer: the decision for `take`, nothing for `refund`. */
export type LimiterReply = { readonly decision?: RateDecision };

/**
 * A `RateLimiter` whose counters live in another process (`serve --http --workers N`: the
 * primary holds one `FixedWindowLimiter` for all workers). Exact across workers because every
 * take is decided by that one process in turn; a call with no finite limit in it never leaves
 * this process (with limits off, the cost is nothing).
 */
export class RemoteLimiter implements RateLimiter {
  constructor(private readonly request: (message: LimiterRequest) => Promise<LimiterReply>) {}

  async take(charges: readonly Charge[]): Promise<RateDecision> {
    const counted = charges.filter((c) => c.limit !== Number.POSITIVE_INFINITY);
    if (counted.length === 0) return { ok: true };
    const reply = await this.request({ op: "take", charges: counted });
    if (reply.decision === undefined) throw new Error("the rate-limit counters answered without a decision");
    return reply.decision;
  }

  async refund(charges: readonly Charge[]): Promise<void> {
    const counted = charges.filter((c) => c.limit !== Number.POSITIVE_INFINITY);
    if (counted.length > 0) await this.request({ op: "refund", charges: counted });
  }
}

/** The holder's side: answer one worker's request from the real limiter. */
export async function answerLimiterRequest(limiter: RateLimiter, message: LimiterRequest): Promise<LimiterReply> {
  if (message.op === "take") return { decision: await limiter.take(message.charges) };
  await limiter.refund(message.charges);
  return {};
}
