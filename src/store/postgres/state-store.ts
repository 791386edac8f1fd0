import { LIMITS } from "../../limits.js";
import { type CodeRow, SWEEP_GRACE_MS, type StateStoreOptions, TOKEN_PREFIX, type TokenRow, type UserRow, codeRequestOf, readSettings, subjectOf, userInfoOf, verifiedUser, warnOnce } from "../state/common.js";
import { PASSWORD_COST, type ScryptCost, hashPassword, hashSecret, randomToken, secretMatches } from "../state/secrets.js";
import {
  type AccessCheck,
  type AuthCodeRequest,
  type AuthMode,
  type ClientMetadata,
  type CodeRedemption,
  type CredentialInfo,
  type IssuedTokens,
  type McpToggle,
  type RefreshResult,
  type RegisteredClient,
  type SiteSettings,
  type StateStore,
  StateConflictError,
  type Subject,
  type UserInfo,
} from "../state/state-store.js";
import { BatchInFlight } from "../batch-in-flight.js";
import type { PgDb, PgQueryable } from "./db.js";
import { SettingsCache } from "./settings-cache.js";
import { ACCESS_CHANNEL, SETTINGS_CHANNEL, SettingsListener, writeAndWait, writeSettingAndWait } from "./settings-listener.js";
import { TokenCache } from "./token-cache.js";

/** Settings reads answered by one query (they are the same query). */
const SETTINGS_BATCH = 4096;
/** Bearer checks answered by one query: a few KB of hashes, one index probe each. */
const TOKEN_BATCH = 256;

/** SQLSTATE unique_violation. */
const UNIQUE_VIOLATION = "23505";

const TOKEN_BY_HASH = `
  SELECT t.grant_id, t.kind, t.expires_at, t.used_at, g.client_id, g.credential_id, g.user_name, g.scope, g.resource, u.groups_json
  FROM tokens t JOIN grants g ON g.id = t.grant_id LEFT JOIN users u ON u.name = g.user_name
  WHERE t.hash = $1`;

/** The same rows for many hashes at once, each with its hash (to match it to its request). */
const TOKENS_BY_HASHES = `
  SELECT t.hash, t.grant_id, t.kind, t.expires_at, t.used_at, g.client_id, g.credential_id, g.user_name, g.scope, g.resource, u.groups_json
  FROM tokens t JOIN grants g ON g.id = t.grant_id LEFT JOIN users u ON u.name = g.user_name
  WHERE t.hash = ANY($1::bytea[])`;

/**
 * The `StateStore` in PostgreSQL, shared by every instance. Read-modify-write steps (redeeming a
 * code, rotating a refresh token) lock the row they read (`FOR UPDATE`), so of two instances
 * presenting the same code or token at once, one wins and the other sees it used.
 */
export class PgStateStore implements StateStore {
  private readonly now: () => number;
  private readonly accessTtlMs: number;
  private readonly refreshTtlMs: number;
  private readonly codeTtlMs: number;
  private readonly passwordCost: ScryptCost;
  private readonly warn: (message: string) => void;
  /** Hash of a password nobody has: checked for unknown accounts so timing reveals nothing. */
  private dummyHash: Promise<string> | undefined;
  /** The settings between requests, kept only while `listener` listens for their changes. */
  private readonly settingsCache: SettingsCache<SiteSettings>;
  private readonly listener: SettingsListener | undefined;
  /** A read begun because the copy kept was `due`: one at a time. */
  private refreshing = false;
  /** Access tokens' rows between requests, kept only while `listener` listens for revocations. */
  private readonly tokenCache: TokenCache<TokenRow>;
  /** Tokens (hex of the hash) whose row kept is being read again because it was `due`. */
  private readonly tokensRefreshing = new Set<string>();

