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

/** An RFC 6749-shaped error; thrown by handlers and turned into a response by the app. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "OAuthError";
  }

  toResponse(): Response {
    return oauthErrorResponse(this.status, this.code, this.description, this.headers);
  }
}

export function oauthErrorResponse(status: number, code: string, description: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: code, error_description: description }), {
    status,
    // RFC 6749 5.1/5.2: token responses (errors included) must not be cached.
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", Pragma: "no-cache", ...headers },
  });
}

/** The project's API error body: `{"error": {"code", "message"}}`. */
export function apiErrorResponse(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers: { "Content-Type": "application/json", ...headers } });
}

/** A JSON success body that must not be cached (token responses, registrations). */
export function noStoreJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", Pragma: "no-cache", ...headers },
  });
}
