import type { BridgeDeps } from "../context.js";
import { authenticateClient } from "./client-auth.js";
import { readForm, required } from "./form.js";
import { OAuthError, OAuthErrorCode } from "./oauth-errors.js";

/**
 * `POST /authed/mcp/oauth/revoke` (RFC 7009): a client ends a token it holds. A refresh token
 * ends its whole grant; an access token only itself. Unknown tokens get 200 too (2.2: the
 * client cannot do anything about them, and the answer reveals nothing).
 */
export async function handleRevocation(deps: BridgeDeps, request: Request): Promise<Response> {
  const params = await readForm(request);
  const client = await authenticateClient(request.headers.get("authorization") ?? undefined, params, deps);
  const token = required(params, "token");
  const result = await deps.state.revokeToken(token, client.clientId);
  if (result === "wrong_client") throw new OAuthError(OAuthErrorCode.UnauthorizedClient, "the token was issued to another client");
  return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
}
