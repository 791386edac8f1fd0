import { MCP_SCOPE, type BridgeUrls } from "../urls.js";

/** RFC 9728 protected resource metadata of `/authed/mcp`. */
export function protectedResourceMetadata(urls: BridgeUrls, siteName: string, docsUrl: string): Record<string, unknown> {
  return {
    resource: urls.resource,
    authorization_servers: [urls.issuer],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ["header"],
    resource_name: `${siteName} documentation (MCP)`,
    resource_documentation: docsUrl,
  };
}

/** RFC 8414 authorization server metadata of `/authed/mcp/oauth`. */
export function authorizationServerMetadata(urls: BridgeUrls): Record<string, unknown> {
  const authMethods = ["client_secret_basic", "client_secret_post", "none"];
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorize,
    token_endpoint: urls.token,
    registration_endpoint: urls.register,
    revocation_endpoint: urls.revoke,
    scopes_supported: [MCP_SCOPE],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
  };
}
