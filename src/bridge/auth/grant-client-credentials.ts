import type { Grant } from "./grant.js";
import { checkResource, grantedScope } from "./scope-and-resource.js";
import { OAuthError, OAuthErrorCode } from "./oauth-errors.js";

/**
 * The MCP extension identifier of the client-credentials grant (SEP-1046, SEP-2133): see
 * modelcontextprotocol/ext-auth `specification/draft/oauth-client-credentials.mdx` and the
 * specification site's `extensions/auth/oauth-client-credentials` (a server advertises it as
 * `capabilities.extensions["io.modelcontextprotocol/oauth-client-credentials"]: {}`).
 */
export const CLIENT_CREDENTIALS_EXTENSION = "io.modelcontextprotocol/oauth-client-credentials";

/**
 * RFC 6749 4.4: a machine exchanges a credential the documentation owner created
 * (`svc-mcp credentials create`) for tokens that read every page. The extension asks for
 * `client_secret_basic` among the token endpoint's methods (it is).
 */
export const CLIENT_CREDENTIALS: Grant = {
  name: "client_credentials",
  clientAuthentication: "secret",
  // Registration is open to anyone; only credentials the owner created read everything.
  registrable: false,
  serverMetadata: () => ({}),
  extension: CLIENT_CREDENTIALS_EXTENSION,
  async handler({ deps, client, params, urls }) {
    if (client.kind !== "credential") {
      throw new OAuthError(OAuthErrorCode.UnauthorizedClient, "only client credentials created by the documentation owner may use the client_credentials grant");
    }
    const scope = grantedScope(params.get("scope"));
    const resource = checkResource(params.get("resource"), urls.resource);
    return deps.state.issueTokens({ subject: { kind: "credential", clientId: client.clientId }, clientId: client.clientId, scope, resource });
  },
};
