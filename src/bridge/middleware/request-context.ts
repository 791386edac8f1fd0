import type { AuthInfo } from "@modelcontextprotocol/server";
import type { SiteSettings, StateStore } from "../../store/state/state-store.js";
import type { Reader } from "../../vfs/access.js";
import { isRequestContext, type RequestContext, requestContext } from "../../vfs/request-context.js";
import { bearerReaderOf } from "../auth/bearer.js";

/**
 * The context of one HTTP request: its reader, the site's auth setting as the state store gave
 * it for this request, the bridge's clock, and who asks (`caller`, where a route shares
 * something between callers). Built once per request by each route that decides access (`/mcp`,
 * `/authed/mcp`, `/.well-known/mcp`, the playground relay); nothing shared is changed by it, so
 * concurrent requests under different settings never mix.
 */
export function bridgeContext(settings: SiteSettings, reader: Reader, clock: () => number, caller?: string, gone?: AbortSignal): RequestContext {
  return requestContext(reader, settings.authMode, clock, caller, gone);
}

/**
 * `authInfo` as the bridge hands it to the MCP transport: the SDK types `extra` as a record of
 * unknowns and passes it through to the handlers (the one per-request channel of its
 * transports), so the context rides there, typed on our side of the SDK.
 */
export interface AuthInfoWithContext extends AuthInfo {
  readonly extra: { readonly context: RequestContext };
}

/**
 * `authInfo` for the MCP transport, carrying the request's context to the server's handlers.
 * An anonymous request gets one too, with no token: handlers find its context the same way.
 * The bridge's own code reads `extra.context` from the typed result; only the handlers, given
 * the SDK's `AuthInfo` back, go through `contextFromAuthInfo`.
 */
export function authInfoWithContext(context: RequestContext, authInfo?: AuthInfo): AuthInfoWithContext {
  const base: AuthInfo = authInfo ?? { token: "", clientId: "", scopes: [] };
  return { ...base, extra: { context } };
}

/**
 * The context the bridge handed to an MCP handler (the one place it is read back from the
 * SDK's untyped `extra`, checked by `isRequestContext`). A request without one is a bug of
 * ours, and is refused (an error) rather than served as someone.
 */
export function contextFromAuthInfo(authInfo: AuthInfo | undefined): RequestContext {
  const context = authInfo?.extra?.context;
  if (!isRequestContext(context)) throw new Error("an MCP request reached its handler without a request context");
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
