import { isTransientStoreError } from "../../store/errors.js";
import { type FieldIssue, summarizeIssues } from "../../store/feedback/issues.js";

/**
 * An HTTP error with the feedback API's body: `{"error": {"code", "message", "param"?}}`.
 * `param` names the query parameter or body field at fault; validation errors also list every
 * problem in `details`, so one response names each invalid parameter.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
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

  toResponse(extraHeaders: Readonly<Record<string, string>> = {}): Response {
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
export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  // Another process (the CLI) held a lock past the wait, or the database is briefly away: worth a retry.
  if (isTransientStoreError(error)) {
    return new ApiError(503, "busy", "the feedback database is busy; retry shortly", { headers: { "Retry-After": "1" } });
  }
  return undefined;
}
