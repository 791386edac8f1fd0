import { AUTH_MODES, type AuthMode, type McpToggle, type SiteSettings } from "../../store/state/state-store.js";
import { type StateOutcome, invalid, success } from "./outcome.js";
import type { StateContext } from "./state-context.js";

/** A change of the site's settings: the MCP toggle, or the auth mode as the owner typed it. */
export type SettingsChange = { readonly mcp: McpToggle } | { readonly authMode: string };

/**
 * The site's settings after an optional change (`mcp enable|disable`, `mcp auth MODE`). Running
 * servers read them on every request, so a change applies from their next one.
 */
export async function siteSettings(context: StateContext, change?: SettingsChange): Promise<StateOutcome<SiteSettings>> {
  if (change !== undefined && "authMode" in change && !isAuthMode(change.authMode)) {
    return invalid([{ argument: "mode", message: `must be ${AUTH_MODES.slice(0, -1).join(", ")} or ${AUTH_MODES.at(-1)}; got ${JSON.stringify(change.authMode)}` }]);
  }
  const state = await context.stores.state();
  if (change !== undefined && "mcp" in change) await state.setMcp(change.mcp);
  if (change !== undefined && "authMode" in change) await state.setAuthMode(change.authMode as AuthMode);
  return success(await state.settings());
}

function isAuthMode(text: string): text is AuthMode {
  return (AUTH_MODES as readonly string[]).includes(text);
}
