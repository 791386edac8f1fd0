import type { Access } from "./access.js";
import type { Page } from "./page.js";
import type { Site } from "./site.js";

/**
 * Two files can be one page: `a.mdx` and `a.md` are both the page `/a`. The site's page is the
 * MDX file (the platform prefers it), and the other stays a file (`check` warns,
 * `page-two-files`). Each file keeps its own access rule, and a file a reader may not read does
 * not exist for them: a reader who may not read `a.mdx` but may read `a.md` gets `a.md` as the
 * page `/a`, exactly as if `a.mdx` were not there (search, navigation titles, the page views).
 * So a page path holds a list of pages in order of precedence (`pagesAt`), and each reader gets
 * the first one it may read (`pageFor`).
 */

/** Whether `a`'s file comes before `b`'s on their page path: an MDX file before a Markdown one;
 *  of two alike (`a.mdx`, `a.MDX`), the later in byte order (the load adds them in that order,
 *  and the last one added was the page). */
function precedes(a: Page, b: Page): boolean {
  const mdxA = MDX_RE.test(a.file.path);
  const mdxB = MDX_RE.test(b.file.path);
  if (mdxA !== mdxB) return mdxA;
  return a.file.path > b.file.path;
}

const MDX_RE = /\.mdx$/i;

/** Every page of a page path in order of precedence: the site's page, then those it took the place of. */
export function pagesAt(site: Pick<Site, "pages" | "shadowed">, path: string): readonly Page[] {
  const page = site.pages.get(path);
  if (page === undefined) return [];
  const others = site.shadowed?.get(path);
  return others === undefined ? [page] : [page, ...others];
}

/** The page a reader gets at a page path (`may`: whether it may read an access rule): the first
 *  of `pagesAt` it may read. */
export function pageFor(site: Pick<Site, "pages" | "shadowed">, path: string, may: (access: Access) => boolean): Page | undefined {
  return pagesAt(site, path).find((p) => may(p.file.access));
}

/** The page of a file, if it is one: the site's page or one it took the place of. */
export function pageOfFile(site: Pick<Site, "pages" | "shadowed">, path: string, filePath: string): Page | undefined {
  return pagesAt(site, path).find((p) => p.file.path === filePath);
}

/**
 * Put a page on its page path (maps being built by a load): it becomes the site's page or one of
 * those taken the place of, by precedence. Returns the two when a page now takes another's place
 * (for the loader's `page-two-files` warning).
 */
export function placePage(pages: Map<string, Page>, shadowed: Map<string, Page[]>, page: Page): { kept: Page; dropped: Page } | undefined {
  const all = [...pagesAt({ pages, shadowed }, page.path).filter((p) => p.file.path !== page.file.path), page].sort((a, b) => (precedes(a, b) ? -1 : precedes(b, a) ? 1 : 0));
  const [first, ...rest] = all as [Page, ...Page[]];
  pages.set(page.path, first);
  if (rest.length === 0) shadowed.delete(page.path);
  else shadowed.set(page.path, rest);
  if (rest.length === 0) return undefined;
  return first === page ? { kept: page, dropped: rest[0] as Page } : { kept: first, dropped: page };
}

/** Take a file's page off its page path (the file is gone): the next page of the path, if any, becomes the site's page. */
export function unplacePage(pages: Map<string, Page>, shadowed: Map<string, Page[]>, path: string, filePath: string): void {
  const rest = pagesAt({ pages, shadowed }, path).filter((p) => p.file.path !== filePath);
  shadowed.delete(path);
  const [first, ...others] = rest;
  if (first === undefined) {
    pages.delete(path);
    return;
  }
  pages.set(path, first);
  if (others.length > 0) shadowed.set(path, others);
}
