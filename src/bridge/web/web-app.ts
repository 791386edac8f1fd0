import { type Context, Hono } from "hono";
import { LIMITS } from "../../limits.js";
import type { StateStore } from "../../store/state/state-store.js";
import type { DocsRuntime } from "../../engine/runtime.js";
import { firstPage, type PreviewCaches, readablePageAt } from "../../engine/use-cases/preview-page.js";
import { ANONYMOUS, type Reader } from "../../vfs/access.js";
import type { RequestContext } from "../../vfs/request-context.js";
import { bearerReaderOf } from "../auth/bearer.js";
import { readForm } from "../auth/form.js";
import { siteSignInPage } from "../auth/login-page.js";
import { OAuthError } from "../auth/oauth-errors.js";
import { PasswordTurns, SIGN_INS_IN_PROGRESS } from "../auth/password-turns.js";
import { DEFAULT_RATE_LIMITS, type RateLimiter, type RateLimits } from "../middleware/rate-limit.js";
import { clientIp } from "../context.js";
import { callerAddress } from "../middleware/caller-address.js";
import { bridgeContext } from "../middleware/request-context.js";
import { ASSET_TYPES, ASSETS_PATH, type WebAssets, webAssets } from "./assets.js";
import { dashboardHtml } from "./dashboard-page.js";
import { FAVICON_PATH, faviconResponse } from "./favicon.js";
import { foreignFormPost } from "./form-origin.js";
import { cookieValue, SESSION_COOKIE, type SiteSessionStore, sameAccount, sessionCookie } from "./site-sessions.js";
import type { FrameReader, SignInLinks } from "./preview/page-frame.js";
import { mountPreviewApi } from "./preview/preview-api.js";
import type { MediaTurnKeeper } from "./preview/media-turns.js";
import type * as PageRoutesModule from "./preview/page-routes.js";
import type { PageItems } from "./preview/page-routes.js";
import { newSiteMediaState, siteMedia, type SiteMediaState } from "./preview/site-media.js";

/** The module of the preview's pages, loaded with the first page asked for (see `loadPages`). */
type PageRoutes = typeof PageRoutesModule;

/** Paths of the pages for people (besides the API pages at their own paths). */
export const WEB_PATHS = { login: "/_svc/login", logout: "/_svc/logout", dashboard: "/_svc/dashboard" } as const;

/** The sign-in and sign-out forms' posts: they refuse every origin but this server's (`foreignFormPost`), stricter than the bridge's check. */
export function isSignInForm(path: string, method: string): boolean {
  return method === "POST" && (path === WEB_PATHS.login || path === WEB_PATHS.logout);
}

export interface WebAppDeps {
  readonly runtime: DocsRuntime;
  readonly state: StateStore;
  readonly sessions: SiteSessionStore;
  /** The bridge's counters: failed sign-ins per account, as on the MCP sign-in page. */
  readonly limiter: RateLimiter;
  /** The feedback project the dashboard shows. */
  readonly projectId: string;
  readonly publicUrl: string | undefined;
  /** The limits in force (the preview's calls charge the tools' limits); the defaults when absent. */
  readonly limits?: RateLimits;
  /** Who a request's client is, for a fair share of the shell; the socket's address when absent. */
  readonly clientIp?: (c: Context) => string;
  readonly assets?: WebAssets;
  readonly log?: (message: string) => void;
  /** What the preview keeps between requests (rendered pages, readers' navigation); new ones when absent. */
  readonly caches?: PreviewCaches;
  /** The media's tags and each caller's media transfers (`newSiteMediaState` when absent). */
  readonly media?: SiteMediaState;
  /** Each caller's turns for preview searches and agent views (`previewCallTurns` when absent). */
  readonly previewTurns?: MediaTurnKeeper;
  /** The sign-in forms' password checks (the bridge's, shared with the MCP sign-in; new ones when absent). */
  readonly passwordTurns?: PasswordTurns;
}

/**
 * A request's context for the pages and the relay: the reader of the site session cookie (a
 * person signed in on `/_svc/login`, with their groups as the state store has them now), else
 * of a bearer token, else anonymous; and the site's auth setting read for this request.
 */
