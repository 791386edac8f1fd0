import { createHash, randomBytes } from "node:crypto";
import { LIMITS } from "../../limits.js";

/** The site session cookie's name (the API pages' sign-in). */
export const SESSION_COOKIE = "svc_session";

/**
 * Sign-ins of people on the site's pages (the API pages' playground): a random token in an
 * `HttpOnly` cookie, kept here only as its SHA-256 (a leaked memory dump or log holds no usable
 * session). In memory: a restart signs everyone out, which costs one sign-in; sessions are not
 * shared between instances behind a load balancer (docs/api-reference.md says so). Each session
 * names the user only: their groups are read from the state store on every request, so
 * `svc-mcp users` changes apply at once and a removed user's session ends.
 */
export class SiteSessions {
  private readonly sessions = new Map<string, { readonly user: string; readonly expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Start a session for `user`; returns the token for the cookie (shown once, never stored). */
  create(user: string): string {
    const token = randomBytes(32).toString("base64url");
    this.sessions.set(hash(token), { user, expires: this.now() + LIMITS.web.sessionTtlMs });
    if (this.sessions.size > LIMITS.web.maxSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
    return token;
  }

  /** The user a cookie's token signs in, or undefined (unknown, expired or malformed). */
  user(token: string | undefined): string | undefined {
    if (token === undefined || !/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    const key = hash(token);
    const found = this.sessions.get(key);
    if (found === undefined) return undefined;
    if (found.expires <= this.now()) {
      this.sessions.delete(key);
      return undefined;
    }
    return found.user;
  }

  /** End a session (sign out); nothing happens for an unknown token. */
  end(token: string | undefined): void {
    if (token !== undefined) this.sessions.delete(hash(token));
  }
}

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
