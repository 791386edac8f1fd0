import type { Diagnostic } from "../config/diagnostic.js";
import type { FrontMatterData } from "../config/frontmatter.js";
import type { PageMeta } from "../config/page-meta.js";
import type { PagePlacement, SiteConfig } from "../config/site-config.js";
import type { Access } from "./access.js";
import type { SiteApi } from "./site-api.js";
import type { FileVariants } from "./file-variants.js";

/** One file of the virtual filesystem. Immutable: a change makes a new object. */
export interface SiteFile {
  /** Absolute path in the virtual filesystem: `/guides/setup.mdx`. */
  readonly path: string;
  readonly text: string;
  /** UTF-8 byte length of `text` (what `wc -c`, `ls -l` and `stat` report). */
  readonly size: number;
  readonly mtime: Date;
  readonly access: Access;
}

/** A documentation page: an MDX/Markdown file, or a page generated from an API spec. */
export interface Page {
  readonly file: SiteFile;
  /** Page path as navigation writes it: `/guides/setup` (for `/guides/setup.mdx`). */
  readonly path: string;
  readonly title: string;
  readonly meta: PageMeta;
  readonly frontMatter: FrontMatterData;
  /** Markdown after the front matter. */
  readonly body: string;
  /** 1-based line of `body`'s first line in the file (for `rg -n`-consistent snippets). */
  readonly bodyLine: number;
  /** True for pages generated from an OpenAPI/AsyncAPI spec (no file on disk). */
  readonly generated: boolean;
  /** For an MDX page shown with the operation it documents (front matter `openapi`): the page
   *  as read from disk, before the operation's reference was appended. */
  readonly authored?: Page;
}

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
  /** Files whose bytes depend on the reader (restricted parts inside), by path; see `SiteView`. */
  readonly variants?: ReadonlyMap<string, FileVariants>;
}

/** Build a file record (computes the byte size once). */
export function makeFile(path: string, text: string, access: Access, mtime: Date): SiteFile {
  return { path, text, size: byteLength(text), mtime, access };
}

/** UTF-8 byte length of a string. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** `/guides/setup.mdx` -> `/guides/setup`. */
export function pagePathOf(filePath: string): string {
  return filePath.replace(/\.(mdx|md)$/i, "");
}

/** Where a page sits in navigation, if it is listed (`/x/index` is also listed as `/x`). */
export function placementOf(site: Site, page: Page): PagePlacement | undefined {
  const nav = site.config.navPages;
  const direct = nav.get(page.path);
  if (direct !== undefined) return direct;
  if (page.path.endsWith("/index")) return nav.get(page.path.slice(0, -"/index".length) || "/");
  return undefined;
}

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
  // `snippets/` holds MDX that pages import (search inlines it where it is used); a file there is
  // a page only when navigation lists it, and then like any other.
  if (placement === undefined && page.path.startsWith("/snippets/")) return false;
  if (site.config.indexing === "all" || !site.config.present) return true;
  if (page.meta.hidden) return false;
  if (placement === undefined) return page.generated;
  return placement.unsearchable !== true;
}

/** The public link of a page: `{docs_url}/guides/setup`; `index` pages link to their folder. */
export function pageUrl(baseUrl: string, pagePath: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  let p = pagePath;
  if (p === "/index") p = "/";
  else if (p.endsWith("/index")) p = p.slice(0, -"/index".length);
  return `${base}${p}`;
}
