import { z } from "zod";
import { LIMITS } from "../../limits.js";
import { parseAgentFeedback } from "../../store/feedback/input.js";
import type { FeedbackEntry } from "../../store/feedback/model.js";
import type { FeedbackStore } from "../../store/feedback/store.js";
import type { RequestContext } from "../../vfs/request-context.js";
import { notAPageIssue } from "./feedback-page.js";
import { type Outcome, failure, success } from "./outcome.js";

/** Where feedback goes: the project's store, beside the request's context (its clock dates the entry). */
export interface FeedbackContext {
  readonly request: RequestContext;
  readonly store: FeedbackStore;
  readonly projectId: string;
  /**
   * Whether a path (as stored, `/guides/setup`) names a page the caller may read
   * (`isFeedbackPage`); an entry on any other is refused (`notAPageIssue`). The MCP tool and the
   * HTTP API always give it; without it (a store's own tests) every well-formed path is taken.
   */
  readonly isPage?: (path: string) => boolean | Promise<boolean>;
}

// Types only here; lengths, blank text and path shape are checked by `parseAgentFeedback`, the
// one validation shared with every other way feedback comes in (the HTTP widgets' bodies).
export const feedbackInput = z.strictObject({
  path: z
    .string({ error: "must be a string" })
    .describe("The page the feedback is about: its path (/guides/setup) or its file in the docs filesystem (/guides/setup.mdx)."),
  feedback: z
    .string({ error: "must be a string" })
    .describe(`What is wrong, missing or unclear on that page, and what would fix it (at most ${LIMITS.feedback.maxCommentChars} characters).`),
});

export type FeedbackInput = z.infer<typeof feedbackInput>;

/** The feedback tool's `structuredContent`: the stored entry. */
export const feedbackOutput = z.object({
  id: z.string().describe("The entry's id."),
  path: z.string().describe("The page path it was stored under."),
  status: z.string().describe("Its review status: `pending` until the docs team reads it."),
  createdAt: z.string().describe("When it was recorded (ISO 8601, UTC)."),
});

/**
 * An agent reports a problem with a page: stored as source `agent` (status `pending`), resolved
 * once durable. Each bad argument is an issue (its message names it, as the HTTP API's do).
 */
export async function submitFeedback(context: FeedbackContext, input: FeedbackInput): Promise<Outcome<FeedbackEntry>> {
  const parsed = parseAgentFeedback(input);
  if (!parsed.ok) return failure(parsed.issues.map((i) => ({ message: i.message })));
  if (context.isPage !== undefined && !(await context.isPage(parsed.value.path))) return failure([{ message: notAPageIssue(parsed.value.path).message }]);
  return success(await context.store.insert({ ...parsed.value, projectId: context.projectId, createdAt: context.request.clock() }));
}
