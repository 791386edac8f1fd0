import type { AuthInfo } from "@modelcontextprotocol/server";
import type { AccessCheck, StateStore, Subject } from "../../store/state/state-store.js";
import { ANONYMOUS, type Reader } from "../../vfs/access.js";
import { principalOf, readerForSubject } from "../middleware/access-policy.js";
import { type BridgeUrls, bridgeUrls } from "../urls.js";
import { OAuthError, OAuthErrorCode, bearerChallenge } from "./oauth-errors.js";

/** Who an authenticated request speaks for (tool handlers get its reader in the request's context). */
export interface Caller {
  readonly subject: Subject;
  readonly reader: Reader;
  readonly principal: string;
}

/** A bearer check's outcome: whom the token speaks for, or why not (`undefined`: no credentials at all). */
export type BearerVerification =
  | { readonly ok: true; readonly authInfo: AuthInfo; readonly caller: Caller }
  | { readonly ok: false; readonly error: OAuthError | undefined };

export type BearerResult = { readonly ok: true; readonly authInfo: AuthInfo; readonly caller: Caller } | { readonly ok: false; readonly response: Response };

/**
 * RFC 6750 bearer verification of an `/authed/mcp` request: the header's form, then the token
 * (`check`, the state store's lookup), then its audience (RFC 8707: a token issued for another
 * resource, such as another origin of this server, is not ours). It answers nothing itself:
 * `bearerChallenge` turns its error into the 400/401 with `WWW-Authenticate`.
 */
export async function verifyBearer(header: string | undefined, check: (token: string) => Promise<AccessCheck>, resource: string): Promise<BearerVerification> {
  if (header === undefined || !/^Bearer(\s|$)/i.test(header)) return { ok: false, error: undefined };
  const match = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)[ ]*$/i.exec(header);
  if (match === null) return { ok: false, error: new OAuthError(OAuthErrorCode.InvalidRequest, "The Authorization header must be: Bearer <token>") };
  const token = match[1] as string;
  const found = await check(token);
  if (!found.ok) {
    const why = found.reason === "expired" ? "The access token expired; use the refresh token to get a new one" : "The access token is invalid or was revoked";
    return { ok: false, error: new OAuthError(OAuthErrorCode.InvalidToken, why) };
  }
  if (found.resource !== resource) return { ok: false, error: new OAuthError(OAuthErrorCode.InvalidToken, `The access token was issued for ${found.resource}, not ${resource}`) };
  const caller: Caller = { subject: found.subject, reader: readerForSubject(found.subject), principal: principalOf(found.subject) };
  const authInfo: AuthInfo = {
    token,
    clientId: found.clientId,
    scopes: found.scope.split(" "),
    expiresAt: found.expiresAt,
    resource: new URL(found.resource),
  };
  return { ok: true, authInfo, caller };
}

/**
 * Authenticate an `/authed/mcp` request: `verifyBearer` against the state store, its failures
 * answered with a challenge naming the RFC 9728 metadata, so an MCP client can discover where
 * to sign in.
 */
export async function authenticateBearer(header: string | undefined, state: StateStore, urls: BridgeUrls): Promise<BearerResult> {
  const verified = await verifyBearer(header, (token) => state.verifyAccessToken(token), urls.resource);
  return verified.ok ? verified : { ok: false, response: bearerChallenge(verified.error, urls) };
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
