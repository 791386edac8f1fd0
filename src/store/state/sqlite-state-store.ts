import { join } from "node:path";
import type { Statement } from "better-sqlite3";
import { LIMITS } from "../../limits.js";
import { type Db, openDatabase } from "../sqlite.js";
import { STATE_MIGRATIONS } from "./migrations.js";
import { type CodeRow, SWEEP_GRACE_MS, type StateStoreOptions, TOKEN_PREFIX, type TokenRow, type UserRow, codeRequestOf, readSettings, subjectOf, userInfoOf, verifiedUser, warnOnce } from "./common.js";
import { PASSWORD_COST, type ScryptCost, hashPassword, hashSecret, randomToken, secretMatches } from "./secrets.js";
import {
  type AccessCheck,
  type AuthMode,
  type McpToggle,
  type AuthCodeRequest,
  type ClientMetadata,
  type CodeRedemption,
  type CredentialInfo,
  type IssuedTokens,
  type RefreshResult,
  type RegisteredClient,
  type SiteSettings,
  type StateStore,
  StateConflictError,
  type Subject,
  type UserInfo,
} from "./state-store.js";

export { TOKEN_PREFIX, type StateStoreOptions } from "./common.js";

/** The state database's file name inside the state directory. */
export const STATE_DB_FILE = "access.db";

/** Open (creating if needed, mode 0600) `<stateDir>/access.db`. */
export function openStateStore(stateDir: string, options: StateStoreOptions = {}): SqliteStateStore {
  return new SqliteStateStore(openDatabase(join(stateDir, STATE_DB_FILE), STATE_MIGRATIONS), options);
}

/** The embedded `StateStore`: one SQLite file (WAL), safe to share with CLI processes. */
export class SqliteStateStore implements StateStore {
  private readonly now: () => number;
  private readonly accessTtlMs: number;
  private readonly refreshTtlMs: number;
  private readonly codeTtlMs: number;
  private readonly passwordCost: ScryptCost;
  private readonly warn: (message: string) => void;
  private readonly q: ReturnType<typeof prepareStatements>;
  /** Hash of a password nobody has: checked for unknown accounts so timing reveals nothing. */
  private dummyHash: Promise<string> | undefined;
  /** The settings last read, and the database's `data_version` before that read (`settings`). */
  private kept: { readonly version: number; readonly settings: SiteSettings } | undefined;

  constructor(
    private readonly db: Db,
    options: StateStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.accessTtlMs = (options.accessTokenTtlSec ?? LIMITS.oauth.accessTokenTtlSec) * 1000;
    this.refreshTtlMs = (options.refreshTokenTtlSec ?? LIMITS.oauth.refreshTokenTtlSec) * 1000;
    this.codeTtlMs = (options.authCodeTtlSec ?? LIMITS.oauth.authCodeTtlSec) * 1000;
    this.passwordCost = options.passwordCost ?? PASSWORD_COST;
    this.warn = warnOnce(options.warn);
    this.q = prepareStatements(db);
  }

  // Settings -------------------------------------------------------------------------------

  /**
   * Read again only when the database may have changed since the last read: SQLite's
   * `data_version` moves with every commit of another connection (a CLI command in another
   * process, a sibling worker, an edit in the sqlite3 shell), and this connection's own writes
   * of the settings forget them (`setAuthMode`, `setMcp`). So a change made anywhere applies at
   * the next request, as when every request read the table, which cost a read of every row and
   * an object per row on every request (issue 23); `data_version` is one integer. It is read
   * before the settings: a commit between the two is read again at the next call.
   */
  async settings(): Promise<SiteSettings> {
    const version = this.q.dataVersion.get() as number;
    const kept = this.kept;
    if (kept !== undefined && kept.version === version) return kept.settings;
    const settings = Object.freeze(readSettings(this.q.settings.all() as { key: string; value: string }[], this.warn));
    this.kept = { version, settings };
    return settings;
  }

  async setAuthMode(mode: AuthMode): Promise<void> {
    this.kept = undefined;
    this.q.setSetting.run("auth_mode", mode);
  }

  async setMcp(toggle: McpToggle): Promise<void> {
    this.kept = undefined;
    this.q.setSetting.run("mcp", toggle);
  }

  // Redirect domains -----------------------------------------------------------------------

  async redirectDomains(): Promise<string[]> {
    return (this.q.domains.all() as { entry: string }[]).map((r) => r.entry);
  }

  async addRedirectDomain(entry: string): Promise<boolean> {
    return this.q.addDomain.run(entry, this.now()).changes === 1;
  }

  async removeRedirectDomain(entry: string): Promise<boolean> {
    return this.q.removeDomain.run(entry).changes === 1;
  }

