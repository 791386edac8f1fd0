import { HttpError } from "../middleware/http-error.js";
import { oauthErrorResponse } from "../middleware/http-errors.js";
import { type BridgeUrls, MCP_SCOPE } from "../urls.js";

/**
 * Typed OAuth errors, one class per registered error code (as the MCP SDK has them), and the one
 * place that turns them into HTTP answers: the status each code is sent with, and the
 * `WWW-Authenticate` challenge where an RFC asks for one. Handlers throw (or return) these; the
 * bridge's error handler, the bearer check and the authorization endpoint's redirects read them.
 */

/** Every error code we may send, with its status and where it is defined. */
const OAUTH_ERROR_CODES = {
  // RFC 6749 5.2 (token endpoint) and 4.1.2.1 (authorization endpoint).
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  access_denied: 403,
  unsupported_response_type: 400,
  server_error: 500,
  temporarily_unavailable: 503,
  // RFC 7009 2.2.1 (revocation).
  unsupported_token_type: 400,
  // RFC 6750 3.1 (bearer tokens at the resource).
  invalid_token: 401,
  insufficient_scope: 403,
  // RFC 7591 3.2.2 (registration).
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  invalid_software_statement: 400,
  unapproved_software_statement: 400,
  // RFC 8707 2 (resource indicators).
  invalid_target: 400,
} as const;

export type OAuthErrorCode = keyof typeof OAUTH_ERROR_CODES;

/** The RFC 6749 5.2 error body. */
export interface OAuthErrorResponse {
  readonly error: OAuthErrorCode;
  readonly error_description: string;
}

/** An OAuth error: its code (one subclass per code), and a description the tool's developer can act on. */
export abstract class OAuthError extends HttpError {
  abstract readonly errorCode: OAuthErrorCode;

  constructor(readonly description: string) {
    super(description);
    this.name = new.target.name;
  }

  /** The HTTP status it is answered with. */
  override get status(): number {
    return OAUTH_ERROR_CODES[this.errorCode];
  }

  toResponseObject(): OAuthErrorResponse {
    return { error: this.errorCode, error_description: this.description };
  }

  /** The answer of an OAuth endpoint (`no-store`, RFC 6749 5.1), with its challenge if any. */
  override toResponse(headers: Readonly<Record<string, string>> = {}): Response {
    return oauthErrorResponse(this.status, this.errorCode, this.description, { ...headers, ...this.challenge() });
  }

  /** `WWW-Authenticate` of a token-endpoint answer; the resource's are `bearerChallenge`'s. */
  protected challenge(): Record<string, string> {
    return {};
  }
}

export class InvalidRequestError extends OAuthError {
  readonly errorCode = "invalid_request";
}

/** A body over the size limit: `invalid_request`, answered 413 rather than 400. */
export class RequestTooLargeError extends InvalidRequestError {
  override get status(): number {
    return 413;
  }
}

/**
 * RFC 6749 5.2: when the client tried HTTP Basic (or sent no authentication at all, so the
 * challenge tells it how), the answer is 401 with a `Basic` challenge.
 */
export class InvalidClientError extends OAuthError {
  readonly errorCode = "invalid_client";

  constructor(
    description: string,
    readonly basicChallenge = false,
  ) {
    super(description);
  }

  protected override challenge(): Record<string, string> {
    return this.basicChallenge ? { "WWW-Authenticate": 'Basic realm="svc-mcp"' } : {};
  }
}

export class InvalidGrantError extends OAuthError {
  readonly errorCode = "invalid_grant";
}
export class UnauthorizedClientError extends OAuthError {
  readonly errorCode = "unauthorized_client";
}
export class UnsupportedGrantTypeError extends OAuthError {
  readonly errorCode = "unsupported_grant_type";
}
export class InvalidScopeError extends OAuthError {
  readonly errorCode = "invalid_scope";
}
export class AccessDeniedError extends OAuthError {
  readonly errorCode = "access_denied";
}
export class UnsupportedResponseTypeError extends OAuthError {
  readonly errorCode = "unsupported_response_type";
}
export class ServerError extends OAuthError {
  readonly errorCode = "server_error";
}
export class TemporarilyUnavailableError extends OAuthError {
  readonly errorCode = "temporarily_unavailable";
}
export class UnsupportedTokenTypeError extends OAuthError {
  readonly errorCode = "unsupported_token_type";
}
export class InvalidTokenError extends OAuthError {
  readonly errorCode = "invalid_token";
}
export class InsufficientScopeError extends OAuthError {
  readonly errorCode = "insufficient_scope";
}
export class InvalidRedirectUriError extends OAuthError {
  readonly errorCode = "invalid_redirect_uri";
}
export class InvalidClientMetadataError extends OAuthError {
  readonly errorCode = "invalid_client_metadata";
}
export class InvalidSoftwareStatementError extends OAuthError {
  readonly errorCode = "invalid_software_statement";
}
export class UnapprovedSoftwareStatementError extends OAuthError {
  readonly errorCode = "unapproved_software_statement";
}
export class InvalidTargetError extends OAuthError {
  readonly errorCode = "invalid_target";
}

/** The description of a request to `/authed/mcp` that carries no credentials at all. */
export const NO_TOKEN_MESSAGE = "This endpoint requires an access token: Authorization: Bearer <token>";

/**
 * RFC 6750 3: the answer of `/authed/mcp` to a request it does not accept, with a challenge
 * naming the RFC 9728 metadata (so an MCP client can discover where to sign in) and the scope.
 * A request without credentials (`undefined`) gets no error code in the challenge (3.1); its
 * body still says what is missing.
 */
export function bearerChallenge(error: OAuthError | undefined, urls: BridgeUrls): Response {
  const params = [`Bearer resource_metadata="${urls.protectedResourceMetadata}"`, `scope="${MCP_SCOPE}"`];
  if (error === undefined) return oauthErrorResponse(401, "unauthorized", NO_TOKEN_MESSAGE, { "WWW-Authenticate": params.join(", ") });
  // A quoted-string cannot carry `"` or `\` unescaped; the descriptions are ours, so drop them.
  params.push(`error="${error.errorCode}"`, `error_description="${error.description.replace(/["\\]/g, "")}"`);
  return oauthErrorResponse(error.status, error.errorCode, error.description, { "WWW-Authenticate": params.join(", ") });
}
