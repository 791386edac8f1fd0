import { HttpError } from "./http-error.js";
import type { FieldIssue } from "../../store/feedback/issues.js";

/**
 * An HTTP error with the project's API body: `{"error": {"code", "message", "param"?}}`, as the
 * feedback API, the preview's calls, the relay and every path that is neither MCP nor OAuth
 * answer. `param` names the query parameter or body field at fault; validation errors also list
 * every problem in `details`, so one response names each invalid parameter. Thrown by a handler,
 * it is rendered by the bridge's one error handler (`bridge.ts`).
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