  constructor(
    private readonly db: PgDb,
    options: StateStoreOptions = {},
    /** Closes what this store owns (the pool, when it is the only store on it). */
    private readonly onClose: () => Promise<void> = async () => {},
  ) {
    this.now = options.now ?? Date.now;
    this.accessTtlMs = (options.accessTokenTtlSec ?? LIMITS.oauth.accessTokenTtlSec) * 1000;
    this.refreshTtlMs = (options.refreshTokenTtlSec ?? LIMITS.oauth.refreshTokenTtlSec) * 1000;
    this.codeTtlMs = (options.authCodeTtlSec ?? LIMITS.oauth.authCodeTtlSec) * 1000;
    this.passwordCost = options.passwordCost ?? PASSWORD_COST;
    this.warn = warnOnce(options.warn);
    this.settingsCache = new SettingsCache<SiteSettings>(LIMITS.postgres.settingsCacheMs, options.settingsClock);
    this.tokenCache = new TokenCache<TokenRow>(LIMITS.postgres.settingsCacheMs, LIMITS.postgres.tokenCacheEntries, options.settingsClock);
    if (options.cacheSettings === true) {
      this.listener = new SettingsListener(db, { [SETTINGS_CHANNEL]: this.settingsCache, [ACCESS_CHANNEL]: this.tokenCache });
      this.listener.start();
    }
  }

  // Settings -------------------------------------------------------------------------------

  /**
   * Every request needs the settings. A server (`cacheSettings`) keeps them between requests
   * while it listens for their changes (`SettingsCache`, `SettingsListener`): a change made
   * anywhere (another instance, a state command) drops the copy, and the command returns only
   * once every listening server has dropped it, so the next request each serves reads it. Else,
   * or when nothing is kept, reads that arrive while one is in the database wait for the next,
   * which answers them all: each still sees every change committed before it arrived, in one
   * round trip per batch rather than one per request. A copy past half its life is read again
   * in the background by the request that finds it so, while it answers that request and the
   * next: the requests of a busy server never wait for the second-by-second read (it was one
   * request a second per process, and every request arriving during its round trip).
   */
  private readonly settingsReads = new BatchInFlight<void, SiteSettings>(async (batch) => {
    const read = this.settingsCache.begin();
    const { rows } = await this.db.query<{ key: string; value: string }>("SELECT key, value FROM settings");
    const settings = Object.freeze(readSettings(rows, this.warn));
    this.settingsCache.keep(read, settings);
    return batch.map(() => settings);
  }, SETTINGS_BATCH);

  settings(): Promise<SiteSettings> {
    const kept = this.settingsCache.get();
    if (kept === undefined) return this.settingsReads.submit();
    if (!this.refreshing && this.settingsCache.due()) {
      this.refreshing = true;
      // A failed read is only a copy not renewed: past its life, requests read (and see the error).
      void this.settingsReads.submit().then(
        () => (this.refreshing = false),
        () => (this.refreshing = false),
      );
    }
    return kept;
  }

  /** Settles once a `cacheSettings` store listens for changes (tests wait for it; serve does not). */
  settingsListening(): Promise<void> {
    return this.listener?.listening() ?? Promise.resolve();
  }

  async setAuthMode(mode: AuthMode): Promise<void> {
    await this.setSetting("auth_mode", mode);
  }

  async setMcp(toggle: McpToggle): Promise<void> {
    await this.setSetting("mcp", toggle);
  }

  private async setSetting(key: string, value: string): Promise<void> {
    await writeSettingAndWait(this.db, key, value, LIMITS.postgres.settingsCacheMs);
  }

  // Redirect domains -----------------------------------------------------------------------

  async redirectDomains(): Promise<string[]> {
    // COLLATE "C": byte order, as SQLite sorts, whatever the database's locale.
    const { rows } = await this.db.query<{ entry: string }>('SELECT entry FROM redirect_domains ORDER BY entry COLLATE "C"');
    return rows.map((r) => r.entry);
  }

  async addRedirectDomain(entry: string): Promise<boolean> {
    const r = await this.db.query("INSERT INTO redirect_domains (entry, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING", [entry, this.now()]);
    return r.rowCount === 1;
  }

  async removeRedirectDomain(entry: string): Promise<boolean> {
    return (await this.db.query("DELETE FROM redirect_domains WHERE entry = $1", [entry])).rowCount === 1;
  }

