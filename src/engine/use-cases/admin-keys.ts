import { LIMITS } from "../../limits.js";
import { type AdminKeyInfo, KeyNotFoundError } from "../../store/keys/key-store.js";
import { type Refusal, type StateOutcome, invalid, refused, success } from "./outcome.js";
import { isOneLineLabel } from "./label.js";
import type { StateContext } from "./state-context.js";

/** A new admin API key for the feedback API, dated by the context's clock; the key text exists only in this answer. */
export async function createAdminKey(context: StateContext, label: string | undefined): Promise<StateOutcome<{ readonly key: string; readonly info: AdminKeyInfo }>> {
  const text = (label ?? "").trim();
  if (!isOneLineLabel(text, LIMITS.keys.maxLabelChars)) return invalid([{ argument: "label", message: `must be one line of at most ${LIMITS.keys.maxLabelChars} characters` }]);
  return success(await (await context.stores.keys()).create(text, context.request.clock()));
}

/** Every key, newest first, revoked ones included. */
export async function listAdminKeys(context: StateContext): Promise<StateOutcome<AdminKeyInfo[]>> {
  return success(await (await context.stores.keys()).list());
}

/** Revoke a key by its id or by the key itself; revoking twice says so. */
export async function revokeAdminKey(
  context: StateContext,
  idOrKey: string,
): Promise<StateOutcome<{ readonly info: AdminKeyInfo; readonly alreadyRevoked: boolean }, Refusal<"not_found">>> {
  try {
    return success(await (await context.stores.keys()).revoke(idOrKey, context.request.clock()));
  } catch (error) {
    if (error instanceof KeyNotFoundError) return refused({ kind: "not_found", message: error.message });
    throw error;
  }
}
