import { siteTitle } from "../../engine/tool-names.js";

/** Escape text for HTML content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] as string);
}

/**
 * Security headers of every HTML page: no framing (clickjacking), no caching (the page
 * carries a one-time PKCE challenge), no referrer (the URL carries `state`), no scripts at all.
 * No `form-action`: browsers apply it to the redirect after the POST, which goes to the tool.
 */
const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
} as const;

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; background: #f6f7f9; color: #1d2330; margin: 0; }
  main { max-width: 380px; margin: 10vh auto; background: #fff; padding: 28px 32px; border-radius: 10px; box-shadow: 0 1px 4px #0002; }
  h1 { font-size: 20px; margin: 0 0 8px; }
  p { margin: 0 0 16px; color: #4a5263; }
  label { display: block; font-size: 14px; margin: 12px 0 4px; }
  input[type=text], input[type=password] { width: 100%; box-sizing: border-box; padding: 8px 10px; font-size: 16px; border: 1px solid #c5cad3; border-radius: 6px; }
  .actions { display: flex; flex-direction: row-reverse; gap: 8px; margin-top: 20px; }
  button { flex: 1; padding: 9px; font-size: 15px; border-radius: 6px; border: 1px solid #c5cad3; background: #fff; cursor: pointer; }
  button.primary { background: #1f5fd6; border-color: #1f5fd6; color: #fff; }
  .error { color: #b42318; background: #fef3f2; padding: 8px 10px; border-radius: 6px; }
  .notice { color: #7a4d00; background: #fff8e6; padding: 8px 10px; border-radius: 6px; }
`;

function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, { status, headers: PAGE_HEADERS });
}

export interface LoginPageInput {
  readonly siteName: string;
  /** The tool's name from its registration, if it gave one. */
  readonly clientName: string | undefined;
  /** Where the person goes back to (shown so they can spot a tool they did not start). */
  readonly returnTo: string;
  /** The authorization request, carried through the form unchanged. */
  readonly params: ReadonlyMap<string, string>;
  readonly username?: string;
  readonly error?: string;
  /** What the person should weigh before signing in (a loopback callback, where the tool's description comes from). */
  readonly notice?: string | undefined;
}

/** The sign-in form of the authorization endpoint. */
export function loginPage(status: number, input: LoginPageInput): Response {
  const tool = input.clientName !== undefined ? `<strong>${escapeHtml(input.clientName)}</strong>` : "An AI tool";
  const hidden = [...input.params]
    .filter(([k]) => k !== "username" && k !== "password" && k !== "action")
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("");
  const body = `
    <h1>Sign in to ${escapeHtml(siteTitle(input.siteName))}</h1>
    <p>${tool} wants to read the documentation as you. After signing in you return to <strong>${escapeHtml(input.returnTo)}</strong>.</p>
    ${input.notice !== undefined ? `<p class="notice">${escapeHtml(input.notice)}</p>` : ""}
    ${input.error !== undefined ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : ""}
    <form method="post" autocomplete="on">
      ${hidden}
      <label for="username">User name</label>
      <input type="text" id="username" name="username" value="${escapeHtml(input.username ?? "")}" autocomplete="username" required autofocus>
      <label for="password">Password</label>
      <input type="password" id="password" name="password" autocomplete="current-password" required>
      <div class="actions">
        <!-- Sign in comes first so Enter submits it; row-reverse shows it on the right. -->
        <button type="submit" name="action" value="login" class="primary">Sign in</button>
        <button type="submit" name="action" value="deny" formnovalidate>Cancel</button>
      </div>
    </form>`;
  return page(status, `Sign in to ${siteTitle(input.siteName)}`, body);
}

/** An error the person must see (never redirected: the redirect target itself is in doubt). */
export function errorPage(status: number, siteName: string, message: string): Response {
  return page(status, "Sign-in error", `<h1>Cannot sign in to ${escapeHtml(siteTitle(siteName))}</h1><p class="error" role="alert">${escapeHtml(message)}</p>`);
}

export interface SiteSignInInput {
  readonly siteName: string;
  /** The page to go back to after signing in (a path on this site). */
  readonly returnTo: string;
  readonly username?: string;
  readonly error?: string;
}

/**
 * The sign-in form of the site's pages (the API pages' playground): the same accounts and page
 * as the MCP sign-in, posting to `/_svc/login`; success sets the site's session cookie.
 */
export function siteSignInPage(status: number, input: SiteSignInInput): Response {
  const body = `
    <h1>Sign in to ${escapeHtml(siteTitle(input.siteName))}</h1>
    <p>Sign in to use the API playground as yourself. Afterwards you return to <strong>${escapeHtml(input.returnTo)}</strong>.</p>
    ${input.error !== undefined ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : ""}
    <form method="post" autocomplete="on">
      <input type="hidden" name="return" value="${escapeHtml(input.returnTo)}">
      <label for="username">User name</label>
      <input type="text" id="username" name="username" value="${escapeHtml(input.username ?? "")}" autocomplete="username" required autofocus>
      <label for="password">Password</label>
      <input type="password" id="password" name="password" autocomplete="current-password" required>
      <div class="actions">
        <button type="submit" class="primary">Sign in</button>
      </div>
    </form>`;
  return page(status, `Sign in to ${siteTitle(input.siteName)}`, body);
}
