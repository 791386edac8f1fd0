import type { CredentialInfo, RegisteredClient, StateStore } from "../../store/state/state-store.js";
import { OAuthError } from "../http-errors.js";
import { MCP_SCOPE } from "../urls.js";
import type { OAuthParams } from "./form.js";

/** The client that made a token or revocation request, once authenticated. */
export type AuthenticatedClient =
  | { readonly kind: "credential"; readonly clientId: string; readonly credential: CredentialInfo }
  | { readonly kind: "registered"; readonly clientId: string; readonly client: RegisteredClient };

const BASIC_CHALLENGE = { "WWW-Authenticate": 'Basic realm="svc-mcp"' };

/**
 * Authenticate the client of a token-endpoint request (RFC 6749 2.3.1): HTTP Basic or
 * `client_id` + `client_secret` in the body, never both; a public client (registered with
 * `token_endpoint_auth_method: none`) sends only its `client_id`.
 */
export async function authenticateClient(header: string | undefined, params: OAuthParams, state: StateStore): Promise<AuthenticatedClient> {
  const basic = header !== undefined && /^Basic\s/i.test(header);
  let clientId = params.get("client_id");
  let secret = params.get("client_secret");
  if (basic) {
    if (secret !== undefined) throw new OAuthError(400, "invalid_request", "use one client authentication method: HTTP Basic or client_secret in the body, not both");
    const decoded = decodeBasic(header);
    if (decoded === undefined) throw new OAuthError(401, "invalid_client", "the Basic authorization header is malformed", BASIC_CHALLENGE);
    if (clientId !== undefined && clientId !== decoded.id) throw new OAuthError(400, "invalid_request", "client_id in the body differs from the one in the Authorization header");
    clientId = decoded.id;
    secret = decoded.secret;
  }
  const challenge = basic ? BASIC_CHALLENGE : {};
  if (clientId === undefined) throw new OAuthError(401, "invalid_client", "client authentication is required (HTTP Basic, or client_id and client_secret)", BASIC_CHALLENGE);
  if (secret !== undefined) {
    const credential = await state.verifyCredential(clientId, secret);
    if (credential !== undefined) return { kind: "credential", clientId, credential };
    const client = await state.client(clientId);
    if (client !== undefined && (await state.verifyClientSecret(clientId, secret))) return { kind: "registered", clientId, client };
    throw new OAuthError(401, "invalid_client", "unknown client_id or wrong client_secret", challenge);
  }
  const client = await state.client(clientId);
  if (client !== undefined && client.metadata.token_endpoint_auth_method === "none") return { kind: "registered", clientId, client };
  throw new OAuthError(401, "invalid_client", "unknown client_id, or the client must authenticate with its client_secret", challenge);
}

/** RFC 6749 2.3.1: Basic credentials are form-urlencoded before base64. */
function decodeBasic(header: string): { id: string; secret: string } | undefined {
  const encoded = header.replace(/^Basic\s+/i, "").trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  const text = Buffer.from(encoded, "base64").toString("utf8");
  const colon = text.indexOf(":");
  if (colon <= 0) return undefined;
  try {
    const decode = (s: string): string => decodeURIComponent(s.replace(/\+/g, " "));
    return { id: decode(text.slice(0, colon)), secret: decode(text.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

/** The granted scope: `mcp:search` is the only one; absent means it. */
export function grantedScope(requested: string | undefined): string {
  if (requested === undefined) return MCP_SCOPE;
  const scopes = requested.split(" ").filter((s) => s !== "");
  const unknown = scopes.filter((s) => s !== MCP_SCOPE);
  if (unknown.length > 0 || scopes.length === 0) {
    throw new OAuthError(400, "invalid_scope", `unknown scope ${JSON.stringify(unknown.join(" ") || requested)}; the only scope is ${MCP_SCOPE}`);
  }
  return MCP_SCOPE;
}

/** RFC 8707: a `resource` must name this server's `/authed/mcp`. */
export function checkResource(requested: string | undefined, resource: string): string {
  if (requested === undefined || requested === resource) return resource;
  throw new OAuthError(400, "invalid_target", `resource must be ${resource} (got ${requested})`);
}
