import { type Parsed, parseCodeSnippet, parseContextual, parseRating } from "../../store/feedback/input.js";
import type { FieldIssue } from "../../store/feedback/issues.js";
import type { FeedbackEntry } from "../../store/feedback/model.js";
import { notAPageIssue } from "./feedback-page.js";
import { type Refusal, type StateOutcome, invalid, refused, success } from "./outcome.js";
import type { FeedbackContext } from "./submit-feedback.js";

/**
 * The docs-site widgets that send feedback, each with the parser of its body (the bodies are
 * documented in docs/feedback.md); the HTTP API serves one endpoint per widget, by this name.
 */
export const FEEDBACK_WIDGETS: Readonly<Record<"rating" | "contextual" | "code-snippet", (raw: unknown) => Parsed>> = {
  rating: parseRating,
  contextual: parseContextual,
  "code-snippet": parseCodeSnippet,
};

export type FeedbackWidget = keyof typeof FEEDBACK_WIDGETS;

/** A refusal because the caller's budget is spent: the words of the limit and when to come back. */
export type BudgetRefusal = Refusal<"rate_limited"> & { readonly retryAfterSec: number };

/**
 * Whether the caller may store one more entry of `bytes` (over HTTP, the per-address `feedback`
 * and `feedback-bytes` budgets): undefined once charged in full, else the refusal saying why.
 */
export type Admission = (cost: { readonly entries: number; readonly bytes: number }) => Promise<BudgetRefusal | undefined>;

/** Feedback from the public: the store and clock of `FeedbackContext`, and the caller's budget when it has one. */
export interface IngestContext extends FeedbackContext {
  readonly admit?: Admission;
}

/**
 * A widget's submission: checked against the widget's body (every bad field named), charged to
 * the caller's budget, then stored (status `pending`) and answered once durable.
 */
export async function ingestFeedback(
  context: IngestContext,
  widget: FeedbackWidget,
  body: unknown,
): Promise<StateOutcome<FeedbackEntry, BudgetRefusal, FieldIssue>> {
  const parsed = FEEDBACK_WIDGETS[widget](body);
  if (!parsed.ok) return invalid(parsed.issues);
  if (context.isPage !== undefined && !(await context.isPage(parsed.value.path))) return invalid([notAPageIssue(parsed.value.path)]);
  if (context.admit !== undefined) {
    // Charged after validation: the budgets bound what is stored, entries and bytes.
    const refusal = await context.admit({ entries: 1, bytes: Buffer.byteLength(JSON.stringify(parsed.value), "utf8") });
    if (refusal !== undefined) return refused(refusal);
  }
  return success(await context.store.insert({ ...parsed.value, projectId: context.projectId, createdAt: context.request.clock() }));
}
