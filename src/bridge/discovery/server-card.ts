import { isIP } from "node:net";
import type { Tool } from "@modelcontextprotocol/server";
import { SERVED_PROTOCOL_VERSIONS } from "../../mcp/protocol-versions.js";
import { projectIdFromName } from "../../store/state-dir.js";
import { toolText } from "../../mcp/server.js";
import { listTools } from "../../mcp/tool-calls.js";
import { siteTitle } from "../../engine/tool-names.js";
import { readerStateOf } from "../../engine/use-cases/docs-context.js";
import type { RequestContext } from "../../vfs/request-context.js";
import type { Endpoint } from "../mcp/sessions.js";
import type { BridgeDeps } from "../context.js";
import type { BridgeUrls } from "../urls.js";

/** The schema a card names (the experimental server-card extension's `v1` family). */
export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
/** The card's media type: the type of catalog entries, and the card's `Content-Type`. */
export const SERVER_CARD_TYPE = "application/mcp-server-card+json";

/** The card schema's bounds on `description` and `title`. */
const MAX_TEXT = 100;

/** One remote of a card: where to connect, with what, in which protocol versions. */
interface Remote {
  readonly type: "streamable-http";
  readonly url: string;
  readonly headers?: readonly { name: string; description: string; isRequired: boolean; isSecret: boolean }[];
  readonly supportedProtocolVersions: readonly string[];
}

export interface ServerCard {
  readonly $schema: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly title: string;
  readonly websiteUrl: string;
  readonly remotes: readonly Remote[];
  /**
   * The tools as `tools/list` gives them to this card's reader (schemas, annotations). Not in the
   * extension's schema, which leaves primitives to runtime listing; its objects are open, and the
   * hosted platform's cards carry them, so clients can show what a server offers before connecting.
   */
  readonly tools: readonly Tool[];
}

/**
 * The server card of one MCP endpoint (`/mcp` or `/authed/mcp`), as the context's reader sees
 * it: the tools are described with their versions and languages, never another reader's.
 */
export function serverCard(deps: BridgeDeps, urls: BridgeUrls, endpoint: Endpoint, context: RequestContext): ServerCard {
  const { runtime } = deps;
  const config = runtime.site.config;
  const authed = endpoint === "authed";
  const title = siteTitle(config.name);
  const description = config.description ?? `Search and read the ${title} as an AI assistant.`;
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: serverName(urls, config.name, endpoint),
    version: deps.version,
    description: clip(description),
    title: clip(authed ? `${title} (signed in)` : title),
    websiteUrl: runtime.baseUrl,
    remotes: [
      {
        type: "streamable-http",
        url: authed ? urls.authedMcp : urls.mcp,
        ...(authed
          ? { headers: [{ name: "Authorization", description: "An OAuth 2.1 bearer token from this server's authorization server (see its protected resource metadata).", isRequired: true, isSecret: true }] }
          : {}),
        supportedProtocolVersions: SERVED_PROTOCOL_VERSIONS,
      },
    ],
    tools: listTools(deps.tools, toolText(runtime, readerStateOf({ runtime, request: context }))),
  };
}

/**
 * `example.nimbus.docs/nimbus-storage` (`-authed` for `/authed/mcp`): the card schema's
 * reverse-DNS name, from the public origin's host (an IP address as it is) and the site's project id.
 */
export function serverName(urls: BridgeUrls, siteName: string, endpoint: Endpoint): string {
  const hostname = new URL(urls.origin).hostname;
  // A name is reversed (docs.nimbus.example -> example.nimbus.docs); an address is not one.
  const address = isIP(hostname.replace(/^\[|\]$/g, "")) !== 0;
  const host = hostname.replace(/^\[|\]$/g, "").replace(/[^a-zA-Z0-9.-]/g, "-");
  const reversed = address ? host : host.split(".").reverse().join(".");
  return `${reversed}/${projectIdFromName(siteName)}${endpoint === "authed" ? "-authed" : ""}`;
}

function clip(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1).trimEnd()}…`;
}
