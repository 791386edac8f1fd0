import { indexPathOf } from "../config/index-path.js";
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

export { indexPathOf };

/** Every page of a page path in order of precedence: the site's page, then those it took the place of. */
export function pagesAt(site: Pick<Site, "pages" | "shadowed">, path: string): readonly Page[] {
  const page = site.pages.get(path);
  if (page === undefined) return [];
  const others = site.shadowed?.get(path);
  return others === undefined ? [page] : [page, ...others];
}


/**
 * A generated API page whose path files take stands last behind them (`ApiPagePlan.behind`): on
 * its own path behind the files there, or, where `<path>/index` files take it too, on that path
 * behind them, so a reader gets it only when it may read none of the files of either path (at
 * navigation's `<path>`, the page files come before the index files, `readerPageAt`). There its
 * page path is not the list's: it is the reader's page at its own path, never at `<path>/index`.
 * The index path's list can hold the index path's own generated page as well (an operation
 * generated at `<path>/index` too: tag `Users`, summary `Index`), behind the same files: each of
 * the two is its own path's page, and neither stands before the other (adversary round 49 F1:
 * one list, read in order, gave `<path>` the other's page, or none, to a reader of neither file).
 */
function ofPath(path: string, page: Page): boolean {
  return page.path === path;
}

/** The pages of a page path in order of precedence: `pagesAt` without another path's generated
 *  page standing behind this path's files (only an index path holds one). */
export function ownPagesAt(site: Pick<Site, "pages" | "shadowed">, path: string): readonly Page[] {
  const all = pagesAt(site, path);
  return all.length < 2 ? all : all.filter((p) => ofPath(path, p));
}

/** The files (no generated page) of a page path, in order of precedence. */
function filesAt(site: Pick<Site, "pages" | "shadowed">, path: string): readonly Page[] {
  return pagesAt(site, path).filter((p) => !p.generated);
}

/** The generated page of `path` standing behind `<path>/index` files, if it does. */
function behindIndex(site: Pick<Site, "pages" | "shadowed">, path: string): Page | undefined {
  const at = indexPathOf(path);
  return at === path ? undefined : pagesAt(site, at).find((p) => p.generated && ofPath(path, p));
}

/** The page a reader gets at a page path (`may`: whether it may read an access rule): the first
 *  of the path's own pages it may read, or the path's generated page behind `<path>/index` files
 *  when it may read none of those files. */
export function pageFor(site: Pick<Site, "pages" | "shadowed">, path: string, may: (access: Access) => boolean): Page | undefined {
  const page = pagesAt(site, path).find((p) => ofPath(path, p) && may(p.file.access));
  if (page !== undefined) return page;
  const behind = behindIndex(site, path);
  if (behind === undefined || !may(behind.file.access)) return undefined;
  return filesAt(site, indexPathOf(path)).some((p) => may(p.file.access)) ? undefined : behind;
}

/** The page of a file, if it is one: the site's page, one it took the place of, or the path's
 *  generated page behind `<path>/index` files. */
export function pageOfFile(site: Pick<Site, "pages" | "shadowed">, path: string, filePath: string): Page | undefined {
  const own = pagesAt(site, path).find((p) => p.file.path === filePath && ofPath(path, p));
  if (own !== undefined) return own;
  const behind = behindIndex(site, path);
  return behind?.file.path === filePath ? behind : undefined;
}

/** Where the path's generated page stands behind `<path>/index` files, those files and it (not
 *  the index path's own generated page); else none. */
export function indexFilesBefore(site: Pick<Site, "pages" | "shadowed">, path: string): readonly Page[] {
  const behind = behindIndex(site, path);
  return behind === undefined ? [] : [...filesAt(site, indexPathOf(path)), behind];
}

/**
 * The pages before the `k`th of a page path's list (`pagesAt`): a reader gets that page only when
 * it may read none of them. Files only, and of the page's own path: for a generated page behind
 * `<path>/index` files, every page of its own path and every index file; never another path's
 * generated page in the same list (`ofPath`). None of them is a generated page, so whether one is
 * a reader's is told by the files alone.
 */
export function pagesBefore(site: Pick<Site, "pages" | "shadowed">, path: string, k: number): readonly Page[] {
  const all = pagesAt(site, path);
  const page = all[k];
  if (page === undefined) return [];
  if (ofPath(path, page)) return all.slice(0, k).filter((p) => ofPath(path, p));
  return [...ownPagesAt(site, page.path), ...filesAt(site, path)];
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
