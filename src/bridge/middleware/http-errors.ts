import { ApiError } from "./api-error.js";

/**
 * Error bodies of the bridge, made in one place. Three shapes, by who reads them:
 * - MCP endpoints answer JSON-RPC errors (`{jsonrpc, id, error: {code, message, data?}}`), the
 *   shape MCP clients already parse (and the SDK transport itself uses);
 * - OAuth endpoints (and the bearer challenge of `/authed/mcp`) answer RFC 6749 bodies
 *   (`{error, error_description}`), which OAuth clients parse;
 * - everything else answers the project's API shape (`{error: {code, message}}`), as the
 *   feedback API and the playground relay do.
 */

/** JSON-RPC error codes we answer with. -32000..-32099 are implementation-defined server errors. */
export const JSON_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  serverError: -32000,
  sessionNotFound: -32001,
  rateLimited: -32029,
} as const;

export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  options: { id?: string | number | null; data?: unknown; headers?: Record<string, string> } = {},
): Response {
  const error: Record<string, unknown> = { code, message };
  if (options.data !== undefined) error.data = options.data;
  return new Response(JSON.stringify({ jsonrpc: "2.0", id: options.id ?? null, error }), {
    status,
    headers: { "Content-Type": "application/json", ...options.headers },
  });
}

/** A JSON-RPC message id as JSON-RPC allows it (a string or an integer); null when it has none. */
export function jsonRpcIdOf(m: unknown): string | number | null {
  const id = typeof m === "object" && m !== null ? (m as { id?: unknown }).id : undefined;
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : null;
}

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * A refusal of a whole parsed JSON-RPC body. A single message gets one error object with its id;
 * a batch gets an array (JSON-RPC 2.0 section 6) with one error per message that needs an
 * answer: `errorOf(message)` when it has its own (an invalid member), else `error` for each
 * request with an id (notifications are never answered). A batch in which nothing needs an
 * answer still gets one error object: the HTTP status needs a body to explain it.
 */
export function jsonRpcRefusal(
  status: number,
  body: unknown,
  error: JsonRpcErrorObject,
  options: {
    errorOf?: (message: unknown) => JsonRpcErrorObject | undefined;
    headers?: Record<string, string>;
    /** The body's ids as the client wrote them (`rawIds` of its text): a numeric id is echoed so, not as JSON.parse read it (issue 25). */
    rawIds?: string | undefined | readonly (string | undefined)[];
  } = {},
): Response {
  const headers = { "Content-Type": "application/json", ...options.headers };
  const one = (m: unknown, e: JsonRpcErrorObject, raw: string | undefined) => {
    const id = raw !== undefined && typeof (m as { id?: unknown } | undefined)?.id === "number" ? raw : JSON.stringify(jsonRpcIdOf(m));
    return `{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify(e)}}`;
  };
  const raws = options.rawIds;
  if (!Array.isArray(body)) return new Response(one(body, options.errorOf?.(body) ?? error, typeof raws === "string" ? raws : undefined), { status, headers });
  const answers: string[] = [];
  body.forEach((m: unknown, k) => {
    const raw = Array.isArray(raws) ? (raws as readonly (string | undefined)[])[k] : undefined;
    const own = options.errorOf?.(m);
    if (own !== undefined) answers.push(one(m, own, raw));
    else if (isRequest(m)) answers.push(one(m, error, raw));
  });
  return new Response(answers.length > 0 ? `[${answers.join(",")}]` : one(undefined, error, undefined), { status, headers });
}

/** A request (a method and an id), as opposed to a notification or a response. */
function isRequest(m: unknown): boolean {
  return typeof m === "object" && m !== null && typeof (m as { method?: unknown }).method === "string" && jsonRpcIdOf(m) !== null;
}

/** An RFC 6749-shaped body (`{error, error_description}`, `no-store`); typed OAuth errors are `auth/oauth-errors.ts`. */
export function oauthErrorResponse(status: number, code: string, description: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: code, error_description: description }), {
    status,
    // RFC 6749 5.1/5.2: token responses (errors included) must not be cached.
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", Pragma: "no-cache", ...headers },
  });
}

/**
 * Whether a handler failed because the client went away mid-request (Node ends the body stream
 * with `aborted`, code ECONNRESET): the client's doing, not a bug, so it is answered as a 400
 * (which nobody will read) and not logged as an error.
 */
export function isClientAbort(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === "ECONNRESET";
}

/** The message of the 400 for a request whose client went away before its body ended. */
export const ABORTED_MESSAGE = "the request ended before its body did";

/** The project's API error body: `{"error": {"code", "message"}}`, written by `ApiError`, the one type of such errors. */
export function apiErrorResponse(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return new ApiError(status, code, message, { headers }).toResponse();
}

/** A JSON success body that must not be cached (token responses, registrations). */
export function noStoreJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", Pragma: "no-cache", ...headers },
  });
}
