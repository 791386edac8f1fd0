/**
 * An error that is an HTTP answer: thrown by a handler, rendered by the bridge's one error
 * handler (`bridge.ts`'s `onError`, as hono's `HTTPException`), whatever route or mounted app
 * threw it. It keeps its body's shape, which its clients parse: API errors `{error: {code,
 * message}}` (`api-error.ts`). OAuth errors are the MCP SDK's `OAuthError`, which cannot extend
 * this class; the same handler answers them through `auth/oauth-errors.ts`'s `oauthErrorAnswer`.
 */
export abstract class HttpError extends Error {
  /** The HTTP status it is answered with. */
  abstract get status(): number;

  /** The whole answer: status, body and headers (a challenge, `no-store`), plus `headers` (CORS). */
  abstract toResponse(headers?: Readonly<Record<string, string>>): Response;

  /**
   * hono's `HTTPException` contract: a Hono app with no error handler of ours (a mounted app
   * served alone, as tests do) answers the error with this, so it is the same answer everywhere.
   */
  getResponse(): Response {
    return this.toResponse();
  }
}
