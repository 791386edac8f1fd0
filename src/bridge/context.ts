import type { Context } from "hono";
import type { StateStore } from "../store/state/state-store.js";
import type { DocsTool } from "../tools/mcp/tool.js";
import type { DocsRuntime } from "../tools/runtime.js";
import type { FixedWindowLimiter, RateLimits } from "./rate-limit.js";
import { type BridgeUrls, bridgeUrls } from "./urls.js";

/** What every bridge handler works with, built once by `createBridge`. */
export interface BridgeDeps {
  readonly runtime: DocsRuntime;
  readonly state: StateStore;
  /** Every tool the MCP endpoints offer (the core tools plus added ones). */
  readonly tools: readonly DocsTool[];
  readonly limits: RateLimits;
  readonly limiter: FixedWindowLimiter;
  /** Failed sign-ins per account (`LIMITS.oauth.maxFailedLoginsPerHour`). */
  readonly loginLimiter: FixedWindowLimiter;
  readonly now: () => number;
  readonly log: (message: string) => void;
  /** `--public-url`: the origin clients reach us at (behind a proxy). Else each request's own. */
  readonly publicUrl: string | undefined;
  /** Take the client IP from `X-Forwarded-For` (only behind a proxy you run). */
  readonly trustProxy: boolean;
  readonly version: string;
}

/** The Hono environment: `@hono/node-server` passes the Node request as `incoming`. */
export interface BridgeEnv {
  Bindings: { incoming?: { socket?: { remoteAddress?: string } } };
}

export type BridgeContext = Context<BridgeEnv>;

/** Absolute URLs for this request: `--public-url` when set, else the origin it was sent to. */
export function urlsFor(deps: BridgeDeps, c: BridgeContext): BridgeUrls {
  return bridgeUrls(deps.publicUrl ?? new URL(c.req.url).origin);
}

/**
 * The client's IP address, for the per-IP limit: the socket's peer, or with `--trust-proxy`
 * the last address in `X-Forwarded-For` (the one our own proxy appended; earlier ones are
 * whatever the client claimed).
 */
export function clientIp(deps: BridgeDeps, c: BridgeContext): string {
  if (deps.trustProxy) {
    const forwarded = c.req.header("x-forwarded-for");
    const last = forwarded?.split(",").at(-1)?.trim();
    if (last !== undefined && last !== "") return last;
  }
  return c.env?.incoming?.socket?.remoteAddress ?? "unknown";
}