  // Client credentials ---------------------------------------------------------------------

  async createCredential(label: string): Promise<{ info: CredentialInfo; clientSecret: string }> {
    const clientId = randomToken(TOKEN_PREFIX.credentialId, 20);
    const clientSecret = randomToken(TOKEN_PREFIX.clientSecret);
    const createdAt = this.now();
    this.q.addCredential.run(clientId, label, hashSecret(clientSecret), createdAt);
    return { info: { clientId, label, createdAt }, clientSecret };
  }

  async credentials(): Promise<CredentialInfo[]> {
    return (this.q.credentials.all() as { client_id: string; label: string; created_at: number }[]).map((r) => ({
      clientId: r.client_id,
      label: r.label,
      createdAt: r.created_at,
    }));
  }

  async deleteCredential(clientId: string): Promise<CredentialInfo | undefined> {
    return this.db.transaction(() => {
      const row = this.q.credential.get(clientId) as { client_id: string; label: string; created_at: number } | undefined;
      if (row === undefined) return undefined;
      // Cascades to the credential's grants and tokens: they stop working at the next request.
      this.q.deleteCredential.run(clientId);
      return { clientId: row.client_id, label: row.label, createdAt: row.created_at };
    }).immediate();
  }

  async verifyCredential(clientId: string, clientSecret: string): Promise<CredentialInfo | undefined> {
    const row = this.q.credential.get(clientId) as { client_id: string; label: string; secret_hash: Buffer; created_at: number } | undefined;
    if (row === undefined || !secretMatches(clientSecret, row.secret_hash)) return undefined;
    return { clientId: row.client_id, label: row.label, createdAt: row.created_at };
  }

  // Accounts -------------------------------------------------------------------------------

  async addUser(name: string, password: string, groups: readonly string[]): Promise<UserInfo> {
    const key = name.toLowerCase();
    if (this.q.user.get(key) !== undefined) throw new StateConflictError(`user "${key}" already exists`);
    const hash = await hashPassword(password, this.passwordCost);
    const createdAt = this.now();
    const sorted = [...new Set(groups)].sort();
    try {
      this.q.addUser.run(key, hash, JSON.stringify(sorted), createdAt);
    } catch (error) {
      // Another process added the name while we were hashing.
      if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY") throw new StateConflictError(`user "${key}" already exists`);
      throw error;
    }
    return { name: key, groups: sorted, createdAt };
  }

  async removeUser(name: string): Promise<boolean> {
    return this.q.removeUser.run(name.toLowerCase()).changes === 1;
  }

  async users(): Promise<UserInfo[]> {
    return (this.q.users.all() as UserRow[]).map(userInfoOf);
  }

  async user(name: string): Promise<UserInfo | undefined> {
    const row = this.q.user.get(name.toLowerCase()) as UserRow | undefined;
    return row === undefined ? undefined : userInfoOf(row);
  }

  async verifyUser(name: string, password: string): Promise<UserInfo | undefined> {
    const row = this.q.user.get(name.toLowerCase()) as (UserRow & { password_hash: string }) | undefined;
    return verifiedUser(row, password, () => (this.dummyHash ??= hashPassword(randomToken("", 24), this.passwordCost)));
  }

  // Registered clients ---------------------------------------------------------------------

  async registerClient(metadata: ClientMetadata): Promise<{ client: RegisteredClient; clientSecret: string | undefined }> {
    const clientId = randomToken(TOKEN_PREFIX.clientId, 20);
    const clientSecret = metadata.token_endpoint_auth_method === "none" ? undefined : randomToken(TOKEN_PREFIX.clientSecret);
    const createdAt = this.now();
    this.q.addClient.run(clientId, clientSecret === undefined ? null : hashSecret(clientSecret), JSON.stringify(metadata), createdAt);
    return { client: { clientId, metadata, createdAt }, clientSecret };
  }

  async client(clientId: string): Promise<RegisteredClient | undefined> {
    const row = this.q.client.get(clientId) as { client_id: string; metadata_json: string; created_at: number } | undefined;
    if (row === undefined) return undefined;
    return { clientId: row.client_id, metadata: JSON.parse(row.metadata_json) as ClientMetadata, createdAt: row.created_at };
  }

  async rememberDocumentClient(clientId: string, metadata: ClientMetadata): Promise<RegisteredClient> {
    // A registered client's id is `mcpd_...`: a URL can never replace one (nor gain a secret).
    if (!clientId.startsWith("https://")) throw new Error(`not a metadata document URL: ${clientId}`);
    const row = this.q.rememberDocumentClient.get(clientId, JSON.stringify(metadata), this.now()) as { created_at: number };
    return { clientId, metadata, createdAt: row.created_at };
  }

