import type { StateStore } from "../../store/state/state-store.js";
import type { ClientDirectory } from "./client-directory.js";
import { type MetadataDocumentClients, namesMetadataDocument } from "./metadata-documents.js";

/** The directory over the state store's registered clients and the metadata documents. */
export function clientDirectory(state: Pick<StateStore, "client">, documents: MetadataDocumentClients): ClientDirectory {
  return {
    find: (clientId) => (namesMetadataDocument(clientId) ? documents.client(clientId) : state.client(clientId)),
  };
}
