import type { AuthInfo } from "@modelcontextprotocol/server";
import type { SiteSettings, StateStore } from "../store/state/state-store.js";
import type { Reader } from "../vfs/access.js";
import { type RequestContext, requestContext } from "../vfs/request-context.js";
import { bearerReaderOf } from "./auth/bearer.js";

/**
 * The context of one HTTP request: its reader, the site's auth setting as the state store gave
 * it for this request, the bridge's clock, and who asks (`caller`, where a route shares
 * something between callers). Built once per request by each route that decides access (`/mcp`,
 * `/authed/mcp`, `/.well-known/mcp`, the playground relay); nothing shared is changed by it, so
 * concurrent requests under different settings never mix.
 */
export function bridgeContext(settings: SiteSettings, reader: Reader, clock: () => number, caller?: string): RequestContext {
  return requestContext(reader, settings.authMode, clock, caller);
}

/**
 * `authInfo` for the MCP transport, carrying the request's context to the server's handlers
 * (the one per-request channel of the SDK's transports). An anonymous request gets one too,
 * with no token: handlers find its context the same way.
 */
export function authInfoWithContext(context: RequestContext, authInfo?: AuthInfo): AuthInfo {
  const base: AuthInfo = authInfo ?? { token: "", clientId: "", scopes: [] };
  return { ...base, extra: { ...base.extra, context } };
}

/**
 * The context the bridge handed to an MCP handler. A request without one is a bug of ours, and
 * is refused (an error) rather than served as someone.
 */
export function contextFromAuthInfo(authInfo: AuthInfo | undefined): RequestContext {
  const context = authInfo?.extra?.context as RequestContext | undefined;
  if (context === undefined) throw new Error("an MCP request reached its handler without a request context");
  return context;
}

/**
 * For apps mounted on the bridge (the playground relay): a request's context, from its bearer
 * token (anonymous without a valid one) and the auth setting read for it.
 */
export function bearerContextOf(state: StateStore, publicUrl: string | undefined, clock: () => number = Date.now): (request: Request) => Promise<RequestContext> {
  const readerOf = bearerReaderOf(state, publicUrl);
  return async (request) => {
    const [reader, settings] = await Promise.all([readerOf(request), state.settings()]);
    return bridgeContext(settings, reader, clock);
  };
}
