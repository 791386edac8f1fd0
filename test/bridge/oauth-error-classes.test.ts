import { describe, expect, it } from "vitest";
import {
  AccessDeniedError,
  InsufficientScopeError,
  InvalidClientError,
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidRedirectUriError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidSoftwareStatementError,
  InvalidTargetError,
  InvalidTokenError,
  type OAuthError,
  RequestTooLargeError,
  ServerError,
  TemporarilyUnavailableError,
  UnapprovedSoftwareStatementError,
  UnauthorizedClientError,
  UnsupportedGrantTypeError,
  UnsupportedResponseTypeError,
  UnsupportedTokenTypeError,
  bearerChallenge,
} from "../../src/bridge/auth/oauth-errors.js";
import { bridgeUrls } from "../../src/bridge/urls.js";

/** Each typed OAuth error, answered as its RFC says: code, status, body, cache headers, challenge. */

async function answer(r: Response) {
  const headers: Record<string, string> = {};
  r.headers.forEach((value, key) => (headers[key] = value));
  return { status: r.status, headers, body: (await r.json()) as unknown };
}
const NO_STORE = { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache" };

const CASES: [OAuthError, string, number][] = [
  [new InvalidRequestError("d"), "invalid_request", 400],
  [new InvalidClientError("d"), "invalid_client", 401],
  [new InvalidGrantError("d"), "invalid_grant", 400],
  [new UnauthorizedClientError("d"), "unauthorized_client", 400],
  [new UnsupportedGrantTypeError("d"), "unsupported_grant_type", 400],
  [new InvalidScopeError("d"), "invalid_scope", 400],
  [new AccessDeniedError("d"), "access_denied", 403],
  [new UnsupportedResponseTypeError("d"), "unsupported_response_type", 400],
  [new ServerError("d"), "server_error", 500],
  [new TemporarilyUnavailableError("d"), "temporarily_unavailable", 503],
  [new UnsupportedTokenTypeError("d"), "unsupported_token_type", 400],
  [new InvalidTokenError("d"), "invalid_token", 401],
  [new InsufficientScopeError("d"), "insufficient_scope", 403],
  [new InvalidRedirectUriError("d"), "invalid_redirect_uri", 400],
  [new InvalidClientMetadataError("d"), "invalid_client_metadata", 400],
  [new InvalidSoftwareStatementError("d"), "invalid_software_statement", 400],
  [new UnapprovedSoftwareStatementError("d"), "unapproved_software_statement", 400],
  [new InvalidTargetError("d"), "invalid_target", 400],
  [new RequestTooLargeError("d"), "invalid_request", 413],
];

describe("typed OAuth errors", () => {
  it.each(CASES)("%s is %s, answered %i with an RFC 6749 body and no-store", async (error, code, status) => {
    expect(error.errorCode).toBe(code);
    expect(error.toResponseObject()).toEqual({ error: code, error_description: "d" });
    expect(await answer(error.toResponse())).toEqual({ status, headers: NO_STORE, body: { error: code, error_description: "d" } });
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe("d");
  });

  it("challenges with Basic when the client tried HTTP Basic or sent nothing (RFC 6749 5.2)", async () => {
    expect(await answer(new InvalidClientError("bad", true).toResponse())).toEqual({
      status: 401,
      headers: { ...NO_STORE, "www-authenticate": 'Basic realm="svc-mcp"' },
      body: { error: "invalid_client", error_description: "bad" },
    });
  });
});

describe("bearer challenges of /authed/mcp (RFC 6750 3)", () => {
  const urls = bridgeUrls("https://docs.example");
  const base = 'Bearer resource_metadata="https://docs.example/.well-known/oauth-protected-resource/authed/mcp", scope="mcp:search"';
  const cases: [string, OAuthError | undefined, number, string, object][] = [
    ["no credentials", undefined, 401, base, { error: "unauthorized", error_description: "This endpoint requires an access token: Authorization: Bearer <token>" }],
    ["a malformed header", new InvalidRequestError("bad form"), 400, `${base}, error="invalid_request", error_description="bad form"`, { error: "invalid_request", error_description: "bad form" }],
    ["a bad token", new InvalidTokenError('say "no"'), 401, `${base}, error="invalid_token", error_description="say no"`, { error: "invalid_token", error_description: 'say "no"' }],
    ["a narrow token", new InsufficientScopeError("more"), 403, `${base}, error="insufficient_scope", error_description="more"`, { error: "insufficient_scope", error_description: "more" }],
  ];
  it.each(cases)("answers %s", async (_name, error, status, challenge, body) => {
    expect(await answer(bearerChallenge(error, urls))).toEqual({ status, headers: { ...NO_STORE, "www-authenticate": challenge }, body });
  });
});
