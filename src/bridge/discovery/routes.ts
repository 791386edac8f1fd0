import type { Hono } from "hono";
import { publishedSkills } from "../../engine/use-cases/published-skills.js";
import { ANONYMOUS } from "../../vfs/access.js";
import type { RequestContext } from "../../vfs/request-context.js";
import { mcpAvailable } from "../middleware/access-policy.js";
import { type BridgeContext, type BridgeDeps, type BridgeEnv, urlsFor } from "../context.js";
import { errorForPath } from "../middleware/origin-policy.js";
import { bearerContextOf, bridgeContext } from "../middleware/request-context.js";
import type { SiteSettings } from "../../store/state/state-store.js";
import { PATHS } from "../urls.js";
import { agentSkillsIndex } from "./agent-skills.js";
import { REVALIDATE_HEADERS, entityTag, matchesIfNoneMatch } from "../middleware/entity-tag.js";
import { serverCatalog } from "./catalog.js";
import { SERVER_CARD_TYPE, serverCard } from "./server-card.js";
import type { Endpoint } from "../mcp/sessions.js";

/**
 * Each answer is one reader's (a bearer token's, else anonymous) under the auth setting read for
 * the request: a change of groups or setting shows at once, so nothing may keep a copy.
 */
const NO_STORE = { "Cache-Control": "no-store" };

/**
 * Discovery before connecting: a server card per MCP endpoint (`/mcp/server-card`,
 * `/authed/mcp/server-card`), the catalog naming them, and the Agent Skills index with each
 * skill's `SKILL.md`. What a card and the skills show is the request's reader's: a valid bearer
 * token's groups, else an anonymous reader's. Everything answers GET and HEAD only.
 */
export function mountDiscovery(app: Hono<BridgeEnv>, deps: BridgeDeps): void {
  const readerContext = bearerContextOf(deps.state, deps.publicUrl, deps.now);
  const get = (handler: (c: BridgeContext) => Promise<Response>) => async (c: BridgeContext) =>
    c.req.method === "GET" || c.req.method === "HEAD"
      ? handler(c)
      : errorForPath(c.req.path, 405, "method_not_allowed", `${c.req.method} is not allowed here; use GET`, { Allow: "GET, HEAD" });
  const disabled = (c: BridgeContext): Response =>
    errorForPath(c.req.path, 403, "mcp_disabled", `The MCP server of the ${deps.runtime.site.config.name} documentation is not enabled`);

  const anonymous = async (): Promise<RequestContext> => bridgeContext(await deps.state.settings(), ANONYMOUS, deps.now);
  const contextFor = (endpoint: Endpoint, c: BridgeContext): Promise<RequestContext> => (endpoint === "mcp" ? anonymous() : readerContext(c.req.raw));
  const cardResponse = (body: unknown, type: string): Response => new Response(JSON.stringify(body), { headers: { "Content-Type": type, ...NO_STORE } });
  const card = (endpointOf: (settings: SiteSettings) => Endpoint) =>
    get(async (c) => {
      const settings = await deps.state.settings();
      const endpoint = endpointOf(settings);
      const context = await contextFor(endpoint, c);
      if (!mcpAvailable(settings)) return disabled(c);
      return cardResponse(serverCard(deps, urlsFor(deps, c), endpoint, context), SERVER_CARD_TYPE);
    });
  // `/mcp` is anonymous whatever the request carries; `/authed/mcp`'s card is its token's reader's.
  app.all(PATHS.serverCard, card(() => "mcp"));
  app.all(PATHS.serverCardJson, card(() => "mcp"));
  app.all(PATHS.authedServerCard, card(() => "authed"));
  // The site's main card, where scanners look first: the endpoint `/.well-known/mcp` tells clients to connect to.
  const main = card((settings) => (settings.authMode === "public" ? "mcp" : "authed"));
  app.all(PATHS.wellKnownServerCard, main);
  app.all(PATHS.wellKnownMcpJson, main);
  // Every card at once, as aggregators read them: an array, in the catalog's order.
  app.all(
    PATHS.serverCards,
    get(async (c) => {
      const authed = await readerContext(c.req.raw);
      if (!mcpAvailable(await deps.state.settings())) return disabled(c);
      const urls = urlsFor(deps, c);
      return cardResponse([serverCard(deps, urls, "mcp", await anonymous()), serverCard(deps, urls, "authed", authed)], "application/json");
    }),
  );

  const catalog = get(async (c) => c.json(serverCatalog(deps, urlsFor(deps, c), mcpAvailable(await deps.state.settings())), 200, NO_STORE));
  app.all(PATHS.mcpCatalog, catalog);
  app.all(PATHS.aiCatalog, catalog);

  // Skills are MCP resources: a disabled server lists none, as `/.well-known/mcp` does.
  const skillsOf = async (c: BridgeContext) => {
    const context = await readerContext(c.req.raw);
    return mcpAvailable(await deps.state.settings()) ? publishedSkills({ runtime: deps.runtime, request: context }) : [];
  };
  app.all(PATHS.agentSkillsIndex, get(async (c) => c.json(agentSkillsIndex(await skillsOf(c), urlsFor(deps, c)), 200, NO_STORE)));
  app.all(`${PATHS.agentSkills}/:name/SKILL.md`, get(async (c) => {
    const name = c.req.param("name");
    const skill = (await skillsOf(c)).find((s) => s.name === name);
    // A restricted skill is answered exactly like one that does not exist.
    if (skill === undefined) return errorForPath(c.req.path, 404, "not_found", `no skill named ${JSON.stringify(name)}; see ${PATHS.agentSkillsIndex}`);
    // Validated, not stored blind: the ETag is of this reader's bytes, so a client may keep its copy and ask again cheaply.
    const tag = entityTag(skill.sha256);
    const headers = { ETag: tag, ...REVALIDATE_HEADERS };
    if (matchesIfNoneMatch(c.req.header("if-none-match"), tag)) return new Response(null, { status: 304, headers });
    return new Response(skill.text, { headers: { "Content-Type": "text/markdown; charset=utf-8", ...headers } });
  }));
}
