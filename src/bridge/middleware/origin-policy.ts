import type { MiddlewareHandler } from "hono";
import { type BridgeContext, type BridgeDeps, type BridgeEnv, urlsFor } from "../context.js";
import { checkRedirectUri, isLoopbackHost } from "../../store/state/redirect-domains.js";
import { apiErrorResponse, jsonRpcError, oauthErrorResponse } from "./http-errors.js";
import { PATHS } from "../urls.js";

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

/**
 * DNS-rebinding and cross-origin protection (MCP transport spec: servers must validate
 * `Origin`). With `allowedHosts` (a server bound to loopback) the `Host` header must name one
 * of them. A browser `Origin` must be loopback, the public origin, the request's own origin,
 * or an https origin on the redirect-domain list (web-based AI tools); those get CORS headers.
 * `publicDocuments` (the discovery documents) are readable from any origin instead.
 */
export function originGuard(deps: BridgeDeps, allowedHosts: readonly string[] | undefined, publicDocuments?: PublicDocuments): MiddlewareHandler<BridgeEnv> {
  const hosts = allowedHosts === undefined ? undefined : new Set(allowedHosts.map((h) => h.toLowerCase()));
  return async (c, next) => {
    const path = c.req.path;
    if (hosts !== undefined) {
      const host = hostnameOf(c.req.header("host") ?? "");
      if (!hosts.has(host)) return errorForPath(path, 403, "forbidden_host", `Host ${JSON.stringify(c.req.header("host") ?? "")} is not served here`);
    }
    if (publicDocuments?.is(path) === true) {
      if (c.req.method === "OPTIONS") return new Response(null, { status: 204, headers: publicDocuments.preflight });
      await next();
      for (const [name, value] of Object.entries(publicDocuments.headers)) c.res.headers.set(name, value);
      return undefined;
    }
    const origin = c.req.header("origin");
    if (origin !== undefined) {
      if (!(await originAllowed(deps, c, origin))) return errorForPath(path, 403, "forbidden_origin", `Origin ${origin} may not call this server`);
      if (c.req.method === "OPTIONS") {
        return new Response(null, { status: 204, headers: { ...CORS_HEADERS, "Access-Control-Allow-Origin": origin, Vary: "Origin" } });
      }
      await next();
      c.res.headers.set("Access-Control-Allow-Origin", origin);
      c.res.headers.set("Access-Control-Expose-Headers", CORS_HEADERS["Access-Control-Expose-Headers"]);
      c.res.headers.append("Vary", "Origin");
      return undefined;
    }
    await next();
    return undefined;
  };
}

async function originAllowed(deps: BridgeDeps, c: BridgeContext, origin: string): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if ((url.protocol === "http:" || url.protocol === "https:") && isLoopbackHost(url.hostname)) return true;
  if (url.origin === urlsFor(deps, c).origin || url.origin === new URL(c.req.url).origin) return true;
  return url.protocol === "https:" && checkRedirectUri(url.href, await deps.state.redirectDomains()).ok;
}

/** `example.com:8080` -> `example.com`; `[::1]:3000` -> `[::1]`. */
function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.lastIndexOf(":");
  return colon === -1 ? h : h.slice(0, colon);
}