  // Client credentials ---------------------------------------------------------------------

  async createCredential(label: string): Promise<{ info: CredentialInfo; clientSecret: string }> {
    const clientId = randomToken(TOKEN_PREFIX.credentialId, 20);
    const clientSecret = randomToken(TOKEN_PREFIX.clientSecret);
    const createdAt = this.now();
    await this.db.query("INSERT INTO credentials (client_id, label, secret_hash, created_at) VALUES ($1, $2, $3, $4)", [
      clientId,
      label,
      hashSecret(clientSecret),
      createdAt,
    ]);
    return { info: { clientId, label, createdAt }, clientSecret };
  }

  async credentials(): Promise<CredentialInfo[]> {
    const { rows } = await this.db.query<{ client_id: string; label: string; created_at: number }>(
      'SELECT client_id, label, created_at FROM credentials ORDER BY created_at, client_id COLLATE "C"',
    );
    return rows.map((r) => ({ clientId: r.client_id, label: r.label, createdAt: r.created_at }));
  }

  async deleteCredential(clientId: string): Promise<CredentialInfo | undefined> {
    // Cascades to the credential's grants and tokens: they stop working at the next request.
    const row = await this.revoking(async (q) => {
      const { rows } = await q.query<{ client_id: string; label: string; created_at: number }>(
        "DELETE FROM credentials WHERE client_id = $1 RETURNING client_id, label, created_at",
        [clientId],
      );
      return { value: rows[0], notified: rows.length > 0 };
    });
    return row === undefined ? undefined : { clientId: row.client_id, label: row.label, createdAt: row.created_at };
  }

  async verifyCredential(clientId: string, clientSecret: string): Promise<CredentialInfo | undefined> {
    const { rows } = await this.db.query<{ client_id: string; label: string; secret_hash: Buffer; created_at: number }>(
      "SELECT client_id, label, secret_hash, created_at FROM credentials WHERE client_id = $1",
      [clientId],
    );
    const row = rows[0];
    if (row === undefined || !secretMatches(clientSecret, row.secret_hash)) return undefined;
    return { clientId: row.client_id, label: row.label, createdAt: row.created_at };
  }

  // Accounts -------------------------------------------------------------------------------

  async addUser(name: string, password: string, groups: readonly string[]): Promise<UserInfo> {
    const key = name.toLowerCase();
    const hash = await hashPassword(password, this.passwordCost);
    const createdAt = this.now();
    const sorted = [...new Set(groups)].sort();
    try {
      await this.db.query("INSERT INTO users (name, password_hash, groups_json, created_at) VALUES ($1, $2, $3, $4)", [
        key,
        hash,
        JSON.stringify(sorted),
        createdAt,
      ]);
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new StateConflictError(`user "${key}" already exists`);
      throw error;
    }
    return { name: key, groups: sorted, createdAt };
  }

  async removeUser(name: string): Promise<boolean> {
    return this.revoking(async (q) => {
      const removed = (await q.query("DELETE FROM users WHERE name = $1", [name.toLowerCase()])).rowCount === 1;
      return { value: removed, notified: removed };
    });
  }

  async users(): Promise<UserInfo[]> {
    const { rows } = await this.db.query<UserRow>(
      'SELECT name, groups_json, created_at FROM users ORDER BY name COLLATE "C"',
    );
    return rows.map(userInfoOf);
  }

  async user(name: string): Promise<UserInfo | undefined> {
    const row = await this.userRow(name);
    return row === undefined ? undefined : userInfoOf(row);
  }

  async verifyUser(name: string, password: string): Promise<UserInfo | undefined> {
    const row = await this.userRow(name);
    return verifiedUser(row, password, () => (this.dummyHash ??= hashPassword(randomToken("", 24), this.passwordCost)));
  }

  private async userRow(name: string) {
    const { rows } = await this.db.query<UserRow & { password_hash: string }>(
      "SELECT name, password_hash, groups_json, created_at FROM users WHERE name = $1",
      [name.toLowerCase()],
    );
    return rows[0];
  }

