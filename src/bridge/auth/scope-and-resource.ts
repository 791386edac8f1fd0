// What a token or authorization request may ask for: the scope and the resource. Apart from
// client authentication (client-auth.ts) because the grants use these and client authentication
// reads metadata documents, whose schema lists the grants: together they were an import cycle.
import { MCP_SCOPE } from "../urls.js";
import { OAuthError, OAuthErrorCode } from "./oauth-errors.js";

/** The granted scope: `mcp:search` is the only one; absent means it. */
export function grantedScope(requested: string | undefined): string {
  if (requested === undefined) return MCP_SCOPE;
  const scopes = requested.split(" ").filter((s) => s !== "");
  const unknown = scopes.filter((s) => s !== MCP_SCOPE);
  if (unknown.length > 0 || scopes.length === 0) {
    throw new OAuthError(OAuthErrorCode.InvalidScope, `unknown scope ${JSON.stringify(unknown.join(" ") || requested)}; the only scope is ${MCP_SCOPE}`);
  }
  return MCP_SCOPE;
}

/** RFC 8707: a `resource` must name this server's `/authed/mcp`. */
export function checkResource(requested: string | undefined, resource: string): string {
  if (requested === undefined || requested === resource) return resource;
  throw new OAuthError(OAuthErrorCode.InvalidTarget, `resource must be ${resource} (got ${requested})`);
}
