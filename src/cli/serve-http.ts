import { mcpAvailable } from "../bridge/middleware/access-policy.js";
import { isLoopbackHost } from "../store/state/redirect-domains.js";
import { createBridge, type ExtraRoutes } from "../bridge/bridge.js";
import type { ConnectionSource } from "../bridge/connection-source.js";
import type { SharedSessions } from "../bridge/mcp/shared-sessions.js";
import type { ListenPlaceKeeper } from "../bridge/mcp/listen-quota.js";
import type { MediaTurnKeeper } from "../bridge/web/preview/media-turns.js";
import { newSiteMediaState } from "../bridge/web/preview/site-media.js";
import { listen } from "../bridge/http-server.js";
import { LeasingLimiter } from "../bridge/middleware/leasing-limiter.js";
import { CountersLimiter, parseRateLimits, type RateLimiter, type RateLimits } from "../bridge/middleware/rate-limit.js";
import { bridgeUrls } from "../bridge/urls.js";
import { createFeedbackApp, isFeedbackWidgetPath } from "../bridge/feedback/app.js";
import { createRelayApp, type RelayDeps } from "../bridge/playground/relay.js";
import { playgroundApps } from "../bridge/playground/apps.js";
import { type RelayPlaceKeeper, RelayPlaces } from "../bridge/playground/relay-places.js";
import { callerAddress } from "../bridge/middleware/caller-address.js";
import { localSiteSessions, type SiteSessionStore, SiteSessions } from "../bridge/web/site-sessions.js";
import { createWebApp, isSignInForm, siteContextOf } from "../bridge/web/web-app.js";
import type { FeedbackStore } from "../store/feedback/store.js";
import type { AdminKeyStore } from "../store/keys/key-store.js";
import type { StateStore } from "../store/state/state-store.js";
import { docsTools } from "../mcp/tools.js";
import { isFeedbackPage } from "../engine/use-cases/feedback-page.js";
import type { DocsRuntime } from "../engine/runtime.js";
import type { CallerPlaces } from "../engine/shell/shared-places.js";
import { rememberSiteName } from "../store/site-names.js";
import { ANONYMOUS } from "../vfs/access.js";
import { requestContext } from "../vfs/request-context.js";
import { pagesSummary, plural } from "./diagnostics-summary.js";
import { CliError, type CliIO } from "./io.js";
import { describeProject, type ProjectArgs, projectStores, resolveProject } from "./project.js";

/** What a worker of `serve --http --workers N` is given by its primary. */
export interface WorkerRole {
  /** The connections the primary accepts and hands to this worker: it binds no socket itself. */
  readonly connections: ConnectionSource;
  /** The counters all workers share (held by the primary). */
  readonly limiter: RateLimiter;
  /** The MCP sessions of all workers: any worker continues a session another opened, until it ends (kept by the primary). */
  readonly sessions: SharedSessions;
  /** The start-up lines, printed once by the primary when the first worker listens. */
  readonly announce: (lines: readonly string[]) => void;
  /**
   * Tell the primary that this worker's persistent cache of the site is written, or will not be:
   * the primary starts the next worker then, which reads it instead of indexing the site again.
   */
  readonly settled: () => void;
  /** Site sign-ins, kept by the primary for all workers. */
  readonly siteSessions: SiteSessionStore;
  /** The playground relay's places, counted by the primary for all workers. */
  readonly relayPlaces: RelayPlaceKeeper;
  /** The shell pool's places of each caller, counted by the primary for all workers. */
  readonly shellPlaces: CallerPlaces;
  /** The places of `subscriptions/listen` streams, counted by the primary for all workers. */
  readonly listenPlaces: ListenPlaceKeeper;
  /** Each caller's media transfers and preview calls, queued by the primary for all workers. */
  readonly turns: { readonly media: MediaTurnKeeper; readonly preview: MediaTurnKeeper };
  /** Resolves when the primary is gone (the worker then stops). */
  readonly stop: Promise<void>;
  /**
   * Close the channel to the primary once stopped: it keeps a worker's event loop alive, and a
   * worker that drained but stayed would be killed at the end of the drain time.
   */
  readonly leave: () => void;
  /**
   * Let the process end once it has nothing else to do, with the exit code it sets, when it
   * could not start (a port in use): the channel would keep it alive, and leaving it would end
   * the process with code 0 (node:cluster's way) while its primary waited.
   */
  readonly release: () => void;
}

export interface HttpServeArgs extends ProjectArgs {
  readonly port: number;
  readonly host: string;
  readonly "public-url"?: string | undefined;
  readonly "trust-proxy": boolean;
  readonly "rate-limit"?: readonly string[] | undefined;
  readonly "max-connections"?: number | undefined;
  readonly "relay-timeout"?: number | undefined;
}

