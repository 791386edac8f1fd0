import type { PlaygroundApps } from "../../mcp/ui-extension.js";
import { apiRequestTool } from "../../mcp/api-request-tool.js";
import type { DocsRuntime } from "../../engine/runtime.js";
import { type WebAssets, webAssets } from "../web/assets.js";
import type { Relay, RelayDeps } from "./relay.js";

export interface PlaygroundAppsDeps {
  readonly runtime: DocsRuntime;
  /** The relay's DNS lookup and limits (tests map names to loopback, use small limits), and its places (shared with the HTTP route). */
  readonly relay?: Pick<RelayDeps, "lookup" | "limits" | "places">;
  readonly assets?: WebAssets;
}

/**
 * API pages' playgrounds as MCP Apps (`src/mcp/ui-extension.ts`): each page's app
 * document, and the same relay as `POST /_svc/api/request`, both as the caller's reader. The
 * document's module (the page HTML, Markdown rendering) loads with the first app asked for.
 */
export function playgroundApps(deps: PlaygroundAppsDeps): PlaygroundApps {
  const { runtime } = deps;
  // The relay's module (Hono, the address policy) loads with the first request sent through it:
  // a stdio server offers the apps from its start, and most sessions never send one.
  let relay: Promise<Relay> | undefined;
  const relayOf = (): Promise<Relay> =>
    (relay ??= import("./relay.js").then(({ createRelay }) => createRelay({ lookupPage: (path, context) => runtime.apiPage(path, context), ...deps.relay })));
  const assets = deps.assets ?? webAssets();
  return {
    html: async (pagePath, context) => (await import("./app-document.js")).appDocument(runtime, assets, pagePath, context, apiRequestTool.name(runtime.names)),
    relay: async (input, context, bytes, signal) => (await relayOf()).send(input, context, bytes, signal),
  };
}
