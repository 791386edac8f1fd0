import { readRequestBody } from "@modelcontextprotocol/sdk/server/requestBody.js";
import { z } from "zod";
import { LIMITS } from "../../limits.js";
import type { ClientMetadata } from "../../store/state/state-store.js";
import type { BridgeDeps } from "../context.js";
import { OAuthError, noStoreJson } from "../http-errors.js";
import { MCP_SCOPE } from "../urls.js";
import { checkRedirectUri } from "./redirect-domains.js";

const text = (max: number) => z.string({ error: "must be a string" }).max(max, { error: `must be at most ${max} characters` });

/** RFC 7591 2: the metadata we accept. Unknown members are ignored, as the RFC requires. */
const metadataSchema = z.object({
  redirect_uris: z
    .array(text(2000), { error: "must be an array of URIs" })
    .min(1, { error: "must list at least one redirect URI" })
    .max(LIMITS.oauth.maxRedirectUris, { error: `must list at most ${LIMITS.oauth.maxRedirectUris} redirect URIs` }),
  token_endpoint_auth_method: z
    .enum(["none", "client_secret_basic", "client_secret_post"], { error: "must be none, client_secret_basic or client_secret_post" })
    .default("client_secret_basic"),
  grant_types: z
    .array(z.enum(["authorization_code", "refresh_token"], { error: "only authorization_code and refresh_token are allowed" }), {
      error: "must be an array",
    })
    .default(["authorization_code", "refresh_token"]),
  response_types: z.array(z.literal("code", { error: 'only "code" is supported' }), { error: "must be an array" }).default(["code"]),
  client_name: text(200).optional(),
  client_uri: text(2000).optional(),
  logo_uri: text(2000).optional(),
  scope: text(200).optional(),
  software_id: text(200).optional(),
  software_version: text(100).optional(),
});

/**
 * `POST /authed/mcp/oauth/register`: RFC 7591 dynamic client registration, so an AI tool can
 * sign people in without the owner pre-registering it. Every redirect URI must pass the
 * redirect-domain rules now (and again at each sign-in, in case the owner removed the domain).
 */
export async function handleRegistration(deps: BridgeDeps, request: Request): Promise<Response> {
  const type = request.headers.get("content-type");
  if (type === null || !/^application\/json\s*(;|$)/i.test(type)) {
    throw new OAuthError(400, "invalid_client_metadata", "Content-Type must be application/json");
  }
  const body = await readRequestBody(request, LIMITS.bridge.maxOAuthBodyBytes);
  if (body.tooLarge) throw new OAuthError(413, "invalid_client_metadata", `the request body must not exceed ${LIMITS.bridge.maxOAuthBodyBytes} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(body.text);
  } catch (error) {
    throw new OAuthError(400, "invalid_client_metadata", `the body is not valid JSON (${(error as Error).message})`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new OAuthError(400, "invalid_client_metadata", "the body must be a JSON object");
  const parsed = metadataSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") ?? "";
    const code = path.startsWith("redirect_uris") ? "invalid_redirect_uri" : "invalid_client_metadata";
    throw new OAuthError(400, code, `${path === "" ? "metadata" : path}: ${issue?.message ?? "invalid"}`);
  }
  const m = parsed.data;
  if (m.scope !== undefined && m.scope.split(" ").some((s) => s !== "" && s !== MCP_SCOPE)) {
    throw new OAuthError(400, "invalid_client_metadata", `scope: the only scope is ${MCP_SCOPE}`);
  }
  const domains = await deps.state.redirectDomains();
  for (const uri of m.redirect_uris) {
    const check = checkRedirectUri(uri, domains);
    if (!check.ok) throw new OAuthError(400, "invalid_redirect_uri", check.error);
  }
  const metadata: ClientMetadata = {
    redirect_uris: m.redirect_uris,
    token_endpoint_auth_method: m.token_endpoint_auth_method,
    grant_types: m.grant_types,
    response_types: m.response_types,
    ...(m.client_name !== undefined ? { client_name: m.client_name } : {}),
    ...(m.client_uri !== undefined ? { client_uri: m.client_uri } : {}),
    ...(m.logo_uri !== undefined ? { logo_uri: m.logo_uri } : {}),
    ...(m.scope !== undefined ? { scope: m.scope } : {}),
    ...(m.software_id !== undefined ? { software_id: m.software_id } : {}),
    ...(m.software_version !== undefined ? { software_version: m.software_version } : {}),
  };
  const { client, clientSecret } = await deps.state.registerClient(metadata);
  return noStoreJson(201, {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.createdAt / 1000),
    ...(clientSecret !== undefined ? { client_secret: clientSecret, client_secret_expires_at: 0 } : {}),
    ...metadata,
  });
}
