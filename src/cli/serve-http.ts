import { mcpAvailable } from "../bridge/access-policy.js";
import { isLoopbackHost } from "../bridge/auth/redirect-domains.js";
import { createBridge, type ExtraRoutes } from "../bridge/bridge.js";
import { listen } from "../bridge/http-server.js";
import { CountersLimiter, parseRateLimits } from "../bridge/rate-limit.js";
import { bridgeUrls } from "../bridge/urls.js";
import { createFeedbackApp } from "../bridge/feedback/app.js";
import { createRelayApp } from "../bridge/playground/relay.js";
import { SiteSessions } from "../bridge/web/site-sessions.js";
import { createWebApp, siteContextOf } from "../bridge/web/web-app.js";
import type { FeedbackStore } from "../store/feedback/store.js";
import type { AdminKeyStore } from "../store/keys/key-store.js";
import type { StateStore } from "../store/state/state-store.js";
import { docsTools } from "../tools/mcp/tools.js";
import type { DocsRuntime } from "../tools/runtime.js";
import { plural } from "./diagnostics-summary.js";
import { CliError, type CliIO } from "./io.js";
import { describeProject, type ProjectArgs, projectStores, resolveProject } from "./project.js";

export interface HttpServeArgs extends ProjectArgs {
  readonly port: number;
  readonly host: string;
  readonly "public-url"?: string | undefined;
  readonly "trust-proxy": boolean;
  readonly "rate-limit"?: readonly string[] | undefined;
}

/**
 * `svc-mcp serve --http`: the bridge on a socket until SIGINT/SIGTERM. The site's auth mode, the
 * MCP toggle, accounts, credentials and redirect domains come from the state store (one source
 * of truth, changed by `svc-mcp mcp|users|credentials|redirect-domains` while this runs).
 * `onListening` runs once the socket accepts connections (serve starts fetching remote specs then).
 */
export async function serveHttp(args: HttpServeArgs, io: CliIO, runtime: DocsRuntime, log: (m: string) => void, onListening: () => void = () => {}): Promise<number> {
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) throw new CliError(`--port must be an integer from 0 to 65535; got ${args.port}`, 2);
  let publicUrl: string | undefined;
  if (args["public-url"] !== undefined) {
    const u = URL.canParse(args["public-url"]) ? new URL(args["public-url"]) : undefined;
    if (u === undefined || (u.protocol !== "http:" && u.protocol !== "https:") || u.pathname !== "/" || u.search !== "") {
      throw new CliError(`--public-url must be an origin such as https://docs.example.com; got ${JSON.stringify(args["public-url"])}`, 2);
    }
    publicUrl = u.origin;
  }
  const rateLimits = parseRateLimits(args["rate-limit"] ?? []);
  if (typeof rateLimits === "string") throw new CliError(rateLimits, 2);

  const project = await resolveProject(io, args, runtime.site.config.name);
  const stores = projectStores(project);
  let state: StateStore, feedback: FeedbackStore, keys: AdminKeyStore, counters;
  try {
    [state, feedback, keys, counters] = await Promise.all([stores.state(), stores.feedback(), stores.keys(), stores.counters()]);
  } catch (error) {
    await stores.close();
    throw error;
  }
  const settings = await state.settings();
  const host = args.host.replace(/^\[(.*)\]$/, "$1");
  const loopback = isLoopbackHost(host) || isLoopbackHost(`[${host}]`);
  // A loopback server answers only to loopback names (and its public name): DNS rebinding defence.
  const allowedHosts = loopback ? ["localhost", "127.0.0.1", "[::1]", ...(publicUrl !== undefined ? [new URL(publicUrl).hostname] : [])] : undefined;
  const tools = docsTools({ feedback: { store: feedback, projectId: project.id } });
  const bridge = createBridge({
    runtime,
    state,
    rateLimits,
    // Shared state shares the counters too: the limits hold across every process and instance.
    ...(counters !== undefined ? { limiter: new CountersLimiter(counters, rateLimits.windowMs) } : {}),
    log,
    tools,
    extraRoutes: siteRoutes({ runtime, state, feedback, keys, projectId: project.id, publicUrl, log }),
    trustProxy: args["trust-proxy"],
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(allowedHosts !== undefined ? { allowedHosts } : {}),
  });
  let server;
  try {
    server = await listen(bridge, { host, port: args.port });
  } catch (error) {
    await bridge.close();
    await stores.close();
    throw new CliError((error as Error).message, 1);
  }
  const urls = bridgeUrls(publicUrl ?? server.origin);
  log(`serving "${runtime.site.config.name}" (${plural(runtime.site.pages.size, "page")}) over HTTP on ${server.origin}; tools ${tools.map((t) => t.name(runtime.names)).join(", ")}`);
  log(`MCP (public):        ${urls.mcp}`);
  log(`MCP (authenticated): ${urls.authedMcp}`);
  log(`OAuth token:         ${urls.token}`);
  log(`Feedback API:        ${server.origin}/v1/analytics/${project.id}/feedback`);
  log(`Feedback dashboard:  ${server.origin}/_svc/dashboard`);
  log(`site auth ${settings.authMode}; MCP server ${mcpAvailable(settings) ? "enabled" : "disabled (svc-mcp mcp enable)"}; ${describeProject(project)}`);
  onListening();
  await io.stopSignal;
  await server.close();
  await bridge.close();
  // The feedback store commits anything still queued before it closes.
  await stores.close();
  return 0;
}

export interface SiteRoutesDeps {
  readonly runtime: DocsRuntime;
  readonly state: StateStore;
  readonly feedback: FeedbackStore;
  readonly keys: AdminKeyStore;
  readonly projectId: string;
  readonly publicUrl: string | undefined;
  readonly log: (message: string) => void;
}

/**
 * What `serve --http` mounts beside MCP and OAuth: the feedback API, the playground relay and the pages for people (API pages, sign-in, dashboard),
 * each charging its per-IP budget on the bridge's counters. The relay builds each request's
 * context (its bearer token's reader, the auth setting read for it), like the MCP endpoints.
 */
export function siteRoutes(deps: SiteRoutesDeps): ExtraRoutes[] {
  const { runtime, state, feedback, keys, projectId, publicUrl, log } = deps;
  // Site sign-ins (the pages' session cookie), shared by the pages and the relay.
  const sessions = new SiteSessions();
  return [
    (app, { budget }) => app.route("/", createFeedbackApp({ store: feedback, keys, projects: new Set([projectId]), log, budget })),
    (app, { budget }) =>
      app.route(
        "/",
        createRelayApp({
          lookupPage: (path, context) => runtime.apiPage(path, context),
          contextOf: siteContextOf(state, sessions, publicUrl),
          budget,
        }),
      ),
    // Last: its catch-all answers only `Accept: text/html` requests for API pages.
    (app, { limiter }) => app.route("/", createWebApp({ runtime, state, sessions, limiter, projectId, publicUrl, log })),
  ];
}
