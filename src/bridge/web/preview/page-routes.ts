import type { ApiPageItem, ApiPagePlan, FrontMatterOperation } from "../../../config/openapi/plan-api-pages.js";
import { ApiArticles } from "../../../engine/preview/api-articles.js";
import { Navigations } from "../../../engine/preview/navigations.js";
import type { PagePlace } from "../../../engine/preview/page-place.js";
import { PageRenders } from "../../../engine/preview/render-cache.js";
import type { RenderedMdx, TocEntry } from "../../../engine/render/render-mdx.js";
import type { DocsRuntime } from "../../../engine/runtime.js";
import type { DocsContext } from "../../../engine/use-cases/docs-context.js";
import { type PreviewCaches, previewContent, previewFrame, withMarkdownHtml } from "../../../engine/use-cases/preview-page.js";
import { RenderUnavailable } from "../../../engine/render/render-unavailable.js";
import { readerApiPage } from "../../../vfs/outline.js";
import { pageFor } from "../../../vfs/page-routes.js";
import { mayRead, type RequestContext } from "../../../vfs/request-context.js";
import type { Page } from "../../../vfs/page.js";
import type { ApiPageInfo } from "../../../vfs/site-api.js";
import { escapeHtml as esc } from "../../auth/login-page.js";
import { channelHtml, operationHtml, playgroundData, playgroundDataHtml, playgroundView } from "../api-page.js";
import { type FrameReader, type PreviewData, previewPage, type SignInLinks } from "./page-frame.js";

/**
 * The preview's pages as HTML: an MDX page, an API page, or the 404 page, each in the frame.
 * Loaded when the first page is asked for (`web-app.ts`): it brings the MDX parser and the
 * highlighter, which a server that serves no page (MCP alone) never needs to load.
 */

export interface FoundPage {
  readonly page: Page;
  readonly item: ApiPageItem | FrontMatterOperation;
  readonly info: ApiPageInfo;
}

/** The API page at a URL path that this request may read, with what it documents. */
export function readableApiPage(runtime: DocsRuntime, itemsOf: PageItems, urlPath: string, context: RequestContext): FoundPage | undefined {
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
    // The page this reader gets there (a generated page behind a file they may not read, too).
    // A front-matter page shows the operation only where its reference was attached (the
    // operation's own rule covers every reader of the page): the same decision as the relay's.
    if (pageFor(site, candidate, (access) => mayRead(context, access)) === undefined) continue;
    const found = readerApiPage(site, context, candidate);
    if (found === undefined) return undefined;
    // An authored page behind another at its path documents what its own front matter names.
    const sitePage = found.page === site.pages.get(candidate);
    const item = sitePage || found.page.generated ? itemsOf(api.plan, sitePage).get(candidate) : api.hidden?.operations.get(found.page.file.path);
    return item === undefined ? undefined : { ...found, item };
  }
  return undefined;
}

/** `sitePage`: what the site's pages document; else what the generated pages behind a file do (`ApiPagePlan.behind`). */
export type PageItems = (plan: ApiPagePlan, sitePage: boolean) => ReadonlyMap<string, ApiPageItem | FrontMatterOperation>;

/** Page path -> what it documents, built once per loaded plan (a reload brings a new plan). */
export function pageItems(): PageItems {
  const byPlan = new WeakMap<ApiPagePlan, { site: Map<string, ApiPageItem | FrontMatterOperation>; behind: Map<string, ApiPageItem> }>();
  return (plan, sitePage) => {
    let maps = byPlan.get(plan);
    if (maps === undefined) {
      const site = new Map<string, ApiPageItem | FrontMatterOperation>();
      for (const p of plan.pages) site.set(p.pagePath, p.item);
      for (const [path, fm] of plan.frontMatter) site.set(path, fm);
      maps = { site, behind: new Map(plan.behind.map((p) => [p.pagePath, p.item])) };
      byPlan.set(plan, maps);
    }
    return sitePage ? maps.site : maps.behind;
  };
}



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

