// The interface alone, apart from the directory over the store (`store-client-directory.ts`): the
// bridge's deps and client authentication name it, and the directory's own imports (metadata
// documents, which check registrable grant types) reach the grants, which take the bridge's deps.
import type { RegisteredClient } from "../../store/state/state-store.js";

/** Every OAuth client a sign-in or token request may name, whichever way it made itself known. */
export interface ClientDirectory {
  /**
   * The client `clientId` names: one that registered (RFC 7591), or the one the metadata
   * document at that URL describes (fetched, checked and cached). Undefined for an unknown
   * registered id; an `InvalidClientError` saying why when a document cannot be used.
   */
  find(clientId: string): Promise<RegisteredClient | undefined>;
}
