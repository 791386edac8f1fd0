import type { Context } from "hono";
import { type BridgeDeps, clientIp } from "../context.js";
import { callerAddress } from "./caller-address.js";
import { type Charge, CLIENT_BUDGETS, type ClientBudgetKey, type RateDecision } from "./rate-limit.js";

/**
 * The per-IP budgets an app mounted on the bridge charges (`feedback`, `feedback-bytes`,
 * `relay`): the bridge hands one to each app, bound to its counters and to how it finds the
 * client's address (`--trust-proxy`). The per-IP request limit is charged by the bridge itself.
 */
export interface ClientBudget {
  /** Charge the request's client `units` of each named budget: all of them, or none. */
  take(c: Context, units: Partial<Record<ClientBudgetKey, number>>): Promise<RateDecision>;
}

export function clientBudget(deps: Pick<BridgeDeps, "limiter" | "limits" | "trustProxy">): ClientBudget {
  return {
    take: (c, units) => deps.limiter.take(clientCharges(deps, c, units)),
  };
}

/** The counters `units` of the per-IP budgets take for the request's client (also charged by
 *  MCP tools that store what callers send, beside the per-site tool limits), keyed by the
 *  caller's address as every per-address bound is (`callerAddress`: an IPv6 address by its /64). */
export function clientCharges(deps: Pick<BridgeDeps, "limits" | "trustProxy">, c: Context, units: Partial<Record<ClientBudgetKey, number>>): Charge[] {
  const ip = callerAddress(clientIp(deps, c));
  return (Object.entries(units) as [ClientBudgetKey, number][]).map(([key, n]) => ({
    key: `${key}:${ip}`,
    limit: deps.limits.clients[key],
    what: CLIENT_BUDGETS[key].what,
    units: n,
  }));
}
