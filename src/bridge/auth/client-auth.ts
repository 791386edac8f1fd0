import type { StateStore } from "../../store/state/state-store.js";
import type { AuthenticatedClient } from "./authenticated-client.js";
import type { ClientDirectory } from "./client-directory.js";
import type { OAuthParams } from "./form.js";
import { namesMetadataDocument } from "./metadata-documents.js";
import { OAuthError, OAuthErrorCode, invalidClient } from "./oauth-errors.js";

/** What client authentication reads: credentials and registered secrets, and the client directory. */
export interface ClientAuthDeps {
  readonly state: Pick<StateStore, "verifyCredential" | "verifyClientSecret">;
  readonly clients: ClientDirectory;
}

/**
 * Authenticate the client of a token-endpoint request (RFC 6749 2.3.1): HTTP Basic or
 * `client_id` + `client_secret` in the body, never both; a public client (registered with
 * `token_endpoint_auth_method: none`, or described by a metadata document) sends only its
 * `client_id`. With `requireSecret` (a grant that nothing else binds to the client) a public
 * client's `client_id` alone is not enough.
 */
export async function authenticateClient(header: string | undefined, params: OAuthParams, deps: ClientAuthDeps, requireSecret = false): Promise<AuthenticatedClient> {
  const basic = header !== undefined && /^Basic\s/i.test(header);
  let clientId = params.get("client_id");
  let secret = params.get("client_secret");
  if (basic) {
    if (secret !== undefined) throw new OAuthError(OAuthErrorCode.InvalidRequest, "use one client authentication method: HTTP Basic or client_secret in the body, not both");
    const decoded = decodeBasic(header);
    if (decoded === undefined) throw invalidClient("the Basic authorization header is malformed", true);
    if (clientId !== undefined && clientId !== decoded.id) throw new OAuthError(OAuthErrorCode.InvalidRequest, "client_id in the body differs from the one in the Authorization header");
    clientId = decoded.id;
    secret = decoded.secret;
  }
  if (clientId === undefined || (requireSecret && secret === undefined)) {
    throw invalidClient("client authentication is required (HTTP Basic, or client_id and client_secret)", true);
  }
  if (secret !== undefined) {
    const credential = await deps.state.verifyCredential(clientId, secret);
    if (credential !== undefined) return { kind: "credential", clientId, credential };
    // A metadata document's client has no secret: it is never looked up (nor fetched) for one.
    const client = namesMetadataDocument(clientId) ? undefined : await deps.clients.find(clientId);
    if (client !== undefined && (await deps.state.verifyClientSecret(clientId, secret))) return { kind: "registered", clientId, client };
    throw invalidClient("unknown client_id or wrong client_secret", basic);
  }
  const client = await deps.clients.find(clientId);
  if (client !== undefined && client.metadata.token_endpoint_auth_method === "none") return { kind: "registered", clientId, client };
  throw invalidClient("unknown client_id, or the client must authenticate with its client_secret", basic);
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
