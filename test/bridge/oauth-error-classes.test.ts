import { describe, expect, it } from "vitest";
import {
  OAuthError,
  OAuthErrorCode,
  RequestTooLargeError,
  bearerChallenge,
  invalidClient,
  oauthErrorAnswer,
} from "../../src/bridge/auth/oauth-errors.js";
import { bridgeUrls } from "../../src/bridge/urls.js";

/** Each OAuth error (the SDK's class, our statuses), answered as its RFC says: code, status, body, cache headers, challenge. */

async function answer(r: Response) {
  const headers: Record<string, string> = {};
  r.headers.forEach((value, key) => (headers[key] = value));
  return { status: r.status, headers, body: (await r.json()) as unknown };
}
const NO_STORE = { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache" };

const oauth = (code: string) => new OAuthError(code, "d");
const CASES: [OAuthError, string, number][] = [
  [oauth(OAuthErrorCode.InvalidRequest), "invalid_request", 400],
  [oauth(OAuthErrorCode.InvalidClient), "invalid_client", 401],
  [oauth(OAuthErrorCode.InvalidGrant), "invalid_grant", 400],
  [oauth(OAuthErrorCode.UnauthorizedClient), "unauthorized_client", 400],
  [oauth(OAuthErrorCode.UnsupportedGrantType), "unsupported_grant_type", 400],
  [oauth(OAuthErrorCode.InvalidScope), "invalid_scope", 400],
  [oauth(OAuthErrorCode.AccessDenied), "access_denied", 403],
  [oauth(OAuthErrorCode.UnsupportedResponseType), "unsupported_response_type", 400],
  [oauth(OAuthErrorCode.ServerError), "server_error", 500],
  [oauth(OAuthErrorCode.TemporarilyUnavailable), "temporarily_unavailable", 503],
  [oauth(OAuthErrorCode.UnsupportedTokenType), "unsupported_token_type", 400],
  [oauth(OAuthErrorCode.InvalidToken), "invalid_token", 401],
  [oauth(OAuthErrorCode.InsufficientScope), "insufficient_scope", 403],
  [oauth(OAuthErrorCode.InvalidRedirectUri), "invalid_redirect_uri", 400],
  [oauth(OAuthErrorCode.InvalidClientMetadata), "invalid_client_metadata", 400],
  [oauth("invalid_software_statement"), "invalid_software_statement", 400],
  [oauth("unapproved_software_statement"), "unapproved_software_statement", 400],
  [oauth(OAuthErrorCode.InvalidTarget), "invalid_target", 400],
  [new RequestTooLargeError("d"), "invalid_request", 413],
  [invalidClient("d", false), "invalid_client", 401],
];

describe("OAuth errors", () => {
  it.each(CASES)("%s is %s, answered %i with an RFC 6749 body and no-store", async (error, code, status) => {
    expect(error.code).toBe(code);
    expect(error.toResponseObject()).toEqual({ error: code, error_description: "d" });
    expect(await answer(oauthErrorAnswer(error))).toEqual({ status, headers: NO_STORE, body: { error: code, error_description: "d" } });
    expect(error).toBeInstanceOf(OAuthError);
    expect(error.message).toBe("d");
  });

  it("challenges with Basic when the client tried HTTP Basic or sent nothing (RFC 6749 5.2)", async () => {
    expect(await answer(oauthErrorAnswer(invalidClient("bad", true)))).toEqual({
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
    ["a malformed header", new OAuthError(OAuthErrorCode.InvalidRequest, "bad form"), 400, `${base}, error="invalid_request", error_description="bad form"`, { error: "invalid_request", error_description: "bad form" }],
    ["a bad token", new OAuthError(OAuthErrorCode.InvalidToken, 'say "no"'), 401, `${base}, error="invalid_token", error_description="say no"`, { error: "invalid_token", error_description: 'say "no"' }],
    ["a narrow token", new OAuthError(OAuthErrorCode.InsufficientScope, "more"), 403, `${base}, error="insufficient_scope", error_description="more"`, { error: "insufficient_scope", error_description: "more" }],
  ];
  it.each(cases)("answers %s", async (_name, error, status, challenge, body) => {
    expect(await answer(bearerChallenge(error, urls))).toEqual({ status, headers: { ...NO_STORE, "www-authenticate": challenge }, body });
  });
});
