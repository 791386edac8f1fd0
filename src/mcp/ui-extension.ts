import { EXTENSION_ID, RESOURCE_MIME_TYPE, getUiCapability } from "@modelcontextprotocol/ext-apps/server";
import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities, type ReadResourceResult, type Resource, type Server, type ServerContext } from "@modelcontextprotocol/server";
import { readerApiPage } from "../vfs/outline.js";
import { compareBytes } from "../vfs/view.js";
import type { RequestContext } from "../vfs/request-context.js";
import type { DocsRuntime } from "../engine/runtime.js";

/** The MCP Apps extension (SEP-1865), as clients declare it in `capabilities.extensions`. */
export const UI_EXTENSION_ID = EXTENSION_ID;
/** The MIME type of an MCP App's HTML document (`text/html;profile=mcp-app`). */
export const APP_MIME_TYPE = RESOURCE_MIME_TYPE;

const APP_SCHEME = "ui://";

/** The relay's answer to one request: its HTTP status and its JSON body (docs/api-reference.md). */
export interface RelayAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * What an adapter gives the MCP server to offer API pages' playgrounds as MCP Apps: the app
 * document of a page, and the relay its requests go through. Both decide as `context`'s reader.
 */
export interface PlaygroundApps {
  /** The app's HTML document for an API operation page `context` may read; undefined for any other page. */
  readonly html: (pagePath: string, context: RequestContext) => Promise<string | undefined>;
  /**
   * Send a playground request (the relay's JSON body, `bytes` long as JSON) as `context`'s
   * reader; `signal` aborting (the call cancelled, its connection closed) stops it upstream.
   */
  readonly relay: (input: unknown, context: RequestContext, bytes: number, signal?: AbortSignal) => Promise<RelayAnswer>;
}

/** True when the client declared the extension for MCP Apps' HTML (`mimeTypes` holds `text/html;profile=mcp-app`). */
export function rendersApps(capabilities: ClientCapabilities | undefined): boolean {
  return getUiCapability(capabilities)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
}

/**
 * The capabilities the client declared for this request: a 2026-07-28 request carries them in its
 * own `_meta`; a 2025 session declared them once, in `initialize`.
 */
export function requestCapabilities(server: Server, ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as { readonly [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined;
  // `getClientCapabilities` is marked deprecated for 2026-07-28 requests only: for a 2025 session it is the one source.
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities();
}

/** `ui://<site>/playground/<page path>`: the app of an API operation page. */
export function appUri(runtime: DocsRuntime, pagePath: string): string {
  return `${APP_SCHEME}${runtime.names.slug}/playground${encodeURI(pagePath)}`;
}

/** The page path an app URI names, or undefined for a URI that is no app of this site. */
function appPage(runtime: DocsRuntime, uri: string): string | undefined {
  const prefix = `${APP_SCHEME}${runtime.names.slug}/playground/`;
  if (!uri.startsWith(prefix)) return undefined;
  try {
    return decodeURI(uri.slice(prefix.length - 1));
  } catch {
    return undefined;
  }
}

/** True for a page that documents an API operation `context` may read (a webhook or channel has no playground). */
export function hasApp(runtime: DocsRuntime, pagePath: string, context: RequestContext): boolean {
  return runtime.apiPage(pagePath, context)?.kind === "operation";
}

/**
 * The app resources of `context`'s reader, in the site's order of API pages: one per operation
 * page they may read, and none for any other (a restricted operation is never named).
 */
export function appResources(runtime: DocsRuntime, context: RequestContext): Resource[] {
  const api = runtime.site.api;
  if (api === undefined) return [];
  const out: Resource[] = [];
  // The page each path gives this reader: a generated page behind a file they may not read, too.
  // Generated pages in the plan's order, then the authored pages documenting one in path order:
  // one behind another at its path (`SiteApi.hidden`) among them, so that the list a reader gets
  // is the same whether a page they may not read stands before theirs (adversary round 47 F3).
  const authored = [...api.pages.keys(), ...[...(api.hidden?.pages.values() ?? [])].map((info) => info.pagePath)].sort(compareBytes);
  for (const pagePath of new Set([...api.plan.order, ...authored])) {
    const found = readerApiPage(runtime.site, context, pagePath);
    if (found === undefined || found.info.kind !== "operation") continue;
    const { page, info } = found;
    const title = page.title;
    out.push({
      uri: appUri(runtime, pagePath),
      name: pagePath,
      title: `${title} playground`,
      description: `Try ${info.method} ${info.path} from the page ${pagePath}: the page's form and answer view, sent through the docs server's relay.`,
      mimeType: APP_MIME_TYPE,
    });
  }
  return out;
}

/** `resources/read` of an app `context`'s reader may open; undefined for any other URI (the caller answers "not found"). */
export async function readApp(runtime: DocsRuntime, apps: PlaygroundApps, uri: string, context: RequestContext): Promise<ReadResourceResult | undefined> {
  const pagePath = appPage(runtime, uri);
  if (pagePath === undefined || !hasApp(runtime, pagePath, context)) return undefined;
  const html = await apps.html(pagePath, context);
  if (html === undefined) return undefined;
  // No `csp`: the document loads nothing and connects nowhere (its requests are tool calls), so the host's strictest default fits it.
  return { contents: [{ uri, mimeType: APP_MIME_TYPE, text: html, _meta: { ui: { prefersBorder: true } } }] };
}
