import { Hono } from "hono";
import { playgroundVisible } from "../../config/openapi/playground.js";
import type { ApiPageItem, ApiPagePlan, FrontMatterOperation } from "../../config/openapi/plan-api-pages.js";
import { LIMITS } from "../../limits.js";
import type { StateStore } from "../../store/state/state-store.js";
import type { DocsRuntime } from "../../tools/runtime.js";
import { ANONYMOUS, type Reader } from "../../vfs/access.js";
import { mayRead, type RequestContext } from "../../vfs/request-context.js";
import type { Page } from "../../vfs/site.js";
import { bearerReaderOf } from "../auth/bearer.js";
import { readForm } from "../auth/form.js";
import { escapeHtml as esc, siteSignInPage } from "../auth/login-page.js";
import { OAuthError } from "../auth/oauth-errors.js";
import type { RateLimiter } from "../rate-limit.js";
import { bridgeContext } from "../request-context.js";
import { channelHtml, operationHtml, type PlaygroundView, playgroundData, playgroundDataHtml, prose } from "./api-page.js";
import { ASSET_TYPES, ASSETS_PATH, type WebAssets, webAssets } from "./assets.js";
import { dashboardHtml } from "./dashboard-page.js";
import { FAVICON_PATH, faviconResponse } from "./favicon.js";
import { htmlResponse } from "./html.js";
import type { SiteSessionStore } from "./site-sessions.js";
import { cookieValue, SESSION_COOKIE, sessionCookie } from "./site-sessions.js";

/** Paths of the pages for people (besides the API pages at their own paths). */
export const WEB_PATHS = { login: "/_svc/login", logout: "/_svc/logout", dashboard: "/_svc/dashboard" } as const;

export interface WebAppDeps {
  readonly runtime: DocsRuntime;
  readonly state: StateStore;
  readonly sessions: SiteSessionStore;
  /** The bridge's counters: failed sign-ins per account, as on the MCP sign-in page. */
  readonly limiter: RateLimiter;
  /** The feedback project the dashboard shows. */
  readonly projectId: string;
  readonly publicUrl: string | undefined;
  readonly assets?: WebAssets;
  readonly log?: (message: string) => void;
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
  const name = await sessions.user(cookieValue(request.headers.get("cookie"), SESSION_COOKIE));
  if (name === undefined) return undefined;
  const user = await state.user(name);
  // A removed account's session reads as anonymous from the next request on.
  return user === undefined ? ANONYMOUS : { authenticated: true, groups: new Set(user.groups), allGroups: false };
}

/**
 * The pages for people, mounted on the bridge: each API page as HTML at its own path (for
 * `Accept: text/html`), the site sign-in, the feedback dashboard and the pages' assets.
 */
