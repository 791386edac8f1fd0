import { createHash, randomBytes } from "node:crypto";
import { LIMITS } from "../../limits.js";

/** The site session cookie's name (the API pages' sign-in). */
export const SESSION_COOKIE = "svc_session";

/**
 * Sign-ins of people on the site's pages (the API pages' playground): a random token in an
 * `HttpOnly` cookie, kept here only as its SHA-256 (a leaked memory dump or log holds no usable
 * session). In memory: a restart signs everyone out, which costs one sign-in; sessions are not
 * shared between instances behind a load balancer (docs/api-reference.md says so). Each session
 * names the account it signed in (`SessionAccount`): their groups are read from the state store
 * on every request, so `svc-mcp users` changes apply at once, a removed user's session ends, and
 * it stays ended when an account of the same name is added again (a password reset is a remove
 * and an add; a new person may get the name).
 */
export class SiteSessions {
  private readonly sessions = new Map<string, SessionAccount & { readonly expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Start a session for `account`; returns the token for the cookie (shown once, never stored). */
  create(account: SessionAccount): string {
    const token = randomBytes(32).toString("base64url");
    this.sessions.set(hash(token), { name: account.name, createdAt: account.createdAt, expires: this.now() + LIMITS.web.sessionTtlMs });
    if (this.sessions.size > LIMITS.web.maxSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
    return token;
  }

  /** The account a cookie's token signed in, or undefined (unknown, expired or malformed). */
  user(token: string | undefined): SessionAccount | undefined {
    if (token === undefined || !TOKEN_SHAPE.test(token)) return undefined;
    const key = hash(token);
    const found = this.sessions.get(key);
    if (found === undefined) return undefined;
    if (found.expires <= this.now()) {
      this.sessions.delete(key);
      return undefined;
    }
    return { name: found.name, createdAt: found.createdAt };
  }

  /** End a session (sign out); nothing happens for an unknown token. */
  end(token: string | undefined): void {
    if (token !== undefined) this.sessions.delete(hash(token));
  }
}

/** The account a session signed in: its name and when that account was created, which tells
 *  it from a later account of the same name. */
export interface SessionAccount {
  readonly name: string;
  readonly createdAt: number;
}

/** Whether `account` (a session's) is still the account `current` (the state store's now). */
export function sameAccount(account: SessionAccount, current: { readonly name: string; readonly createdAt: number } | undefined): boolean {
  return current !== undefined && current.name === account.name && current.createdAt === account.createdAt;
}

/**
 * Site sign-ins as the pages use them. Asynchronous: one process keeps them in memory
 * (`localSiteSessions`), and the workers of `serve --http --workers N` ask their primary, which
 * keeps them for all (`RemoteSiteSessions`), so a cookie set by one worker signs in on every one.
 */
export interface SiteSessionStore {
  create(account: SessionAccount): Promise<string>;
  user(token: string | undefined): Promise<SessionAccount | undefined>;
  end(token: string | undefined): Promise<void>;
}

/** Sign-ins kept by this process. */
export function localSiteSessions(sessions: SiteSessions): SiteSessionStore {
  return {
    create: async (account) => sessions.create(account),
    user: async (token) => sessions.user(token),
    end: async (token) => sessions.end(token),
  };
}

/** What a worker asks the process that keeps the sign-ins. */
export type SiteSessionRequest =
  | { readonly op: "create"; readonly account: SessionAccount }
  | { readonly op: "user"; readonly token: string | undefined }
  | { readonly op: "end"; readonly token: string | undefined };

/** Sign-ins kept by another process (the primary of `--workers`), asked with `request`. */
export class RemoteSiteSessions implements SiteSessionStore {
  constructor(private readonly request: (message: SiteSessionRequest) => Promise<unknown>) {}

  async create(account: SessionAccount): Promise<string> {
    return (await this.request({ op: "create", account: { name: account.name, createdAt: account.createdAt } })) as string;
  }

  async user(token: string | undefined): Promise<SessionAccount | undefined> {
    // A malformed cookie is refused here, without asking (its value goes nowhere).
    if (token === undefined || !TOKEN_SHAPE.test(token)) return undefined;
    return ((await this.request({ op: "user", token })) as SessionAccount | null) ?? undefined;
  }

  async end(token: string | undefined): Promise<void> {
    if (token !== undefined) await this.request({ op: "end", token });
  }
}

/** The keeper's side: answer one worker's request (null for "no such session": IPC carries no undefined). */
export function answerSiteSessionRequest(sessions: SiteSessions, message: SiteSessionRequest): string | SessionAccount | null {
  if (message.op === "create") return sessions.create(message.account);
  if (message.op === "user") return sessions.user(message.token) ?? null;
  sessions.end(message.token);
  return null;
}

/** A session token: 32 random bytes in base64url. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Lookups go by the token's hash: the map never holds a token, and a hash compare leaks nothing useful. */
function hash(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

/** The value of one cookie in a `Cookie` header. */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  if (header === null || header === undefined) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** `Set-Cookie` for a session: host-only, whole site, `HttpOnly`, `SameSite=Lax`, `Secure` over https. */
export function sessionCookie(token: string, secure: boolean, maxAgeSec = Math.floor(LIMITS.web.sessionTtlMs / 1000)): string {
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAgeSec}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}
