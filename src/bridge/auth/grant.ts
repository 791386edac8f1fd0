import type { IssuedTokens } from "../../store/state/state-store.js";
import type { BridgeDeps } from "../context.js";
import type { BridgeUrls } from "../urls.js";
import type { AuthenticatedClient } from "./authenticated-client.js";
import type { OAuthParams } from "./form.js";

/** What a grant's handler is given: the authenticated client and the token request's parameters. */
export interface GrantRequest {
  readonly deps: BridgeDeps;
  readonly client: AuthenticatedClient;
  readonly params: OAuthParams;
  readonly urls: BridgeUrls;
}

/** One OAuth grant type the token endpoint serves; `GRANTS` lists them all. */
export interface Grant {
  /** The `grant_type` value. */
  readonly name: string;
  /** Issue tokens for a request, or throw the `OAuthError` that says why not. */
  readonly handler: (request: GrantRequest) => Promise<IssuedTokens>;
  /**
   * How the client proves who it is: `secret` (HTTP Basic or `client_secret`: nothing else
   * binds the request to the client), or `client_id` (a public client names itself; the code's
   * PKCE verifier or the refresh token binds the request, and confidential clients still send
   * their secret).
   */
  readonly clientAuthentication: "secret" | "client_id";
  /** Whether a client may name it in `grant_types` (registration, metadata documents). */
  readonly registrable: boolean;
  /** What it adds to the RFC 8414 authorization server metadata. */
  readonly serverMetadata: (urls: BridgeUrls) => Readonly<Record<string, unknown>>;
  /** The MCP extension it is advertised as in the server's `capabilities.extensions`, if any. */
  readonly extension?: string;
}
