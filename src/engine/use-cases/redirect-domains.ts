import { normalizeRedirectDomain } from "../../store/state/redirect-domains.js";
import { type Refusal, type StateOutcome, invalid, refused, success } from "./outcome.js";
import type { StateContext } from "./state-context.js";

/** An entry as stored, whether the list changed, and what normalizing it dropped (a pasted callback's path). */
export interface RedirectDomainChange {
  readonly entry: string;
  readonly changed: boolean;
  readonly note?: string;
}

/** Where web-based tools may return people after sign-in, in stored form, sorted. Loopback needs no entry. */
export async function listRedirectDomains(context: StateContext): Promise<StateOutcome<string[]>> {
  return success(await (await context.stores.state()).redirectDomains());
}

/** Add a domain (`tool.example.com` means https) or a custom scheme written in full; adding twice changes nothing. */
export async function addRedirectDomain(context: StateContext, text: string): Promise<StateOutcome<RedirectDomainChange>> {
  const checked = normalizeRedirectDomain(text);
  if (!checked.ok) return invalid([{ argument: "entry", message: checked.error }]);
  const changed = await (await context.stores.state()).addRedirectDomain(checked.value);
  return success({ entry: checked.value, changed, ...(checked.note === undefined ? {} : { note: checked.note }) });
}

/** Remove an entry, written in any form that normalizes to it; one not listed is refused. */
export async function removeRedirectDomain(context: StateContext, text: string): Promise<StateOutcome<RedirectDomainChange, Refusal<"not_listed">>> {
  const checked = normalizeRedirectDomain(text);
  if (!checked.ok) return invalid([{ argument: "entry", message: checked.error }]);
  if (!(await (await context.stores.state()).removeRedirectDomain(checked.value))) {
    return refused({ kind: "not_listed", message: `${checked.value} is not on the list` });
  }
  return success({ entry: checked.value, changed: true });
}
