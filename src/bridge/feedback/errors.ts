import { stateFault } from "../../store/errors.js";
import { FAULT_ANSWERS, type FaultLog } from "../middleware/fault-log.js";
import { HttpError } from "../middleware/http-error.js";
import { type FieldIssue, summarizeIssues } from "../../store/feedback/issues.js";

/**
 * An HTTP error with the feedback API's body: `{"error": {"code", "message", "param"?}}`.
 * `param` names the query parameter or body field at fault; validation errors also list every
 * problem in `details`, so one response names each invalid parameter.
 */
export class ApiError extends HttpError {
  constructor(
    override readonly status: number,
    readonly code: string,
    message: string,
    readonly options: {
      readonly param?: string;
      readonly details?: readonly FieldIssue[];
      readonly headers?: Readonly<Record<string, string>>;
    } = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  override toResponse(extraHeaders: Readonly<Record<string, string>> = {}): Response {
    const { param, details, headers } = this.options;
    const error = {
      code: this.code,
      message: this.message,
      ...(param === undefined ? {} : { param }),
      ...(details === undefined ? {} : { details }),
    };
    return Response.json({ error }, { status: this.status, headers: { ...headers, ...extraHeaders } });
  }
}

/** 400 for one or more invalid parameters: the first one's code and name, all in the message. */
export function validationError(issues: readonly FieldIssue[]): ApiError {
  const first = issues[0]!;
  return new ApiError(400, first.code, summarizeIssues(issues), { param: first.param, details: issues });
}

/**
 * Map what a handler threw to the API error it means; undefined for a bug (500). The use cases'
 * refusals are answered by `answer`; here only what can fail under any of them.
 */
export function toApiError(error: unknown, faults?: FaultLog): ApiError | undefined {
  if (error instanceof ApiError) return error;
  // Another process (the CLI) held a lock past the wait, the database is briefly away, or its
  // storage is full: worth a retry, answered as every other route of the bridge answers it.
  const fault = stateFault(error);
  if (fault !== undefined) {
    faults?.report(fault.kind, fault.code);
    const answer = FAULT_ANSWERS[fault.kind];
    return new ApiError(503, "state_unavailable", answer.message, { headers: { "Retry-After": String(answer.retryAfterSec) } });
  }
  return undefined;
}
