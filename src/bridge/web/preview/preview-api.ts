import { callerAddress } from "../../middleware/caller-address.js";
import type { Context, Hono } from "hono";
import { LIMITS } from "../../../limits.js";
import type { DocsRuntime } from "../../../engine/runtime.js";
import { agentView } from "../../../engine/use-cases/agent-view.js";
import { describeArgumentIssues, parseInput } from "../../../engine/use-cases/outcome.js";
import { readablePageAt } from "../../../engine/use-cases/preview-page.js";
import { runShell, shellInput, shellText } from "../../../engine/use-cases/run-shell.js";
import { searchAnswer, searchInput } from "../../../engine/use-cases/search-docs.js";
import { pageUrl } from "../../../vfs/site.js";
import { requestContext, type RequestContext } from "../../../vfs/request-context.js";
import { readJsonBody } from "../../middleware/read-json-body.js";
import { connectionGone } from "../../middleware/connection-gone.js";
import { apiErrorResponse } from "../../middleware/http-errors.js";
import type { RateLimiter, RateLimits } from "../../middleware/rate-limit.js";
import { siteToolCharge, siteToolKey, takeWithReserves } from "../../middleware/caller-reserve.js";
import { rateLimitedResponse } from "../../middleware/rate-limit-response.js";
import { ReloadStreams } from "./live-reload.js";
import { type MediaTurnKeeper, type MediaTurnLimits, MediaTurns } from "./media-turns.js";

/** The preview's calls: its search box, the agent panel, and live reload. */
export const PREVIEW_PATHS = {
  search: "/_svc/preview/search",
  agent: "/_svc/preview/agent",
  shell: "/_svc/preview/shell",
  events: "/_svc/preview/events",
} as const;

export interface PreviewApiDeps {
  readonly runtime: DocsRuntime;
  /** The request's reader (site session cookie, else bearer token, else anonymous) and site rules. */
  readonly contextOf: (request: Request) => Promise<RequestContext>;
  readonly limiter: RateLimiter;
  readonly limits: RateLimits;
  readonly clientIp: (c: Context) => string;
  /** Places for each caller's searches and agent views (`previewCallTurns` when absent). */
  readonly turns?: MediaTurnKeeper;
}

/** Each caller's preview searches and agent views: one answered at a time, a few waiting (`LIMITS.preview`). */
export function previewCallTurns(): MediaTurns {
  return new MediaTurns(previewCallLimits());
}

/** A caller's bounds on preview searches and agent views (`LIMITS.preview`). */
export function previewCallLimits(): MediaTurnLimits {
  return { sending: LIMITS.preview.maxPreviewCallsRunningPerCaller, held: LIMITS.preview.maxPreviewCallsHeldPerCaller };
}

/** JSON answers: never cached, never read by another site's page (`same-origin`). */
const JSON_HEADERS = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Cross-Origin-Resource-Policy": "same-origin" };

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
}

/**
 * Mount the preview's calls. Each runs the same use case as the MCP tool, as the request's reader:
 * the search box `searchAnswer`, the shell box `runShell`, the agent panel `agentView`; each
 * counts against the same per-site limit as the tool (`search`, `filesystem`), so a page is no
 * way around them. Returns the live-reload streams (to end them when the server stops).
 */
