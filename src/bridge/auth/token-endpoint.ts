import type { BridgeDeps } from "../context.js";
import { noStoreJson } from "../middleware/http-errors.js";
import type { BridgeUrls } from "../urls.js";
import { authenticateClient } from "./client-auth.js";
import { readForm, required } from "./form.js";
import { grantList, grantNamed } from "./grants.js";
import { OAuthError, OAuthErrorCode } from "./oauth-errors.js";

/**
 * `POST /authed/mcp/oauth/token` (RFC 6749 3.2): the grants of `GRANTS` (the SDK's own handler
 * refuses `client_credentials`, hence ours). Answers the spec's token response, or throws the
 * typed error the bridge answers with (RFC 6749 5.2).
 */
export async function handleTokenRequest(deps: BridgeDeps, request: Request, urls: BridgeUrls): Promise<Response> {
  const params = await readForm(request);
  const grantType = required(params, "grant_type");
  const grant = grantNamed(grantType);
  if (grant === undefined) throw new OAuthError(OAuthErrorCode.UnsupportedGrantType, `grant_type ${JSON.stringify(grantType)} is not supported; use ${grantList()}`);
  const client = await authenticateClient(request.headers.get("authorization") ?? undefined, params, deps, grant.clientAuthentication === "secret");
  const tokens = await grant.handler({ deps, client, params, urls });
  return noStoreJson(200, {
    access_token: tokens.accessToken,
    token_type: "Bearer",
    expires_in: tokens.expiresIn,
    refresh_token: tokens.refreshToken,
    scope: tokens.scope,
  });
}
