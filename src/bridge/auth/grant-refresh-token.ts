import type { Grant } from "./grant.js";
import { checkResource, grantedScope } from "./scope-and-resource.js";
import { required } from "./form.js";
import { OAuthError, OAuthErrorCode } from "./oauth-errors.js";

const REFRESH_FAILURES = {
  unknown: "the refresh token is invalid or was revoked",
  expired: "the refresh token expired; sign in again",
  reused: "the refresh token was already used; every token of this grant is now revoked",
  wrong_client: "the refresh token was issued to another client",
} as const;

/** RFC 6749 6: a new token pair for a refresh token, which rotates (OAuth 2.1 reuse detection). */
export const REFRESH_TOKEN: Grant = {
  name: "refresh_token",
  clientAuthentication: "client_id",
  registrable: true,
  serverMetadata: () => ({}),
  async handler({ deps, client, params, urls }) {
    const token = required(params, "refresh_token");
    // RFC 6749 6: a narrower scope may be asked for; ours has one scope, so it must be that one.
    grantedScope(params.get("scope"));
    checkResource(params.get("resource"), urls.resource);
    const result = await deps.state.refresh(token, client.clientId);
    if (result.ok) return result.tokens;
    throw new OAuthError(OAuthErrorCode.InvalidGrant, REFRESH_FAILURES[result.reason]);
  },
};
