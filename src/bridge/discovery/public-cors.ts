import { PATHS } from "../urls.js";

/**
 * The discovery documents: what a client reads before it connects (`/.well-known/mcp`, the
 * server cards, the catalog and its AI-catalog twin, the Agent Skills index and each skill).
 * They are public (each shows its reader's share: anonymous, or a bearer token's), and
 * browser-based clients read them from their own origin: any origin may, with
 * `Access-Control-Allow-Origin: *`. A bearer token is sent in a header, never by the browser on
 * its own (no cookie reaches these), so no page can read through a visitor's credentials.
 */
const DOCUMENTS: ReadonlySet<string> = new Set([
  PATHS.wellKnownMcp,
  PATHS.serverCard,
  PATHS.authedServerCard,
  PATHS.wellKnownServerCard,
  PATHS.serverCardJson,
  PATHS.wellKnownMcpJson,
  PATHS.serverCards,
  PATHS.mcpCatalog,
  PATHS.aiCatalog,
  PATHS.agentSkillsIndex,
]);

export function isDiscoveryDocument(path: string): boolean {
  return DOCUMENTS.has(path) || (path.startsWith(`${PATHS.agentSkills}/`) && path.endsWith("/SKILL.md"));
}

/** On every answer of a discovery document, errors included (a client may read why); `ETag` readable, for revalidation. */
export const DISCOVERY_CORS_HEADERS: Readonly<Record<string, string>> = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "ETag" };

/** The answer to a CORS preflight of a discovery document (a `GET` with `Authorization`, for a token's share). */
export const DISCOVERY_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Accept, If-None-Match",
  "Access-Control-Max-Age": "600",
};
