import { LIMITS } from "../../limits.js";
import type { ClientMetadata, RegisteredClient } from "../../store/state/state-store.js";
import { descriptiveMembers, metadataDocumentSchema } from "./client-metadata.js";
import { DocumentFetchError, type DocumentFetcher } from "./metadata-document-fetch.js";
import { jsonComplexity, jsonComplexityMessage } from "../../json-complexity.js";
import { OAuthError, OAuthErrorCode } from "./oauth-errors.js";
import { checkRedirectUriForm } from "../../store/state/redirect-domains.js";

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document-00; MCP
 * 2025-11-25 and 2026-07-28 "Client Registration"): a `client_id` that is an https URL names a
 * JSON document describing the client, which we fetch, check and cache instead of asking the
 * client to register. Such clients are public: they sign in with PKCE and nothing else.
 */

/** A `client_id` that looks like a URL (a scheme and a colon): a metadata document's, or a mistake we explain. */
export function namesMetadataDocument(clientId: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(clientId);
}

/** draft 3: the rules a document's URL follows; the reason it does not, else undefined. */
export function clientIdUrlProblem(clientId: string): string | undefined {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return "it is not a URL";
  }
  if (url.protocol !== "https:") return "a client_id URL must use https";
  if (url.username !== "" || url.password !== "") return "a client_id URL must not contain a user name or password";
  if (clientId.includes("#")) return "a client_id URL must not contain a fragment";
  // The URL parser removes dot segments; the draft forbids them in what the client sent.
  const rawPath = clientId.slice(clientId.indexOf("//") + 2).replace(/^[^/?]*/, "").replace(/\?.*$/s, "");
  if (rawPath.split("/").some((s) => /^(?:\.|%2e){1,2}$/i.test(s))) return "a client_id URL must not contain . or .. path segments";
  if (url.pathname === "/" || url.pathname === "") return "a client_id URL must have a path (the document's own, such as /oauth/client.json)";
  return undefined;
}

export interface MetadataDocumentOptions {
  readonly fetch: DocumentFetcher;
  /** Keep the client a document describes beside registered ones (its codes and grants refer to it). */
  readonly remember: (clientId: string, metadata: ClientMetadata) => Promise<RegisteredClient>;
  readonly now: () => number;
  readonly maxEntries?: number;
  readonly defaultTtlMs?: number;
  readonly maxTtlMs?: number;
}

interface CacheEntry {
  readonly client: RegisteredClient;
  readonly expiresAt: number;
}

/**
 * The clients metadata documents describe, read through a bounded in-memory cache (each
 * process its own: a document is public, so there is nothing to share). A document is reused
 * for as long as its answer's `Cache-Control`/`Expires` allow, at most a day; `no-store` and
 * `no-cache` mean it is fetched at each use. Failures are not cached, so a client that fixes
 * its document is read again at once; concurrent uses of one URL share one fetch.
 */
export class MetadataDocumentClients {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<RegisteredClient>>();
  private readonly maxEntries: number;
  private readonly defaultTtlMs: number;
  private readonly maxTtlMs: number;

  constructor(private readonly options: MetadataDocumentOptions) {
    this.maxEntries = options.maxEntries ?? LIMITS.oauth.metadataDocumentCacheEntries;
    this.defaultTtlMs = options.defaultTtlMs ?? LIMITS.oauth.metadataDocumentDefaultTtlMs;
    this.maxTtlMs = options.maxTtlMs ?? LIMITS.oauth.metadataDocumentMaxTtlMs;
  }

  /** The client `clientId` (a URL) describes; `OAuthError` saying why when it cannot be used. */
  async client(clientId: string): Promise<RegisteredClient> {
    const problem = clientIdUrlProblem(clientId);
    if (problem !== undefined) throw refusal(clientId, problem);
    const cached = this.cache.get(clientId);
    if (cached !== undefined && cached.expiresAt > this.options.now()) {
      // Least recently used goes first: a hit moves to the end.
      this.cache.delete(clientId);
      this.cache.set(clientId, cached);
      return cached.client;
    }
    let pending = this.inFlight.get(clientId);
    if (pending === undefined) {
      pending = this.load(clientId).finally(() => this.inFlight.delete(clientId));
      this.inFlight.set(clientId, pending);
    }
    return pending;
  }

  private async load(clientId: string): Promise<RegisteredClient> {
    let fetched;
    try {
      fetched = await this.options.fetch(new URL(clientId));
    } catch (error) {
      if (error instanceof DocumentFetchError) throw refusal(clientId, `cannot fetch it: ${error.message}`);
      throw error;
    }
    const metadata = parseDocument(clientId, fetched.text);
    const client = await this.options.remember(clientId, metadata);
    const ttl = Math.min(fetched.freshForMs ?? this.defaultTtlMs, this.maxTtlMs);
    this.cache.delete(clientId);
    if (ttl > 0) {
      this.cache.set(clientId, { client, expiresAt: this.options.now() + ttl });
      for (const oldest of this.cache.keys()) {
        if (this.cache.size <= this.maxEntries) break;
        this.cache.delete(oldest);
      }
    }
    return client;
  }
}

function refusal(clientId: string, reason: string): OAuthError {
  return new OAuthError(OAuthErrorCode.InvalidClient, `the client metadata document ${clientId} cannot be used: ${reason}`);
}

/** The draft's shared-secret authentication methods: a public document cannot hold a secret. */
const SECRET_METHODS = ["client_secret_basic", "client_secret_post", "client_secret_jwt"];

/** Check a fetched document and keep the metadata we use (draft 4, MCP "For Authorization Servers"). */
function parseDocument(clientId: string, text: string): ClientMetadata {
  const fail = (reason: string): OAuthError => refusal(clientId, reason);
  // A client's document is the client's input like a body (`LIMITS.clientJson`): refused before parsing.
  const complex = jsonComplexity(text);
  if (complex !== undefined) throw fail(`it ${jsonComplexityMessage(complex)}`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw fail("it is not valid JSON");
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw fail("it is not a JSON object");
  const doc = raw as Record<string, unknown>;
  if (doc.client_id !== clientId) {
    throw fail(`its client_id (${JSON.stringify(doc.client_id ?? null)}) is not the URL it was fetched from`);
  }
  if ("client_secret" in doc || "client_secret_expires_at" in doc) throw fail("it must not contain client_secret or client_secret_expires_at");
  const method = doc.token_endpoint_auth_method;
  if (typeof method === "string" && SECRET_METHODS.includes(method)) throw fail(`token_endpoint_auth_method ${method} needs a shared secret, which a metadata document cannot carry; use none`);
  if (method === "private_key_jwt") throw fail("token_endpoint_auth_method private_key_jwt is not supported here; use none (the sign-in is bound by PKCE)");
  const parsed = metadataDocumentSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw fail(`${issue?.path.join(".") ?? "metadata"}: ${issue?.message ?? "invalid"}`);
  }
  const m = parsed.data;
  for (const uri of m.redirect_uris) {
    const form = checkRedirectUriForm(uri);
    if (!form.ok) throw fail(form.error);
  }
  return {
    redirect_uris: m.redirect_uris,
    token_endpoint_auth_method: "none",
    grant_types: m.grant_types,
    response_types: m.response_types,
    ...descriptiveMembers(m),
  };
}
