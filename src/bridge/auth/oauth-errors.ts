import { OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import { oauthErrorResponse } from "../middleware/http-errors.js";
import { type BridgeUrls, MCP_SCOPE } from "../urls.js";

/**
 * OAuth errors are the MCP SDK's: one `OAuthError` class with an `OAuthErrorCode` (v2 dropped
 * v1's class per code), thrown by the handlers as `new OAuthError(OAuthErrorCode.InvalidGrant,
 * "why")`. What the SDK leaves to the server is how each is answered over HTTP, and that is
 * here, in one place: the status each code is sent with, the `no-store` body, and the
 * `WWW-Authenticate` challenge where an RFC asks for one. The bridge's error handler, the
 * bearer check and the authorization endpoint's redirects all answer through it.
 */
export { OAuthError, OAuthErrorCode };

/**
 * The status of every code we may send, and where it is defined. A code missing here (one the
 * SDK may add) is answered 400, RFC 6749 5.2's default.
 */
const OAUTH_ERROR_STATUS: Readonly<Record<string, number>> = {
  // RFC 6749 5.2 (token endpoint) and 4.1.2.1 (authorization endpoint).
  [OAuthErrorCode.InvalidRequest]: 400,
  [OAuthErrorCode.InvalidClient]: 401,
  [OAuthErrorCode.InvalidGrant]: 400,
  [OAuthErrorCode.UnauthorizedClient]: 400,
  [OAuthErrorCode.UnsupportedGrantType]: 400,
  [OAuthErrorCode.InvalidScope]: 400,
  [OAuthErrorCode.AccessDenied]: 403,
  [OAuthErrorCode.UnsupportedResponseType]: 400,
  [OAuthErrorCode.ServerError]: 500,
  [OAuthErrorCode.TemporarilyUnavailable]: 503,
  // RFC 7009 2.2.1 (revocation).
  [OAuthErrorCode.UnsupportedTokenType]: 400,
  // RFC 6750 3.1 (bearer tokens at the resource).
  [OAuthErrorCode.InvalidToken]: 401,
  [OAuthErrorCode.InsufficientScope]: 403,
  // RFC 7591 3.2.2 (registration); the SDK's enum lacks the two software-statement codes.
  [OAuthErrorCode.InvalidRedirectUri]: 400,
  [OAuthErrorCode.InvalidClientMetadata]: 400,
  invalid_software_statement: 400,
  unapproved_software_statement: 400,
  // RFC 8707 2 (resource indicators).
  [OAuthErrorCode.InvalidTarget]: 400,
};

/** A body over the size limit: `invalid_request`, answered 413 rather than 400. */
export class RequestTooLargeError extends OAuthError {
  constructor(description: string) {
    super(OAuthErrorCode.InvalidRequest, description);
  }
}

/**
 * `invalid_client` where the client tried HTTP Basic (or sent no authentication at all, so the
 * challenge tells it how): RFC 6749 5.2 asks for 401 with a `Basic` challenge.
 */
export class BasicChallengeError extends OAuthError {
  constructor(description: string) {
    super(OAuthErrorCode.InvalidClient, description);
  }
}

/** `invalid_client`, with the `Basic` challenge when `basicChallenge` (the client tried HTTP Basic or sent nothing). */
export function invalidClient(description: string, basicChallenge: boolean): OAuthError {
  return basicChallenge ? new BasicChallengeError(description) : new OAuthError(OAuthErrorCode.InvalidClient, description);
}

/** The HTTP status `error` is answered with. */
export function oauthErrorStatus(error: OAuthError): number {
  if (error instanceof RequestTooLargeError) return 413;
  return OAUTH_ERROR_STATUS[error.code] ?? 400;
}

/** The answer of an OAuth endpoint to `error` (`no-store`, RFC 6749 5.1), with its challenge if any. */
export function oauthErrorAnswer(error: OAuthError, headers: Readonly<Record<string, string>> = {}): Response {
  const challenge: Record<string, string> = error instanceof BasicChallengeError ? { "WWW-Authenticate": 'Basic realm="svc-mcp"' } : {};
  return oauthErrorResponse(oauthErrorStatus(error), error.code, error.message, { ...headers, ...challenge });
}

/** The description of a request to `/authed/mcp` that carries no credentials at all. */
export const NO_TOKEN_MESSAGE = "This endpoint requires an access token: Authorization: Bearer <token>";

/**
 * RFC 6750 3: the answer of `/authed/mcp` to a request it does not accept, with a challenge
 * naming the RFC 9728 metadata (so an MCP client can discover where to sign in) and the scope.
 * A request without credentials (`undefined`) gets no error code in the challenge (3.1); its
 * body still says what is missing. The SDK's `bearerAuthChallengeResponse` answers differently
 * (another parameter order, no challenge on a missing or malformed header, no `no-store`), and
 * the clients and tests that know this endpoint read these bytes.
 */
export function bearerChallenge(error: OAuthError | undefined, urls: BridgeUrls): Response {
  const params = [`Bearer resource_metadata="${urls.protectedResourceMetadata}"`, `scope="${MCP_SCOPE}"`];
  if (error === undefined) return oauthErrorResponse(401, "unauthorized", NO_TOKEN_MESSAGE, { "WWW-Authenticate": params.join(", ") });
  // A quoted-string cannot carry `"` or `\` unescaped; the descriptions are ours, so drop them.
  params.push(`error="${error.code}"`, `error_description="${error.message.replace(/["\\]/g, "")}"`);
  return oauthErrorResponse(oauthErrorStatus(error), error.code, error.message, { "WWW-Authenticate": params.join(", ") });
}
