import type { Context, MiddlewareHandler } from "hono";
import { LIMITS } from "../../limits.js";
import { jsonComplexity } from "../../json-complexity.js";
import { type BridgeContext, type BridgeDeps, type BridgeEnv, clientIp } from "../context.js";
import { callerAddress } from "./caller-address.js";
import { ipPace } from "./ip-pace.js";
import { JSON_RPC, apiErrorResponse, jsonRpcRefusal, oauthErrorResponse } from "./http-errors.js";
import type { Charge, RateDecision } from "./rate-limit.js";
import { readBody } from "./read-body.js";
import { PATHS } from "../urls.js";

export type RateRefusal = Extract<RateDecision, { ok: false }>;

/** The words of every 429: what is limited, to how much, and when to come back. */
export function rateLimitMessage(decision: RateRefusal): string {
  return `Rate limit exceeded: at most ${decision.charge.limit} ${decision.charge.what}. Retry after ${decision.retryAfterSec} seconds.`;
}

/**
 * 429 with `Retry-After` (seconds to the next window): on the MCP endpoints a JSON-RPC error
 * answering the refused body (`body`: the parsed request; a batch gets one error per request),
 * RFC 6749-shaped under the OAuth prefix, the project's API shape elsewhere.
 */
export function rateLimitedResponse(path: string, decision: RateRefusal, body?: unknown, cors: Record<string, string> = {}): Response {
  const message = rateLimitMessage(decision);
  const headers = { ...cors, "Retry-After": String(decision.retryAfterSec) };
  if (path === PATHS.mcp || path === PATHS.authedMcp) {
    const data = { limit: decision.charge.limit, retryAfter: decision.retryAfterSec, reset: new Date(decision.resetAt).toISOString() };
    return jsonRpcRefusal(429, body, { code: JSON_RPC.rateLimited, message, data }, { headers });
  }
  if (path.startsWith(`${PATHS.oauth}/`)) return oauthErrorResponse(429, "rate_limited", message, headers);
  return apiErrorResponse(429, "rate_limited", message, headers);
}

/**
 * The spec's per-user limit, on every request the bridge serves (MCP endpoints, OAuth,
 * discovery, mounted apps, unknown paths) per client address (`callerAddress`: an IPv6
 * address by its /64, as every per-address bound): a route added later is limited too.
 */
export function ipRateLimit(deps: BridgeDeps, cors: (c: BridgeContext) => Record<string, string> = () => ({})): MiddlewareHandler<BridgeEnv> {
  const pace = ipPace(deps.limits.perIp, deps.limits.windowMs, deps.now);
  return async (c, next) => {
    const charge = ipCharge(deps, c);
    // The hourly limit spread over the hour (adversary round 51 F5): checked first, in memory,
    // so a request past its burst costs neither the hourly count nor the store's round trip.
    const waitMs = pace?.take(charge.key) ?? 0;
    if (pace !== undefined && waitMs > 0) return rateLimitedResponse(c.req.path, pacedRefusal(deps, pace.burst, waitMs), await refusedMessages(c), cors(c));
    const decision = await deps.limiter.take([charge]);
    if (!decision.ok) return rateLimitedResponse(c.req.path, decision, await refusedMessages(c), cors(c));
    await next();
    return undefined;
  };
}

/** A request past its address's burst: the 429 says the burst, the hourly rate it comes back at, and when one has. */
function pacedRefusal(deps: Pick<BridgeDeps, "limits" | "now">, burst: number, waitMs: number): RateRefusal {
  const { perIp } = deps.limits;
  const charge: Charge = { key: "ip-pace", limit: burst, what: `requests at once from one IP address (they come back at ${perIp} an hour, evenly)` };
  return { ok: false, charge, retryAfterSec: Math.max(1, Math.ceil(waitMs / 1000)), resetAt: deps.now() + waitMs };
}

/** One request of the client's against the spec's per-user limit (a batch's messages take one each: `runBatch`). */
export function ipCharge(deps: Pick<BridgeDeps, "limits" | "trustProxy">, c: Context): Charge {
  return { key: `ip:${callerAddress(clientIp(deps, c))}`, limit: deps.limits.perIp, what: "requests per hour from one IP address" };
}

/**
 * The JSON-RPC messages of a refused MCP POST, so that the 429 answers each request of a batch
 * with its id. Reading costs no more than serving would have (the same body bound, `LIMITS.bridge.maxBodyBytes`); a body
 * that is not JSON is answered with one error, as an unreadable body always is.
 */
async function refusedMessages(c: BridgeContext): Promise<unknown> {
  if (c.req.method !== "POST" || (c.req.path !== PATHS.mcp && c.req.path !== PATHS.authedMcp)) return undefined;
  if (!/^application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? "")) return undefined;
  const read = await readBody(c, LIMITS.bridge.maxBodyBytes);
  // A body the endpoint would refuse unparsed is answered with one error here too.
  if (read.tooLarge || !("text" in read) || jsonComplexity(read.text) !== undefined) return undefined;
  try {
    return JSON.parse(read.text) as unknown;
  } catch {
    return undefined;
  }
}