/** Why a page shows as Markdown (the text is not valid MDX) or as plain text (its markup nests too deep): line in the file, and the reason. */
function problemNotice(page: Page, rendered: RenderedMdx): string {
  const problem = rendered.problem;
  if (problem === undefined) return "";
  const where = problem.line !== undefined ? ` (line ${problem.line + page.bodyLine - 1}${problem.column !== undefined ? `:${problem.column}` : ""})` : "";
  if (problem.asText === true) return `<p class="notice" data-testid="mdx-problem">This page is shown as plain text${where}: ${esc(problem.message)}.</p>`;
  return `<p class="notice" data-testid="mdx-problem">This page is not valid MDX${where}: ${esc(problem.message)}. It is shown as Markdown, without its components.</p>`;
}

/** Who asks for a page, and how they read it: the frame's reader and links, and the caller whose share of the render workers it takes. */
export interface PageRequest {
  readonly urlPath: string;
  readonly reader: FrameReader;
  readonly links: SignInLinks;
  readonly caller: string;
}

export async function mdxPage(runtime: DocsRuntime, caches: PreviewCaches, page: Page, docs: DocsContext, request: PageRequest): Promise<Response> {
  const { urlPath, reader, links } = request;
  const { place } = previewFrame(docs, caches, page.path);
  let rendered: RenderedMdx;
  try {
    rendered = await previewContent(docs, caches, page, request.caller);
  } catch (error) {
    if (error instanceof RenderUnavailable) return notRenderedPage(runtime, page, place, request, error);
    throw error;
  }
  const main = `<article class="page">${pageHead(page, page.body)}${problemNotice(page, rendered)}<div class="prose">${rendered.html}</div></article>`;
  return previewPage({
    siteName: runtime.site.config.name,
    title: page.title,
    urlPath,
    place,
    reader,
    links,
    main,
    toc: rendered.toc,
    data: { page: page.path, file: page.file.path, ...scopeOf(place) },
  });
}

