/** The bridge's public paths. `/mcp` and `/authed/mcp` are reserved (spec "MCP server"). */
export const PATHS = {
  mcp: "/mcp",
  authedMcp: "/authed/mcp",
  oauth: "/authed/mcp/oauth",
  token: "/authed/mcp/oauth/token",
  authorize: "/authed/mcp/oauth/authorize",
  register: "/authed/mcp/oauth/register",
  revoke: "/authed/mcp/oauth/revoke",
  /** RFC 9728 3.1: the well-known segment goes between the host and the resource's path. */
  protectedResource: "/.well-known/oauth-protected-resource/authed/mcp",
  /** RFC 8414 3.1: likewise for the issuer `/authed/mcp/oauth`. */
  authorizationServer: "/.well-known/oauth-authorization-server/authed/mcp/oauth",
  wellKnownMcp: "/.well-known/mcp",
  /** Server cards (the MCP server-card extension reserves `<streamable-http-url>/server-card`). */
  serverCard: "/mcp/server-card",
  authedServerCard: "/authed/mcp/server-card",
  /**
   * Where the hosted platform and discovery scanners also look for cards (earlier drafts of the
   * server-card proposal, SEP-1649): the site's main card at the first three, every card this
   * reader may use at the last, the same content as the cards above.
   */
  wellKnownServerCard: "/.well-known/mcp/server-card.json",
  serverCardJson: "/mcp/server-card.json",
  wellKnownMcpJson: "/.well-known/mcp.json",
  serverCards: "/.well-known/mcp/server-cards.json",
  /** The MCP catalog of the site's server cards, and the same document as an AI catalog. */
  mcpCatalog: "/.well-known/mcp/catalog.json",
  aiCatalog: "/.well-known/ai-catalog.json",
  /** Agent Skills discovery (0.2.0): the index, and each skill at `<prefix>/<name>/SKILL.md`. */
  agentSkills: "/.well-known/agent-skills",
  agentSkillsIndex: "/.well-known/agent-skills/index.json",
} as const;

/** The scope every token carries (spec "Token response"). */
export const MCP_SCOPE = "mcp:search";

/** Absolute URLs for one public origin (`--public-url`, or the origin a request came to). */
export interface BridgeUrls {
  readonly origin: string;
  readonly mcp: string;
  readonly authedMcp: string;
  /** RFC 8707 resource indicator of `/authed/mcp` (what tokens are for). */
  readonly resource: string;
  readonly issuer: string;
  readonly token: string;
  readonly authorize: string;
  readonly register: string;
  readonly revoke: string;
  readonly protectedResourceMetadata: string;
  readonly authorizationServerMetadata: string;
  readonly wellKnownMcp: string;
  readonly serverCard: string;
  readonly authedServerCard: string;
  readonly mcpCatalog: string;
  readonly agentSkillsIndex: string;
  /** `<origin>/.well-known/agent-skills/<name>/SKILL.md`. */
  readonly agentSkill: (name: string) => string;
}

export function bridgeUrls(origin: string): BridgeUrls {
  const o = origin.replace(/\/+$/, "");
  return {
    origin: o,
    mcp: o + PATHS.mcp,
    authedMcp: o + PATHS.authedMcp,
    resource: o + PATHS.authedMcp,
    issuer: o + PATHS.oauth,
    token: o + PATHS.token,
    authorize: o + PATHS.authorize,
    register: o + PATHS.register,
    revoke: o + PATHS.revoke,
    protectedResourceMetadata: o + PATHS.protectedResource,
    authorizationServerMetadata: o + PATHS.authorizationServer,
    wellKnownMcp: o + PATHS.wellKnownMcp,
    serverCard: o + PATHS.serverCard,
    authedServerCard: o + PATHS.authedServerCard,
    mcpCatalog: o + PATHS.mcpCatalog,
    agentSkillsIndex: o + PATHS.agentSkillsIndex,
    agentSkill: (name) => `${o}${PATHS.agentSkills}/${name}/SKILL.md`,
  };
}