/** `--port`, `--public-url` and `--rate-limit` checked: a mistake is a CliError before anything starts. */
export function httpSettings(args: HttpServeArgs): { publicUrl: string | undefined; rateLimits: RateLimits } {
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) throw new CliError(`--port must be an integer from 0 to 65535; got ${args.port}`, 2);
  const maxConnections = args["max-connections"];
  if (maxConnections !== undefined && (!Number.isInteger(maxConnections) || maxConnections < 12)) throw new CliError(`--max-connections must be an integer of at least 12; got ${maxConnections}`, 2);
  const relayTimeout = args["relay-timeout"];
  if (relayTimeout !== undefined && !(relayTimeout >= 1 && relayTimeout <= 3600)) throw new CliError(`--relay-timeout must be a number of seconds from 1 to 3600; got ${relayTimeout}`, 2);
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
  return { publicUrl, rateLimits };
}

/**
 * `svc-mcp serve --http`: the bridge on a socket until SIGINT/SIGTERM. The site's auth mode, the
 * MCP toggle, accounts, credentials and redirect domains come from the state store (one source
 * of truth, changed by `svc-mcp mcp|users|credentials|redirect-domains` while this runs).
 * `onListening` runs once the socket accepts connections, with the origin clients use (serve starts
 * fetching remote specs then; preview opens the browser).
 */
export async function serveHttp(args: HttpServeArgs, io: CliIO, runtime: DocsRuntime, log: (m: string) => void, onListening: (origin: string) => void = () => {}, worker?: WorkerRole): Promise<number> {
  const { publicUrl, rateLimits } = httpSettings(args);
  // From here a stop drains: the signals are taken over (they ended the process during the load).
  const stopSignal = worker !== undefined ? Promise.race([io.stopSignal, worker.stop]) : io.stopSignal;
  let stopping = false;
  void stopSignal.then(() => (stopping = true));
  const project = await resolveProject(io, args, runtime.site.config.name);
  // A server keeps the settings between requests where the store learns of every change.
  const stores = projectStores(project, { state: { cacheSettings: true } });
  let state: StateStore, feedback: FeedbackStore, keys: AdminKeyStore, counters;
  try {
    [state, feedback, keys, counters] = await Promise.all([stores.state(), stores.feedback(), stores.keys(), stores.counters()]);
  } catch (error) {
    await stores.close();
    throw error;
  }
  const settings = await state.settings();
  // Its state is in use: a start whose docs.json names no site keeps to it (site-names.ts).
  if (runtime.site.config.named === true) rememberSiteName(io.env, runtime.site.root, runtime.site.config.name);
  const host = args.host.replace(/^\[(.*)\]$/, "$1");
  const loopback = isLoopbackHost(host) || isLoopbackHost(`[${host}]`);
  // A loopback server answers only to loopback names (and its public name): DNS rebinding defence.
  const allowedHosts = loopback ? ["localhost", "127.0.0.1", "[::1]", ...(publicUrl !== undefined ? [new URL(publicUrl).hostname] : [])] : undefined;
  const tools = docsTools({ feedback: { store: feedback, projectId: project.id } });
  // One caller's relay calls are counted together, sent from an API page or from its MCP App,
  // and through any worker of --workers (the primary counts them).
  const relayPlaces = worker?.relayPlaces ?? new RelayPlaces();
  // `--relay-timeout`: for the HTTP route and the MCP Apps' tool alike.
  const relayLimits = args["relay-timeout"] !== undefined ? { limits: { timeoutMs: Math.round(args["relay-timeout"] * 1000) } } : {};
  // Likewise one caller's shell commands, whichever worker each reaches (a lone process counts its own, with no messages).
  if (worker !== undefined) runtime.shareShellPlaces(worker.shellPlaces);
  const bridge = createBridge({
    runtime,
    state,
    rateLimits,
    // Shared state shares the counters too: the limits hold across every process and instance.
    // Else a worker of --workers counts through its primary; a lone process counts itself. Shared
    // counters are leased in blocks, not asked per call (leasing-limiter.ts).
    ...(counters !== undefined
      ? { limiter: new LeasingLimiter(new CountersLimiter(counters, rateLimits.windowMs), rateLimits.windowMs) }
      : worker !== undefined
        ? { limiter: new LeasingLimiter(worker.limiter, rateLimits.windowMs) }
        : {}),
    log,
    tools,
    apps: playgroundApps({ runtime, relay: { places: relayPlaces, ...relayLimits } }),
    extraRoutes: siteRoutes({ runtime, state, feedback, keys, projectId: project.id, publicUrl, log, sessions: worker?.siteSessions, relayPlaces, turns: worker?.turns, ...relayLimits }),
    trustProxy: args["trust-proxy"],
    ...(worker !== undefined ? { sharedSessions: worker.sessions, listenPlaces: worker.listenPlaces } : {}),
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(allowedHosts !== undefined ? { allowedHosts } : {}),
  });
  // Ready means ready (issue 22): what an anonymous reader's first search and first shell command
  // need is made before the port is opened, not by those requests (on a 50,000-page site the
  // reader's search state and the shell's shared snapshot take seconds of this thread), and the
  // port opens once a shell worker thread holds the snapshot.
  const anonymous = requestContext(ANONYMOUS, settings.authMode);
  runtime.prepareSearch(anonymous);
  runtime.prepareShell(anonymous);
  await runtime.whenShellLoaded();
  let server;
  try {
    server = await listen(bridge, {
      host,
      port: args.port,
      ...(args["max-connections"] !== undefined ? { maxConnections: args["max-connections"] } : {}),
      ...(worker !== undefined ? { connections: worker.connections } : {}),
    });
  } catch (error) {
    await bridge.close();
    await stores.close();
    throw new CliError((error as Error).message, 1);
  }
  // The persistent cache's write waits its delay from now (`writeCacheOnceServing`).
  runtime.serving();
  const urls = bridgeUrls(publicUrl ?? server.origin);
  const lines = [
    `serving "${runtime.site.config.name}" (${pagesSummary(runtime.site.pages.values())}) over HTTP on ${server.origin}; tools ${tools.map((t) => t.name(runtime.names)).join(", ")}`,
    `MCP (public):        ${urls.mcp}`,
    `MCP (authenticated): ${urls.authedMcp}`,
    `OAuth token:         ${urls.token}`,
    `Feedback API:        ${server.origin}/v1/analytics/${project.id}/feedback`,
    `Feedback dashboard:  ${server.origin}/_svc/dashboard`,
    `site auth ${settings.authMode}; MCP server ${mcpAvailable(settings) ? "enabled" : "disabled (svc-mcp mcp enable)"}; ${describeProject(project)}`,
  ];
  // Asked to stop while opening the stores or the socket: no banner for a server that is going away.
  if (!stopping) {
    if (worker !== undefined) worker.announce(lines);
    else for (const line of lines) log(line);
    onListening(publicUrl ?? server.origin);
  }
  // The primary starts the next worker once this one's cache is written (or will not be): that
  // one then starts from it. The write keeps its delay (`LIMITS.cache.writeDelayMs`): written at
  // once, on a 50,000-page site its slices landed on the first client's requests.
  if (worker !== undefined) void runtime.whenCacheWritten().finally(() => worker.settled());
  await stopSignal;
  const inFlight = server.inFlight();
  if (inFlight > 0) log(`stopping: finishing ${plural(inFlight, "request")} in flight`);
  await server.close();
  await bridge.close();
  // The feedback store commits anything still queued before it closes.
  await stores.close();
  worker?.leave();
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
  /** Site sign-ins kept elsewhere (the primary of `--workers`); this process's own when absent. */
  readonly sessions?: SiteSessionStore | undefined;
  /** The relay's calls in flight (shared with the MCP Apps' Send tool); the relay's own when absent. */
  readonly relayPlaces?: RelayPlaceKeeper;
  /** The relay's limits where the command line changes them (`--relay-timeout`). */
  readonly limits?: RelayDeps["limits"];
  /** Each caller's media transfers and preview calls, kept by the primary for all workers; the pages' own when absent. */
  readonly turns?: { readonly media: MediaTurnKeeper; readonly preview: MediaTurnKeeper } | undefined;
}

