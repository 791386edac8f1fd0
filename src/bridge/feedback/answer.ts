import type { FieldIssue } from "../../store/feedback/issues.js";
import type { Refusal, StateOutcome } from "../../tools/use-cases/outcome.js";
import { ApiError, validationError } from "./errors.js";

/** The refusals the feedback use cases give, and the API error each is answered with. */
const REFUSALS: Readonly<Record<string, (refusal: Refusal) => ApiError>> = {
  rate_limited: (r) => new ApiError(429, "rate_limited", r.message, { headers: { "Retry-After": String((r as Refusal & { retryAfterSec: number }).retryAfterSec) } }),
  invalid_cursor: (r) => new ApiError(400, "invalid_cursor", r.message, { param: "cursor" }),
  not_found: (r) => new ApiError(404, "feedback_not_found", r.message),
  invalid_transition: (r) => new ApiError(409, "invalid_transition", r.message, { param: "status" }),
};

/**
 * A feedback use case's value, or the API error its issues or refusal mean (thrown, so the
 * app's one error handler writes it, with CORS headers on the widgets' endpoints).
 */
export function answer<T, R extends Refusal>(outcome: StateOutcome<T, R, FieldIssue>): T {
  if (outcome.ok) return outcome.value;
  if ("issues" in outcome) throw validationError(outcome.issues);
  const refusal: Refusal = outcome.refusal;
  const toError = REFUSALS[refusal.kind];
  // A kind without an answer is a bug (a use case learned a refusal this table lacks): a 500.
  if (toError === undefined) throw new Error(`feedback API: no answer for refusal ${refusal.kind}`);
  throw toError(refusal);
}