export function mountPreviewApi(app: Hono, deps: PreviewApiDeps): ReloadStreams {
  const { runtime } = deps;
  const reloads = new ReloadStreams(runtime);
  const docsContext = async (c: Context) => {
    const request = await deps.contextOf(c.req.raw);
    // The client's address (an IPv6 /64) decides its share of the shell pool, as on the MCP endpoint.
    return { runtime, request: requestContext(request.reader, request.authMode, request.clock, request.caller ?? `address:${callerAddress(deps.clientIp(c))}`) };
  };
  const turns = deps.turns ?? previewCallTurns();
  /**
   * Answer `serve` in the caller's turn: its searches and agent views one at a time, the next
   * ones waiting behind it, so a caller sending many at once waits behind its own and takes the
   * server's thread no more than one reader would (issue 25); past the caller's bound, or gone
   * while it waited, answered at once without any work.
   */
  const inTurn = async (c: Context, serve: (caller: string) => Promise<Response>): Promise<Response> => {
    const request = await deps.contextOf(c.req.raw);
    const caller = request.caller ?? `address:${callerAddress(deps.clientIp(c))}`;
    const turn = await turns.take(caller, connectionGone(c));
    if (!turn.ok) {
      const { held } = turns.limits;
      if (turn.reason === "gone") return apiErrorResponse(503, "client_gone", "the client hung up before its turn", { "Retry-After": "2", "Cache-Control": "no-store" });
      return apiErrorResponse(429, "too_many_searches", `too many searches of this client: at most ${held} answered or waiting at once per client (an address, an IPv6 /64 or a token); wait for their answers, then ask again`, { "Retry-After": "2", "Cache-Control": "no-store" });
    }
    try {
      return await serve(caller);
    } finally {
      turn.release();
    }
  };
  /** The call's unit of the site's `tool` limit on `/mcp` (the preview's panels are its public tools), or `caller`'s reserve once that is spent. */
  const charge = async (c: Context, caller: string, tool: "search" | "filesystem"): Promise<Response | undefined> => {
    const limit = deps.limits.tools[tool];
    if (limit === undefined) return undefined;
    // `/mcp`'s own counter (`McpEndpoint.toolCharges`): the panels counted under a key of their
    // own, so a site answered its hourly limit twice over, once on `/mcp` and once in the panels
    // (adversary, 2026-12-05).
    const { decision } = await takeWithReserves(deps.limiter, [siteToolCharge(siteToolKey("mcp", tool), limit.public, `${tool} calls`, caller)]);
    return decision.ok ? undefined : rateLimitedResponse(c.req.path, decision);
  };

  app.get(PREVIEW_PATHS.search, async (c) => {
    const q = c.req.query();
    const pageSize = q["pageSize"];
    const input = parseInput(searchInput, {
      query: q["query"] ?? "",
      ...(q["version"] !== undefined && q["version"] !== "" ? { version: q["version"] } : {}),
      ...(q["language"] !== undefined && q["language"] !== "" ? { language: q["language"] } : {}),
      ...(pageSize !== undefined ? { pageSize: /^\d+$/.test(pageSize) ? Number(pageSize) : pageSize } : {}),
    });
    if (!input.ok) return apiErrorResponse(400, "invalid_request", describeArgumentIssues(input.issues));
    const search = input.value;
    return inTurn(c, async (caller) => {
      const refused = await charge(c, caller, "search");
      if (refused !== undefined) return refused;
      // A page that searches again as the reader types drops the earlier request: its search is not run.
      const outcome = await searchAnswer({ ...(await docsContext(c)), signal: connectionGone(c) }, search);
      if (!outcome.ok) return apiErrorResponse(400, "invalid_request", describeArgumentIssues(outcome.issues));
      // Links on this server: the page's path and the section's anchor (the tool's links name the public site).
      const results = outcome.value.results.map((r) => ({ ...r, href: `${pageUrl("", r.path) || "/"}${new URL(r.url).hash}` }));
      // `text`: what the MCP tool answers, for the agent panel's box.
      return json({ results, text: outcome.value.text });
    });
  });

  app.get(PREVIEW_PATHS.agent, (c) =>
    inTurn(c, async (caller) => {
      const path = c.req.query("page");
      // No `page` (or one written as `page[]`, which is another key): not the home page by default (adversary round 66).
      if (path === undefined) return apiErrorResponse(400, "invalid_request", "page: required: the path of the page to show, e.g. ?page=/quickstart");
      const context = await docsContext(c);
      const page = readablePageAt(context, path);
      // A page the reader may not read answers exactly as one that does not exist.
      if (page === undefined) return apiErrorResponse(404, "not_found", "no such page");
      const refused = await charge(c, caller, "filesystem");
      if (refused !== undefined) return refused;
      return json(await agentView(context, page));
    }),
  );

  app.post(PREVIEW_PATHS.shell, async (c) => {
    // JSON only: another site's page cannot send it without asking first (CORS), and is refused.
    if (!/^\s*application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? "")) return apiErrorResponse(415, "unsupported_media_type", "send the body as application/json");
    // A body that is too large or not JSON is thrown as an `ApiError`, which the bridge answers.
    const body = await readJsonBody(c.req.raw, LIMITS.shell.maxCommandLength * 2);
    const input = parseInput(shellInput, body);
    if (!input.ok) return apiErrorResponse(400, "invalid_request", describeArgumentIssues(input.issues));
    const context = await docsContext(c);
    const refused = await charge(c, context.request.caller ?? "", "filesystem");
    if (refused !== undefined) return refused;
    // A page closed or reloaded mid-command drops the request: the command stops with it.
    const result = await runShell({ ...context, signal: connectionGone(c) }, input.value);
    return json({ ...result, text: shellText(result) });
  });

  app.get(PREVIEW_PATHS.events, async (c) => {
    const { request } = await docsContext(c);
    const raw = c.req.raw;
    // Told only of changes this reader can see (read again at each change), counted against the caller's streams.
    return reloads.stream(request, request.caller ?? "", () => deps.contextOf(raw));
  });
  return reloads;
}