  async verifyClientSecret(clientId: string, clientSecret: string): Promise<boolean> {
    const row = this.q.client.get(clientId) as { secret_hash: Buffer | null } | undefined;
    return row !== undefined && row.secret_hash !== null && secretMatches(clientSecret, row.secret_hash);
  }

  // Grants and tokens ----------------------------------------------------------------------

  async issueTokens(grant: { subject: Subject; clientId: string; scope: string; resource: string; fromCode?: string }): Promise<IssuedTokens> {
    const now = this.now();
    return this.db.transaction(() => {
      this.sweep(now);
      const { subject } = grant;
      const info = this.q.addGrant.run(
        grant.clientId,
        subject.kind === "credential" ? subject.clientId : null,
        subject.kind === "user" ? grant.clientId : null,
        subject.kind === "user" ? subject.name : null,
        grant.scope,
        grant.resource,
        now,
      );
      const grantId = Number(info.lastInsertRowid);
      if (grant.fromCode !== undefined) this.q.bindCode.run(grantId, hashSecret(grant.fromCode));
      return this.addTokenPair(grantId, grant.scope, now);
    }).immediate();
  }

  async createAuthCode(request: AuthCodeRequest): Promise<string> {
    const code = randomToken(TOKEN_PREFIX.authCode, 32);
    this.q.addCode.run(
      hashSecret(code),
      request.clientId,
      request.userName,
      request.redirectUri,
      request.codeChallenge,
      request.scope,
      request.resource,
      this.now() + this.codeTtlMs,
    );
    return code;
  }

  async redeemAuthCode(code: string): Promise<CodeRedemption> {
    const now = this.now();
    const hash = hashSecret(code);
    return this.db.transaction((): CodeRedemption => {
      const row = this.q.code.get(hash) as CodeRow | undefined;
      if (row === undefined) return { ok: false, reason: "unknown" };
      if (row.used_at !== null) {
        if (row.grant_id === null) return { ok: false, reason: "spent" };
        this.q.deleteGrant.run(row.grant_id);
        return { ok: false, reason: "reused" };
      }
      if (row.expires_at <= now) return { ok: false, reason: "expired" };
      this.q.useCode.run(now, hash);
      return {
        ok: true,
        request: codeRequestOf(row),
      };
    }).immediate();
  }

  async refresh(refreshToken: string, clientId: string): Promise<RefreshResult> {
    const now = this.now();
    const hash = hashSecret(refreshToken);
    return this.db.transaction((): RefreshResult => {
      const row = this.q.token.get(hash) as TokenRow | undefined;
      if (row === undefined || row.kind !== "refresh") return { ok: false, reason: "unknown" };
      if (row.client_id !== clientId) return { ok: false, reason: "wrong_client" };
      if (row.used_at !== null) {
        // A rotated token came back: someone holds a copy. End the whole grant.
        this.q.deleteGrant.run(row.grant_id);
        return { ok: false, reason: "reused" };
      }
      if (row.expires_at <= now) return { ok: false, reason: "expired" };
      this.q.useToken.run(now, hash);
      const subject = subjectOf(row);
      if (subject === undefined) return { ok: false, reason: "unknown" };
      return { ok: true, tokens: this.addTokenPair(row.grant_id, row.scope, now), subject };
    }).immediate();
  }

  async verifyAccessToken(accessToken: string): Promise<AccessCheck> {
    // Looked up by SHA-256: the index compares hashes, so timing says nothing about the token.
    const row = this.q.token.get(hashSecret(accessToken)) as TokenRow | undefined;
    if (row === undefined || row.kind !== "access") return { ok: false, reason: "unknown" };
    if (row.expires_at <= this.now()) return { ok: false, reason: "expired" };
    const subject = subjectOf(row);
    if (subject === undefined) return { ok: false, reason: "unknown" };
    return {
      ok: true,
      subject,
      clientId: row.client_id,
      scope: row.scope,
      resource: row.resource,
      expiresAt: Math.floor(row.expires_at / 1000),
    };
  }

