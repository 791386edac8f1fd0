import { ApiError } from "../middleware/api-error.js";
import { type FieldIssue, summarizeIssues } from "../../store/feedback/issues.js";

/** 400 for one or more invalid parameters: the first one's code and name, all in the message. */
export function validationError(issues: readonly FieldIssue[]): ApiError {
  const first = issues[0]!;
  return new ApiError(400, first.code, summarizeIssues(issues), { param: first.param, details: issues });
}
