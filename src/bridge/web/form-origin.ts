import { apiErrorResponse } from "../middleware/http-errors.js";

/**
 * Login CSRF: a foreign page can post a form to `/_svc/login` (signing the browser in as the
 * attacker's account, so what the victim does next lands in it) or to `/_svc/logout`. These
 * forms are only ever posted from this server's own pages, so a browser request from any other
 * origin is refused, as the MCP endpoints refuse foreign origins (403 `forbidden_origin`).
 *
 * Browsers say where a request comes from in two headers. `Sec-Fetch-Site` must be
 * `same-origin` when present. `Origin` must be this server's (its public URL's, or the one the
 * request was sent to); `null` passes only beside `Sec-Fetch-Site: same-origin`, because our
 * pages' `Referrer-Policy: no-referrer` makes a browser send `Origin: null` on their own forms,
 * while a sandboxed frame or a cross-origin redirect sends it from elsewhere. A client that
 * sends neither header is no browser, so carries no victim's cookies.
 */
export function foreignFormPost(request: Request, publicUrl: string | undefined): Response | undefined {
  const url = new URL(request.url);
  const origin = request.headers.get("origin");
  const site = request.headers.get("sec-fetch-site");
  const refuse = (who: string) => apiErrorResponse(403, "forbidden_origin", `${who} may not post to ${url.pathname}; use the form on this site`);
  if (origin !== null && origin !== "null") {
    const own = new Set([url.origin, ...(publicUrl === undefined ? [] : [new URL(publicUrl).origin])]);
    if (!own.has(origin)) return refuse(`Origin ${origin}`);
  }
  if (origin === "null" && site !== "same-origin") return refuse("Origin null");
  // `same-site` is another origin too (a sibling subdomain); `none` (the person's own navigation) never posts a form.
  if (site !== null && site !== "same-origin") return refuse(`a ${site} request`);
  return undefined;
}
