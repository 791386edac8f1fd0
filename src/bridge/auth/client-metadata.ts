import { z } from "zod";
import { LIMITS } from "../../limits.js";
import { MCP_SCOPE } from "../urls.js";
import { REGISTRABLE_GRANT_TYPES } from "./grants.js";
import { OAuthError, OAuthErrorCode } from "./oauth-errors.js";
import { isLoopbackHost } from "../../store/state/redirect-domains.js";

/**
 * RFC 7591 2 client metadata, as both ways a client describes itself send it: a registration
 * request (DCR) and a client metadata document (CIMD). Unknown members are ignored, as the RFC
 * requires. Each way adds its own members below.
 */

const text = (max: number) => z.string({ error: "must be a string" }).max(max, { error: `must be at most ${max} characters` });

/**
 * Control characters (Cc) and invisible format characters (Cf: bidirectional overrides and
 * isolates, zero-width spaces, tag characters...), but for the zero-width joiner and non-joiner,
 * which Persian, Indic scripts and emoji sequences need. The sign-in page shows `client_name`
 * to the person granting access: `Claude \u202eedoC` reads there as another client's name
 * (adversary round 56, F2).
 */
const HIDDEN_CHARACTER = /(?![\u200c\u200d])[\p{Cc}\p{Cf}]/u;

/** A high surrogate not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A client's name, shown at sign-in: refused when it holds a character that hides or reorders text. */
const clientName = text(200).superRefine((name, ctx) => {
  // Half of a UTF-16 pair is no character: the page would show it as U+FFFD (adversary round 66).
  const lone = LONE_SURROGATE.exec(name);
  if (lone !== null) {
    ctx.addIssue({ code: "custom", message: `holds U+${(lone[0].codePointAt(0) ?? 0).toString(16).toUpperCase()}, half of a UTF-16 surrogate pair without its other half, which is no character` });
    return;
  }
  const hidden = HIDDEN_CHARACTER.exec(name);
  if (hidden === null) return;
  const code = (hidden[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
  ctx.addIssue({ code: "custom", message: `holds U+${code}, a control or invisible formatting character; a client's name is shown at sign-in as it is written, and such characters can make it read as another name` });
});

/** A web page of the client (RFC 7591 2): http or https only, never `javascript:` or `data:` a page could be made to open. */
const webUri = text(2000).refine((uri) => URL.canParse(uri) && /^https?:$/.test(new URL(uri).protocol), { error: "must be an http or https URL" });

const SHARED = {
  redirect_uris: z
    .array(text(2000), { error: "must be an array of URIs" })
    .min(1, { error: "must list at least one redirect URI" })
    .max(LIMITS.oauth.maxRedirectUris, { error: `must list at most ${LIMITS.oauth.maxRedirectUris} redirect URIs` }),
  grant_types: z
    .array(z.string({ error: "must be a string" }).refine((g) => REGISTRABLE_GRANT_TYPES.includes(g), { error: `only ${REGISTRABLE_GRANT_TYPES.join(" and ")} are allowed` }), {
      error: "must be an array",
    })
    .default([...REGISTRABLE_GRANT_TYPES]),
  response_types: z.array(z.literal("code", { error: 'only "code" is supported' }), { error: "must be an array" }).default(["code"]),
  client_uri: webUri.optional(),
  logo_uri: webUri.optional(),
  // Neither is kept, but a client sending a script URL for either is refused all the same.
  policy_uri: webUri.optional(),
  tos_uri: webUri.optional(),
  scope: text(200)
    .refine((s) => s.split(" ").every((x) => x === "" || x === MCP_SCOPE), { error: `the only scope is ${MCP_SCOPE}` })
    .optional(),
  software_id: text(200).optional(),
  software_version: text(100).optional(),
};

/** What a registration request may carry (RFC 7591 2, OpenID Connect Registration 1.0 2). */
export const registrationSchema = z.object({
  ...SHARED,
  client_name: clientName.optional(),
  token_endpoint_auth_method: z
    .enum(["none", "client_secret_basic", "client_secret_post"], { error: "must be none, client_secret_basic or client_secret_post" })
    .default("client_secret_basic"),
  application_type: z.enum(["web", "native"], { error: 'must be "web" or "native"' }).optional(),
});

/**
 * What a client metadata document must carry (draft-ietf-oauth-client-id-metadata-document,
 * MCP "Client ID Metadata Documents": `client_id`, `client_name`, `redirect_uris`). Its clients
 * are public: there is no way to share a secret with a document.
 */
export const metadataDocumentSchema = z.object({
  ...SHARED,
  client_id: z.string({ error: "is required (the URL of this document)" }),
  client_name: clientName,
  token_endpoint_auth_method: z.literal("none", { error: "must be none" }).default("none"),
});

/**
 * The first problem of a failed parse as an OAuth error naming the member: problems with
 * `redirect_uris` are `invalid_redirect_uri` (RFC 7591 3.2.2), others `invalid_client_metadata`.
 */
export function metadataIssue(error: z.ZodError): OAuthError {
  const issue = error.issues[0];
  const path = issue?.path.join(".") ?? "";
  const message = `${path === "" ? "metadata" : path}: ${issue?.message ?? "invalid"}`;
  return path.startsWith("redirect_uris") ? new OAuthError(OAuthErrorCode.InvalidRedirectUri, message) : new OAuthError(OAuthErrorCode.InvalidClientMetadata, message);
}

export type ApplicationType = "web" | "native";

/** A loopback URL (any port) or a custom scheme: where a program on the person's computer listens. */
function nativeStyle(url: URL): boolean {
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme === "http" || scheme === "https") return isLoopbackHost(url.hostname);
  return true;
}

/**
 * OpenID Connect Registration 1.0 2 (`application_type`), which MCP asks clients to send: a
 * `web` client's redirect URIs are https on a real host; a `native` client's are loopback URLs
 * or custom schemes (RFC 8252). Without one, the type the URIs show is recorded (all loopback or
 * custom scheme: `native`; all https: `web`); a mix records none and is accepted as before,
 * since registration without it predates the rule. `uris` have passed the redirect-URI rules
 * (they parse).
 */
export function applicationType(declared: ApplicationType | undefined, uris: readonly string[]): ApplicationType | undefined {
  const native = uris.map((u) => nativeStyle(new URL(u)));
  if (declared === undefined) {
    if (native.every(Boolean)) return "native";
    if (!native.some(Boolean)) return "web";
    return undefined;
  }
  uris.forEach((uri, i) => {
    if (declared === "web" && native[i] === true) {
      throw new OAuthError(OAuthErrorCode.InvalidRedirectUri, 
        `redirect_uris.${i}: a web application's redirect URI must be https on a host that is not loopback ("${uri}"); register loopback and custom-scheme callbacks with application_type "native"`,
      );
    }
    if (declared === "native" && native[i] === false) {
      throw new OAuthError(OAuthErrorCode.InvalidRedirectUri, 
        `redirect_uris.${i}: a native application's redirect URI must be a loopback URL or a custom scheme ("${uri}"); register https callbacks with application_type "web"`,
      );
    }
  });
  return declared;
}

/** The descriptive members a client may give, kept as given. */
const DESCRIPTIVE = ["client_name", "client_uri", "logo_uri", "scope", "software_id", "software_version"] as const;
type Descriptive = Partial<Record<(typeof DESCRIPTIVE)[number], string>>;

/** The descriptive members `m` has (absent ones stay absent, not `undefined`). */
export function descriptiveMembers(m: Descriptive): Descriptive {
  const out: Record<string, string> = {};
  for (const key of DESCRIPTIVE) {
    const value = m[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
