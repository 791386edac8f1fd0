import { projectIdFromName } from "../store/state-dir.js";
import { SERVED_PROTOCOL_VERSIONS } from "../mcp/protocol-versions.js";
import { ANONYMOUS } from "../vfs/access.js";
import { mcpAvailable } from "./middleware/access-policy.js";
import { connectOptions } from "./connect-options.js";
import type { BridgeDeps } from "./context.js";
import { bridgeContext } from "./middleware/request-context.js";
import { toolText } from "../mcp/server.js";
import type { BridgeUrls } from "./urls.js";
import { siteTitle } from "../engine/tool-names.js";

/**
 * `GET /.well-known/mcp`: what this server is and how to connect, for tools and people that
 * find the docs site first. Only public facts: tool names, the anonymous reader's resources.
 */
export async function describeServer(deps: BridgeDeps, urls: BridgeUrls): Promise<Record<string, unknown>> {
  const { runtime } = deps;
  const settings = await deps.state.settings();
  // What an anonymous visitor is shown, under the auth setting read for this request.
  const state = runtime.readerState(bridgeContext(settings, ANONYMOUS, deps.now));
  const text = toolText(runtime, state);
  const config = runtime.site.config;
  const names = runtime.names;
  const available = mcpAvailable(settings);
  const publicUrl = settings.authMode === "public" ? urls.mcp : urls.authedMcp;
  return {
    name: "svc-mcp",
    title: siteTitle(config.name),
    version: deps.version,
    ...(config.description !== undefined ? { description: config.description } : {}),
    documentation: runtime.baseUrl,
    protocolVersions: SERVED_PROTOCOL_VERSIONS,
    siteAuth: settings.authMode,
    available,
    endpoints: [
      { url: urls.mcp, transport: "streamable-http", authentication: "none", content: "public pages" },
      {
        url: urls.authedMcp,
        transport: "streamable-http",
        authentication: "oauth2",
        content: "pages of the signed-in user's groups (client credentials: every page)",
        protectedResourceMetadata: urls.protectedResourceMetadata,
        authorizationServer: urls.issuer,
        tokenEndpoint: urls.token,
        scopes: ["mcp:search"],
      },
    ],
    tools: deps.tools.filter((t) => t.app !== true).map((t) => ({ name: t.name(names), title: t.title(text) })),
    resources: available ? state.skills.map((s) => ({ uri: s.uri, name: s.name })) : [],
    discovery: { serverCards: [urls.serverCard, urls.authedServerCard], catalog: urls.mcpCatalog, agentSkills: urls.agentSkillsIndex },
    connect: Object.fromEntries(connectOptions(publicUrl, projectIdFromName(config.name)).map((o) => [o.id, o.value])),
  };
}
