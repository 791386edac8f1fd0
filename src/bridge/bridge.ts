import { QuietStreams } from "./quiet-streams.js";
import { type Context, Hono } from "hono";
import { stateFault } from "../store/errors.js";
import { FAULT_ANSWERS, FaultLog } from "./middleware/fault-log.js";
import type { StateStore } from "../store/state/state-store.js";
import type { DocsTool } from "../mcp/tool.js";
import { CORE_TOOLS } from "../mcp/tools.js";
import { apiRequestTool } from "../mcp/api-request-tool.js";
import type { PlaygroundApps } from "../mcp/ui-extension.js";
import type { DocsRuntime } from "../engine/runtime.js";
import type { CallerTurns } from "../engine/search/caller-turns.js";
import { LIMITS } from "../limits.js";
import { SignedInCallers } from "./signed-in-callers.js";
import { PasswordTurns } from "./auth/password-turns.js";
import { callerAddress } from "./middleware/caller-address.js";
import { handleAuthorize } from "./auth/authorize-endpoint.js";
import { clientDirectory } from "./auth/store-client-directory.js";
import { type DocumentFetchOptions, documentFetcher } from "./auth/metadata-document-fetch.js";
import { MetadataDocumentClients } from "./auth/metadata-documents.js";
import { authorizationServerMetadata, protectedResourceMetadata } from "./auth/metadata.js";
import { HttpError } from "./middleware/http-error.js";
import { OAuthError, oauthErrorAnswer } from "./auth/oauth-errors.js";
import { handleRegistration } from "./auth/register-endpoint.js";
import { handleRevocation } from "./auth/revoke-endpoint.js";
import { handleTokenRequest } from "./auth/token-endpoint.js";
import { type ClientBudget, clientBudget } from "./middleware/client-budget.js";
import { type BridgeContext, type BridgeDeps, type BridgeEnv, clientIp, urlsFor } from "./context.js";
import { ABORTED_MESSAGE, isClientAbort } from "./middleware/http-errors.js";
import { type HoldLimits, McpEndpoint } from "./mcp/mcp-endpoint.js";
import type { ListenPlaceKeeper } from "./mcp/listen-quota.js";
import type { SharedSessions } from "./mcp/shared-sessions.js";
import type { BatchStep } from "./mcp/batch-runner.js";
import { hostGuard } from "./middleware/host-guard.js";
import { corsBeforeOriginCheck, errorForPath, originGuard } from "./middleware/origin-policy.js";
import { RedirectDomainSnapshot } from "./middleware/redirect-domain-snapshot.js";
import { DEFAULT_RATE_LIMITS, FixedWindowLimiter, type RateLimiter, type RateLimits } from "./middleware/rate-limit.js";
import { ipRateLimit } from "./middleware/rate-limit-response.js";
import { PATHS } from "./urls.js";
import { describeServer } from "./well-known-mcp.js";
import { DISCOVERY_CORS_HEADERS, DISCOVERY_PREFLIGHT_HEADERS, isDiscoveryDocument } from "./discovery/public-cors.js";
import { mountDiscovery } from "./discovery/routes.js";
import { VERSION } from "../version.js";

/** What the bridge lends the routes mounted on it. */
export interface BridgeServices {
  /** The per-IP budgets (`feedback`, `feedback-bytes`, `relay`) on the bridge's counters. */
  readonly budget: ClientBudget;
  /** The bridge's hourly counters (the site sign-in charges failed attempts per account on them). */
  readonly limiter: RateLimiter;
  /** The limits in force (the preview's search box and shell charge the tools' per-site limits). */
  readonly limits: RateLimits;
  /** Who a request's client is (its address, `--trust-proxy` applied): callers share the shell fairly. */
  readonly clientIp: (c: Context) => string;
  /** The sign-in forms' password checks (the site's sign-in shares them with the MCP one). */
  readonly passwordTurns: PasswordTurns;
  /**
   * Routes that check a browser's `Origin` themselves, by a rule of their own (the feedback
   * widgets take any origin, the sign-in forms only this one): the bridge's Origin check then
   * leaves them be. The Host check still applies.
   */
  readonly ownOriginRule: (rule: (path: string, method: string) => boolean) => void;
}

