import type { PasswordTurns } from "./auth/password-turns.js";
import type { ServerResponse } from "node:http";
import type { QuietStreams } from "./quiet-streams.js";
import type { PlaygroundApps } from "../mcp/ui-extension.js";
import type { Context } from "hono";
import type { StateStore } from "../store/state/state-store.js";
import type { DocsTool } from "../mcp/tool.js";
import type { DocsRuntime } from "../engine/runtime.js";
import type { ClientDirectory } from "./auth/client-directory.js";
import type { RateLimiter, RateLimits } from "./middleware/rate-limit.js";
import { type BridgeUrls, bridgeUrls } from "./urls.js";
import { isAddressText } from "./middleware/caller-address.js";
import type { SignedInCallers } from "./signed-in-callers.js";

/** What every bridge handler works with, built once by `createBridge`. */
export interface BridgeDeps {
  readonly runtime: DocsRuntime;
  readonly state: StateStore;
  /** OAuth clients: registered ones (in `state`) and those metadata documents describe. */
  readonly clients: ClientDirectory;
  /** Every tool the MCP endpoints offer (the core tools plus added ones). */
  readonly tools: readonly DocsTool[];
  readonly limits: RateLimits;
  /** Every hourly counter: per IP, per tool, per-IP budgets, failed sign-ins per account. */
  readonly limiter: RateLimiter;
  readonly now: () => number;
  readonly log: (message: string) => void;
  /** `--public-url`: the origin clients reach us at (behind a proxy). Else each request's own. */
  readonly publicUrl: string | undefined;
  /** Take the client IP from `X-Forwarded-For` (only behind a proxy you run). */
  readonly trustProxy: boolean;
  readonly version: string;
  /** API pages' playgrounds as MCP Apps, for clients that render them; unset, none. */
  readonly apps?: PlaygroundApps;
  /** Callers a request of which was signed in lately: they keep the last connections (`ConnectionCap`). */
  readonly signedIn: SignedInCallers;
  /** Open listen streams by caller: bounded, and shed for newcomers when the connections are full (`QuietStreams`). */
  readonly quietStreams: QuietStreams;
  /** The sign-in forms' password checks, a few at a time, callers in turn (`PasswordTurns`). */
  readonly passwordTurns: PasswordTurns;
}

/** The Hono environment: `@hono/node-server` passes the Node request as `incoming`. */
export interface BridgeEnv {
  Bindings: { incoming?: { socket?: { remoteAddress?: string } }; outgoing?: ServerResponse };
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
export function clientIp(deps: Pick<BridgeDeps, "trustProxy">, c: Context): string {
  // Apps mounted on the bridge have their own environment type; the Node binding is the same.
  const peer = (c.env as BridgeEnv["Bindings"] | undefined)?.incoming?.socket?.remoteAddress;
  return clientAddress(deps.trustProxy, c.req.header("x-forwarded-for"), peer);
}

/**
 * `clientIp` from its parts (the HTTP server counts connections per caller by the same rule,
 * before any route): with `trustProxy` the last address of `X-Forwarded-For` when there is one,
 * else the socket's peer. A last entry that is no address (`unknown`, as some proxies write for a
 * client they cannot name, or text a proxy passed on) is the peer's too: each distinct text was
 * a caller of its own, with its own budgets, for as many texts as one client cared to send.
 */
export function clientAddress(trustProxy: boolean, forwardedFor: string | undefined, peer: string | undefined): string {
  if (trustProxy) {
    const last = forwardedFor?.split(",").at(-1)?.trim();
    if (last !== undefined && last !== "" && isAddressText(last)) return last;
  }
  return peer ?? "unknown";
}
