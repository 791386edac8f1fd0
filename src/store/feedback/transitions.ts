import type { FeedbackStatus } from "./model.js";

/**
 * Allowed status changes (the spec leaves them open). `pending` and `in_progress` are open
 * states, `resolved` and `dismissed` closed ones:
 * - an open entry may move to any other status;
 * - a closed entry may only be reopened (to `pending` or `in_progress`). Switching straight
 *   between `resolved` and `dismissed` would rewrite a decision; reopening first makes that a
 *   deliberate two-step change.
 * Setting the status an entry already has is always accepted and changes nothing, so a retried
 * request succeeds.
 */
export const TRANSITIONS: Readonly<Record<FeedbackStatus, readonly FeedbackStatus[]>> = {
  pending: ["in_progress", "resolved", "dismissed"],
  in_progress: ["pending", "resolved", "dismissed"],
  resolved: ["pending", "in_progress"],
  dismissed: ["pending", "in_progress"],
};

export function canTransition(from: FeedbackStatus, to: FeedbackStatus): boolean {
  return from === to || TRANSITIONS[from].includes(to);
}