export async function apiPage(runtime: DocsRuntime, caches: PreviewCaches, found: FoundPage, docs: DocsContext, request: PageRequest): Promise<Response> {
  const { urlPath, reader, links } = request;
  const { page, item, info } = found;
  const context = docs.request;
  const { place } = previewFrame(docs, caches, page.path);
  const frame = { siteName: runtime.site.config.name, title: page.title, urlPath, place, reader, links, data: { page: page.path, file: page.file.path, ...scopeOf(place) } };
  const authConfigured = context.authMode !== "public";
  // Descriptions render in the render workers (`withMarkdownHtml`), as pages do.
  const described = async (build: (markdown: (text: string) => string) => string): Promise<string | Response> => {
    try {
      return await withMarkdownHtml(docs, page.file.path, request.caller, build);
    } catch (error) {
      if (error instanceof RenderUnavailable) return notRenderedPage(runtime, page, place, request, error);
      throw error;
    }
  };
  // The article is kept per site version, page and reader's view (`ApiArticles`): what varies
  // by reader is which page they get at the path (`info`) and the playground's view.
  const site = runtime.site;
  const kept = (view: string, build: (markdown: (text: string) => string) => string): Promise<string | Response> => caches.apiArticles.get(site, info, view, () => described(build));
  if ("kind" in item && item.kind === "channel") {
    const { spec, channel } = item;
    const main = await kept("channel", (md) => channelHtml(spec, channel, page.title, md, info.schemaNodes));
    return typeof main === "string" ? previewPage({ ...frame, main }) : main;
  }
  const { spec, operation: op } = item;
  const settings = site.api?.settings;
  if (settings === undefined) {
    const main = await kept("page", (md) => `<article class="page"><h1>${esc(page.title)}</h1>${md(page.body.trim())}</article>`);
    return typeof main === "string" ? previewPage({ ...frame, main }) : main;
  }
  const playground = info.playground;
  const view = playgroundView(playground, context.reader, authConfigured, `${links.login}?return=${encodeURIComponent(urlPath)}`);

  const generated = "kind" in item;
  // A front-matter page: the author's prose first, then the operation (as the hosted platform shows it).
  let authored = "";
  let toc: readonly TocEntry[] = [];
  if (!generated) {
    const own = page.authored ?? page;
    let rendered: RenderedMdx;
    try {
      rendered = await previewContent(docs, caches, own, request.caller);
    } catch (error) {
      if (error instanceof RenderUnavailable) return notRenderedPage(runtime, page, place, request, error);
      throw error;
    }
    toc = rendered.toc;
    authored = `<section class="prose" data-testid="page-prose">${pageHead(page, own.body)}${problemNotice(own, rendered)}${rendered.html}</section>`;
  }
  const article = await kept(JSON.stringify(view), (markdown) => operationHtml({ spec, op, pagePath: page.path, title: generated ? page.title : `${op.method} ${op.path}`, settings, playground, view, markdown, schemaNodes: info.schemaNodes }, generated ? 1 : 2));
  if (typeof article !== "string") return article;
  const scripts = view.kind === "form" ? ["playground.js"] : [];
  const data = view.kind === "form" ? playgroundDataHtml(playgroundData(op, page.path, playground)) : "";
  // `proxy: false`: the browser calls the API itself, so the policy lets it connect there.
  const connect = view.kind === "form" && playground.transport === "direct" ? op.servers.filter((s) => /^https?:\/\//i.test(s)).map((s) => new URL(s).origin) : [];
  return previewPage({ ...frame, main: `${authored}${article}`, toc, extra: data, options: { scripts, connect } });
}

/**
 * A page the render workers did not render now (past the time limit, the caller's pages at their
 * limit, the server shutting down): 503 in the frame, saying why, with `Retry-After`. Not kept:
 * the next request renders it again.
 */
function notRenderedPage(runtime: DocsRuntime, page: Page, place: PagePlace | undefined, request: PageRequest, error: RenderUnavailable): Response {
  const main = `<article class="page"><h1>${esc(page.title)}</h1><p class="notice" data-testid="not-rendered">This page could not be shown: ${esc(error.message)}.</p></article>`;
  return previewPage({
    siteName: runtime.site.config.name,
    title: page.title,
    urlPath: request.urlPath,
    place,
    reader: request.reader,
    links: request.links,
    main,
    data: { page: page.path, file: page.file.path, ...scopeOf(place) },
    status: 503,
    digest: false,
    options: { headers: { "Retry-After": String(RETRY_AFTER_SEC[error.reason]) } },
  });
}

/** When to ask again: a page stopped at its time limit is slow by its text, so not soon; the others as soon as the caller's renders are done. */
const RETRY_AFTER_SEC: Readonly<Record<RenderUnavailable["reason"], number>> = { "time-limit": 60, "too-many": 5, "worker-died": 5, "shut-down": 5 };

export function notFoundPage(runtime: DocsRuntime, caches: PreviewCaches, docs: DocsContext, urlPath: string, reader: FrameReader, links: SignInLinks): Response {
  const signIn = reader.signInOffered ? `<p>If the page is for signed-in readers, <a href="${links.login}?return=${encodeURIComponent(urlPath)}" data-testid="not-found-sign-in">sign in</a> first.</p>` : "";
  const { place } = previewFrame(docs, caches, undefined);
  return previewPage({
    siteName: runtime.site.config.name,
    title: "Page not found",
    urlPath,
    place,
    reader,
    links,
    main: `<article class="page"><h1>Page not found</h1><p>There is no page at <code>${esc(urlPath)}</code>.</p>${signIn}</article>`,
    data: {},
    status: 404,
    // Its body names the path asked for: no digest (live reload tells it by its status).
    digest: false,
  });
}


/** New caches for the preview's pages (rendered pages, readers' navigation). */
export function newCaches(): PreviewCaches {
  return { renders: new PageRenders(), navigations: new Navigations(), apiArticles: new ApiArticles() };
}
