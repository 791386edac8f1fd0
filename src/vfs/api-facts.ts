import type { Page } from "./page.js";
import type { Site } from "./site.js";
import type { ApiPageInfo } from "./site-api.js";

/**
 * A key for a page's API facts that tells apart the pages of one page path: a generated page by
 * its path (one behind a file shares that file's path and file name), an authored page by its file
 * (`x.md` behind `x.mdx` has a page path of its own reader's, `Site.shadowed`). What search knows
 * of a page's operation is looked up by it, so the page a reader gets is weighed by what it
 * documents, never by another page of its path (adversary round 47 F1, F2).
 */
export function apiPageKey(page: Pick<Page, "generated" | "path" | "file">): string {
  return page.generated ? `generated:${page.path}` : `file:${page.file.path}`;
}

/** Every page's API facts (the site's pages', those behind a file, those behind another page), by `apiPageKey`. */
export function apiFactsByPage(site: Pick<Site, "pages" | "api">): Map<string, ApiPageInfo> {
  const out = new Map<string, ApiPageInfo>();
  const api = site.api;
  if (api === undefined) return out;
  for (const [pagePath, info] of api.pages) {
    const page = site.pages.get(pagePath);
    if (page !== undefined) out.set(apiPageKey(page), info);
  }
  for (const [pagePath, info] of api.behind ?? []) out.set(`generated:${pagePath}`, info);
  for (const [filePath, info] of api.hidden?.pages ?? []) out.set(`file:${filePath}`, info);
  return out;
}
