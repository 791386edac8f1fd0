import { pkceMatches } from "../../store/state/secrets.js";
import type { Grant } from "./grant.js";
import { checkResource } from "./scope-and-resource.js";
import { required } from "./form.js";
import { OAuthError, OAuthErrorCode } from "./oauth-errors.js";

/** RFC 7636 4.1: a code verifier is 43 to 128 unreserved characters. */
const CODE_VERIFIER_RE = /^[A-Za-z0-9._~-]{43,128}$/;

const REDEMPTION_FAILURES = {
  reused: "the authorization code was already used; the tokens issued for it are revoked",
  // Any presentation uses the code up, a failed one too (another client's, a wrong
  // code_verifier): a code is one try, so a stolen one cannot be tried until it works. No token
  // was issued for it, so none is said to be revoked (adversary round 56, F3).
  spent: "the authorization code was already presented once, by an attempt that got no token; start the sign-in again",
  expired: "the authorization code expired; sign in again",
  unknown: "the authorization code is invalid",
} as const;

/**
 * RFC 6749 4.1 with PKCE (RFC 7636, S256 only): a person signed in on the login page and the
 * tool exchanges the one-time code. Registered and metadata-document clients only.
 */
export const AUTHORIZATION_CODE: Grant = {
  name: "authorization_code",
  clientAuthentication: "client_id",
  registrable: true,
  serverMetadata: (urls) => ({
    authorization_endpoint: urls.authorize,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    code_challenge_methods_supported: ["S256"],
    // RFC 9207: every authorization response (errors too) carries `iss`.
    authorization_response_iss_parameter_supported: true,
  }),
  async handler({ deps, client, params }) {
    if (client.kind !== "registered") throw new OAuthError(OAuthErrorCode.UnauthorizedClient, "client credentials use the client_credentials grant, not authorization_code");
    const code = required(params, "code");
    const redirectUri = required(params, "redirect_uri");
    const verifier = required(params, "code_verifier");
    if (!CODE_VERIFIER_RE.test(verifier)) throw new OAuthError(OAuthErrorCode.InvalidRequest, "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636)");
    const redeemed = await deps.state.redeemAuthCode(code);
    if (!redeemed.ok) throw new OAuthError(OAuthErrorCode.InvalidGrant, REDEMPTION_FAILURES[redeemed.reason]);
    const r = redeemed.request;
    if (r.clientId !== client.clientId) throw new OAuthError(OAuthErrorCode.InvalidGrant, "the authorization code was issued to another client");
    if (r.redirectUri !== redirectUri) throw new OAuthError(OAuthErrorCode.InvalidGrant, "redirect_uri differs from the one in the authorization request");
    if (!pkceMatches(verifier, r.codeChallenge)) throw new OAuthError(OAuthErrorCode.InvalidGrant, "code_verifier does not match the code_challenge");
    const resource = checkResource(params.get("resource"), r.resource);
    const user = await deps.state.user(r.userName);
    if (user === undefined) throw new OAuthError(OAuthErrorCode.InvalidGrant, "the account that signed in no longer exists");
    return deps.state.issueTokens({
      subject: { kind: "user", name: user.name, groups: user.groups },
      clientId: client.clientId,
      scope: r.scope,
      resource,
      fromCode: code,
    });
  },
};
