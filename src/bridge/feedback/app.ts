import { Hono } from "hono";
import { LIMITS } from "../../limits.js";
import { parseStatusChange } from "../../store/feedback/input.js";
import type { FeedbackStore } from "../../store/feedback/store.js";
import type { AdminKeyStore } from "../../store/keys/key-store.js";
import { ApiError } from "../middleware/api-error.js";
import type { ClientBudget } from "../middleware/client-budget.js";
import { rateLimitMessage } from "../middleware/rate-limit-response.js";
import { readJsonBody } from "../middleware/read-json-body.js";
import { requireAdminKey } from "./auth.js";
import { type Admission, FEEDBACK_WIDGETS, type FeedbackWidget, ingestFeedback } from "../../engine/use-cases/ingest-feedback.js";
import { type ReviewContext, changeFeedbackStatus, getFeedback, listFeedback, summarizeFeedback } from "../../engine/use-cases/review-feedback.js";
import { ANONYMOUS } from "../../vfs/access.js";
import { requestContext } from "../../vfs/request-context.js";
import { answer } from "./answer.js";
import { validationError } from "./validation-error.js";

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
  /** The per-IP `feedback` and `feedback-bytes` budgets (the bridge lends one); without it,
   *  ingestion counts nothing beyond the bridge's per-IP request limit. */
  readonly budget?: ClientBudget;
  /**
   * Whether a widget's path names a page its caller (the request's reader: a site session, a
   * bearer token, else anonymous) may read; `serve --http` gives it. Without it (the app alone,
   * no site) every well-formed path is taken.
   */
  readonly isPage?: (path: string, request: Request) => Promise<boolean>;
}

/**
 * The widgets' ingestion paths (`/v1/feedback/{projectId}/{widget}`): open to any origin (their
 * own CORS headers), so the bridge's Origin check leaves them to this app.
 */
export function isFeedbackWidgetPath(path: string): boolean {
  const parts = path.split("/");
  return parts.length === 5 && parts[0] === "" && parts[1] === "v1" && parts[2] === "feedback" && parts[3] !== "" && Object.hasOwn(FEEDBACK_WIDGETS, parts[4] ?? "");
}

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
 * admin API keys. Mount with `bridge.route("/", createFeedbackApp(deps))`. Its routes refuse by
 * throwing an `ApiError`, and the bridge's one error handler answers it (and a state fault, a
 * client gone mid-body, a bug) as on every other route; the widgets' routes add their CORS
 * headers to whatever they answer, errors included.
 */
export function createFeedbackApp(deps: FeedbackAppDeps): Hono {
  const { store, keys, projects } = deps;
  const clock = deps.clock ?? Date.now;
  const app = new Hono();

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

  // The use cases' context for a request. These routes read no docs, so the reader is anonymous
  // (an admin key opens the analytics routes, checked above them); the clock dates what is stored.
  const request = () => requestContext(ANONYMOUS, "public", clock);
  const review = (projectId: string): ReviewContext => ({ request: request(), projectId, store });

  for (const widget of Object.keys(FEEDBACK_WIDGETS) as FeedbackWidget[]) {
    const path = `/v1/feedback/:projectId/${widget}`;
    // After the handler and after the error handler has answered what it threw: every answer here.
    app.use(path, async (c, next) => {
      await next();
      for (const [name, value] of Object.entries(CORS)) c.res.headers.set(name, value);
    });
    app.options(path, () => new Response(null, { status: 204 }));
    app.post(path, async (c) => {
      // Declared in the route pattern above; the template-built path hides that from the types.
      const projectId = c.req.param("projectId") ?? "";
      requireProject(projectId);
      const body = await readJsonBody(c.req.raw, LIMITS.feedback.maxBodyBytes);
      const budget = deps.budget;
      const admit: Admission | undefined =
        budget === undefined
          ? undefined
          : async ({ entries, bytes }) => {
              const decision = await budget.take(c, { feedback: entries, "feedback-bytes": bytes });
              return decision.ok ? undefined : { kind: "rate_limited", message: rateLimitMessage(decision), retryAfterSec: decision.retryAfterSec };
            };
      const isPage = deps.isPage;
      const context = {
        request: request(),
        store,
        projectId,
        ...(admit === undefined ? {} : { admit }),
        ...(isPage === undefined ? {} : { isPage: (path: string) => isPage(path, c.req.raw) }),
      };
      return Response.json(answer(await ingestFeedback(context, widget, body)), { status: 201 });
    });
    app.all(path, methodNotAllowed("POST, OPTIONS"));
  }

  app.get("/v1/analytics/:projectId/feedback", async (c) => {
    const projectId = c.req.param("projectId");
    await requireAdmin(c.req.raw, projectId);
    const page = answer(await listFeedback(review(projectId), new URL(c.req.url).searchParams));
    return Response.json(page, { headers: { "Cache-Control": "no-store" } });
  });
  app.all("/v1/analytics/:projectId/feedback", methodNotAllowed("GET"));

  // Aggregates for the dashboard's chart: the list's filters (limit and cursor have no meaning here).
  app.get("/v1/analytics/:projectId/feedback-summary", async (c) => {
    const projectId = c.req.param("projectId");
    await requireAdmin(c.req.raw, projectId);
    const summary = answer(await summarizeFeedback(review(projectId), new URL(c.req.url).searchParams));
    return Response.json(summary, { headers: { "Cache-Control": "no-store" } });
  });
  app.all("/v1/analytics/:projectId/feedback-summary", methodNotAllowed("GET"));

  app.get("/v1/analytics/:projectId/feedback/:id", async (c) => {
    const projectId = c.req.param("projectId");
    await requireAdmin(c.req.raw, projectId);
    const entry = answer(await getFeedback(review(projectId), c.req.param("id")));
    return Response.json(entry, { headers: { "Cache-Control": "no-store" } });
  });
  app.patch("/v1/analytics/:projectId/feedback/:id", async (c) => {
    const projectId = c.req.param("projectId");
    await requireAdmin(c.req.raw, projectId);
    const parsed = parseStatusChange(await readJsonBody(c.req.raw, LIMITS.feedback.maxBodyBytes));
    if (!parsed.ok) throw validationError(parsed.issues);
    const change = answer(await changeFeedbackStatus(review(projectId), c.req.param("id"), parsed.value));
    return Response.json(change.entry);
  });
  app.all("/v1/analytics/:projectId/feedback/:id", methodNotAllowed("GET, PATCH"));

  return app;
}
