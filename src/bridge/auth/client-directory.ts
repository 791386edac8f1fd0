import type { RegisteredClient, StateStore } from "../../store/state/state-store.js";
import { type MetadataDocumentClients, namesMetadataDocument } from "./metadata-documents.js";

/** Every OAuth client a sign-in or token request may name, whichever way it made itself known. */
export interface ClientDirectory {
  /**
   * The client `clientId` names: one that registered (RFC 7591), or the one the metadata
   * document at that URL describes (fetched, checked and cached). Undefined for an unknown
   * registered id; an `InvalidClientError` saying why when a document cannot be used.
   */
  find(clientId: string): Promise<RegisteredClient | undefined>;
}

/** The directory over the state store's registered clients and the metadata documents. */
export function clientDirectory(state: Pick<StateStore, "client">, documents: MetadataDocumentClients): ClientDirectory {
  return {
    find: (clientId) => (namesMetadataDocument(clientId) ? documents.client(clientId) : state.client(clientId)),
  };
}