export function createWebApp(deps: WebAppDeps): Hono {
  const { runtime, state, sessions } = deps;
  const assets = deps.assets ?? webAssets();
  const contextOf = siteContextOf(state, sessions, deps.publicUrl);
  const itemsOf = pageItems();
  const secure = (request: Request): boolean => (deps.publicUrl ?? request.url).startsWith("https:");
  const app = new Hono();

  app.get(`${ASSETS_PATH}/:name`, async (c, next) => {
    const name = c.req.param("name");
    const text = await assets.get(name);
    if (text === undefined) return next();
    return new Response(text, { headers: { "Content-Type": ASSET_TYPES[name] as string, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff" } });
  });

  app.get(FAVICON_PATH, () => faviconResponse());

  app.get(WEB_PATHS.login, (c) => siteSignInPage(200, { siteName: runtime.site.config.name, returnTo: returnPath(c.req.query("return")) }));
  app.post(WEB_PATHS.login, async (c) => {
    const siteName = runtime.site.config.name;
    let form: ReadonlyMap<string, string>;
    try {
      form = await readForm(c.req.raw);
    } catch (error) {
      if (error instanceof OAuthError) return siteSignInPage(400, { siteName, returnTo: "/", error: error.description });
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
    const user = await state.verifyUser(username, password);
    if (user === undefined) return siteSignInPage(401, { siteName, returnTo, username, error: "Wrong user name or password." });
    await deps.limiter.refund([charge]);
    deps.log?.(`signed in ${user.name} on the site`);
    return new Response(null, { status: 303, headers: { Location: returnTo, "Set-Cookie": sessionCookie(await sessions.create(user.name), secure(c.req.raw)), "Cache-Control": "no-store" } });
  });
  app.post(WEB_PATHS.logout, async (c) => {
    await sessions.end(cookieValue(c.req.header("cookie"), SESSION_COOKIE));
    return new Response(null, { status: 303, headers: { Location: returnPath(c.req.query("return")), "Set-Cookie": sessionCookie("", secure(c.req.raw), 0), "Cache-Control": "no-store" } });
  });

  app.get(WEB_PATHS.dashboard, () => dashboardHtml(runtime.site.config.name, deps.projectId));

  app.get("*", async (c, next) => {
    if (!(c.req.header("accept") ?? "").includes("text/html")) return next();
    const context = await contextOf(c.req.raw);
    const found = readableApiPage(runtime, itemsOf, c.req.path, context);
    // Unknown, not an API page, or not this reader's to read: one and the same 404 page, which
    // offers an anonymous reader the sign-in (whatever the path: it says nothing about it).
    if (found === undefined) return notFoundPage(runtime.site.config.name, c.req.path, !context.reader.authenticated && context.authMode !== "public");
    const signedIn = context.reader.authenticated ? await signedInName(state, sessions, c.req.raw) : undefined;
    return renderPage(runtime, found, context, c.req.path, signedIn);
  });
  return app;
}

interface FoundPage {
  readonly page: Page;
  readonly item: ApiPageItem | FrontMatterOperation;
}

/** The API page at a URL path that this request may read, with what it documents. */
function readableApiPage(runtime: DocsRuntime, itemsOf: PageItems, urlPath: string, context: RequestContext): FoundPage | undefined {
  let path: string;
  try {
    path = decodeURIComponent(urlPath).replace(/\/+$/, "");
  } catch {
    return undefined;
  }
  const site = runtime.site;
  const api = site.api;
  if (api === undefined) return undefined;
  for (const candidate of path === "" ? ["/index"] : [path, `${path}/index`]) {
    const page = site.pages.get(candidate);
    if (page === undefined || !mayRead(context, page.file.access)) continue;
    const items = itemsOf(api.plan);
    const item = items.get(candidate);
    if (item === undefined) return undefined;
    // A front-matter page shows the operation only where its reference was attached (the
    // operation's own rule covers every reader of the page): the same decision as the relay's.
    if (api.pages.get(candidate) === undefined) return undefined;
    return { page, item };
  }
  return undefined;
}

type PageItems = (plan: ApiPagePlan) => ReadonlyMap<string, ApiPageItem | FrontMatterOperation>;

/** Page path -> what it documents, built once per loaded plan (a reload brings a new plan). */
function pageItems(): PageItems {
  const byPlan = new WeakMap<ApiPagePlan, Map<string, ApiPageItem | FrontMatterOperation>>();
  return (plan) => {
    let map = byPlan.get(plan);
    if (map === undefined) {
      map = new Map<string, ApiPageItem | FrontMatterOperation>();
      for (const p of plan.pages) map.set(p.pagePath, p.item);
      for (const [path, fm] of plan.frontMatter) map.set(path, fm);
      byPlan.set(plan, map);
    }
    return map;
  };
}

async function signedInName(state: StateStore, sessions: SiteSessionStore, request: Request): Promise<string | undefined> {
  const name = await sessions.user(cookieValue(request.headers.get("cookie"), SESSION_COOKIE));
  return name !== undefined && (await state.user(name)) !== undefined ? name : undefined;
}

function renderPage(runtime: DocsRuntime, found: FoundPage, context: RequestContext, urlPath: string, signedIn: string | undefined): Response {
  const { page, item } = found;
  const siteName = runtime.site.config.name;
  const info = runtime.site.api?.pages.get(page.path);
  const authConfigured = context.authMode !== "public";
  const header = headerHtml(siteName, urlPath, signedIn, authConfigured);
  if ("kind" in item && item.kind === "channel") {
    return htmlResponse(page.title, `${header}<main>${channelHtml(item.spec, item.channel, page.title)}</main>`, { styles: ["pages.css"] });
  }
  const { spec, operation: op } = item;
  const settings = runtime.site.api?.settings;
  if (info === undefined || settings === undefined) return htmlResponse(page.title, `${header}<main>${prose(page.body)}</main>`, { styles: ["pages.css"] });
  const playground = info.playground;
  let view: PlaygroundView;
  if (playgroundVisible(playground, context.reader, authConfigured)) view = { kind: "form" };
  else if (playground.display === "none") view = { kind: "notice", text: "The playground is turned off for this page." };
  else if (!context.reader.authenticated && authConfigured) view = { kind: "sign-in", href: `${WEB_PATHS.login}?return=${encodeURIComponent(urlPath)}` };
  else if (!context.reader.authenticated) view = { kind: "notice", text: "The playground of this page is for signed-in readers, and this site has no sign-in." };
  else view = { kind: "notice", text: `The playground of this page is limited to the groups ${(playground.groups ?? []).join(", ")}.` };

  const generated = "kind" in item;
  // A front-matter page: the author's prose first, then the operation (as the hosted platform shows it).
  const authored = generated ? "" : `<section class="prose" data-testid="page-prose"><h1>${esc(page.title)}</h1>${prose(page.authored?.body ?? "")}</section>`;
  const article = operationHtml({ spec, op, pagePath: page.path, title: generated ? page.title : `${op.method} ${op.path}`, settings, playground, view }, generated ? 1 : 2);
  const scripts = view.kind === "form" ? ["playground.js"] : [];
  const data = view.kind === "form" ? playgroundDataHtml(playgroundData(op, page.path, playground)) : "";
  // `proxy: false`: the browser calls the API itself, so the policy lets it connect there.
  const connect = view.kind === "form" && playground.transport === "direct" ? op.servers.filter((s) => /^https?:\/\//i.test(s)).map((s) => new URL(s).origin) : [];
  return htmlResponse(page.title, `${header}<main>${authored}${article}</main>${data}`, { styles: ["pages.css"], scripts, connect });
}

function notFoundPage(siteName: string, urlPath: string, offerSignIn: boolean): Response {
  const signIn = offerSignIn ? `<p>If the page is for signed-in readers, <a href="${WEB_PATHS.login}?return=${encodeURIComponent(urlPath)}" data-testid="not-found-sign-in">sign in</a> first.</p>` : "";
  const body = `<header class="top"><span class="site">${esc(siteName)}</span></header><main><h1>Page not found</h1><p>There is no page at <code>${esc(urlPath)}</code>.</p>${signIn}</main>`;
  return htmlResponse("Page not found", body, { styles: ["pages.css"], status: 404 });
}

function headerHtml(siteName: string, urlPath: string, signedIn: string | undefined, authConfigured: boolean): string {
  const back = encodeURIComponent(urlPath);
  const who =
    signedIn !== undefined
      ? `<form method="post" action="${WEB_PATHS.logout}?return=${back}" class="who">Signed in as <strong data-testid="signed-in-as">${esc(signedIn)}</strong> <button type="submit">Sign out</button></form>`
      : authConfigured
        ? `<a class="who" href="${WEB_PATHS.login}?return=${back}" data-testid="sign-in">Sign in</a>`
        : "";
  return `<header class="top"><span class="site">${esc(siteName)}</span>${who}</header>`;
}

/** Where to go after signing in or out: a path on this site, never another origin (`//evil`, `/\evil`). */
function returnPath(value: string | undefined): string {
  if (value === undefined || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || /[\u0000-\u001f]/.test(value)) return "/";
  return value;
}
