import { type Context, Hono } from "hono";
import { playgroundVisible } from "../../config/openapi/playground.js";
import type { ApiPageItem, ApiPagePlan, FrontMatterOperation } from "../../config/openapi/plan-api-pages.js";
import { LIMITS } from "../../limits.js";
import type { StateStore } from "../../store/state/state-store.js";
import type { PagePlace } from "../../tools/preview/page-place.js";
import { Navigations } from "../../tools/preview/navigations.js";
import { PageRenders } from "../../tools/preview/render-cache.js";
import type { RenderedMdx, TocEntry } from "../../tools/render/render-mdx.js";
import type { DocsRuntime } from "../../tools/runtime.js";
import type { DocsContext } from "../../tools/use-cases/docs-context.js";
import { firstPage, type PreviewCaches, previewContent, previewFrame, readablePageAt } from "../../tools/use-cases/preview-page.js";
import { ANONYMOUS, type Reader } from "../../vfs/access.js";
import { mayRead, type RequestContext } from "../../vfs/request-context.js";
import type { Page } from "../../vfs/site.js";
import { bearerReaderOf } from "../auth/bearer.js";
import { readForm } from "../auth/form.js";
import { escapeHtml as esc, siteSignInPage } from "../auth/login-page.js";
import { OAuthError } from "../auth/oauth-errors.js";
import { DEFAULT_RATE_LIMITS, type RateLimiter, type RateLimits } from "../rate-limit.js";
import { clientIp } from "../context.js";
import { bridgeContext } from "../request-context.js";
import { channelHtml, operationHtml, type PlaygroundView, playgroundData, playgroundDataHtml, prose } from "./api-page.js";
import { ASSET_TYPES, ASSETS_PATH, type WebAssets, webAssets } from "./assets.js";
import { dashboardHtml } from "./dashboard-page.js";
import type { SiteSessionStore } from "./site-sessions.js";
import { cookieValue, SESSION_COOKIE, sessionCookie } from "./site-sessions.js";
import { type FrameReader, type PreviewData, previewPage, type SignInLinks } from "./preview/page-frame.js";
import { mountPreviewApi } from "./preview/preview-api.js";
import { siteMedia } from "./preview/site-media.js";

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
  /** The limits in force (the preview's calls charge the tools' limits); the defaults when absent. */
  readonly limits?: RateLimits;
  /** Who a request's client is, for a fair share of the shell; the socket's address when absent. */
  readonly clientIp?: (c: Context) => string;
  readonly assets?: WebAssets;
  readonly log?: (message: string) => void;
  /** What the preview keeps between requests (rendered pages, readers' navigation); new ones when absent. */
  readonly caches?: PreviewCaches;
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

  const caches: PreviewCaches = deps.caches ?? { renders: new PageRenders(), navigations: new Navigations() };
  mountPreviewApi(app, { runtime, contextOf, limiter: deps.limiter, limits: deps.limits ?? DEFAULT_RATE_LIMITS, clientIp: deps.clientIp ?? ((c) => clientIp({ trustProxy: false }, c)) });

  app.get("*", async (c, next) => {
    const accept = c.req.header("accept") ?? "";
    const context = await contextOf(c.req.raw);
    // An image or video of the repository (`/images/logo.png`), whatever the browser accepts.
    const media = siteMedia(runtime, c.req.path, context);
    if (media !== undefined) return media;
    if (!accept.includes("text/html")) return next();
    const docs = { runtime, request: context };
    const reader: FrameReader = {
      signedIn: context.reader.authenticated ? await signedInName(state, sessions, c.req.raw) : undefined,
      signInOffered: !context.reader.authenticated && context.authMode !== "public",
    };
    const found = readableApiPage(runtime, itemsOf, c.req.path, context);
    if (found !== undefined) return apiPage(runtime, caches, found, docs, c.req.path, reader);
    const page = readablePageAt(docs, c.req.path);
    if (page !== undefined) return mdxPage(runtime, caches, page, docs, c.req.path, reader);
    if (c.req.path === "/") {
      // A site without an `index` page opens on the first page of its navigation.
      const first = firstPage(docs, caches);
      if (first !== undefined && first !== "/") return new Response(null, { status: 302, headers: { Location: first, "Cache-Control": "no-store", Vary: "Cookie, Authorization" } });
    }
    // Unknown, or not this reader's to read: one and the same 404 page, which offers an
    // anonymous reader the sign-in (whatever the path: it says nothing about it).
    return notFoundPage(runtime, caches, docs, c.req.path, reader);
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

const LINKS: SignInLinks = { login: WEB_PATHS.login, logout: WEB_PATHS.logout };

/** The version and language a page is in (its divisions' current choices), for the search box. */
function scopeOf(place: PagePlace | undefined): Pick<PreviewData, "version" | "language"> {
  const current = (kind: string): string | undefined => place?.switchers.find((s) => s.kind === kind)?.options.find((o) => o.current)?.title;
  const version = current("version");
  const language = current("language");
  return { ...(version !== undefined ? { version } : {}), ...(language !== undefined ? { language } : {}) };
}

/** A page's title and description above its content (a body that opens with its own `# Title` keeps that one). */
function pageHead(page: Page, body: string): string {
  const ownTitle = /^\s*#[ \t]/.test(body);
  const description = page.meta.description;
  return `${ownTitle ? "" : `<h1>${esc(page.title)}</h1>`}${description !== undefined && description !== "" ? `<p class="description">${esc(description)}</p>` : ""}`;
}

/** Why a page shows as Markdown: the text is not valid MDX (line in the file, and the parser's reason). */
function problemNotice(page: Page, rendered: RenderedMdx): string {
  const problem = rendered.problem;
  if (problem === undefined) return "";
  const where = problem.line !== undefined ? ` (line ${problem.line + page.bodyLine - 1}${problem.column !== undefined ? `:${problem.column}` : ""})` : "";
  return `<p class="notice" data-testid="mdx-problem">This page is not valid MDX${where}: ${esc(problem.message)}. It is shown as Markdown, without its components.</p>`;
}

function mdxPage(runtime: DocsRuntime, caches: PreviewCaches, page: Page, docs: DocsContext, urlPath: string, reader: FrameReader): Response {
  const { place } = previewFrame(docs, caches, page.path);
  const rendered = previewContent(docs, caches, page);
  const main = `<article class="page">${pageHead(page, page.body)}${problemNotice(page, rendered)}<div class="prose">${rendered.html}</div></article>`;
  return previewPage({
    siteName: runtime.site.config.name,
    title: page.title,
    urlPath,
    place,
    reader,
    links: LINKS,
    main,
    toc: rendered.toc,
    data: { page: page.path, file: page.file.path, ...scopeOf(place) },
  });
}

function apiPage(runtime: DocsRuntime, caches: PreviewCaches, found: FoundPage, docs: DocsContext, urlPath: string, reader: FrameReader): Response {
  const { page, item } = found;
  const context = docs.request;
  const { place } = previewFrame(docs, caches, page.path);
  const frame = { siteName: runtime.site.config.name, title: page.title, urlPath, place, reader, links: LINKS, data: { page: page.path, file: page.file.path, ...scopeOf(place) } };
  const info = runtime.site.api?.pages.get(page.path);
  const authConfigured = context.authMode !== "public";
  if ("kind" in item && item.kind === "channel") return previewPage({ ...frame, main: channelHtml(item.spec, item.channel, page.title) });
  const { spec, operation: op } = item;
  const settings = runtime.site.api?.settings;
  if (info === undefined || settings === undefined) return previewPage({ ...frame, main: `<article class="page"><h1>${esc(page.title)}</h1>${prose(page.body)}</article>` });
  const playground = info.playground;
  let view: PlaygroundView;
  if (playgroundVisible(playground, context.reader, authConfigured)) view = { kind: "form" };
  else if (playground.display === "none") view = { kind: "notice", text: "The playground is turned off for this page." };
  else if (!context.reader.authenticated && authConfigured) view = { kind: "sign-in", href: `${WEB_PATHS.login}?return=${encodeURIComponent(urlPath)}` };
  else if (!context.reader.authenticated) view = { kind: "notice", text: "The playground of this page is for signed-in readers, and this site has no sign-in." };
  else view = { kind: "notice", text: `The playground of this page is limited to the groups ${(playground.groups ?? []).join(", ")}.` };

  const generated = "kind" in item;
  // A front-matter page: the author's prose first, then the operation (as the hosted platform shows it).
  let authored = "";
  let toc: readonly TocEntry[] = [];
  if (!generated) {
    const own = page.authored ?? page;
    const rendered = previewContent(docs, caches, own);
    toc = rendered.toc;
    authored = `<section class="prose" data-testid="page-prose">${pageHead(page, own.body)}${problemNotice(own, rendered)}${rendered.html}</section>`;
  }
  const article = operationHtml({ spec, op, pagePath: page.path, title: generated ? page.title : `${op.method} ${op.path}`, settings, playground, view }, generated ? 1 : 2);
  const scripts = view.kind === "form" ? ["playground.js"] : [];
  const data = view.kind === "form" ? playgroundDataHtml(playgroundData(op, page.path, playground)) : "";
  // `proxy: false`: the browser calls the API itself, so the policy lets it connect there.
  const connect = view.kind === "form" && playground.transport === "direct" ? op.servers.filter((s) => /^https?:\/\//i.test(s)).map((s) => new URL(s).origin) : [];
  return previewPage({ ...frame, main: `${authored}${article}`, toc, extra: data, options: { scripts, connect } });
}

function notFoundPage(runtime: DocsRuntime, caches: PreviewCaches, docs: DocsContext, urlPath: string, reader: FrameReader): Response {
  const signIn = reader.signInOffered ? `<p>If the page is for signed-in readers, <a href="${WEB_PATHS.login}?return=${encodeURIComponent(urlPath)}" data-testid="not-found-sign-in">sign in</a> first.</p>` : "";
  const { place } = previewFrame(docs, caches, undefined);
  return previewPage({
    siteName: runtime.site.config.name,
    title: "Page not found",
    urlPath,
    place,
    reader,
    links: LINKS,
    main: `<article class="page"><h1>Page not found</h1><p>There is no page at <code>${esc(urlPath)}</code>.</p>${signIn}</article>`,
    data: {},
    status: 404,
    // Its body names the path asked for: no digest (live reload tells it by its status).
    digest: false,
  });
}

/** Where to go after signing in or out: a path on this site, never another origin (`//evil`, `/\evil`). */
function returnPath(value: string | undefined): string {
  if (value === undefined || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || /[\u0000-\u001f]/.test(value)) return "/";
  return value;
}
