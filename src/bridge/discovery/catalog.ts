import { siteTitle } from "../../engine/tool-names.js";
import type { BridgeDeps } from "../context.js";
import type { BridgeUrls } from "../urls.js";
import { SERVER_CARD_TYPE, serverName } from "./server-card.js";

interface CatalogEntry {
  readonly identifier: string;
  readonly displayName: string;
  readonly type: typeof SERVER_CARD_TYPE;
  readonly url: string;
}

export interface Catalog {
  readonly specVersion: string;
  readonly entries: readonly CatalogEntry[];
}

/**
 * The site's catalog of server cards (`/.well-known/mcp/catalog.json`, and the same document at
 * `/.well-known/ai-catalog.json`, where the extension's draft now points clients): one entry per
 * MCP endpoint, none while the server is disabled. It names no tool and no page, so it is the
 * same for every reader. `displayName` is kept from the catalog's first draft, which required it.
 */
export function serverCatalog(deps: BridgeDeps, urls: BridgeUrls, available: boolean): Catalog {
  const name = deps.runtime.site.config.name;
  const host = new URL(urls.origin).hostname.replace(/^\[|\]$/g, "");
  const entry = (endpoint: "mcp" | "authed", url: string, displayName: string): CatalogEntry => ({
    identifier: `urn:air:${host}:mcp:${serverName(urls, name, endpoint).split("/")[1] ?? ""}`,
    displayName,
    type: SERVER_CARD_TYPE,
    url,
  });
  return {
    specVersion: "1.0",
    entries: available ? [entry("mcp", urls.serverCard, siteTitle(name)), entry("authed", urls.authedServerCard, `${siteTitle(name)} (signed in)`)] : [],
  };
}