  async revokeToken(token: string, clientId: string): Promise<"revoked" | "unknown" | "wrong_client"> {
    const hash = hashSecret(token);
    return this.db.transaction(() => {
      const row = this.q.token.get(hash) as TokenRow | undefined;
      if (row === undefined) return "unknown" as const;
      if (row.client_id !== clientId) return "wrong_client" as const;
      // RFC 7009 2.1: revoking a refresh token also ends the access tokens of its grant.
      if (row.kind === "refresh") this.q.deleteGrant.run(row.grant_id);
      else this.q.deleteToken.run(hash);
      return "revoked" as const;
    }).immediate();
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private addTokenPair(grantId: number, scope: string, now: number): IssuedTokens {
    const accessToken = randomToken(TOKEN_PREFIX.accessToken);
    const refreshToken = randomToken(TOKEN_PREFIX.refreshToken);
    this.q.addToken.run(hashSecret(accessToken), grantId, "access", now + this.accessTtlMs);
    this.q.addToken.run(hashSecret(refreshToken), grantId, "refresh", now + this.refreshTtlMs);
    return { accessToken, refreshToken, expiresIn: Math.round(this.accessTtlMs / 1000), scope };
  }

  /** Drop tokens and codes long expired, and grants left without tokens. */
  private sweep(now: number): void {
    this.q.sweepTokens.run(now - SWEEP_GRACE_MS);
    this.q.sweepCodes.run(now - SWEEP_GRACE_MS);
    this.q.sweepGrants.run(now - SWEEP_GRACE_MS);
  }
}

/** Every statement the store runs, prepared once. */
function prepareStatements(db: Db) {
  const p = (sql: string): Statement => db.prepare(sql);
  return {
    settings: p("SELECT key, value FROM settings"),
    // Changes whenever another connection commits (https://sqlite.org/pragma.html#pragma_data_version).
    dataVersion: db.prepare("PRAGMA data_version").pluck(),
    setSetting: p("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"),
    domains: p("SELECT entry FROM redirect_domains ORDER BY entry"),
    addDomain: p("INSERT OR IGNORE INTO redirect_domains (entry, created_at) VALUES (?, ?)"),
    removeDomain: p("DELETE FROM redirect_domains WHERE entry = ?"),
    addCredential: p("INSERT INTO credentials (client_id, label, secret_hash, created_at) VALUES (?, ?, ?, ?)"),
    credentials: p("SELECT client_id, label, created_at FROM credentials ORDER BY created_at, client_id"),
    credential: p("SELECT client_id, label, secret_hash, created_at FROM credentials WHERE client_id = ?"),
    deleteCredential: p("DELETE FROM credentials WHERE client_id = ?"),
    addUser: p("INSERT INTO users (name, password_hash, groups_json, created_at) VALUES (?, ?, ?, ?)"),
    user: p("SELECT name, password_hash, groups_json, created_at FROM users WHERE name = ?"),
    users: p("SELECT name, groups_json, created_at FROM users ORDER BY name"),
    removeUser: p("DELETE FROM users WHERE name = ?"),
    addClient: p("INSERT INTO clients (client_id, secret_hash, metadata_json, created_at) VALUES (?, ?, ?, ?)"),
    client: p("SELECT client_id, secret_hash, metadata_json, created_at FROM clients WHERE client_id = ?"),
    rememberDocumentClient: p(
      "INSERT INTO clients (client_id, secret_hash, metadata_json, created_at) VALUES (?, NULL, ?, ?) ON CONFLICT (client_id) DO UPDATE SET metadata_json = excluded.metadata_json RETURNING created_at",
    ),
    addGrant: p(
      "INSERT INTO grants (client_id, credential_id, registered_client_id, user_name, scope, resource, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ),
    deleteGrant: p("DELETE FROM grants WHERE id = ?"),
    addToken: p("INSERT INTO tokens (hash, grant_id, kind, expires_at) VALUES (?, ?, ?, ?)"),
    token: p(`
      SELECT t.grant_id, t.kind, t.expires_at, t.used_at, g.client_id, g.credential_id, g.user_name, g.scope, g.resource, u.groups_json
      FROM tokens t JOIN grants g ON g.id = t.grant_id LEFT JOIN users u ON u.name = g.user_name
      WHERE t.hash = ?`),
    useToken: p("UPDATE tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL"),
    deleteToken: p("DELETE FROM tokens WHERE hash = ?"),
    addCode: p(
      "INSERT INTO auth_codes (hash, client_id, user_name, redirect_uri, code_challenge, scope, resource, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    code: p("SELECT client_id, user_name, redirect_uri, code_challenge, scope, resource, expires_at, used_at, grant_id FROM auth_codes WHERE hash = ?"),
    useCode: p("UPDATE auth_codes SET used_at = ? WHERE hash = ? AND used_at IS NULL"),
    bindCode: p("UPDATE auth_codes SET grant_id = ? WHERE hash = ?"),
    sweepTokens: p("DELETE FROM tokens WHERE expires_at < ?"),
    sweepCodes: p("DELETE FROM auth_codes WHERE expires_at < ?"),
    sweepGrants: p("DELETE FROM grants WHERE NOT EXISTS (SELECT 1 FROM tokens WHERE tokens.grant_id = grants.id) AND created_at < ?"),
  };
}
