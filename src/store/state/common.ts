import { AUTH_MODES, type AuthCodeRequest, type AuthMode, type McpToggle, type SiteSettings, type Subject, type UserInfo } from "./state-store.js";
import { type ScryptCost, verifyPassword } from "./secrets.js";

/** Prefixes of what we hand out, so a leaked string says what it is. */
export const TOKEN_PREFIX = {
  credentialId: "mcpc_",
  clientId: "mcpd_",
  clientSecret: "mcps_",
  accessToken: "mcpat_",
  refreshToken: "mcprt_",
  authCode: "mcpac_",
} as const;

export interface StateStoreOptions {
  /** Milliseconds since the epoch (injectable so tests can expire tokens exactly). */
  readonly now?: () => number;
  readonly accessTokenTtlSec?: number;
  readonly refreshTokenTtlSec?: number;
  readonly authCodeTtlSec?: number;
  /** scrypt cost of new password hashes (default `PASSWORD_COST`); tests lower it to stay fast. */
  readonly passwordCost?: ScryptCost;
  /** Where a warning about the stored state goes (default: stderr, once per message). */
  readonly warn?: (message: string) => void;
  /**
   * Keep the settings between requests where the store can learn of every change (PostgreSQL:
   * LISTEN/NOTIFY, settings-listener.ts), instead of reading them at each request. For a server;
   * a state command reads once and has nothing to keep.
   */
  readonly cacheSettings?: boolean;
  /** Monotonic milliseconds by which kept settings age (default `performance.now`; tests step it). */
  readonly settingsClock?: () => number;
}

/** Each distinct warning once per store: settings are read on every request. */
export function warnOnce(warn: ((message: string) => void) | undefined): (message: string) => void {
  const seen = new Set<string>();
  const write = warn ?? ((m: string) => process.stderr.write(`svc-mcp: warning: ${m}\n`));
  return (m) => {
    if (seen.has(m)) return;
    seen.add(m);
    write(m);
  };
}

/** Used tokens and codes are kept this long past expiry, then swept (they only serve reuse detection). */
export const SWEEP_GRACE_MS = 24 * 60 * 60 * 1000;

/** A token's row joined with its grant and the account's current groups. */
export interface TokenRow {
  grant_id: number;
  kind: "access" | "refresh";
  expires_at: number;
  used_at: number | null;
  client_id: string;
  credential_id: string | null;
  user_name: string | null;
  scope: string;
  resource: string;
  groups_json: string | null;
}

/**
 * Settings from their rows. An `auth_mode` this version does not know (written by a newer
 * svc-mcp, or by hand) fails closed: `full`, so nothing is served to anyone unauthenticated,
 * with a warning; falling back to `public` would publish every restricted page.
 */
export function readSettings(rows: readonly { key: string; value: string }[], warn: (message: string) => void): SiteSettings {
  let authMode: AuthMode = "public";
  let mcp: McpToggle | undefined;
  for (const row of rows) {
    if (row.key === "auth_mode") {
      if ((AUTH_MODES as readonly string[]).includes(row.value)) authMode = row.value as AuthMode;
      else {
        warn(`unknown auth mode ${JSON.stringify(row.value)} in the state database: treated as "full" (sign-in required) until \`svc-mcp mcp auth\` sets one`);
        authMode = "full";
      }
    }
    if (row.key === "mcp" && (row.value === "enabled" || row.value === "disabled")) mcp = row.value;
  }
  return { authMode, mcp };
}

export function subjectOf(row: TokenRow): Subject | undefined {
  if (row.credential_id !== null) return { kind: "credential", clientId: row.credential_id };
  if (row.user_name !== null && row.groups_json !== null) return { kind: "user", name: row.user_name, groups: parseGroups(row.groups_json) };
  return undefined;
}

export function parseGroups(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((g): g is string => typeof g === "string") : [];
}


/** An `auth_codes` row, as both engines store it. */
export interface CodeRow {
  client_id: string;
  user_name: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  resource: string;
  expires_at: number;
  used_at: number | null;
  grant_id: number | null;
}

/** The sign-in request a code's row remembers, for the token endpoint. */
export function codeRequestOf(row: CodeRow): AuthCodeRequest {
  return {
    clientId: row.client_id,
    userName: row.user_name,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    scope: row.scope,
    resource: row.resource,
  };
}

/** A `users` row (without its password hash where a query leaves it out). */
export interface UserRow {
  name: string;
  groups_json: string;
  created_at: number;
}

export function userInfoOf(row: UserRow): UserInfo {
  return { name: row.name, groups: parseGroups(row.groups_json), createdAt: row.created_at };
}

/**
 * The account when `password` is its own. Without an account, a dummy hash is checked all the
 * same (`dummyHash`, made once per store), so a name that does not exist costs what a wrong
 * password costs and timing tells no one which names are taken.
 */
export async function verifiedUser(row: (UserRow & { password_hash: string }) | undefined, password: string, dummyHash: () => Promise<string>): Promise<UserInfo | undefined> {
  if (row === undefined) {
    await verifyPassword(password, await dummyHash());
    return undefined;
  }
  return (await verifyPassword(password, row.password_hash)) ? userInfoOf(row) : undefined;
}
