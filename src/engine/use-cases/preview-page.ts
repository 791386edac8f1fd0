import type { NavTree } from "../../config/docs-json/nav-tree.js";
import { readerApiPage } from "../../vfs/outline.js";
import type { Page } from "../../vfs/page.js";
import type { ApiArticles } from "../preview/api-articles.js";
import type { Navigations } from "../preview/navigations.js";
import { type PagePlace, pagePlace } from "../preview/page-place.js";
import type { PageRenders } from "../preview/render-cache.js";
import type { RenderedMdx } from "../render/render-mdx.js";
import { type DocsContext, readerStateOf } from "./docs-context.js";

/** What the preview keeps between requests (rendered pages, readers' navigation, API pages' articles). */
export interface PreviewCaches {
  readonly renders: PageRenders;
  readonly navigations: Navigations;
  readonly apiArticles: ApiArticles;
}

/** The frame of a page: the reader's navigation and where the page sits in it. */
export interface PreviewFrame {
  /** Undefined when the site has no docs.json (or one that cannot be read): pages show alone. */
  readonly tree: NavTree | undefined;
  readonly place: PagePlace | undefined;
}

/**
 * The page at a URL path (`/guides/setup`, `/guides/` or `/` for an `index` page) that the
 * context's reader may read, as their view holds it; undefined for a path with no page and for
 * one they may not read alike.
 */
export function readablePageAt(context: DocsContext, urlPath: string): Page | undefined {
  let path: string;
  try {
    path = decodeURIComponent(urlPath).replace(/\/+$/, "");
  } catch {
    return undefined;
  }
  const { view } = readerStateOf(context);
  for (const candidate of path === "" ? ["/index"] : [path, `${path}/index`]) {
    const page = view.pages.get(candidate);
    if (page !== undefined) return page;
  }
  return undefined;
}

/** The reader's navigation and the place of `pagePath` in it (none for the 404 page). */
export function previewFrame(context: DocsContext, caches: PreviewCaches, pagePath: string | undefined): PreviewFrame {
  const nav = caches.navigations.of(context.runtime.site, context.request);
  if (!nav.ok) return { tree: undefined, place: undefined };
  // The method of the page this reader gets there (a generated page behind a file they may not read, too).
  const site = context.runtime.site;
  const methodOf = (p: string): string | undefined => {
    const found = readerApiPage(site, context.request, p) ?? readerApiPage(site, context.request, `${p}/index`);
    return found?.info.method;
  };
  return { tree: nav.tree, place: pagePlace(nav.tree, pagePath, { methodOf }) };
}

/**
 * The page's content as HTML for this reader (snippets they may read inlined), rendered once per
 * page version, in the runtime's render workers (`caller`: who asks, for a fair share of them).
 * Rejects with `RenderUnavailable` when the page could not be rendered now.
 */
export function previewContent(context: DocsContext, caches: PreviewCaches, page: Page, caller: string): Promise<RenderedMdx> {
  const pool = context.runtime.renderPool;
  return caches.renders.render(readerStateOf(context).view, page, (source, options, who) => pool.render(source, options, who), caller);
}

/**
 * What `build` makes from Markdown texts (an API page's descriptions) rendered in the runtime's
 * render workers, never on this thread: `build` runs once to collect the texts it asks for (each
 * answered with ""), and once more with their HTML (`renderMarkdown`'s). A description of 1 MB
 * took 7 s of CPU to render (an API page's article is then kept: `ApiArticles`). Rejects with
 * `RenderUnavailable` as `previewContent` does.
 */
export async function withMarkdownHtml<T>(context: DocsContext, filePath: string, caller: string, build: (markdown: (text: string) => string) => T): Promise<T> {
  const texts = new Set<string>();
  build((text) => {
    texts.add(text);
    return "";
  });
  const list = [...texts];
  const html = await context.runtime.renderPool.renderMarkdown(list, filePath, caller);
  const of = new Map(list.map((text, i) => [text, html[i] as string]));
  return build((text) => of.get(text) ?? "");
}

/**
 * The reader's first page: where `/` leads on a site without an `index` page (the first page
 * of the default divisions of their navigation).
 */
export function firstPage(context: DocsContext, caches: PreviewCaches): string | undefined {
  const frame = previewFrame(context, caches, undefined);
  const first = (items: PagePlace["sidebar"]): string | undefined => {
    for (const i of items) {
      if (i.kind === "page") return i.href;
      const inner = i.root?.href ?? first(i.items);
      if (inner !== undefined) return inner;
    }
    return undefined;
  };
  return frame.place !== undefined ? first(frame.place.sidebar) : undefined;
}
