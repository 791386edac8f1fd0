import type { MiddlewareHandler } from "hono";
import { type BridgeDeps, type BridgeEnv, clientIp } from "./context.js";
import { JSON_RPC, apiErrorResponse, jsonRpcError, oauthErrorResponse } from "./http-errors.js";
import type { RateDecision } from "./rate-limit.js";
import { PATHS } from "./urls.js";

/**
 * 429 with `Retry-After` (seconds to the next window): a JSON-RPC error on the MCP endpoints
 * (with the request's id when one call was refused), RFC 6749-shaped under the OAuth prefix,
 * the project's API shape elsewhere.
 */
export function rateLimitedResponse(path: string, decision: Extract<RateDecision, { ok: false }>, id: string | number | null = null): Response {
  const { charge, retryAfterSec } = decision;
  const message = `Rate limit exceeded: at most ${charge.limit} ${charge.what}. Retry after ${retryAfterSec} seconds.`;
  const headers = { "Retry-After": String(retryAfterSec) };
  if (path === PATHS.mcp || path === PATHS.authedMcp) {
    return jsonRpcError(429, JSON_RPC.rateLimited, message, {
      id,
      data: { limit: charge.limit, retryAfter: retryAfterSec, reset: new Date(decision.resetAt).toISOString() },
      headers,
    });
  }
  if (path.startsWith(`${PATHS.oauth}/`)) return oauthErrorResponse(429, "rate_limited", message, headers);
  return apiErrorResponse(429, "rate_limited", message, headers);
}

/** The spec's per-user limit: every request to the MCP server (endpoints, OAuth, discovery) per client IP. */
export function ipRateLimit(deps: BridgeDeps): MiddlewareHandler<BridgeEnv> {
  return async (c, next) => {
    const ip = clientIp(deps, c);
    const decision = deps.limiter.take([{ key: `ip:${ip}`, limit: deps.limits.perIp, what: "requests per hour from one IP address" }]);
    if (!decision.ok) return rateLimitedResponse(c.req.path, decision);
    await next();
    return undefined;
  };
}
