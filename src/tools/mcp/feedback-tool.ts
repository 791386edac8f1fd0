import { z } from "zod";
import { LIMITS } from "../../limits.js";
import { submitAgentFeedback } from "../../store/feedback/agent-feedback.js";
import { FeedbackInputError } from "../../store/feedback/issues.js";
import type { FeedbackStore } from "../../store/feedback/store.js";
import { invalidParams } from "./issues.js";
import { type DocsTool, defineTool } from "./tool.js";
import { siteTitle } from "../tool-names.js";

/** The spec's name for the tool (not site-suffixed: agents and docs refer to it by this name). */
export const SUBMIT_FEEDBACK = "submit_feedback";

export interface FeedbackToolDeps {
  readonly store: FeedbackStore;
  readonly projectId: string;
  /** Milliseconds since the epoch; default the request's clock. */
  readonly clock?: () => number;
}

// Types only here; lengths, blank text and path shape are checked by `submitAgentFeedback`,
// the one validation shared with every other way feedback comes in.
const input = z.strictObject({
  path: z
    .string({ error: "must be a string" })
    .describe("The page the feedback is about: its path (/guides/setup) or its file in the docs filesystem (/guides/setup.mdx)."),
  feedback: z
    .string({ error: "must be a string" })
    .describe(`What is wrong, missing or unclear on that page, and what would fix it (at most ${LIMITS.feedback.maxCommentChars} characters).`),
});

/**
 * `submit_feedback {path, feedback}`: an agent reports a problem with a page. Stored as source
 * `agent` (status `pending`) in the project's feedback, where the docs team reads it through
 * `GET /v1/analytics/{projectId}/feedback` or `svc-mcp feedback list`.
 */
export function createFeedbackTool(deps: FeedbackToolDeps): DocsTool {
  return defineTool({
    key: "submit_feedback",
    name: () => SUBMIT_FEEDBACK,
    title: ({ siteName }) => `Send feedback on the ${siteTitle(siteName)}`,
    description: ({ siteName }) =>
      `Report a problem with a page of the ${siteName} documentation to its maintainers: wrong or outdated ` +
      "content, a broken example, something missing or unclear. Use it after you found the docs lacking while " +
      "answering; say what is wrong and what would fix it. Not for questions (search the docs instead).",
    input,
    annotations: { title: "Send documentation feedback", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (args, ctx) => {
      let entry;
      try {
        entry = await submitAgentFeedback(deps.store, deps.projectId, args, (deps.clock ?? ctx.request.clock)());
      } catch (error) {
        if (error instanceof FeedbackInputError) throw invalidParams(`Invalid arguments for ${SUBMIT_FEEDBACK}: ${error.message}`);
        throw error;
      }
      return {
        content: [{ type: "text", text: `Thank you: feedback on ${entry.path} recorded as ${entry.id} for the docs maintainers.` }],
        structuredContent: { id: entry.id, path: entry.path, status: entry.status, createdAt: entry.createdAt },
      };
    },
  });
}
