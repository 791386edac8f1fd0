import { LIMITS } from "../../limits.js";
import type { ClientMetadata } from "../../store/state/state-store.js";
import type { BridgeDeps } from "../context.js";
import { unsupportedCharsetMessage } from "../middleware/body-charset.js";
import { noStoreJson } from "../middleware/http-errors.js";
import { readRequestText } from "../middleware/read-body.js";
import { applicationType, descriptiveMembers, metadataIssue, registrationSchema } from "./client-metadata.js";
import { jsonComplexity, jsonComplexityMessage } from "../../json-complexity.js";
import { OAuthError, OAuthErrorCode, RequestTooLargeError } from "./oauth-errors.js";
import { checkRedirectUri } from "../../store/state/redirect-domains.js";

/**
 * `POST /authed/mcp/oauth/register`: RFC 7591 dynamic client registration, kept for AI tools
 * that predate client ID metadata documents (MCP 2025-11-25 deprecates it in their favour).
 * Every redirect URI must pass the redirect-domain rules now (and again at each sign-in, in case
 * the owner removed the domain), and suit the client's `application_type`.
 */
export async function handleRegistration(deps: BridgeDeps, request: Request): Promise<Response> {
  const type = request.headers.get("content-type");
  if (type === null || !/^application\/json\s*(;|$)/i.test(type)) throw new OAuthError(OAuthErrorCode.InvalidClientMetadata, "Content-Type must be application/json");
  // Decoded by the declared charset, as every JSON body here (issue 25: the SDK's reader took UTF-16 as UTF-8).
  const body = await readRequestText(request, LIMITS.bridge.maxOAuthBodyBytes);
  if (body.tooLarge) throw new RequestTooLargeError(`the request body must not exceed ${LIMITS.bridge.maxOAuthBodyBytes} bytes`);
  if ("undecodable" in body) {
    const d = body.undecodable;
    throw new OAuthError(OAuthErrorCode.InvalidClientMetadata, d.problem === "unsupported" ? unsupportedCharsetMessage(d.charset) : `the body is not valid ${d.encoding}`);
  }
  // Before parsing: the registration schema recurses (`LIMITS.clientJson`).
  const complex = jsonComplexity(body.text);
  if (complex !== undefined) throw new OAuthError(OAuthErrorCode.InvalidClientMetadata, `the body ${jsonComplexityMessage(complex)}`);
  let raw: unknown;
  try {
    raw = JSON.parse(body.text);
  } catch (error) {
    throw new OAuthError(OAuthErrorCode.InvalidClientMetadata, `the body is not valid JSON (${(error as Error).message})`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new OAuthError(OAuthErrorCode.InvalidClientMetadata, "the body must be a JSON object");
  const parsed = registrationSchema.safeParse(raw);
  if (!parsed.success) throw metadataIssue(parsed.error);
  const m = parsed.data;
  const domains = await deps.state.redirectDomains();
  for (const uri of m.redirect_uris) {
    const check = checkRedirectUri(uri, domains);
    if (!check.ok) throw new OAuthError(OAuthErrorCode.InvalidRedirectUri, check.error);
  }
  const application = applicationType(m.application_type, m.redirect_uris);
  const metadata: ClientMetadata = {
    redirect_uris: m.redirect_uris,
    token_endpoint_auth_method: m.token_endpoint_auth_method,
    grant_types: m.grant_types,
    response_types: m.response_types,
    ...(application !== undefined ? { application_type: application } : {}),
    ...descriptiveMembers(m),
  };
  const { client, clientSecret } = await deps.state.registerClient(metadata);
  return noStoreJson(201, {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.createdAt / 1000),
    ...(clientSecret !== undefined ? { client_secret: clientSecret, client_secret_expires_at: 0 } : {}),
    ...metadata,
  });
}
