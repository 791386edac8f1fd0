import { MCP_SCOPE, type BridgeUrls } from "../urls.js";
import { GRANTS } from "./grants.js";

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

/**
 * RFC 8414 authorization server metadata of `/authed/mcp/oauth`. The grants table says which
 * grants there are and what each adds (the authorization endpoint, PKCE, `iss`); client ID
 * metadata documents are accepted (MCP 2025-11-25 "Client Registration"), and dynamic
 * registration stays for clients that predate them.
 */
export function authorizationServerMetadata(urls: BridgeUrls): Record<string, unknown> {
  const authMethods = ["client_secret_basic", "client_secret_post", "none"];
  return {
    issuer: urls.issuer,
    token_endpoint: urls.token,
    registration_endpoint: urls.register,
    revocation_endpoint: urls.revoke,
    scopes_supported: [MCP_SCOPE],
    grant_types_supported: GRANTS.map((g) => g.name),
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
    client_id_metadata_document_supported: true,
    ...GRANTS.reduce<Record<string, unknown>>((all, g) => ({ ...all, ...g.serverMetadata(urls) }), {}),
  };
}
