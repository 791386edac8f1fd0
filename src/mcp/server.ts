import type { AuthInfo, Server, ServerCapabilities, ServerContext } from "@modelcontextprotocol/server";
import { ResourceNotFoundError } from "@modelcontextprotocol/server";
import { CheckedServer } from "./checked-server.js";
import { inputText, invalidParams } from "./issues.js";
import { changedLists, listFingerprints, listResources, toolText } from "./reader-lists.js";
import { readerDiagnostics } from "./reader-diagnostics.js";
import { callTool, listTools } from "./tool-calls.js";
import { type Diagnostic, formatDiagnostic } from "../config/diagnostic.js";
import { readablePage, readerOutline, sameOutlineBasis, type SiteOutline } from "../vfs/outline.js";
import type { RequestContext } from "../vfs/request-context.js";
import { serverInstructions } from "../engine/instructions.js";
import type { DocsRuntime, ReaderState } from "../engine/runtime.js";
import { CORE_TOOLS } from "./tools.js";
import { RESULT_TTL_MS } from "./provenance.js";
import { SKILLS_EXTENSION_ID, readSkillFile, serveSkills } from "./skills-extension.js";
import type { DocsTool } from "./tool.js";
import { apiRequestTool } from "./api-request-tool.js";
import { type PlaygroundApps, appResources, readApp, rendersApps, requestCapabilities } from "./ui-extension.js";
import { VERSION } from "../version.js";
import { siteTitle } from "../engine/tool-names.js";

/**
 * The context of one request, from what its transport handed over: the HTTP bridge builds a
 * context per HTTP request (reader from the bearer token, the auth setting read then) and passes
 * it in `authInfo`, the one per-request channel of the SDK's transports.
 */
export type ContextSource = (authInfo: AuthInfo | undefined) => RequestContext;

export interface McpServerOptions {
  readonly runtime: DocsRuntime;
  /**
   * The context of the request that opens the session: its reader and auth setting decide the
   * instructions `initialize` answers with (they are sent once), and, without `contextOf`, every
   * later request's (stdio: one local reader for the whole session).
   */
  readonly context: RequestContext;
  /** Each request's own context: a change of groups or auth setting applies at the next request. */
  readonly contextOf?: ContextSource;
  /** Tools to offer (default: search and the filesystem shell). */
  readonly tools?: readonly DocsTool[];
  /** Label for the endpoint (`stdio`, `mcp`, `authed`), passed to tools. */
  readonly endpoint?: string;
  readonly version?: string;
  /**
   * Send reload diagnostics to the client as log messages (default true). They name files,
   * restricted ones included, so only a local author's server (stdio) may send them; the HTTP
   * bridge turns them off.
   */
  readonly forwardDiagnostics?: boolean;
  /** `capabilities.extensions` (SEP-2133): the extensions this endpoint implements, by identifier. */
  readonly extensions?: NonNullable<ServerCapabilities["extensions"]>;
  /**
   * Send this instance's own list_changed notifications on site changes (default true): a stdio
   * connection lives long enough to hear them (resources on every change, tools when the
   * opening reader's lists, readable pages, names or filters change). Over HTTP the bridge announces changes itself,
   * on each open stream as its own reader's lists changed, after checking its token again
   * (`NotificationStreams`), in both generations.
   */
  readonly live?: boolean;
  /**
   * API pages' playgrounds as MCP Apps (the `io.modelcontextprotocol/ui` extension): offered to a
   * request whose client declares it renders them, with the app's own tool; unset, none at all.
   */
  readonly apps?: PlaygroundApps;
  /**
   * Called after each `tools/list` answer is sent: work a client's next calls need but its first
   * answers do not (loading the shell) waits for it (`serve` over stdio).
   */
  readonly afterToolsList?: () => void;
}

export interface DocsMcpServer {
  readonly server: Server;
  /** Stop listening to site changes (call when the transport closes). */
  readonly close: () => void;
}

/** What a 2026-07-28 client may cache a list or a skill for: a reload changes them, and list_changed says so. The same figure as a tool result's provenance. */
const CACHE_HINT = { ttlMs: RESULT_TTL_MS, cacheScope: "private" } as const;

/**
 * An MCP server over the live runtime. Built on the low-level `Server` so odd params are
 * InvalidParams errors naming the member, a bad tool argument a tool error result naming the
 * argument (`tool-calls.ts`), and tool names follow the site name as it changes. Every handler works from its request's
 * context: what a request reads, lists and is told is its reader's, never another's.
 */