  // Registered clients ---------------------------------------------------------------------

  async registerClient(metadata: ClientMetadata): Promise<{ client: RegisteredClient; clientSecret: string | undefined }> {
    const clientId = randomToken(TOKEN_PREFIX.clientId, 20);
    const clientSecret = metadata.token_endpoint_auth_method === "none" ? undefined : randomToken(TOKEN_PREFIX.clientSecret);
    const createdAt = this.now();
    await this.db.query("INSERT INTO clients (client_id, secret_hash, metadata_json, created_at) VALUES ($1, $2, $3, $4)", [
      clientId,
      clientSecret === undefined ? null : hashSecret(clientSecret),
      JSON.stringify(metadata),
      createdAt,
    ]);
    return { client: { clientId, metadata, createdAt }, clientSecret };
  }

  async client(clientId: string): Promise<RegisteredClient | undefined> {
    const { rows } = await this.db.query<{ client_id: string; metadata_json: string; created_at: number }>(
      "SELECT client_id, metadata_json, created_at FROM clients WHERE client_id = $1",
      [clientId],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return { clientId: row.client_id, metadata: JSON.parse(row.metadata_json) as ClientMetadata, createdAt: row.created_at };
  }

  async rememberDocumentClient(clientId: string, metadata: ClientMetadata): Promise<RegisteredClient> {
    // A registered client's id is `mcpd_...`: a URL can never replace one (nor gain a secret).
    if (!clientId.startsWith("https://")) throw new Error(`not a metadata document URL: ${clientId}`);
    const { rows } = await this.db.query<{ created_at: number }>(
      `INSERT INTO clients (client_id, secret_hash, metadata_json, created_at) VALUES ($1, NULL, $2, $3)
       ON CONFLICT (client_id) DO UPDATE SET metadata_json = excluded.metadata_json RETURNING created_at`,
      [clientId, JSON.stringify(metadata), this.now()],
    );
    return { clientId, metadata, createdAt: rows[0]!.created_at };
  }

  async verifyClientSecret(clientId: string, clientSecret: string): Promise<boolean> {
    const { rows } = await this.db.query<{ secret_hash: Buffer | null }>("SELECT secret_hash FROM clients WHERE client_id = $1", [clientId]);
    const row = rows[0];
    return row !== undefined && row.secret_hash !== null && secretMatches(clientSecret, row.secret_hash);
  }

  // Grants and tokens ----------------------------------------------------------------------

  async issueTokens(grant: { subject: Subject; clientId: string; scope: string; resource: string; fromCode?: string }): Promise<IssuedTokens> {
    const now = this.now();
    return this.db.transaction(async (q) => {
      await this.sweep(q, now);
      const { subject } = grant;
      const { rows } = await q.query<{ id: number }>(
        `INSERT INTO grants (client_id, credential_id, registered_client_id, user_name, scope, resource, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [
          grant.clientId,
          subject.kind === "credential" ? subject.clientId : null,
          subject.kind === "user" ? grant.clientId : null,
          subject.kind === "user" ? subject.name : null,
          grant.scope,
          grant.resource,
          now,
        ],
      );
      const grantId = rows[0]!.id;
      if (grant.fromCode !== undefined) await q.query("UPDATE auth_codes SET grant_id = $1 WHERE hash = $2", [grantId, hashSecret(grant.fromCode)]);
      return this.addTokenPair(q, grantId, grant.scope, now);
    });
  }

  async createAuthCode(request: AuthCodeRequest): Promise<string> {
    const code = randomToken(TOKEN_PREFIX.authCode, 32);
    await this.db.query(
      `INSERT INTO auth_codes (hash, client_id, user_name, redirect_uri, code_challenge, scope, resource, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [hashSecret(code), request.clientId, request.userName, request.redirectUri, request.codeChallenge, request.scope, request.resource, this.now() + this.codeTtlMs],
    );
    return code;
  }

  async redeemAuthCode(code: string): Promise<CodeRedemption> {
    const now = this.now();
    const hash = hashSecret(code);
    const redemption = await this.db.transaction(async (q): Promise<CodeRedemption | { reusedGrant: number | null }> => {
      const { rows } = await q.query<CodeRow>(
        "SELECT client_id, user_name, redirect_uri, code_challenge, scope, resource, expires_at, used_at, grant_id FROM auth_codes WHERE hash = $1 FOR UPDATE",
        [hash],
      );
      const row = rows[0];
      if (row === undefined) return { ok: false, reason: "unknown" };
      if (row.used_at !== null) return { reusedGrant: row.grant_id };
      if (row.expires_at <= now) return { ok: false, reason: "expired" };
      await q.query("UPDATE auth_codes SET used_at = $1 WHERE hash = $2", [now, hash]);
      return {
        ok: true,
        request: codeRequestOf(row),
      };
    });
    if (!("reusedGrant" in redemption)) return redemption;
    // A code presented twice: someone holds a copy. The grant it made ends, on every server by the time this returns.
    if (redemption.reusedGrant === null) return { ok: false, reason: "spent" };
    await this.endGrant(redemption.reusedGrant);
    return { ok: false, reason: "reused" };
  }

  /** Delete a grant (its tokens cascade), and wait until no server keeps them (`revoking`). */
  private async endGrant(grantId: number): Promise<void> {
    await this.revoking(async (q) => {
      const ended = (await q.query("DELETE FROM grants WHERE id = $1", [grantId])).rowCount === 1;
      return { value: undefined, notified: ended };
    });
  }

  /**
   * A write that revokes access (a token, a grant, a credential, a user): its transaction, then a
   * wait until every listening server has dropped the tokens it keeps (`writeAndWait`), so the
   * revocation applies to the next request each serves, as when every request read the tables.
   */
  private revoking<T>(write: (q: PgQueryable) => Promise<{ value: T; notified: boolean }>): Promise<T> {
    return writeAndWait(this.db, write, LIMITS.postgres.settingsCacheMs);
  }

  async refresh(refreshToken: string, clientId: string): Promise<RefreshResult> {
    const now = this.now();
    const hash = hashSecret(refreshToken);
    const result = await this.db.transaction(async (q): Promise<RefreshResult | { reusedGrant: number }> => {
      const { rows } = await q.query<TokenRow>(`${TOKEN_BY_HASH} FOR UPDATE OF t`, [hash]);
      const row = rows[0];
      if (row === undefined || row.kind !== "refresh") return { ok: false, reason: "unknown" };
      if (row.client_id !== clientId) return { ok: false, reason: "wrong_client" };
      if (row.used_at !== null) return { reusedGrant: row.grant_id };
      if (row.expires_at <= now) return { ok: false, reason: "expired" };
      await q.query("UPDATE tokens SET used_at = $1 WHERE hash = $2", [now, hash]);
      const subject = subjectOf(row);
      if (subject === undefined) return { ok: false, reason: "unknown" };
      return { ok: true, tokens: await this.addTokenPair(q, row.grant_id, row.scope, now), subject };
    });
    if (!("reusedGrant" in result)) return result;
    // A rotated token came back: someone holds a copy. End the whole grant.
    await this.endGrant(result.reusedGrant);
    return { ok: false, reason: "reused" };
  }

  /**
   * Every request on `/authed/mcp` checks its bearer token. A server (`cacheSettings`) keeps the
   * rows of the tokens it found between requests while it listens for revocations
   * (`TokenCache`): a commit that deletes or changes a token, grant, credential or user, however
   * made, drops them all, and a revocation made through the store (`revoking`) returns only once
   * every listening server has dropped them, so a revoked token is refused at the next request on
   * every server, as when each request read the tables. Checks that go to the database and
   * arrive while one is in it go together in the next query, as the settings reads do: each still
   * starts after its request arrived. A row past half its life is read again in the background
   * by the request that finds it so, while the row answers that request.
   */
  private readonly tokenReads = new BatchInFlight<Buffer, TokenRow | undefined>(async (hashes) => {
    const read = this.tokenCache.begin();
    const { rows } = await this.db.query<TokenRow & { hash: Buffer }>(TOKENS_BY_HASHES, [hashes]);
    const byHash = new Map(
      rows.map((r) => {
        const { hash, ...row } = r;
        return [hash.toString("hex"), row] as const;
      }),
    );
    for (const [key, row] of byHash) if (row.kind === "access") this.tokenCache.keep(read, key, row);
    return hashes.map((h) => byHash.get(h.toString("hex")));
  }, TOKEN_BATCH);

  /** The row of the token hashed `hash`: kept, or read (`tokenReads`). */
  private tokenRow(hash: Buffer): Promise<TokenRow | undefined> | TokenRow {
    const key = hash.toString("hex");
    const kept = this.tokenCache.get(key);
    if (kept === undefined) return this.tokenReads.submit(hash);
    if (this.tokenCache.due(key) && !this.tokensRefreshing.has(key)) {
      this.tokensRefreshing.add(key);
      // A failed read is only a row not renewed: past its life, requests read (and see the error).
      const done = (): boolean => this.tokensRefreshing.delete(key);
      void this.tokenReads.submit(hash).then(done, done);
    }
    return kept;
  }

  async verifyAccessToken(accessToken: string): Promise<AccessCheck> {
    // Looked up by SHA-256: the index compares hashes, so timing says nothing about the token.
    const row = await this.tokenRow(hashSecret(accessToken));
    if (row === undefined || row.kind !== "access") return { ok: false, reason: "unknown" };
    if (row.expires_at <= this.now()) return { ok: false, reason: "expired" };
    const subject = subjectOf(row);
    if (subject === undefined) return { ok: false, reason: "unknown" };
    return { ok: true, subject, clientId: row.client_id, scope: row.scope, resource: row.resource, expiresAt: Math.floor(row.expires_at / 1000) };
  }

  async revokeToken(token: string, clientId: string): Promise<"revoked" | "unknown" | "wrong_client"> {
    const hash = hashSecret(token);
    return this.revoking(async (q) => {
      const { rows } = await q.query<TokenRow>(`${TOKEN_BY_HASH} FOR UPDATE OF t`, [hash]);
      const row = rows[0];
      if (row === undefined) return { value: "unknown" as const, notified: false };
      if (row.client_id !== clientId) return { value: "wrong_client" as const, notified: false };
      // RFC 7009 2.1: revoking a refresh token also ends the access tokens of its grant.
      if (row.kind === "refresh") await q.query("DELETE FROM grants WHERE id = $1", [row.grant_id]);
      else await q.query("DELETE FROM tokens WHERE hash = $1", [hash]);
      return { value: "revoked" as const, notified: true };
    });
  }

  async close(): Promise<void> {
    await this.listener?.close();
    await this.onClose();
  }

  private async addTokenPair(q: PgQueryable, grantId: number, scope: string, now: number): Promise<IssuedTokens> {
    const accessToken = randomToken(TOKEN_PREFIX.accessToken);
    const refreshToken = randomToken(TOKEN_PREFIX.refreshToken);
    await q.query("INSERT INTO tokens (hash, grant_id, kind, expires_at) VALUES ($1, $2, 'access', $3), ($4, $2, 'refresh', $5)", [
      hashSecret(accessToken),
      grantId,
      now + this.accessTtlMs,
      hashSecret(refreshToken),
      now + this.refreshTtlMs,
    ]);
    return { accessToken, refreshToken, expiresIn: Math.round(this.accessTtlMs / 1000), scope };
  }

  /** Drop tokens and codes long expired, and grants left without tokens. */
  private async sweep(q: PgQueryable, now: number): Promise<void> {
    const before = now - SWEEP_GRACE_MS;
    await q.query("DELETE FROM tokens WHERE expires_at < $1", [before]);
    await q.query("DELETE FROM auth_codes WHERE expires_at < $1", [before]);
    await q.query("DELETE FROM grants WHERE NOT EXISTS (SELECT 1 FROM tokens WHERE tokens.grant_id = grants.id) AND created_at < $1", [before]);
  }
}
