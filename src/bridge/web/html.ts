import { escapeHtml as esc } from "../auth/login-page.js";
import { ASSETS_PATH } from "./assets.js";

export interface HtmlOptions {
  /** Asset names under `/_svc/assets/` (`pages.css`). */
  readonly styles?: readonly string[];
  readonly scripts?: readonly string[];
  /** Origins the page's script may call besides this one (the API, with `proxy: false`). */
  readonly connect?: readonly string[];
  readonly status?: number;
  /** `<meta name content>` pairs (the preview's digest of the page, for live reload). */
  readonly meta?: Readonly<Record<string, string>>;
  /** More response headers (`Retry-After` on a page not rendered now). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The Content-Security-Policy of the pages: scripts and styles from this server only (no inline
 * script, no CDN, no font or frame from anywhere), answers shown as `data:`/`blob:` media, calls
 * to this server (and, with `proxy: false`, to the API's origins), forms posting here only.
 */
export function contentSecurityPolicy(connect: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    `connect-src ${["'self'", ...connect].join(" ")}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/** An HTML page of ours with its security headers. */
export function htmlResponse(title: string, body: string, options: HtmlOptions = {}): Response {
  const styles = (options.styles ?? []).map((s) => `<link rel="stylesheet" href="${ASSETS_PATH}/${esc(s)}">`).join("");
  const scripts = (options.scripts ?? []).map((s) => `<script type="module" src="${ASSETS_PATH}/${esc(s)}"></script>`).join("");
  const meta = Object.entries(options.meta ?? {}).map(([name, content]) => `<meta name="${esc(name)}" content="${esc(content)}">`).join("");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${meta}<title>${esc(title)}</title>${styles}${scripts}</head><body>${body}</body></html>`;
  return new Response(html, {
    status: options.status ?? 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": contentSecurityPolicy(options.connect),
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      Vary: "Accept, Cookie, Authorization",
      ...options.headers,
    },
  });
}
