/**
 * Redirect domains (spec "Authentication" 6): where a tool may send a person back to after
 * signing in. One rule set, used by `svc-mcp redirect-domains add` (normalizing what the owner
 * types), by client registration and by the authorization endpoint (matching a redirect URI).
 *
 * - Loopback (`localhost`, `127.0.0.1`, `[::1]`) over http or https is always trusted.
 * - An entry without a scheme means `https://`; `http://` is refused for anything else.
 * - A custom scheme counts only when written in full (`myapp://callback`).
 * - `javascript:`, `data:` and `file:` are always refused.
 */

/** Schemes no entry can allow: they run code or read local files instead of returning to a tool. */
export const BLOCKED_SCHEMES = ["javascript", "data", "file"] as const;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export type Checked<T> = { readonly ok: true; readonly value: T; readonly note?: string } | { readonly ok: false; readonly error: string };

/** `localhost`, `127.0.0.1` or `[::1]` (as `URL.hostname` spells them). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

const SCHEME_RE = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/**
 * The stored form of an entry: `https://host[:port]` or `scheme://host` (lowercase, no path).
 * A pasted callback URL keeps only its domain, and says so in `note`.
 */
export function normalizeRedirectDomain(input: string): Checked<string> {
  const text = input.trim();
  if (text === "") return { ok: false, error: "a redirect domain must not be empty" };
  if (text.includes("*")) return { ok: false, error: `wildcards are not supported ("${text}"); add each domain` };
  const scheme = SCHEME_RE.exec(text)?.[1]?.toLowerCase();
  // "example.com:8443" looks like scheme "example.com"; a scheme never contains a dot before "://"-less digits.
  const hasScheme = scheme !== undefined && !/^\d+(\/|$)/.test(text.slice(scheme.length + 1));
  if (hasScheme && (BLOCKED_SCHEMES as readonly string[]).includes(scheme)) {
    return { ok: false, error: `${scheme}: URLs are always refused as redirect targets` };
  }
  if (hasScheme && !text.slice(scheme.length + 1).startsWith("//")) {
    return { ok: false, error: `write a custom scheme in full, as ${scheme}://callback ("${text}")` };
  }
  let url: URL;
  try {
    url = new URL(hasScheme ? text : `https://${text}`);
  } catch {
    return { ok: false, error: `"${text}" is not a domain or URL` };
  }
  if (url.username !== "" || url.password !== "") return { ok: false, error: `a redirect domain must not contain a user name or password ("${text}")` };
  const protocol = url.protocol.slice(0, -1);
  if ((protocol === "http" || protocol === "https") && isLoopbackHost(url.hostname)) {
    return { ok: false, error: `${url.hostname} is a loopback address and always trusted; it needs no entry` };
  }
  if (protocol === "http") {
    return { ok: false, error: `http:// is allowed only for loopback addresses (always trusted); use https://${url.host}` };
  }
  if (protocol === "https" && url.hostname === "") return { ok: false, error: `"${text}" has no host` };
  const entry = `${protocol}://${url.host.toLowerCase()}`;
  const dropped = url.pathname.replace(/^\/$/, "") !== "" || url.search !== "" || url.hash !== "";
  return dropped ? { ok: true, value: entry, note: `only the domain counts; stored as ${entry}` } : { ok: true, value: entry };
}

/**
 * Whether a tool may be sent to `redirectUri` after sign-in, given the owner's entries (in
 * normalized form). The error says why not, in words a tool's developer can act on.
 */
export function checkRedirectUri(redirectUri: string, entries: readonly string[]): Checked<URL> {
  const form = checkRedirectUriForm(redirectUri);
  if (!form.ok) return form;
  const url = form.value;
  const protocol = url.protocol.slice(0, -1).toLowerCase();
  if ((protocol === "http" || protocol === "https") && isLoopbackHost(url.hostname)) return form;
  const host = url.hostname.toLowerCase();
  for (const entry of entries) {
    const e = parseEntry(entry);
    if (e === undefined || e.protocol !== protocol) continue;
    if (protocol === "https") {
      if (e.hostname === host && (e.port === "" || e.port === (url.port === "" ? "443" : url.port))) return form;
    } else if (e.host === "" || e.host === url.host.toLowerCase()) {
      return form;
    }
  }
  const what = protocol === "https" ? `domain ${url.host}` : `callback ${protocol}://${url.host}`;
  return { ok: false, error: `redirect URI "${redirectUri}": ${what} is not on this documentation's list of redirect domains` };
}

/**
 * The rules every redirect URI follows whatever the list says: an absolute URL in its standard
 * (WHATWG-serialized) form, no blocked scheme, no fragment, no user info, `http://` only for loopback. A client metadata document's
 * URIs are checked by these when it is read; the list applies to the one a sign-in uses.
 */
export function checkRedirectUriForm(redirectUri: string): Checked<URL> {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return { ok: false, error: `redirect URI "${redirectUri}" is not an absolute URL` };
  }
  const protocol = url.protocol.slice(0, -1).toLowerCase();
  if ((BLOCKED_SCHEMES as readonly string[]).includes(protocol)) {
    return { ok: false, error: `${protocol}: redirect URIs are always refused` };
  }
  // A URL parser repairs lax spellings (`http:/127.0.0.1/cb`, `http://0x7f000001/cb`,
  // `http://127.0.0.1\@evil.example/cb`), and another parser (the tool's, a browser's) may
  // repair them differently: accept only what the WHATWG serializer writes back unchanged, so
  // every reader of the URI sees the host we checked. (A bare origin may omit its "/".)
  const canonical = url.href;
  if (redirectUri !== canonical && !(url.pathname === "/" && url.search === "" && `${redirectUri}/` === canonical)) {
    return { ok: false, error: `redirect URI ${JSON.stringify(redirectUri)} is not written in its standard form; write it as ${canonical}` };
  }
  // The WHATWG serializer keeps a stray `%` as written; RFC 3986 2.1 allows one only before two hex digits, and a tool's parser may refuse or read it otherwise (adversary round 66).
  if (/%(?![0-9A-Fa-f]{2})/.test(redirectUri)) return { ok: false, error: `redirect URI "${redirectUri}" holds a % not followed by two hex digits (RFC 3986 2.1); write a literal % as %25` };
  // RFC 6749 3.1.2: the redirection endpoint URI MUST NOT include a fragment.
  if (redirectUri.includes("#")) return { ok: false, error: `redirect URI "${redirectUri}" must not contain a fragment` };
  if (url.username !== "" || url.password !== "") return { ok: false, error: `redirect URI "${redirectUri}" must not contain a user name or password` };
  if (protocol === "http" && !isLoopbackHost(url.hostname)) {
    return { ok: false, error: `redirect URI "${redirectUri}" uses http://, which is allowed only for loopback addresses` };
  }
  return { ok: true, value: url };
}

function parseEntry(entry: string): { protocol: string; host: string; hostname: string; port: string } | undefined {
  try {
    const u = new URL(entry);
    return { protocol: u.protocol.slice(0, -1), host: u.host.toLowerCase(), hostname: u.hostname.toLowerCase(), port: u.port };
  } catch {
    return undefined;
  }
}
