import { LIMITS } from "../../limits.js";
import type { RegisteredClient } from "../../store/state/state-store.js";
import type { BridgeDeps } from "../context.js";
import { SIGN_INS_IN_PROGRESS } from "./password-turns.js";
import type { BridgeUrls } from "../urls.js";
import { checkResource, grantedScope } from "./scope-and-resource.js";
import { type OAuthParams, parseParams, readForm } from "./form.js";
import { errorPage, loginPage } from "./login-page.js";
import { namesMetadataDocument } from "./metadata-documents.js";
import { OAuthError, OAuthErrorCode, oauthErrorStatus } from "./oauth-errors.js";
import { checkRedirectUri, isLoopbackHost } from "../../store/state/redirect-domains.js";

/** RFC 7636 4.2: an S256 challenge is 43 base64url characters. */
const CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;

/** A request that may be answered by redirecting to the tool (its client and redirect URI are sound). */
interface ValidRequest {
  readonly client: RegisteredClient;
  readonly redirectUri: string;
  readonly state: string | undefined;
  readonly codeChallenge: string;
  readonly scope: string;
  readonly resource: string;
}

/**
 * `GET|POST /authed/mcp/oauth/authorize`: the authorization-code flow with PKCE S256 and a
 * sign-in page for people. GET shows the page; POST signs in and redirects back to the tool
 * with a one-time code (or with `error=access_denied` when the person cancels).
 *
 * RFC 6749 4.1.2.1: while the client or its redirect URI is in doubt, errors are shown on a page
 * and never redirected; once both are sound, errors go back to the tool as query parameters.
 */
export async function handleAuthorize(deps: BridgeDeps, request: Request, urls: BridgeUrls, caller: string): Promise<Response> {
  const siteName = deps.runtime.site.config.name;
  let params: OAuthParams;
  try {
    params = request.method === "POST" ? await readForm(request) : parseParams(new URL(request.url).searchParams);
  } catch (error) {
    if (error instanceof OAuthError) return errorPage(oauthErrorStatus(error), siteName, error.message);
    throw error;
  }
  const checked = await validate(deps, params, urls);
  if (checked instanceof Response) return checked;
  const { client, redirectUri } = checked;
  const returnTo = new URL(redirectUri).host || redirectUri;
  const pageInput = { siteName, clientName: client.metadata.client_name, returnTo, params, notice: notice(client, redirectUri) };

  if (request.method !== "POST") return loginPage(200, pageInput);
  if (params.get("action") === "deny") return redirect(checked, urls, new OAuthError(OAuthErrorCode.AccessDenied, "the person cancelled the sign-in"));

  const username = params.get("username")?.trim() ?? "";
  const password = params.get("password") ?? "";
  if (username === "" || password === "") return loginPage(400, { ...pageInput, username, error: "Enter your user name and password." });
  // Every attempt takes a unit before the password is checked, and a success gives it back: the
  // limit counts failures, yet concurrent guesses cannot all pass a check made before any failed.
  const charge = { key: `login:${username.toLowerCase()}`, limit: LIMITS.oauth.maxFailedLoginsPerHour, what: "failed sign-ins per hour" };
  const attempt = await deps.limiter.take([charge]);
  if (!attempt.ok) {
    const minutes = Math.ceil(attempt.retryAfterSec / 60);
    return loginPage(429, { ...pageInput, username, error: `Too many failed sign-ins for this account. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` });
  }
  const verified = await deps.passwordTurns.run(caller, () => deps.state.verifyUser(username, password));
  if (verified === undefined) {
    // Not checked, so no failed attempt of the account's.
    await deps.limiter.refund([charge]);
    return loginPage(429, { ...pageInput, username, error: SIGN_INS_IN_PROGRESS });
  }
  const user = verified.value;
  if (user === undefined) return loginPage(401, { ...pageInput, username, error: "Wrong user name or password." });
  await deps.limiter.refund([charge]);
  const code = await deps.state.createAuthCode({
    clientId: client.clientId,
    userName: user.name,
    redirectUri,
    codeChallenge: checked.codeChallenge,
    scope: checked.scope,
    resource: checked.resource,
  });
  deps.log(`signed in ${user.name} for ${client.metadata.client_name ?? client.clientId}`);
  return redirect(checked, urls, { code });
}

