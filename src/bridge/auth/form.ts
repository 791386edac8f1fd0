import { readRequestBody } from "@modelcontextprotocol/server";
import { LIMITS } from "../../limits.js";
import { OAuthError, OAuthErrorCode, RequestTooLargeError } from "./oauth-errors.js";

/** Parameters of an OAuth request; each appears at most once (RFC 6749 3.1, 3.2). */
export type OAuthParams = ReadonlyMap<string, string>;

/**
 * Parse `application/x-www-form-urlencoded` parameters. RFC 6749: "Request and response
 * parameters MUST NOT be included more than once", and empty values count as omitted.
 */
export function parseParams(search: URLSearchParams): OAuthParams {
  const out = new Map<string, string>();
  for (const [k, v] of search) {
    if (out.has(k)) throw new OAuthError(OAuthErrorCode.InvalidRequest, `parameter "${k}" is repeated`);
    if (v !== "") out.set(k, v);
  }
  return out;
}

/** Read a form-encoded POST body (size-limited), refusing other content types. */
export async function readForm(request: Request): Promise<OAuthParams> {
  const type = request.headers.get("content-type");
  if (type === null || !/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    throw new OAuthError(OAuthErrorCode.InvalidRequest, "Content-Type must be application/x-www-form-urlencoded");
  }
  const body = await readRequestBody(request, LIMITS.bridge.maxOAuthBodyBytes);
  if (body.tooLarge) throw new RequestTooLargeError(`the request body must not exceed ${LIMITS.bridge.maxOAuthBodyBytes} bytes`);
  return parseParams(new URLSearchParams(body.text));
}

/** A required parameter, or `invalid_request` naming it. */
export function required(params: OAuthParams, name: string): string {
  const v = params.get(name);
  if (v === undefined) throw new OAuthError(OAuthErrorCode.InvalidRequest, `parameter "${name}" is required`);
  return v;
}
