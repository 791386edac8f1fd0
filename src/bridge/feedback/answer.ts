import type { FieldIssue } from "../../store/feedback/issues.js";
import type { BudgetRefusal } from "../../engine/use-cases/ingest-feedback.js";
import type { Refusal, StateOutcome } from "../../engine/use-cases/outcome.js";
import { ApiError } from "../middleware/api-error.js";
import { validationError } from "./validation-error.js";

/** Every refusal the feedback use cases give. */
type FeedbackRefusal = BudgetRefusal | Refusal<"invalid_cursor"> | Refusal<"not_found"> | Refusal<"invalid_transition">;

/**
 * A feedback use case's value, or the API error its issues or refusal mean (thrown, so the
 * bridge's one error handler writes it; the widgets' routes add their CORS headers).
 */
export function answer<T, R extends FeedbackRefusal>(outcome: StateOutcome<T, R, FieldIssue>): T {
  if (outcome.ok) return outcome.value;
  if ("issues" in outcome) throw validationError(outcome.issues);
  throw apiErrorOf(outcome.refusal);
}

/** The API's answer to each refusal: its status, code and, where one is at fault, parameter. */
function apiErrorOf(refusal: FeedbackRefusal): ApiError {
  switch (refusal.kind) {
    case "rate_limited":
      return new ApiError(429, "rate_limited", refusal.message, { headers: { "Retry-After": String(refusal.retryAfterSec) } });
    case "invalid_cursor":
      return new ApiError(400, "invalid_cursor", refusal.message, { param: "cursor" });
    case "not_found":
      return new ApiError(404, "feedback_not_found", refusal.message);
    case "invalid_transition":
      return new ApiError(409, "invalid_transition", refusal.message, { param: "status" });
  }
}
