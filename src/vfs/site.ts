import type { Diagnostic } from "../config/diagnostic.js";
import type { PagePlacement, SiteConfig } from "../config/site-config.js";
import type { SiteApi } from "./site-api.js";
import type { FileVariants } from "./file-variants.js";
import type { Page } from "./page.js";
import type { SiteFile } from "./site-file.js";

/** An immutable snapshot of a loaded docs repository. A reload produces a new Site. */
export interface Site {
  /** Folder on disk the site was loaded from. */
  readonly root: string;
  readonly config: SiteConfig;
  /** Every file of the virtual filesystem, by path (pages, spec files, skills). */
  readonly files: ReadonlyMap<string, SiteFile>;
  /** Every page, by page path. */
  readonly pages: ReadonlyMap<string, Page>;
  /** Problems found while loading (bad front matter, unreadable files, config problems). */
  readonly diagnostics: readonly Diagnostic[];
  /** API reference state (generated pages' facts, the plan for `check`/`nav`, playground). */
  readonly api?: SiteApi;
  /** Pages another file of the same page path took the place of (`a.md` beside `a.mdx`), by page
   *  path, in order of precedence: a reader who may not read the site's page gets the first of
   *  these it may read (`page-routes.ts`). */
  readonly shadowed?: ReadonlyMap<string, readonly Page[]>;
  /** Files whose bytes depend on the reader (restricted parts inside), by path; see `SiteView`. */
  readonly variants?: ReadonlyMap<string, FileVariants>;
}

/** `/guides/setup.mdx` -> `/guides/setup`. */
export function pagePathOf(filePath: string): string {
  return filePath.replace(/\.(mdx|md)$/i, "");
}

/** Where a page sits in navigation, if it is listed (`/x/index` is also listed as `/x`). */
export function placementOf(site: Site, page: Page): PagePlacement | undefined {
  return navPlacement(site.config.navPages, page.path);
}

/** `placementOf` of a page path, in a navigation's pages. */
export function navPlacement(nav: ReadonlyMap<string, PagePlacement>, path: string): PagePlacement | undefined {
  const direct = nav.get(path);
  if (direct !== undefined) return direct;
  if (path.endsWith("/index")) return nav.get(path.slice(0, -"/index".length) || "/");
  return undefined;
}

/** The folders of snippet files: not pages unless navigation lists them. */
const SNIPPET_FOLDER_RE = /^\/_?snippets\//;

/**
 * Whether search indexes a page: not `noindex`; and, unless `seo.indexing` is `all` (or there is
 * no docs.json, so no navigation), listed in navigation somewhere a reader sees it: not hidden by
 * its own `hidden: true`, nor listed only under hidden elements (as the predecessor platform
 * keeps hidden pages out of its search and assistant). A generated API page without a place
 * (`x-hidden` ones are `noindex`) stays indexed, as before.
 */
export function isIndexed(site: Site, page: Page): boolean {
  if (page.meta.noindex) return false;
  const placement = placementOf(site, page);
  // `snippets/` holds MDX that pages import (search inlines it where it is used), and
  // `_snippets/` what the platform's older `<Snippet file>` tags name; a file there is a page only
  // when navigation lists it, and then like any other.
  if (placement === undefined && SNIPPET_FOLDER_RE.test(page.path)) return false;
  if (site.config.indexing === "all" || !site.config.present) return true;
  if (page.meta.hidden) return false;
  if (placement === undefined) return page.generated;
  return placement.unsearchable !== true;
}

/** The public link of a page: `{docs_url}/guides/setup`; `index` pages link to their folder. A
 *  character a URL's path may not hold as written (a space, `#`, `?`) is percent-encoded; letters
 *  of any script stay as written, as browsers show them. */
export function pageUrl(baseUrl: string, pagePath: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  let p = pagePath;
  if (p === "/index") p = "/";
  else if (p.endsWith("/index")) p = p.slice(0, -"/index".length);
  return `${base}${p.replace(PATH_ENCODED_RE, encodeURIComponent)}`;
}

/** A page's link to one of its sections: `pageUrl` and `#anchor`, the anchor's characters a
 *  fragment may not hold as written percent-encoded (a custom id is written by hand). */
export function sectionUrl(baseUrl: string, pagePath: string, anchor: string): string {
  return anchor === "" ? pageUrl(baseUrl, pagePath) : `${pageUrl(baseUrl, pagePath)}#${anchor.replace(FRAGMENT_ENCODED_RE, encodeURIComponent)}`;
}

/** WHATWG URL's fragment percent-encode set (controls, space, `"`, `<`, `>`, backtick), and `%`
 *  itself so that what is written is what the link says; the path's set adds `#`, `?`, `{`, `}`. */
const FRAGMENT_ENCODED_RE = /[\u0000-\u0020"<>`%\u007f]/g;
const PATH_ENCODED_RE = /[\u0000-\u0020"<>`%#?{}\u007f]/g;