/**
 * What `serve --http` mounts beside MCP and OAuth: the feedback API, the playground relay and the pages for people (API pages, sign-in, dashboard),
 * each charging its per-IP budget on the bridge's counters. The relay builds each request's
 * context (its bearer token's reader, the auth setting read for it), like the MCP endpoints.
 */
export function siteRoutes(deps: SiteRoutesDeps): ExtraRoutes[] {
  const { runtime, state, feedback, keys, projectId, publicUrl, log } = deps;
  // Site sign-ins (the pages' session cookie), shared by the pages and the relay.
  const sessions = deps.sessions ?? localSiteSessions(new SiteSessions());
  return [
    (app, { budget, ownOriginRule }) => {
      ownOriginRule(isFeedbackWidgetPath);
      // A widget's page must be one its caller may read, as the pages' reader is read (cookie, token, else anonymous).
      const contextOf = siteContextOf(state, sessions, publicUrl);
      const isPage = async (path: string, request: Request): Promise<boolean> => isFeedbackPage({ runtime, request: await contextOf(request) }, path);
      app.route("/", createFeedbackApp({ store: feedback, keys, projects: new Set([projectId]), budget, isPage }));
    },
    (app, { budget, clientIp }) =>
      app.route(
        "/",
        createRelayApp({
          lookupPage: (path, context) => runtime.apiPage(path, context),
          contextOf: siteContextOf(state, sessions, publicUrl),
          budget,
          // The caller as the MCP endpoints count an anonymous one: its calls from either add up.
          callerOf: (c) => `address:${callerAddress(clientIp(c))}`,
          ...(deps.relayPlaces !== undefined ? { places: deps.relayPlaces } : {}),
          ...(deps.limits !== undefined ? { limits: deps.limits } : {}),
        }),
      ),
    // Last: its catch-all answers the repository's media, and pages for `Accept: text/html`.
    (app, { limiter, limits, clientIp, passwordTurns, ownOriginRule }) => {
      ownOriginRule(isSignInForm);
      const turns = deps.turns === undefined ? {} : { media: newSiteMediaState(deps.turns.media), previewTurns: deps.turns.preview };
      app.route("/", createWebApp({ runtime, state, sessions, limiter, limits, clientIp, passwordTurns, projectId, publicUrl, log, ...turns }));
    },
  ];
}
