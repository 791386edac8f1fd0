import { createHash } from "node:crypto";
import type { Page } from "../../vfs/page.js";

/**
 * Whether a page is made again by every load, so that the persistent cache cannot hand the load
 * the very page it indexed (`KnownPages` reuses pages read from files, by their file's stat): a
 * page generated from an API spec, or an author's page shown with an operation's reference. The
 * search index keeps such a page's `pageSum` instead, and takes the load's page in its place when
 * the sums agree (`SearchIndex.restore`): a start whose specs and docs.json are unchanged then
 * indexes none of them again (spree: 706 generated pages re-indexed at every start, 1.8-2.0 s).
 */
export function standsBySum(page: Page): boolean {
  return page.generated || page.authored !== undefined;
}

/**
 * A SHA-256 of everything the index reads of a page (`pageVariants`, `isApiPage`, its access
 * rule; not its time, which it never reads): two pages with the same sum are indexed alike. The body of a generated page is rendered
 * to be summed: that is the page the index would otherwise analyse and index anew.
 */
export function pageSum(page: Page): string {
  return sumOf(page, false);
}

/**
 * The `pageSum` of a generated page with its rendered text stood for by its `renderKey` (what it
 * is rendered from): equal for two pages whose `pageSum`s are equal, and known without rendering
 * the body, which a warm start otherwise did for every generated page only to compare it.
 * Undefined for a page with no key (an author's page shown with an operation, a remote spec's).
 */
export function pageInputsSum(page: Page): string | undefined {
  return page.renderKey === undefined ? undefined : sumOf(page, true);
}

function sumOf(page: Page, byInputs: boolean): string {
  const hash = createHash("sha256");
  const part = (text: string): void => {
    // Each part's length first: no two lists of parts run together into the same bytes.
    hash.update(`${text.length}:`).update(text);
  };
  const pagePart = (p: Page): void => {
    part(p.path);
    part(p.title);
    part(p.file.path);
    if (byInputs && p.renderKey !== undefined) {
      // The file's text is the front matter block and the body, both rendered from these.
      part("rendered from");
      part(p.renderKey);
    } else {
      part(p.file.text);
      part(p.body);
    }
    part(String(p.bodyLine));
    part(p.generated ? "generated" : "file");
    part(JSON.stringify(p.meta) ?? "");
    part(JSON.stringify(p.frontMatter) ?? "");
    part(JSON.stringify(p.file.access) ?? "");
    // Not the file's time: the index reads none, and the page adopted is the load's, with its
    // own. A generated page is dated by its spec, so an edit to one operation moved every page of
    // the spec, and each was indexed again at the next start for its date alone.
  };
  pagePart(page);
  if (page.authored !== undefined) pagePart(page.authored);
  else part("");
  return hash.digest("hex");
}
