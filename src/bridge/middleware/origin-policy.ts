import type { MiddlewareHandler } from "hono";
import { type BridgeContext, type BridgeDeps, type BridgeEnv, urlsFor } from "../context.js";
import { checkRedirectUri, isLoopbackHost } from "../../store/state/redirect-domains.js";
import { apiErrorResponse, jsonRpcError, oauthErrorResponse } from "./http-errors.js";
import { PATHS } from "../urls.js";
import type { RedirectDomainSnapshot } from "./redirect-domain-snapshot.js";

const CORS_HEADERS = {
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID",
  "Access-Control-Expose-Headers": "Mcp-Session-Id, WWW-Authenticate, Retry-After",
  "Access-Control-Max-Age": "600",
};

/**
 * Errors outside the MCP handler still answer in the shape the path's clients parse: JSON-RPC
 * on the two MCP endpoints, RFC 6749 under the OAuth prefix, the project's API shape elsewhere.
 */
export function errorForPath(path: string, status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  if (path === PATHS.mcp || path === PATHS.authedMcp) return jsonRpcError(status, -32000, message, { data: { reason: code }, headers });
  if (path.startsWith(`${PATHS.oauth}/`)) return oauthErrorResponse(status, code, message, headers);
  return apiErrorResponse(status, code, message, headers);
}

/** Paths any origin may read (the Host check still applies), and the CORS headers they answer with. */
export interface PublicDocuments {
  readonly is: (path: string) => boolean;
  /** On every answer. */
  readonly headers: Readonly<Record<string, string>>;
  /** The answer to an `OPTIONS` preflight (204). */
  readonly preflight: Readonly<Record<string, string>>;
}

/** Which rule a path's browser callers meet (`originGuard`). */
export interface OriginRules {
  /** Readable from any origin, with these CORS headers (the discovery documents). */
  readonly publicDocuments?: PublicDocuments;
  /** Paths whose allowed cross-origin callers get CORS headers (MCP and OAuth: web-based AI tools call them). */
  readonly cors: (path: string) => boolean;
  /**
   * Routes that answer other origins by a rule of their own, checked by the route: the feedback
   * widgets' ingestion (any origin, `Access-Control-Allow-Origin: *`), the site sign-in forms
   * (this server's own origin only, `foreignFormPost`).
   */
  readonly ownRule: (path: string, method: string) => boolean;
}

/**
 * Cross-origin protection of every route (MCP transport spec: servers must validate `Origin`;
 * the same holds for the pages and the preview's calls, which answer as the visitor's site
 * session). A browser's `Origin` must be loopback, the public origin, the request's own origin,
 * or an https origin on the redirect-domain list (web-based AI tools); `null` passes only beside
 * `Sec-Fetch-Site: same-origin` (our pages' `Referrer-Policy: no-referrer` makes a browser send
 * it on their own POSTs). Any other is `403 forbidden_origin`. A request without `Origin` (a
 * top-level navigation, a same-origin GET, an `<img>`, a client that is no browser) passes.
 * Allowed cross-origin callers get CORS headers only where `rules.cors` says; the public
 * documents are readable from any origin; `rules.ownRule` routes check for themselves.
 * The Host check (DNS rebinding) is `hostGuard`, registered before this.
 */
export function originGuard(deps: BridgeDeps, rules: OriginRules, redirectDomains: RedirectDomainSnapshot): MiddlewareHandler<BridgeEnv> {
  const publicDocuments = rules.publicDocuments;
  return async (c, next) => {
    const path = c.req.path;
    if (publicDocuments?.is(path) === true) {
      if (c.req.method === "OPTIONS") return new Response(null, { status: 204, headers: publicDocuments.preflight });
      await next();
      for (const [name, value] of Object.entries(publicDocuments.headers)) c.res.headers.set(name, value);
      return undefined;
    }
    const origin = c.req.header("origin");
    if (origin === undefined || rules.ownRule(path, c.req.method)) {
      await next();
      return undefined;
    }
    if (!(await originAllowed(deps, c, origin, redirectDomains))) return errorForPath(path, 403, "forbidden_origin", `Origin ${origin} may not call this server`);
    // Same-origin (`null` beside `same-origin`) needs no CORS headers; other routes give none.
    if (origin === "null" || !rules.cors(path)) {
      await next();
      return undefined;
    }
    if (c.req.method === "OPTIONS") {
      return new Response(null, { status: 204, headers: { ...CORS_HEADERS, "Access-Control-Allow-Origin": origin, Vary: "Origin" } });
    }
    await next();
    c.res.headers.set("Access-Control-Allow-Origin", origin);
    c.res.headers.set("Access-Control-Expose-Headers", CORS_HEADERS["Access-Control-Expose-Headers"]);
    c.res.headers.append("Vary", "Origin");
    return undefined;
  };
}

/**
 * The CORS headers of an answer given before `originGuard` runs (the per-IP 429): what
 * `originGuard` would add, decided without waiting on the state store. A browser client must read
 * a 429's `Retry-After` to wait (before, the per-IP limit's 429 carried none, so a web-based MCP
 * client saw a network error). Public documents answer any origin; on MCP and OAuth paths a
 * loopback origin, the public origin and an https origin on the redirect-domain list as last read
 * (`RedirectDomainSnapshot`: asking the store at every refused request would put a round trip to
 * PostgreSQL in front of a flood) get theirs. The request's own origin needs none (same-origin),
 * and is not trusted here: the Host check has not run, and a rebinding page's own origin is the
 * name it rebinds.
 */
export function corsBeforeOriginCheck(
  deps: BridgeDeps,
  c: BridgeContext,
  rules: Pick<OriginRules, "publicDocuments" | "cors">,
  redirectDomains: RedirectDomainSnapshot,
): Record<string, string> {
  const path = c.req.path;
  if (rules.publicDocuments?.is(path) === true) return { ...rules.publicDocuments.headers };
  const origin = c.req.header("origin");
  if (origin === undefined || origin === "null" || !rules.cors(path)) return {};
  if (!loopbackOrPublic(deps, origin) && !onRedirectList(origin, redirectDomains.known())) return {};
  return { "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": CORS_HEADERS["Access-Control-Expose-Headers"], Vary: "Origin" };
}

/** An https origin the redirect-domain list allows (web-based AI tools). */
function onRedirectList(origin: string, domains: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.protocol === "https:" && checkRedirectUri(url.href, domains).ok;
}

/** A loopback origin or the configured public origin (`--public-url`, never one read off Host): allowed whatever the Host or the state store say. */
function loopbackOrPublic(deps: BridgeDeps, origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if ((url.protocol === "http:" || url.protocol === "https:") && isLoopbackHost(url.hostname)) return true;
  return deps.publicUrl !== undefined && url.origin === new URL(deps.publicUrl).origin;
}

async function originAllowed(deps: BridgeDeps, c: BridgeContext, origin: string, redirectDomains: RedirectDomainSnapshot): Promise<boolean> {
  if (origin === "null") return c.req.header("sec-fetch-site") === "same-origin";
  if (loopbackOrPublic(deps, origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === urlsFor(deps, c).origin || url.origin === new URL(c.req.url).origin) return true;
  return url.protocol === "https:" && onRedirectList(origin, await redirectDomains.read());
}
