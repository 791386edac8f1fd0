// Its own file so that a grant, which is handed the client, does not import client
// authentication, which (through metadata documents and the registrable grant types) imports
// the grants.
import type { CredentialInfo, RegisteredClient } from "../../store/state/state-store.js";

/** The client that made a token or revocation request, once authenticated. */
export type AuthenticatedClient =
  | { readonly kind: "credential"; readonly clientId: string; readonly credential: CredentialInfo }
  | { readonly kind: "registered"; readonly clientId: string; readonly client: RegisteredClient };