/**
 * What the person should weigh before signing in (MCP "Client ID Metadata Document Security":
 * the redirect URI's host is shown, and loopback ones get a warning, since any program on the
 * computer can listen there and claim any name): undefined when there is nothing to add.
 */
function notice(client: RegisteredClient, redirectUri: string): string | undefined {
  const url = new URL(redirectUri);
  const local = (url.protocol === "http:" || url.protocol === "https:") && isLoopbackHost(url.hostname);
  const from = namesMetadataDocument(client.clientId) ? ` Its description comes from ${new URL(client.clientId).host}.` : "";
  if (!local) return from === "" ? undefined : from.trim();
  return `It returns to a program on this computer (${url.host}).${from} Continue only if you started this sign-in yourself.`;
}

async function validate(deps: BridgeDeps, params: OAuthParams, urls: BridgeUrls): Promise<ValidRequest | Response> {
  const siteName = deps.runtime.site.config.name;
  const fail = (message: string): Response => errorPage(400, siteName, message);
  const clientId = params.get("client_id");
  if (clientId === undefined) return fail("The sign-in link is incomplete: client_id is missing.");
  let client: RegisteredClient | undefined;
  try {
    client = await deps.clients.find(clientId);
  } catch (error) {
    if (error instanceof OAuthError && error.code === OAuthErrorCode.InvalidClient) return fail(`This tool cannot sign in: ${error.message}.`);
    throw error;
  }
  if (client === undefined) return fail("The tool is not registered here (unknown client_id). It must register again.");
  const registered = client.metadata.redirect_uris;
  const requested = params.get("redirect_uri");
  if (requested === undefined && registered.length !== 1) return fail("The sign-in link is incomplete: redirect_uri is missing.");
  const redirectUri = requested ?? (registered[0] as string);
  if (!registered.some((r) => sameRedirectUri(r, redirectUri))) return fail(`redirect_uri ${redirectUri} is not one the tool registered.`);
  // Checked at every sign-in: a domain the owner removed stops working at once.
  const allowed = checkRedirectUri(redirectUri, await deps.state.redirectDomains());
  if (!allowed.ok) return fail(`This tool cannot sign in: ${allowed.error}. The documentation owner can add the domain.`);

  const base = { client, redirectUri, state: params.get("state") };
  try {
    if (params.get("response_type") !== "code") throw new OAuthError(OAuthErrorCode.UnsupportedResponseType, "response_type must be code");
    const challenge = params.get("code_challenge");
    if (challenge === undefined) throw new OAuthError(OAuthErrorCode.InvalidRequest, "code_challenge is required (PKCE with S256)");
    if (params.get("code_challenge_method") !== "S256") throw new OAuthError(OAuthErrorCode.InvalidRequest, "code_challenge_method must be S256");
    if (!CHALLENGE_RE.test(challenge)) throw new OAuthError(OAuthErrorCode.InvalidRequest, "code_challenge must be 43 base64url characters (S256)");
    const scope = grantedScope(params.get("scope"));
    const resource = checkResource(params.get("resource"), urls.resource);
    return { ...base, codeChallenge: challenge, scope, resource };
  } catch (error) {
    // The client and its redirect URI are sound: the tool hears of the error (RFC 6749 4.1.2.1).
    if (error instanceof OAuthError) return redirect(base, urls, error);
    throw error;
  }
}

/**
 * Redirect URIs match exactly, except that a loopback URI may use any port (RFC 8252 7.3:
 * native apps listen on an ephemeral port).
 */
function sameRedirectUri(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  try {
    const a = new URL(registered);
    const b = new URL(requested);
    if (!isLoopbackHost(a.hostname) || a.protocol !== "http:") return false;
    a.port = "";
    b.port = "";
    return a.href === b.href;
  } catch {
    return false;
  }
}

/**
 * 302 back to the tool with a code or an error (`error`, `error_description`), its `state`, and
 * `iss` (RFC 9207, the mix-up defence; on errors too, as MCP asks).
 */
function redirect(to: { redirectUri: string; state: string | undefined }, urls: BridgeUrls, outcome: { code: string } | OAuthError): Response {
  const target = new URL(to.redirectUri);
  const params = outcome instanceof OAuthError ? outcome.toResponseObject() : outcome;
  for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
  if (to.state !== undefined) target.searchParams.set("state", to.state);
  target.searchParams.set("iss", urls.issuer);
  return new Response(null, { status: 302, headers: { Location: target.href, "Cache-Control": "no-store" } });
}
