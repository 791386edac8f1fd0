import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { StateStore, Subject } from "../../store/state/state-store.js";
import { ANONYMOUS, type Reader } from "../../vfs/access.js";
import { principalOf, readerForSubject } from "../access-policy.js";
import { oauthErrorResponse } from "../http-errors.js";
import { type BridgeUrls, MCP_SCOPE, bridgeUrls } from "../urls.js";

/** Who an authenticated request speaks for; carried to tool handlers as `authInfo.extra`. */
export interface Caller {
  readonly subject: Subject;
  readonly reader: Reader;
  readonly principal: string;
}

export type BearerResult = { readonly ok: true; readonly authInfo: AuthInfo; readonly caller: Caller } | { readonly ok: false; readonly response: Response };

/**
 * RFC 6750 bearer authentication of an `/authed/mcp` request. Failures are 401 with a
 * `WWW-Authenticate` challenge naming the RFC 9728 metadata, so an MCP client can discover
 * where to sign in; a request without credentials gets no error code (RFC 6750 3.1).
 */
export async function authenticateBearer(header: string | undefined, state: StateStore, urls: BridgeUrls): Promise<BearerResult> {
  const match = header === undefined ? null : /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)[ ]*$/i.exec(header);
  if (header === undefined || !/^Bearer(\s|$)/i.test(header)) {
    return { ok: false, response: challenge(urls, undefined, "This endpoint requires an access token: Authorization: Bearer <token>") };
  }
  if (match === null) {
    return { ok: false, response: challenge(urls, "invalid_request", "The Authorization header must be: Bearer <token>", 400) };
  }
  const token = match[1] as string;
  const check = await state.verifyAccessToken(token);
  if (!check.ok) {
    const why = check.reason === "expired" ? "The access token expired; use the refresh token to get a new one" : "The access token is invalid or was revoked";
    return { ok: false, response: challenge(urls, "invalid_token", why) };
  }
  if (check.resource !== urls.resource) {
    // RFC 8707: a token issued for another resource (another origin of this server) is not ours.
    return { ok: false, response: challenge(urls, "invalid_token", `The access token was issued for ${check.resource}, not ${urls.resource}`) };
  }
  const caller: Caller = { subject: check.subject, reader: readerForSubject(check.subject), principal: principalOf(check.subject) };
  const authInfo: AuthInfo = {
    token,
    clientId: check.clientId,
    scopes: check.scope.split(" "),
    expiresAt: check.expiresAt,
    resource: new URL(check.resource),
    extra: { caller },
  };
  return { ok: true, authInfo, caller };
}

/** The caller a transport handed to a request handler (see `createMcpServer`'s reader source). */
export function callerOf(authInfo: AuthInfo | undefined): Caller | undefined {
  return authInfo?.extra?.caller as Caller | undefined;
}

function challenge(urls: BridgeUrls, error: string | undefined, description: string, status = 401): Response {
  const params = [`Bearer resource_metadata="${urls.protectedResourceMetadata}"`, `scope="${MCP_SCOPE}"`];
  if (error !== undefined) params.push(`error="${error}"`, `error_description="${description.replace(/["\\]/g, "")}"`);
  return oauthErrorResponse(status, error ?? "unauthorized", description, { "WWW-Authenticate": params.join(", ") });
}

/**
 * For apps mounted on the bridge (the playground relay): the reader of a request's bearer token,
 * or the anonymous reader when it has none or it does not verify. Never throws.
 */
export function bearerReaderOf(state: StateStore, publicUrl?: string): (request: Request) => Promise<Reader> {
  return async (request) => {
    const header = request.headers.get("authorization") ?? undefined;
    if (header === undefined) return ANONYMOUS;
    const result = await authenticateBearer(header, state, bridgeUrls(publicUrl ?? new URL(request.url).origin));
    return result.ok ? result.caller.reader : ANONYMOUS;
  };
}
