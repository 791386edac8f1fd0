/**
 * The bridge's state: site settings, redirect domains, client credentials, accounts, OAuth
 * clients, codes and tokens. Asynchronous so a multi-instance deployment can move it to a
 * network database (PostgreSQL) behind the same interface; `SqliteStateStore` is the embedded
 * implementation. Every method reads the current rows, so a change made by another process
 * (a CLI command while the server runs) applies to the next request.
 */
export interface StateStore
  extends SettingsStore,
    RedirectDomainStore,
    CredentialStore,
    UserStore,
    OAuthClientStore,
    GrantStore {
  close(): Promise<void>;
}

/** The site's auth setting. The same values as `AuthMode` in `src/vfs/access.ts` (the store is
 *  a foundation layer and imports nothing above it; the bridge passes one to the other). */
export const AUTH_MODES = ["public", "partial", "full"] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** The owner's MCP toggle. Unset means the default for the site's auth mode. */
export type McpToggle = "enabled" | "disabled";

export interface SiteSettings {
  /** The site's auth setting (`svc-mcp mcp auth`); `public` until set. */
  readonly authMode: AuthMode;
  /** `svc-mcp mcp enable|disable`; undefined until the owner chooses. */
  readonly mcp: McpToggle | undefined;
}

export interface SettingsStore {
  settings(): Promise<SiteSettings>;
  setAuthMode(mode: AuthMode): Promise<void>;
  setMcp(toggle: McpToggle): Promise<void>;
}

export interface RedirectDomainStore {
  /** Entries in the normalized form `normalizeRedirectDomain` gives, sorted. */
  redirectDomains(): Promise<string[]>;
  /** False when the entry was already listed. */
  addRedirectDomain(entry: string): Promise<boolean>;
  /** False when the entry was not listed. */
  removeRedirectDomain(entry: string): Promise<boolean>;
}

/** A client credential as `credentials list` shows it: never its secret. */
export interface CredentialInfo {
  readonly clientId: string;
  readonly label: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
}

export interface CredentialStore {
  /** A new credential; the secret exists outside the caller only now. */
  createCredential(label: string): Promise<{ info: CredentialInfo; clientSecret: string }>;
  credentials(): Promise<CredentialInfo[]>;
  /** Delete a credential and every token issued to it; undefined when there was none. */
  deleteCredential(clientId: string): Promise<CredentialInfo | undefined>;
  /** The credential when `clientSecret` is its secret (constant-time), else undefined. */
  verifyCredential(clientId: string, clientSecret: string): Promise<CredentialInfo | undefined>;
}

/** A person who signs in on the login page. */
export interface UserInfo {
  /** Lowercase: names are case-insensitive. */
  readonly name: string;
  readonly groups: readonly string[];
  readonly createdAt: number;
}

export interface UserStore {
  /** Throws `StateConflictError` when the name is taken. */
  addUser(name: string, password: string, groups: readonly string[]): Promise<UserInfo>;
  /** Remove an account and every token issued to it; false when there was none. */
  removeUser(name: string): Promise<boolean>;
  users(): Promise<UserInfo[]>;
  user(name: string): Promise<UserInfo | undefined>;
  /** The account when the password is right; undefined otherwise (same time either way). */
  verifyUser(name: string, password: string): Promise<UserInfo | undefined>;
}

/** RFC 7591 client metadata we keep (validated by the registration endpoint, or read from a metadata document). */
export interface ClientMetadata {
  readonly redirect_uris: readonly string[];
  readonly token_endpoint_auth_method: "none" | "client_secret_basic" | "client_secret_post";
  readonly grant_types: readonly string[];
  readonly response_types: readonly string[];
  /** OpenID Connect Registration 1.0: `web` or `native` (declared, or what the redirect URIs show). */
  readonly application_type?: "web" | "native";
  readonly client_name?: string;
  readonly client_uri?: string;
  readonly logo_uri?: string;
  readonly scope?: string;
  readonly software_id?: string;
  readonly software_version?: string;
}