// long: one server's handlers and its live notices share the reader and the tool table; split, each would take them all
export function createMcpServer(options: McpServerOptions): DocsMcpServer {
  const { runtime } = options;
  const opening = options.context;
  const contextOf: ContextSource = options.contextOf ?? (() => opening);
  const forwardDiagnostics = options.forwardDiagnostics ?? true;
  const given = options.tools ?? CORE_TOOLS;
  // The apps' Send tool comes with the apps (the bridge's table already holds it, for its budgets).
  const tools = options.apps !== undefined && !given.some((t) => t.key === apiRequestTool.key) ? [...given, apiRequestTool] : given;
  const keys = new Set<string>();
  for (const t of tools) {
    if (keys.has(t.key)) throw new Error(`duplicate tool ${t.key}`);
    keys.add(t.key);
  }
  const endpoint = options.endpoint ?? "stdio";
  const openingState = runtime.readerState(opening);
  const server = new CheckedServer(
    serverIdentity(runtime, options.version),
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true },
        logging: {},
        // The Skills extension (SEP-2640) on every endpoint, beside what the endpoint adds.
        extensions: { ...options.extensions, [SKILLS_EXTENSION_ID]: {} },
      },
      instructions: serverInstructions(runtime.site, runtime.names, runtime.baseUrl, openingState.outline),
      cacheHints: {
        "tools/list": CACHE_HINT,
        "resources/list": CACHE_HINT,
        "resources/templates/list": CACHE_HINT,
        "resources/read": CACHE_HINT,
        "server/discover": CACHE_HINT,
      },
    },
  );
  /** The request's context and its reader's state. */
  const readerOf = (ctx: ServerContext): { request: RequestContext; state: ReaderState } => {
    const request = contextOf(ctx.http?.authInfo);
    return { request, state: runtime.readerState(request) };
  };

  /** The playground apps, for a request whose client renders MCP Apps (declared per request in 2026-07-28, per session before). */
  const appsOf = (ctx: ServerContext): PlaygroundApps | undefined => (options.apps !== undefined && rendersApps(requestCapabilities(server, ctx)) ? options.apps : undefined);

  server.setRequestHandler("tools/list", async (request, ctx) => {
    refuseCursor("tools/list", request.params?.cursor);
    const listed = { tools: listTools(tools, toolText(runtime, readerOf(ctx).state), appsOf(ctx) !== undefined) };
    // The answer is written before the event loop's next turn (stdout writes to a pipe are synchronous).
    if (options.afterToolsList !== undefined) setImmediate(options.afterToolsList);
    return listed;
  });

  server.setRequestHandler("tools/call", async (request, ctx) => {
    const { request: context, state } = readerOf(ctx);
    const apps = appsOf(ctx);
    // `Server` checks the result against the protocol's schema: a malformed one is our bug.
    return callTool(tools, runtime.names, request.params.name, request.params.arguments, { runtime, request: context, state, endpoint, signal: callSignal(ctx, context), ...(apps !== undefined ? { apps } : {}) });
  });

  server.setRequestHandler("resources/list", async (request, ctx) => {
    refuseCursor("resources/list", request.params?.cursor);
    const { request: context, state } = readerOf(ctx);
    // The reader's apps after their skills, for a client that renders them; any other sees the list as it was.
    return { resources: [...listResources(state), ...(appsOf(ctx) !== undefined ? appResources(runtime, context) : [])] };
  });

  // We serve no templated resources; a client that asks is told so with an empty list.
  server.setRequestHandler("resources/templates/list", async (request) => {
    refuseCursor("resources/templates/list", request.params?.cursor);
    return { resourceTemplates: [] };
  });

  server.setRequestHandler("resources/read", async (request, ctx) => {
    const { request: context, state } = readerOf(ctx);
    const apps = appsOf(ctx);
    if (apps !== undefined) {
      const app = await readApp(runtime, apps, request.params.uri, context);
      if (app !== undefined) return app;
    }
    const skill = state.skills.find((s) => s.uri === request.params.uri);
    if (skill === undefined) {
      const file = await readSkillFile(request.params.uri, { runtime, request: context }, state);
      if (file !== undefined) return file;
      // Same answer for a missing and a restricted skill or app (and for an app asked by a client
      // that does not render them): a restricted one must not be confirmed.
      // -32602 with the uri in `data`, as 2026-07-28 asks (2025 clients read the same code).
      throw new ResourceNotFoundError(request.params.uri);
    }
    return { contents: [{ uri: skill.uri, mimeType: "text/markdown", text: skill.file.text }] };
  });

  serveSkills(server, (ctx) => {
    const { request: context, state } = readerOf(ctx);
    return { state, docs: { runtime, request: context } };
  });

  // Tool descriptions name the reader's versions and languages, which a reload can change.
  const filtersOf = (outline: SiteOutline): string => JSON.stringify([outline.versions, outline.defaultVersion, outline.languages]);
  let filters = filtersOf(openingState.outline);
  if (options.live === false) return { server, close: () => {} };
  // The opening reader's lists as last announced: told `list_changed` only when theirs changed,
  // as over HTTP (an edit of a page they may not read tells them nothing: adversary round 11 F3).
  // Over stdio the pages the reader may read count too (a page added or withdrawn is news to a
  // local author's client, as before); a page they may not read does not.
  const appsListed = options.apps !== undefined;
  const readerPages = (site: typeof runtime.site): string => JSON.stringify([...site.pages.keys()].filter(readablePage(site, opening)));
  /** The site's findings this reader may be sent, by the line sent. */
  const readerFindings = (site: typeof runtime.site): Map<string, Diagnostic> => new Map(readerDiagnostics(site, opening, site.diagnostics).map((d) => [formatDiagnostic(d), d]));
  // What the reader stands told of: the findings standing when they connected count as told
  // (they were logged then, on stderr), as before.
  let told = new Set(forwardDiagnostics ? readerFindings(runtime.site).keys() : []);
  let lists = listFingerprints(runtime, tools, opening, appsListed);
  // The pages as last announced: the snapshot of now, listed when a reload first compares it (the
  // list of a 25,000-page site's paths was ~30 ms of the main thread before a stdio server's first answer).
  let pages: string | typeof runtime.site = runtime.site;
  const unsubscribe = runtime.onChange((change) => {
    // Notifications are best-effort: a client that went away must not break the reload.
    const ignore = (): void => {};
    const nowLists = listFingerprints(runtime, tools, opening, appsListed);
    // No page came, went or changed readers (a save of text): the reader's pages are those last
    // announced, not listed again (twice ~35 ms a save at 25,000 pages).
    const samePages = change.site === runtime.site && sameOutlineBasis(change.previous, change.site);
    const nowPages = samePages ? pages : readerPages(runtime.site);
    const changed = changedLists(lists, nowLists);
    const pagesChanged = !samePages && nowPages !== (typeof pages === "string" ? pages : readerPages(pages));
    lists = nowLists;
    pages = nowPages;
    if (changed.resources || pagesChanged) void server.sendResourceListChanged().catch(ignore);
    // The reader's state of this site has its outline (made for the lists above): a 25,000-page
    // site's outline is ~0.4 s of the thread answering every caller, once per save is enough.
    const now = filtersOf(change.site === runtime.site ? runtime.readerState(opening).outline : readerOutline(change.site, opening));
    if (changed.tools || change.namesChanged || now !== filters) void server.sendToolListChanged().catch(ignore);
    filters = now;
    if (!forwardDiagnostics) return;
    // Only findings new to this reader: one they were sent and still stands is not sent again, so
    // an edit of a file they may not read (a staff page, an ignored draft) sends them nothing
    // (adversary round 12 F3: every such edit re-sent their standing warnings).
    const findings = readerFindings(change.site);
    for (const [line, d] of findings) {
      if (told.has(line)) continue;
      void server.sendLoggingMessage({ level: d.severity === "error" ? "error" : "warning", logger: "svc-mcp", data: line }).catch(ignore);
    }
    told = new Set(findings.keys());
  });
  server.onclose = () => unsubscribe();
  return { server, close: unsubscribe };
}