/**
 * Routes another module adds to the bridge: a Hono app mounted at `/`, or a function given the
 * app and the bridge's services. Either way every request to them counts against the per-IP limit.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Hono app mounts, whatever its environment type.
export type ExtraRoutes = Hono<any, any, any> | ((app: Hono<BridgeEnv>, services: BridgeServices) => void);

export interface BridgeOptions {
  readonly runtime: DocsRuntime;
  readonly state: StateStore;
  /** The tools the MCP endpoints offer, in order (default the core tools; `docsTools` adds those with stores). */
  readonly tools?: readonly DocsTool[];
  /**
   * Routes served after the MCP and OAuth routes (feedback API, playground relay). They can
   * never shadow `/mcp`, `/authed/mcp` or `/authed/mcp/oauth/*`: those are matched first.
   */
  readonly extraRoutes?: readonly ExtraRoutes[];
  readonly rateLimits?: RateLimits;
  /** Where the hourly counters live; an in-process `FixedWindowLimiter` when not given. */
  readonly limiter?: RateLimiter;
  /** The sign-in forms' password checks (`PasswordTurns`; new ones with the default bounds when not given). */
  readonly passwordTurns?: PasswordTurns;
  /** Milliseconds since the epoch (rate-limit windows, session idle time). */
  readonly now?: () => number;
  readonly log?: (message: string) => void;
  /** The origin clients use (`https://docs.example.com`), for OAuth metadata and token audience. */
  readonly publicUrl?: string;
  readonly trustProxy?: boolean;
  /** Host names the `Host` header may carry, on every route (DNS-rebinding protection of a loopback server). */
  readonly allowedHosts?: readonly string[];
  readonly version?: string;
  /**
   * The 2025 MCP sessions of the processes serving this site (`serve --http --workers N`): ids
   * are signed with its key, a session opened by one process continues on any other, and one
   * ended in any (DELETE, eviction, idle on all) ends in all.
   */
  readonly sharedSessions?: SharedSessions;
  /** The places of `subscriptions/listen` streams, counted by the primary of `serve --http --workers N` for all its workers; this process's own when absent. */
  readonly listenPlaces?: ListenPlaceKeeper;
  /**
   * How client metadata documents are fetched (DNS, the TLS connection, time and size limits).
   * Tests only: no command-line option reaches it, so the address policy and the system's
   * certificate trust cannot be loosened by configuration.
   */
  readonly clientMetadata?: Omit<DocumentFetchOptions, "userAgent">;
  /**
   * Answer plain 2026-07-28 tool calls from the tool directly (default true), not through a
   * server the SDK builds per request (`DirectToolCalls`). Tests and the bench turn it off to
   * compare the two paths; no command-line option reaches it.
   */
  readonly directToolCalls?: boolean;
  /**
   * API pages' playgrounds as MCP Apps, for clients that render them (`playgroundApps`); with
   * them the endpoints offer the apps' Send tool too (to those clients only).
   */
  readonly apps?: PlaygroundApps;
  /** Bounds on what MCP callers hold at once (sessions, listen streams); `LIMITS.bridge` when not given. Tests use small ones. */
  readonly holdLimits?: Partial<HoldLimits>;
  /** Told after each message of a JSON-RPC batch ran (`runBatch`). Tests only: no command-line option reaches it. */
  readonly observeBatch?: (step: BatchStep) => void;
}

export interface Bridge {
  readonly app: Hono<BridgeEnv>;
  /** `(Request) => Response`, for tests in-process and for `@hono/node-server`. */
  readonly fetch: (request: Request, env?: BridgeEnv["Bindings"]) => Promise<Response>;
  readonly endpoint: McpEndpoint;
  /** `--trust-proxy`: a request's client is the last address of `X-Forwarded-For` (the HTTP server counts connections by it too). */
  readonly trustProxy: boolean;
  /** The runtime's turns for searches: the HTTP server has them give way while it accepts connections (`CallerTurns.yieldTo`). */
  readonly searchTurns: CallerTurns;
  /** Callers a request of which was signed in lately: the HTTP server keeps them the last connections (`ConnectionCap`). */
  readonly signedIn: SignedInCallers;
  /** Open listen streams by caller: the HTTP server sets their bound and sheds them for newcomers (`QuietStreams`). */
  readonly quietStreams: QuietStreams;
  /** Close every MCP session (the runtime and the state store belong to the caller). */
  readonly close: () => Promise<void>;
}