/** A dynamically registered OAuth client (an AI tool that signs people in). */
export interface RegisteredClient {
  readonly clientId: string;
  readonly metadata: ClientMetadata;
  readonly createdAt: number;
}

export interface OAuthClientStore {
  /** Register a client; confidential clients (auth method other than `none`) get a secret. */
  registerClient(metadata: ClientMetadata): Promise<{ client: RegisteredClient; clientSecret: string | undefined }>;
  client(clientId: string): Promise<RegisteredClient | undefined>;
  /** Whether `clientSecret` is the registered client's secret (constant-time). */
  verifyClientSecret(clientId: string, clientSecret: string): Promise<boolean>;
  /**
   * Keep the client a metadata document describes (CIMD: `clientId` is the document's https
   * URL), inserting it or replacing its metadata, never with a secret: its codes and grants
   * refer to it like a registered client's. Its `createdAt` is when it was first kept.
   */
  rememberDocumentClient(clientId: string, metadata: ClientMetadata): Promise<RegisteredClient>;
}

/** Whom a token speaks for. */
export type Subject =
  | { readonly kind: "credential"; readonly clientId: string }
  | { readonly kind: "user"; readonly name: string; readonly groups: readonly string[] };

/** The pair a token request returns. */
export interface IssuedTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** Seconds until the access token expires. */
  readonly expiresIn: number;
  readonly scope: string;
}

/** What an authorization code remembers between the login page and the token request. */
export interface AuthCodeRequest {
  readonly clientId: string;
  readonly userName: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scope: string;
  readonly resource: string;
}

/**
 * `reused`: the code was redeemed before and tokens were issued for it (now revoked); `spent`:
 * it was presented before by an attempt that got no token (another client, a wrong verifier),
 * which used it up all the same.
 */
export type CodeRedemption =
  | { readonly ok: true; readonly request: AuthCodeRequest }
  | { readonly ok: false; readonly reason: "unknown" | "expired" | "reused" | "spent" };

export type RefreshResult =
  | { readonly ok: true; readonly tokens: IssuedTokens; readonly subject: Subject }
  | { readonly ok: false; readonly reason: "unknown" | "expired" | "reused" | "wrong_client" };

export type AccessCheck =
  | {
      readonly ok: true;
      readonly subject: Subject;
      /** The OAuth client the token was issued to. */
      readonly clientId: string;
      readonly scope: string;
      readonly resource: string;
      /** Seconds since the epoch. */
      readonly expiresAt: number;
    }
  | { readonly ok: false; readonly reason: "unknown" | "expired" };

export interface GrantStore {
  /** Issue an access and a refresh token for a new grant. */
  issueTokens(grant: { subject: Subject; clientId: string; scope: string; resource: string; fromCode?: string }): Promise<IssuedTokens>;
  /** Store a one-time authorization code; returns the code. */
  createAuthCode(request: AuthCodeRequest): Promise<string>;
  /**
   * Use a code once. A second use is `reused` and revokes the tokens the first use produced
   * (RFC 6749 4.1.2: the code was stolen or replayed), or `spent` when the first use got none.
   */
  redeemAuthCode(code: string): Promise<CodeRedemption>;
  /**
   * Rotate a refresh token: the old one stops working, a new pair is returned. Presenting a
   * rotated token again is `reused` and revokes the whole grant (OAuth 2.1 reuse detection).
   */
  refresh(refreshToken: string, clientId: string): Promise<RefreshResult>;
  /** Check a bearer token (by hash; the subject's current groups). */
  verifyAccessToken(accessToken: string): Promise<AccessCheck>;
  /**
   * RFC 7009 revocation: a refresh token ends its grant, an access token only itself.
   * `unknown` for tokens we do not have (answered 200 like a success).
   */
  revokeToken(token: string, clientId: string): Promise<"revoked" | "unknown" | "wrong_client">;
}

/** A change that conflicts with existing state (a taken name): a user's mistake, not a bug. */
export class StateConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StateConflictError";
  }
}
