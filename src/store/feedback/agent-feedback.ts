import { FeedbackInputError } from "./issues.js";
import { parseAgentFeedback } from "./input.js";
import type { FeedbackEntry } from "./model.js";
import type { FeedbackStore } from "./store.js";

/**
 * The logic of the MCP tool `submit_feedback {path, feedback}`: validate, store as source
 * `agent`, resolve once durable. Throws FeedbackInputError naming each bad argument (the tool
 * turns it into an InvalidParams error).
 */
export async function submitAgentFeedback(
  store: FeedbackStore,
  projectId: string,
  args: unknown,
  now: number = Date.now(),
): Promise<FeedbackEntry> {
  const parsed = parseAgentFeedback(args);
  if (!parsed.ok) throw new FeedbackInputError(parsed.issues);
  return store.insert({ ...parsed.value, projectId, createdAt: now });
}