/**
 * The HTTP bridge: MCP Streamable HTTP at `/mcp` (public) and `/authed/mcp` (OAuth), the OAuth
 * endpoints under `/authed/mcp/oauth/*`, RFC 9728/8414 discovery and `/.well-known/mcp`, then
 * any extra routes. Mount more in one line: `createBridge({ ..., extraRoutes: [feedbackApp] })`.
 */
export function createBridge(options: BridgeOptions): Bridge {
  const now = options.now ?? Date.now;
  const limits = options.rateLimits ?? DEFAULT_RATE_LIMITS;
  const version = options.version ?? VERSION;
  const documents = new MetadataDocumentClients({
    fetch: documentFetcher({ ...options.clientMetadata, userAgent: `svc-mcp/${version}` }),
    remember: (clientId, metadata) => options.state.rememberDocumentClient(clientId, metadata),
    now,
  });
  const deps: BridgeDeps = {
    runtime: options.runtime,
    state: options.state,
    clients: clientDirectory(options.state, documents),
    // The apps' Send tool is in the table, so its calls take the relay's per-IP budget (`CLIENT_CHARGES`).
    tools: [...(options.tools ?? CORE_TOOLS), ...(options.apps !== undefined ? [apiRequestTool] : [])],
    ...(options.apps !== undefined ? { apps: options.apps } : {}),
    limits,
    limiter: options.limiter ?? new FixedWindowLimiter(limits.windowMs, now),
    now,
    log: options.log ?? (() => {}),
    publicUrl: options.publicUrl?.replace(/\/+$/, ""),
    trustProxy: options.trustProxy ?? false,
    version,
    signedIn: new SignedInCallers(LIMITS.bridge.rememberedSignedIn, LIMITS.bridge.signedInForMs, now),
    quietStreams: new QuietStreams(LIMITS.bridge.maxQuietStreams),
    passwordTurns: options.passwordTurns ?? new PasswordTurns(),
  };
  const endpoint = new McpEndpoint(deps, options.sharedSessions, options.directToolCalls ?? true, options.holdLimits, options.observeBatch, options.listenPlaces);
  const app = new Hono<BridgeEnv>();

  // Registered first, so they run before every route, mounted ones and unknown paths included:
  // the per-IP limit, then the Host check (DNS rebinding) and the Origin check on every path
  // (issue 25: they covered only the MCP, OAuth and discovery paths, and a rebinding page read
  // the pages and ran the preview's shell).
  const ownRules: ((path: string, method: string) => boolean)[] = [];
  const originRules = {
    publicDocuments: { is: isDiscoveryDocument, headers: DISCOVERY_CORS_HEADERS, preflight: DISCOVERY_PREFLIGHT_HEADERS },
    cors: isMcpOrOAuthPath,
    ownRule: (path: string, method: string) => ownRules.some((rule) => rule(path, method)),
  };
  const redirectDomains = new RedirectDomainSnapshot(deps.state, now, LIMITS.bridge.redirectDomainsMaxAgeMs);
  app.use("*", ipRateLimit(deps, (c) => corsBeforeOriginCheck(deps, c, originRules, redirectDomains)));
  if (options.allowedHosts !== undefined) app.use("*", hostGuard(options.allowedHosts));
  app.use("*", originGuard(deps, originRules, redirectDomains));

  app.all(PATHS.mcp, (c) => endpoint.handle("mcp", c));
  app.all(PATHS.authedMcp, (c) => endpoint.handle("authed", c));

  const post = (handler: (c: BridgeContext) => Promise<Response>) => async (c: BridgeContext) =>
    c.req.method === "POST" ? handler(c) : methodNotAllowed(c, "POST");
  app.all(PATHS.token, post((c) => handleTokenRequest(deps, c.req.raw, urlsFor(deps, c))));
  app.all(PATHS.register, post((c) => handleRegistration(deps, c.req.raw)));
  app.all(PATHS.revoke, post((c) => handleRevocation(deps, c.req.raw)));
  app.all(PATHS.authorize, (c) =>
    c.req.method === "GET" || c.req.method === "POST" ? handleAuthorize(deps, c.req.raw, urlsFor(deps, c), callerAddress(clientIp(deps, c))) : methodNotAllowed(c, "GET, POST"),
  );
  // Nothing else lives under the OAuth prefix: an unknown path there is ours to answer.
  app.all(`${PATHS.oauth}/*`, (c) => errorForPath(c.req.path, 404, "not_found", `no OAuth endpoint at ${c.req.path}`));

  const getJson = (body: (c: BridgeContext) => Promise<unknown> | unknown) => async (c: BridgeContext) =>
    c.req.method === "GET" ? c.json(await body(c), 200, { "Cache-Control": "no-store" }) : methodNotAllowed(c, "GET");
  const resourceMetadata = getJson((c) => protectedResourceMetadata(urlsFor(deps, c), deps.runtime.site.config.name, deps.runtime.baseUrl));
  const serverMetadata = getJson((c) => authorizationServerMetadata(urlsFor(deps, c)));
  app.all(PATHS.protectedResource, resourceMetadata);
  // Root fallbacks: clients that look for metadata at the origin (MCP 2025-03-26 style) find it too.
  app.all("/.well-known/oauth-protected-resource", resourceMetadata);
  app.all(PATHS.authorizationServer, serverMetadata);
  app.all("/.well-known/oauth-authorization-server", serverMetadata);
  app.all(PATHS.wellKnownMcp, getJson((c) => describeServer(deps, urlsFor(deps, c))));
  mountDiscovery(app, deps);

  const faults = new FaultLog(deps.log, now);
  const services: BridgeServices = {
    budget: clientBudget(deps),
    limiter: deps.limiter,
    limits,
    clientIp: (c) => clientIp(deps, c),
    passwordTurns: deps.passwordTurns,
    ownOriginRule: (rule) => ownRules.push(rule),
  };
  for (const extra of options.extraRoutes ?? []) {
    if (typeof extra === "function") extra(app, services);
    else app.route("/", extra);
  }

  app.notFound((c) => errorForPath(c.req.path, 404, "not_found", `nothing at ${c.req.method} ${c.req.path}`));
  // The one error handler, for the bridge's routes and every app mounted on it (none has its
  // own): an error that is an answer (`HttpError`) renders itself, the SDK's `OAuthError` by the
  // one table of OAuth statuses and challenges; the rest are answered in each path's shape.
  app.onError((error, c) => {
    if (error instanceof HttpError) return error.toResponse();
    if (error instanceof OAuthError) return oauthErrorAnswer(error);
    if (isClientAbort(error)) return errorForPath(c.req.path, 400, "request_aborted", ABORTED_MESSAGE);
    // The state database busy or away for a moment (a lock held past the wait, a restart, a lost
    // connection), or its storage full: the request may succeed when retried, so a 503 saying
    // so, not a 500; logged once per episode (`FaultLog`), not per request.
    const fault = stateFault(error);
    if (fault !== undefined) {
      faults.report(fault.kind, fault.code);
      const answer = FAULT_ANSWERS[fault.kind];
      return errorForPath(c.req.path, 503, "state_unavailable", answer.message, { "Retry-After": String(answer.retryAfterSec) });
    }
    // A bug, not the caller's mistake: log it, answer 500, keep serving.
    deps.log(`error: ${c.req.method} ${c.req.path}: ${error.stack ?? error.message}`);
    return errorForPath(c.req.path, 500, "server_error", "internal error; the server log has the details");
  });

  return {
    app,
    fetch: async (request, env) => app.fetch(request, env ?? {}),
    endpoint,
    trustProxy: deps.trustProxy,
    searchTurns: options.runtime.searchTurns,
    signedIn: deps.signedIn,
    quietStreams: deps.quietStreams,
    close: () => endpoint.close(),
  };
}

/** The MCP endpoints, their cards and OAuth (discovery too): web-based AI tools call them from their own origins, with CORS. */
function isMcpOrOAuthPath(path: string): boolean {
  return path === PATHS.mcp || path === PATHS.serverCard || path === PATHS.serverCardJson || path === PATHS.authedMcp || path.startsWith(`${PATHS.authedMcp}/`) || path.startsWith("/.well-known/");
}

function methodNotAllowed(c: BridgeContext, allow: string): Response {
  return errorForPath(c.req.path, 405, "method_not_allowed", `${c.req.method} is not allowed here; use ${allow}`, { Allow: allow });
}
