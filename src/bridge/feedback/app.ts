import { Hono } from "hono";
import { LIMITS } from "../../limits.js";
import { type Parsed, parseCodeSnippet, parseContextual, parseRating, parseStatusChange } from "../../store/feedback/input.js";
import { parseFeedbackQuery } from "../../store/feedback/query.js";
import { FeedbackNotFoundError, type FeedbackStore } from "../../store/feedback/store.js";
import type { AdminKeyStore } from "../../store/keys/key-store.js";
import type { ClientBudget } from "../client-budget.js";
import { ABORTED_MESSAGE, isClientAbort } from "../http-errors.js";
import { rateLimitMessage } from "../rate-limit-response.js";
import { requireAdminKey } from "./auth.js";
import { readJsonBody } from "./body.js";
import { ApiError, toApiError, validationError } from "./errors.js";

/** Which project IDs this server serves (a `Set<string>` is one). */
export interface ProjectDirectory {
  has(projectId: string): boolean;
}

export interface FeedbackAppDeps {
  readonly store: FeedbackStore;
  readonly keys: AdminKeyStore;
  readonly projects: ProjectDirectory;
  /** Milliseconds since the epoch; sets `createdAt`. Default `Date.now`. */
  readonly clock?: () => number;
  /** Where unexpected errors are reported (stderr in the CLI). */
  readonly log?: (message: string) => void;
  /** The per-IP `feedback` and `feedback-bytes` budgets (the bridge lends one); without it,
   *  ingestion counts nothing beyond the bridge's per-IP request limit. */
  readonly budget?: ClientBudget;
}

/**
 * Ingestion endpoints, one per widget, each with its body parser. Paths are under
 * `/v1/feedback/{projectId}/`; the bodies are documented in docs/feedback.md.
 */
export const INGESTION_ROUTES: readonly { readonly path: string; readonly parse: (raw: unknown) => Parsed }[] = [
  { path: "rating", parse: parseRating },
  { path: "contextual", parse: parseContextual },
  { path: "code-snippet", parse: parseCodeSnippet },
];

/** Widgets run on the docs site's origin, which may differ from the bridge's: allow any. */
const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type",
  "Access-Control-Max-Age": "86400",
};

/**
 * The feedback API as a mountable Hono app: public ingestion for docs widgets, and the admin
 * analytics API (`GET /v1/analytics/{projectId}/feedback`, `PATCH .../feedback/{id}`) behind
 * admin API keys. Mount with `bridge.route("/", createFeedbackApp(deps))`; errors are answered
 * by this app's own handler wherever it is mounted.
 */
export function createFeedbackApp(deps: FeedbackAppDeps): Hono {
  const { store, keys, projects } = deps;
  const clock = deps.clock ?? Date.now;
  const log = deps.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const app = new Hono();

  app.onError((error, c) => {
    const api = toApiError(error);
    const cors = c.req.path.startsWith("/v1/feedback/") ? CORS : {};
    if (api !== undefined) return api.toResponse(cors);
    if (isClientAbort(error)) return new ApiError(400, "request_aborted", ABORTED_MESSAGE).toResponse(cors);
    log(`feedback API: ${c.req.method} ${c.req.path} failed: ${(error as Error).stack ?? String(error)}`);
    return new ApiError(500, "internal_error", "internal error; the server log has the details").toResponse(cors);
  });

  const requireProject = (projectId: string): void => {
    if (!projects.has(projectId)) throw new ApiError(404, "project_not_found", `no project ${JSON.stringify(projectId)} on this server`);
  };
  /** Admin endpoints: the key first, so an unauthenticated caller learns nothing about projects. */
  const requireAdmin = async (request: Request, projectId: string): Promise<void> => {
    await requireAdminKey(request.headers.get("authorization"), keys, clock());
    requireProject(projectId);
  };
  const methodNotAllowed = (allow: string) => () => {
    throw new ApiError(405, "method_not_allowed", `this endpoint accepts ${allow}`, { headers: { Allow: allow } });
  };

  for (const route of INGESTION_ROUTES) {
    const path = `/v1/feedback/:projectId/${route.path}`;
    app.options(path, () => new Response(null, { status: 204, headers: CORS }));
    app.post(path, async (c) => {
      // Declared in the route pattern above; the template-built path hides that from the types.
      const projectId = c.req.param("projectId") ?? "";
      requireProject(projectId);
      const parsed = route.parse(await readJsonBody(c.req.raw, LIMITS.feedback.maxBodyBytes));
      if (!parsed.ok) throw validationError(parsed.issues);
      if (deps.budget !== undefined) {
        // Counted after validation: the budgets bound what is stored, entries and bytes.
        const bytes = Buffer.byteLength(JSON.stringify(parsed.value), "utf8");
        const decision = await deps.budget.take(c, { feedback: 1, "feedback-bytes": bytes });
        if (!decision.ok) throw new ApiError(429, "rate_limited", rateLimitMessage(decision), { headers: { "Retry-After": String(decision.retryAfterSec) } });
      }
      const entry = await store.insert({ ...parsed.value, projectId, createdAt: clock() });
      return Response.json(entry, { status: 201, headers: CORS });
    });
    app.all(path, methodNotAllowed("POST, OPTIONS"));
  }

  app.get("/v1/analytics/:projectId/feedback", async (c) => {
    const projectId = c.req.param("projectId");
    await requireAdmin(c.req.raw, projectId);
    const parsed = parseFeedbackQuery(new URL(c.req.url).searchParams);
    if (!parsed.ok) throw validationError(parsed.issues);
    const page = await store.list({ ...parsed.query, projectId });
    return Response.json(page, { headers: { "Cache-Control": "no-store" } });
  });
  app.all("/v1/analytics/:projectId/feedback", methodNotAllowed("GET"));

  // Aggregates for the dashboard's chart: the list's filters (limit and cursor have no meaning here).
  app.get("/v1/analytics/:projectId/feedback-summary", async (c) => {
    const projectId = c.req.param("projectId");
    await requireAdmin(c.req.raw, projectId);
    const parsed = parseFeedbackQuery(new URL(c.req.url).searchParams);
    if (!parsed.ok) throw validationError(parsed.issues);
    const { limit: _limit, cursor: _cursor, ...filter } = parsed.query;
    return Response.json(await store.summary({ ...filter, projectId }), { headers: { "Cache-Control": "no-store" } });
  });
  app.all("/v1/analytics/:projectId/feedback-summary", methodNotAllowed("GET"));

  app.get("/v1/analytics/:projectId/feedback/:id", async (c) => {
    const projectId = c.req.param("projectId");
    await requireAdmin(c.req.raw, projectId);
    const id = c.req.param("id");
    const entry = await store.get(projectId, id);
    if (entry === undefined) throw new FeedbackNotFoundError(projectId, id);
    return Response.json(entry, { headers: { "Cache-Control": "no-store" } });
  });
  app.patch("/v1/analytics/:projectId/feedback/:id", async (c) => {
    const projectId = c.req.param("projectId");
    await requireAdmin(c.req.raw, projectId);
    const parsed = parseStatusChange(await readJsonBody(c.req.raw, LIMITS.feedback.maxBodyBytes));
    if (!parsed.ok) throw validationError(parsed.issues);
    const change = await store.setStatus(projectId, c.req.param("id"), parsed.value, clock());
    return Response.json(change.entry);
  });
  app.all("/v1/analytics/:projectId/feedback/:id", methodNotAllowed("GET, PATCH"));

  return app;
}
