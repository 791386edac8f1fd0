import type { ApiOperation } from "./model.js";

/**
 * URL part from a summary or tag, as the hosted platform builds it (so links written for it
 * keep working): `{ } ( ) , . ' /` are removed, each space becomes a hyphen, then each pair of
 * hyphens one, lower case. So `Checkout / State` -> `checkout-state` (spree's links) and
 * `Management API - Surveys - Contact Links` -> `management-api--surveys--contact-links`
 * (formbricks' links to its generated v2 reference: three hyphens become two, not one). We also
 * drop `? # " \`` (they end or break a URL), and control characters left after the spaces
 * (ESC, DEL, C1: `CONTROLS`): a summary `List \x1b[31mred` made the page path
 * `/api-reference/list-\x1b[31mred`, raw in `ls` and `find` (docs/repository.md).
 */
export function slugify(text: string): string {
  return text
    .replace(/[{}(),.'/?#"`]/g, "")
    .trim()
    .replace(/\s/g, "-")
    .replace(CONTROLS, "")
    .replace(/--/g, "-")
    .toLowerCase();
}

/** C0, DEL and C1 controls: no page path holds one (a file named so is not served either). */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** The slug of an operation: its summary, else `<method>-<path words>` (`get-users-posts`). */
export function operationSlug(op: Pick<ApiOperation, "summary" | "method" | "path" | "kind">): string {
  const fromSummary = op.summary !== undefined ? slugify(op.summary) : "";
  if (fromSummary !== "") return fromSummary;
  if (op.kind === "webhook") return slugify(`webhook ${op.path}`);
  const words = op.path.split("/").filter((s) => s !== "" && !/^\{.*\}$/.test(s));
  return slugify([op.method.toLowerCase(), ...words].join(" "));
}

/** The default folder of generated pages when docs.json sets no `directory`. */
export const DEFAULT_API_DIRECTORY = "api-reference";

/**
 * Page path of a generated operation page: `/<directory>/<first tag>/<slug>` (no tag part when
 * the operation has no tags). `x-svc.href` (or `x-mint.href`) replaces the whole path.
 */
export function operationPagePath(op: ApiOperation, directory: string | undefined): string {
  if (op.extension?.href !== undefined) return hrefToPagePath(op.extension.href);
  const dir = (directory ?? DEFAULT_API_DIRECTORY).toLowerCase().replace(/^\/+|\/+$/g, "");
  const tag = op.tags[0] !== undefined ? slugify(op.tags[0]) : "";
  return "/" + [dir, tag, operationSlug(op)].filter((s) => s !== "").join("/");
}

/**
 * `/Reference/Users/` -> `/reference/users`: how an `href` names a page. `/` is the site's root
 * page, `/index` (the file `index.mdx`), as a link to `/` is: a page at `/` itself was a file
 * `/.mdx` that `ls /` hides (adversary round 49 N2).
 */
export function hrefToPagePath(href: string): string {
  // Controls dropped, as a browser drops a tab or a line break from a URL it is given.
  let p = href.replace(CONTROLS, "").trim().toLowerCase();
  if (!p.startsWith("/")) p = `/${p}`;
  while (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  p = p.replace(/\.(mdx|md)$/, "");
  return p === "/" ? "/index" : p;
}

/** Page path of an AsyncAPI channel page: `/<directory>/<channel title or id>`. */
export function channelPagePath(channel: { readonly id: string; readonly title?: string }, directory: string | undefined): string {
  const dir = (directory ?? DEFAULT_API_DIRECTORY).toLowerCase().replace(/^\/+|\/+$/g, "");
  return `/${dir}/${slugify(channel.title ?? channel.id)}`;
}