/** The server's name, title (the site's) and version: `initialize`'s `serverInfo`, and `_meta` of every 2026-07-28 result. */
export function serverIdentity(runtime: DocsRuntime, version: string = VERSION): { name: string; title: string; version: string } {
  return { name: "svc-mcp", title: siteTitle(runtime.site.config.name), version };
}

/**
 * Lists are one page: we never hand out a cursor, so any cursor is one we did not give
 * (the specification asks for InvalidParams).
 */
function refuseCursor(method: string, cursor: string | undefined): void {
  if (cursor !== undefined) throw invalidParams(`Invalid params for ${method}: cursor: not a cursor of this server (it lists everything at once and gives none) (got ${inputText(cursor)})`);
}

export { toolText };

/**
 * When a call is given up: the SDK aborts `mcpReq.signal` on `notifications/cancelled` and when
 * the transport closes (stdio's end, a session's DELETE); the HTTP request's own signal aborts
 * when its client disconnects, which no JSON-RPC message says (a 2025 session's POST), and the
 * bridge's `RequestContext.gone` as soon as the connection's end is read (a turn sooner).
 */
function callSignal(ctx: ServerContext, context: RequestContext): AbortSignal {
  const http = [ctx.http?.req?.signal, context.gone].filter((s): s is AbortSignal => s !== undefined);
  return http.length === 0 ? ctx.mcpReq.signal : AbortSignal.any([ctx.mcpReq.signal, ...http]);
}
