import type { FeedbackStore } from "../store/feedback/store.js";
import { success } from "../engine/use-cases/outcome.js";
import { isFeedbackPage } from "../engine/use-cases/feedback-page.js";
import { feedbackInput, feedbackOutput, submitFeedback } from "../engine/use-cases/submit-feedback.js";
import { type DocsTool, defineTool } from "./tool.js";
import { productName, siteTitle } from "../engine/tool-names.js";

/** The spec's name for the tool (not site-suffixed: agents and docs refer to it by this name). */
export const SUBMIT_FEEDBACK = "submit_feedback";

export interface FeedbackToolDeps {
  readonly store: FeedbackStore;
  readonly projectId: string;
  /** Milliseconds since the epoch; default the request's clock. */
  readonly clock?: () => number;
}

/**
 * `submit_feedback {path, feedback}`: an adapter over `submitFeedback`. Stored as source `agent`
 * (status `pending`) in the project's feedback, where the docs team reads it through
 * `GET /v1/analytics/{projectId}/feedback` or `svc-mcp feedback list`.
 */
export function createFeedbackTool(deps: FeedbackToolDeps): DocsTool {
  return defineTool({
    key: "submit_feedback",
    name: () => SUBMIT_FEEDBACK,
    title: ({ siteName }) => `Send feedback on the ${siteTitle(siteName)}`,
    description: ({ siteName }) =>
      `Report a problem with a page of the ${productName(siteName)} documentation to its maintainers: wrong or outdated ` +
      "content, a broken example, something missing or unclear. Use it after you found the docs lacking while " +
      "answering; say what is wrong and what would fix it. Not for questions (search the docs instead).",
    input: feedbackInput,
    output: feedbackOutput,
    annotations: { title: "Send documentation feedback", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (args, ctx) => {
      const request = deps.clock === undefined ? ctx.request : { ...ctx.request, clock: deps.clock };
      // The page must be one this caller may read (as `ctx.request`, whatever the clock).
      const isPage = (path: string): boolean => isFeedbackPage({ runtime: ctx.runtime, request: ctx.request }, path);
      const stored = await submitFeedback({ request, store: deps.store, projectId: deps.projectId, isPage }, args);
      if (!stored.ok) return stored;
      const entry = stored.value;
      return success({
        content: [{ type: "text", text: `Thank you: feedback on ${entry.path} recorded as ${entry.id} for the docs maintainers.` }],
        structuredContent: { id: entry.id, path: entry.path, status: entry.status, createdAt: entry.createdAt },
      });
    },
  });
}
