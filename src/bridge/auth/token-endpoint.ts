import type { IssuedTokens } from "../../store/state/state-store.js";
import { pkceMatches } from "../../store/state/secrets.js";
import type { BridgeDeps } from "../context.js";
import { OAuthError, noStoreJson } from "../http-errors.js";
import type { BridgeUrls } from "../urls.js";
import { type AuthenticatedClient, authenticateClient, checkResource, grantedScope } from "./client-auth.js";
import { type OAuthParams, readForm, required } from "./form.js";

/** RFC 7636 4.1: a code verifier is 43 to 128 unreserved characters. */
const CODE_VERIFIER_RE = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * `POST /authed/mcp/oauth/token` (RFC 6749 3.2): the `client_credentials`, `authorization_code`
 * (with PKCE) and `refresh_token` grants. The SDK's own handler refuses `client_credentials`,
 * hence ours. Answers the spec's token response, or an RFC 6749 5.2 error.
 */
export async function handleTokenRequest(deps: BridgeDeps, request: Request, urls: BridgeUrls): Promise<Response> {
  const params = await readForm(request);
  const grantType = required(params, "grant_type");
  if (grantType !== "client_credentials" && grantType !== "authorization_code" && grantType !== "refresh_token") {
    throw new OAuthError(400, "unsupported_grant_type", `grant_type ${JSON.stringify(grantType)} is not supported; use client_credentials, authorization_code or refresh_token`);
  }
  const client = await authenticateClient(request.headers.get("authorization") ?? undefined, params, deps.state);
  const tokens =
    grantType === "client_credentials"
      ? await clientCredentials(deps, client, params, urls)
      : grantType === "authorization_code"
        ? await authorizationCode(deps, client, params)
        : await refreshToken(deps, client, params, urls);
  return noStoreJson(200, {
    access_token: tokens.accessToken,
    token_type: "Bearer",
    expires_in: tokens.expiresIn,
    refresh_token: tokens.refreshToken,
    scope: tokens.scope,
  });
}

async function clientCredentials(deps: BridgeDeps, client: AuthenticatedClient, params: OAuthParams, urls: BridgeUrls): Promise<IssuedTokens> {
  if (client.kind !== "credential") {
    // Registration is open to anyone; only credentials the owner created read everything.
    throw new OAuthError(400, "unauthorized_client", "only client credentials created by the documentation owner may use the client_credentials grant");
  }
  const scope = grantedScope(params.get("scope"));
  const resource = checkResource(params.get("resource"), urls.resource);
  return deps.state.issueTokens({ subject: { kind: "credential", clientId: client.clientId }, clientId: client.clientId, scope, resource });
}

async function authorizationCode(deps: BridgeDeps, client: AuthenticatedClient, params: OAuthParams): Promise<IssuedTokens> {
  if (client.kind !== "registered") throw new OAuthError(400, "unauthorized_client", "client credentials use the client_credentials grant, not authorization_code");
  const code = required(params, "code");
  const redirectUri = required(params, "redirect_uri");
  const verifier = required(params, "code_verifier");
  if (!CODE_VERIFIER_RE.test(verifier)) throw new OAuthError(400, "invalid_request", "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636)");
  const redeemed = await deps.state.redeemAuthCode(code);
  if (!redeemed.ok) {
    const why =
      redeemed.reason === "reused"
        ? "the authorization code was already used; the tokens issued for it are revoked"
        : redeemed.reason === "expired"
          ? "the authorization code expired; sign in again"
          : "the authorization code is invalid";
    throw new OAuthError(400, "invalid_grant", why);
  }
  const r = redeemed.request;
  if (r.clientId !== client.clientId) throw new OAuthError(400, "invalid_grant", "the authorization code was issued to another client");
  if (r.redirectUri !== redirectUri) throw new OAuthError(400, "invalid_grant", "redirect_uri differs from the one in the authorization request");
  if (!pkceMatches(verifier, r.codeChallenge)) throw new OAuthError(400, "invalid_grant", "code_verifier does not match the code_challenge");
  const resource = checkResource(params.get("resource"), r.resource);
  const user = await deps.state.user(r.userName);
  if (user === undefined) throw new OAuthError(400, "invalid_grant", "the account that signed in no longer exists");
  return deps.state.issueTokens({
    subject: { kind: "user", name: user.name, groups: user.groups },
    clientId: client.clientId,
    scope: r.scope,
    resource,
    fromCode: code,
  });
}

async function refreshToken(deps: BridgeDeps, client: AuthenticatedClient, params: OAuthParams, urls: BridgeUrls): Promise<IssuedTokens> {
  const token = required(params, "refresh_token");
  // RFC 6749 6: a narrower scope may be asked for; ours has one scope, so it must be that one.
  grantedScope(params.get("scope"));
  checkResource(params.get("resource"), urls.resource);
  const result = await deps.state.refresh(token, client.clientId);
  if (result.ok) return result.tokens;
  const why = {
    unknown: "the refresh token is invalid or was revoked",
    expired: "the refresh token expired; sign in again",
    reused: "the refresh token was already used; every token of this grant is now revoked",
    wrong_client: "the refresh token was issued to another client",
  }[result.reason];
  throw new OAuthError(400, "invalid_grant", why);
}