export function siteContextOf(state: StateStore, sessions: SiteSessionStore, publicUrl: string | undefined): (request: Request) => Promise<RequestContext> {
  const bearer = bearerReaderOf(state, publicUrl);
  return async (request) => {
    const [reader, settings] = await Promise.all([sessionReader(state, sessions, request).then((r) => r ?? bearer(request)), state.settings()]);
    return bridgeContext(settings, reader, Date.now);
  };
}

async function sessionReader(state: StateStore, sessions: SiteSessionStore, request: Request): Promise<Reader | undefined> {
  const account = await sessions.user(cookieValue(request.headers.get("cookie"), SESSION_COOKIE));
  if (account === undefined) return undefined;
  const user = await state.user(account.name);
  // A removed account's session reads as anonymous from the next request on, and stays so when
  // an account of the same name is added again.
  return !sameAccount(account, user) || user === undefined ? ANONYMOUS : { authenticated: true, groups: new Set(user.groups), allGroups: false };
}

/**
 * The pages for people, mounted on the bridge: each API page as HTML at its own path (for
 * `Accept: text/html`), the site sign-in, the feedback dashboard and the pages' assets.
 */
export function createWebApp(deps: WebAppDeps): Hono {
  const { runtime, state, sessions } = deps;
  const assets = deps.assets ?? webAssets();
  const contextOf = siteContextOf(state, sessions, deps.publicUrl);
  const secure = (request: Request): boolean => (deps.publicUrl ?? request.url).startsWith("https:");
  const app = new Hono();
  const callerOf = deps.clientIp ?? ((c: Context) => clientIp({ trustProxy: false }, c));
  const passwordTurns = deps.passwordTurns ?? new PasswordTurns();

  app.get(`${ASSETS_PATH}/:name`, async (c, next) => {
    const name = c.req.param("name");
    const text = await assets.get(name);
    if (text === undefined) return next();
    return new Response(text, { headers: { "Content-Type": ASSET_TYPES[name] as string, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff" } });
  });

  app.get(FAVICON_PATH, () => faviconResponse());

  app.get(WEB_PATHS.login, (c) => siteSignInPage(200, { siteName: runtime.site.config.name, returnTo: returnPath(c.req.query("return")) }));
  app.post(WEB_PATHS.login, async (c) => {
    const foreign = foreignFormPost(c.req.raw, deps.publicUrl);
    if (foreign !== undefined) return foreign;
    const siteName = runtime.site.config.name;
    let form: ReadonlyMap<string, string>;
    try {
      form = await readForm(c.req.raw);
    } catch (error) {
      if (error instanceof OAuthError) return siteSignInPage(400, { siteName, returnTo: "/", error: error.message });
      throw error;
    }
    const returnTo = returnPath(form.get("return"));
    const username = form.get("username")?.trim() ?? "";
    const password = form.get("password") ?? "";
    if (username === "" || password === "") return siteSignInPage(400, { siteName, returnTo, username, error: "Enter your user name and password." });
    // As on the MCP sign-in: a unit per attempt, given back on success (docs/bridge.md).
    const charge = { key: `login:${username.toLowerCase()}`, limit: LIMITS.oauth.maxFailedLoginsPerHour, what: "failed sign-ins per hour" };
    const attempt = await deps.limiter.take([charge]);
    if (!attempt.ok) {
      const minutes = Math.ceil(attempt.retryAfterSec / 60);
      return siteSignInPage(429, { siteName, returnTo, username, error: `Too many failed sign-ins for this account. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` });
    }
    const verified = await passwordTurns.run(callerAddress(callerOf(c)), () => state.verifyUser(username, password));
    if (verified === undefined) {
      // Not checked, so no failed attempt of the account's.
      await deps.limiter.refund([charge]);
      return siteSignInPage(429, { siteName, returnTo, username, error: SIGN_INS_IN_PROGRESS });
    }
    const user = verified.value;
    if (user === undefined) return siteSignInPage(401, { siteName, returnTo, username, error: "Wrong user name or password." });
    await deps.limiter.refund([charge]);
    deps.log?.(`signed in ${user.name} on the site`);
    return new Response(null, { status: 303, headers: { Location: returnTo, "Set-Cookie": sessionCookie(await sessions.create({ name: user.name, createdAt: user.createdAt }), secure(c.req.raw)), "Cache-Control": "no-store" } });
  });
  app.post(WEB_PATHS.logout, async (c) => {
    const foreign = foreignFormPost(c.req.raw, deps.publicUrl);
    if (foreign !== undefined) return foreign;
    await sessions.end(cookieValue(c.req.header("cookie"), SESSION_COOKIE));
    return new Response(null, { status: 303, headers: { Location: returnPath(c.req.query("return")), "Set-Cookie": sessionCookie("", secure(c.req.raw), 0), "Cache-Control": "no-store" } });
  });

  app.get(WEB_PATHS.dashboard, () => dashboardHtml(runtime.site.config.name, deps.projectId));

  // The pages' module (the MDX parser, the highlighter) is loaded with the first page asked for.
  let pages: Promise<{ routes: PageRoutes; caches: PreviewCaches; itemsOf: PageItems }> | undefined;
  const loadPages = () =>
    (pages ??= import("./preview/page-routes.js").then((routes) => ({ routes, caches: deps.caches ?? routes.newCaches(), itemsOf: routes.pageItems() })).catch((error: unknown) => {
      pages = undefined;
      throw error;
    }));
  mountPreviewApi(app, { runtime, contextOf, limiter: deps.limiter, limits: deps.limits ?? DEFAULT_RATE_LIMITS, clientIp: callerOf, ...(deps.previewTurns !== undefined ? { turns: deps.previewTurns } : {}) });

  const mediaState = deps.media ?? newSiteMediaState();
  app.get("*", async (c, next) => {
    const accept = c.req.header("accept") ?? "";
    const context = await contextOf(c.req.raw);
    // An image or video of the repository (`/images/logo.png`), whatever the browser accepts.
    const caller = context.caller ?? `address:${callerAddress(callerOf(c))}`;
    const media = await siteMedia(runtime, mediaState, c.req.path, context, { ifNoneMatch: c.req.header("if-none-match"), head: c.req.method === "HEAD", caller, signal: c.req.raw.signal });
    if (media !== undefined) return media;
    if (!accept.includes("text/html")) return next();
    const docs = { runtime, request: context };
    const reader: FrameReader = {
      signedIn: context.reader.authenticated ? await signedInName(state, sessions, c.req.raw) : undefined,
      signInOffered: !context.reader.authenticated && context.authMode !== "public",
    };
    const { routes, caches, itemsOf } = await loadPages();
    // Pages render in the runtime's workers, shared fairly between callers (a token's principal,
    // else the client's address or IPv6 /64), as the shell pool is.
    const request = { urlPath: c.req.path, reader, links: LINKS, caller };
    const found = routes.readableApiPage(runtime, itemsOf, c.req.path, context);
    if (found !== undefined) return routes.apiPage(runtime, caches, found, docs, request);
    const page = readablePageAt(docs, c.req.path);
    if (page !== undefined) return routes.mdxPage(runtime, caches, page, docs, request);
    if (c.req.path === "/") {
      // A site without an `index` page opens on the first page of its navigation.
      const first = firstPage(docs, caches);
      if (first !== undefined && first !== "/") return new Response(null, { status: 302, headers: { Location: first, "Cache-Control": "no-store", Vary: "Cookie, Authorization" } });
    }
    // Unknown, or not this reader's to read: one and the same 404 page, which offers an
    // anonymous reader the sign-in (whatever the path: it says nothing about it).
    return routes.notFoundPage(runtime, caches, docs, c.req.path, reader, LINKS);
  });
  return app;
}

/** Where the pages sign readers in and out. */
const LINKS: SignInLinks = { login: WEB_PATHS.login, logout: WEB_PATHS.logout };

async function signedInName(state: StateStore, sessions: SiteSessionStore, request: Request): Promise<string | undefined> {
  const account = await sessions.user(cookieValue(request.headers.get("cookie"), SESSION_COOKIE));
  return account !== undefined && sameAccount(account, await state.user(account.name)) ? account.name : undefined;
}

/** Where to go after signing in or out: a path on this site, never another origin (`//evil`, `/\evil`). */
function returnPath(value: string | undefined): string {
  if (value === undefined || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || /[\u0000-\u001f]/.test(value)) return "/";
  return value;
}
