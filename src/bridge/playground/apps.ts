import type { PlaygroundApps } from "../../tools/mcp/ui-extension.js";
import { apiRequestTool } from "../../tools/mcp/api-request-tool.js";
import type { DocsRuntime } from "../../tools/runtime.js";
import { type WebAssets, webAssets } from "../web/assets.js";
import { createRelay, type RelayDeps } from "./relay.js";

export interface PlaygroundAppsDeps {
  readonly runtime: DocsRuntime;
  /** The relay's DNS lookup and limits (tests map names to loopback, use small limits). */
  readonly relay?: Pick<RelayDeps, "lookup" | "limits">;
  readonly assets?: WebAssets;
}

/**
 * API pages' playgrounds as MCP Apps (`src/tools/mcp/ui-extension.ts`): each page's app
 * document, and the same relay as `POST /_svc/api/request`, both as the caller's reader. The
 * document's module (the page HTML, Markdown rendering) loads with the first app asked for.
 */
export function playgroundApps(deps: PlaygroundAppsDeps): PlaygroundApps {
  const { runtime } = deps;
  const relay = createRelay({ lookupPage: (path, context) => runtime.apiPage(path, context), ...deps.relay });
  const assets = deps.assets ?? webAssets();
  return {
    html: async (pagePath, context) => (await import("./app-document.js")).appDocument(runtime, assets, pagePath, context, apiRequestTool.name(runtime.names)),
    relay: (input, context, bytes) => relay.send(input, context, bytes),
  };
}
