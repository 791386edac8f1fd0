import { LIMITS } from "../../limits.js";
import type { CredentialInfo } from "../../store/state/state-store.js";
import { type Refusal, type StateOutcome, invalid, refused, success } from "./outcome.js";
import { isOneLineLabel } from "./label.js";
import type { StateContext } from "./state-context.js";

/** A new client credential for `/authed/mcp`; its secret exists outside the store only in this answer. */
export async function createCredential(
  context: StateContext,
  label: string | undefined,
): Promise<StateOutcome<{ readonly info: CredentialInfo; readonly clientSecret: string }>> {
  const text = (label ?? "").trim();
  if (text === "" || !isOneLineLabel(text, LIMITS.keys.maxLabelChars)) {
    return invalid([{ argument: "label", message: `one line of 1 to ${LIMITS.keys.maxLabelChars} characters saying what the credential is for` }]);
  }
  return success(await (await context.stores.state()).createCredential(text));
}

/** Every client credential, never with its secret. */
export async function listCredentials(context: StateContext): Promise<StateOutcome<CredentialInfo[]>> {
  return success(await (await context.stores.state()).credentials());
}

/** Delete a credential; its tokens stop working at once. */
export async function deleteCredential(context: StateContext, clientId: string): Promise<StateOutcome<CredentialInfo, Refusal<"not_found">>> {
  const deleted = await (await context.stores.state()).deleteCredential(clientId);
  if (deleted === undefined) return refused({ kind: "not_found", message: `no client credential ${JSON.stringify(clientId)}` });
  return success(deleted);
}
