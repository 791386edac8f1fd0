import { type FieldIssue, quote } from "../../store/feedback/issues.js";
import type { DocsContext } from "./docs-context.js";
import { readablePageAt } from "./preview-page.js";

/**
 * Whether a feedback entry's page (its path as stored, `/guides/setup`) is one the context's
 * reader may read: a page of their view, or an API page they get at that path. Feedback names a
 * page (issue 25: any path was stored, `/nope`, `/../../etc/passwd`, filling the dashboard with
 * pages that are not there).
 */
export function isFeedbackPage(docs: DocsContext, path: string): boolean {
  return readablePageAt(docs, path) !== undefined || docs.runtime.apiPage(path, docs.request) !== undefined;
}

/**
 * The refusal of a path that names no page the caller may read: the same words, code and status
 * for a page that does not exist and for one they may not read, so it tells nothing of the
 * pages they cannot see.
 */
export function notAPageIssue(path: string): FieldIssue {
  return { code: "invalid_parameter", param: "path", message: `path ${quote(path)} is not a page of this site` };
}
