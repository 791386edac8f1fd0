import { type PagePlacement, type SiteConfig, scopeNames } from "../config/site-config.js";
import { versionPaths } from "../config/version-paths.js";
import { type RequestContext, mayRead } from "./request-context.js";
import { type Access, accessClass } from "./access.js";
import type { Page } from "./page.js";
import { indexPathOf, pageFor } from "./page-routes.js";
import type { Site } from "./site.js";
import type { ApiPageInfo } from "./site-api.js";

/**
 * What one reader may see of the site's structure: the site-level names that outputs list
 * (server instructions, the generated skill, tool descriptions, error messages). A section,
 * version or language is the reader's only if they may read a page under it, so a section of
 * restricted pages is never named to a reader outside its groups; one with no page at all (a
 * link) restricts nothing and is kept.
 */
export interface SiteOutline {
  /** Titles of the top-level sections, in navigation order. */
  readonly sections: readonly string[];
  /** Versions to list, in docs.json order (`hidden: true` ones are left out). */
  readonly versions: readonly string[];
  /** The version readers land on: the site's default when listed, else the first listed. */
  readonly defaultVersion: string | undefined;
  /** Versions a `version` argument may name: the listed ones and the reader's hidden ones. */
  readonly knownVersions: readonly string[];
  /** Each known version's path segment (`v3`, `2025-06-18`), where navigation shows one. */
  readonly versionSegments: ReadonlyMap<string, string>;
  /** What `latest` names: the known version tagged Latest or Recommended, else the default. */
  readonly latestVersion: string | undefined;
  /** Languages to list, in docs.json order (`hidden: true` ones are left out). */
  readonly languages: readonly string[];
  /** Languages a `language` argument may name: the listed ones and the reader's hidden ones. */
  readonly knownLanguages: readonly string[];
}

/**
 * The page this request's reader gets at a navigation page path (`/guides` is also
 * `/guides/index`): the first file of the path it may read (`page-routes.ts`), as if the files it
 * may not read were not there (a restricted `guides.mdx` leaves it `guides.md`, or else
 * `guides/index.mdx`), and the API page generated there when it may read none of them.
 */
export function readerPageAt(site: Pick<Site, "pages" | "shadowed">, context: RequestContext, pagePath: string): Page | undefined {
  const may = (access: Access): boolean => mayRead(context, access);
  // `pageFor` gives the generated page behind index files only to a reader of none of them.
  return pageFor(site, pagePath, may) ?? pageFor(site, indexPathOf(pagePath), may);
}

/**
 * The API facts of the page this request's reader gets at a page path (no `/index` fallback:
 * API pages are looked up by their own path): the site's page's (`SiteApi.pages`), or a
 * generated page's standing behind a file the reader may not read (`SiteApi.behind`), or an
 * authored page's standing behind one (`SiteApi.hidden`: `a.md` behind an `a.mdx`); none when the
 * page the reader gets documents no operation, or there is none.
 */
export function readerApiPage(site: Pick<Site, "pages" | "shadowed" | "api">, context: RequestContext, pagePath: string): { readonly page: Page; readonly info: ApiPageInfo } | undefined {
  const page = pageFor(site, pagePath, (access) => mayRead(context, access));
  if (page === undefined) return undefined;
  const info = site.pages.get(pagePath) === page ? site.api?.pages.get(pagePath) : page.generated ? site.api?.behind?.get(pagePath) : site.api?.hidden?.pages.get(page.file.path);
  return info === undefined ? undefined : { page, info };
}

/**
 * Whether this request's reader is listed the API page navigation places at a page path: a page
 * they may read there, and where a file takes the path of a generated page (`SiteApi.taken`),
 * the generated page's rule too. The entry is the operation's, whichever page the reader gets
 * there (row 28: the file, for a reader of both): a reader of the file who may not read the
 * operation is listed nothing, as on the site without it (adversary round 46 F2).
 */
export function listedApiPage(site: Pick<Site, "pages" | "shadowed" | "api">, context: RequestContext): (pagePath: string) => boolean {
  const readable = readablePage(site, context);
  const taken = site.api?.taken;
  return (p) => {
    const rule = taken?.get(p);
    return (rule === undefined || mayRead(context, rule)) && readable(p);
  };
}

/** The outline of the site as this request's reader sees it (`siteOutline`). */
export function readerOutline(site: Pick<Site, "config" | "pages" | "shadowed" | "api">, context: RequestContext): SiteOutline {
  return siteOutline(site.config, readablePage(site, context), withheldPage(site, context), listedApiPage(site, context));
}

/** Whether a navigation page path (`/guides`, `/guides/setup`) is a page this request may read. */
export function readablePage(site: Pick<Site, "pages" | "shadowed">, context: RequestContext): (pagePath: string) => boolean {
  return (p) => readerPageAt(site, context, p) !== undefined;
}

/**
 * Whether a navigation page path has a page some reader may read and this request's reader may
 * not: what the reader must be answered about as if it were not there. A path with no page at
 * all (a file missing, a link) is the same for every reader and is not withheld.
 */
export function withheldPage(site: Pick<Site, "pages" | "shadowed">, context: RequestContext): (pagePath: string) => boolean {
  const anyone = (): boolean => true;
  return (p) => readerPageAt(site, context, p) === undefined && (pageFor(site, p, anyone) ?? pageFor(site, indexPathOf(p), anyone)) !== undefined;
}

/**
 * Whether every reader's outline of `next` is their outline of `previous`: the same configuration
 * (docs.json and what the load placed in it) and, at every page path, pages of the same access
 * classes in the same order. What `siteOutline` reads of a site is which paths a reader gets a
 * page at (`readablePage`, `withheldPage`), so a save that changed pages' text only keeps every
 * outline: at 25,000 pages each took 0.3-1.4 s per reader class after every save. Linear in the
 * pages, once per snapshot.
 */
export function sameOutlineBasis(previous: Pick<Site, "config" | "pages" | "shadowed">, next: Pick<Site, "config" | "pages" | "shadowed">): boolean {
  if (previous.config !== next.config || previous.pages.size !== next.pages.size || (previous.shadowed?.size ?? 0) !== (next.shadowed?.size ?? 0)) return false;
  const sameAccess = (a: Page | undefined, b: Page): boolean => a !== undefined && (a.file.access === b.file.access || accessClass(a.file.access) === accessClass(b.file.access));
  for (const [path, page] of next.pages) if (!sameAccess(previous.pages.get(path), page)) return false;
  for (const [path, pages] of next.shadowed ?? []) {
    const before = previous.shadowed?.get(path);
    if (before === undefined || before.length !== pages.length || pages.some((p, i) => !sameAccess(before[i], p))) return false;
  }
  return true;
}

/**
 * The outline of the site as a reader sees it: `readable` says which page paths they may read,
 * `withheld` which have a page they may not (`withheldPage`), `listed` which API pages that
 * navigation places at a path a file takes are listed to them (`listedApiPage`).
 */
export function siteOutline(config: SiteConfig, readable: (pagePath: string) => boolean, withheld: (pagePath: string) => boolean, listed: (pagePath: string) => boolean = readable): SiteOutline {
  // Per version (language): whether navigation lists any page under it, and a readable one.
  const versions = new Map<string, { listed: boolean; readable: boolean }>();
  const languages = new Map<string, { listed: boolean; readable: boolean }>();
  const mark = (table: Map<string, { listed: boolean; readable: boolean }>, names: readonly string[] | undefined, ok: () => boolean): void => {
    for (const name of names ?? []) {
      const entry = table.get(name) ?? { listed: false, readable: false };
      entry.listed = true;
      if (!entry.readable && ok()) entry.readable = true;
      table.set(name, entry);
    }
  };
  // Listing by listing: a page listed in v2 and again under no version counts for v2 (its merged
  // placement says "every version", which names none).
  for (const [path, placement] of config.navPages) {
    // A placement the API reference added is its page's listing.
    const ok = (): boolean => (config.generatedNav?.has(path) === true ? listed(path) : readable(path));
    mark(versions, scopeNames(placement, "versions"), ok);
    mark(languages, scopeNames(placement, "languages"), ok);
  }
  for (const [path, placement] of config.takenNav ?? []) {
    const ok = (): boolean => listed(path);
    mark(versions, scopeNames(placement, "versions"), ok);
    mark(languages, scopeNames(placement, "languages"), ok);
  }
  const visible = (table: Map<string, { listed: boolean; readable: boolean }>) => (name: string): boolean => {
    const entry = table.get(name);
    return entry === undefined || !entry.listed || entry.readable;
  };
  const knownVersions = config.versions.filter(visible(versions));
  const knownLanguages = config.languages.filter(visible(languages));
  const listedVersions = knownVersions.filter((v) => !config.hiddenVersions.includes(v));
  const defaultVersion = config.defaultVersion !== undefined && listedVersions.includes(config.defaultVersion) ? config.defaultVersion : listedVersions[0];
  const versionSegments = readerVersionSegments(config, knownVersions, withheld);
  const tagged = knownVersions.find((v) => /^(latest|recommended)$/i.test(config.versionTags?.get(v) ?? ""));
  return {
    sections: config.sections.filter((s) => (s.pages.length === 0 && (s.apiTaken ?? []).length === 0) || s.pages.some(readable) || (s.apiTaken ?? []).some(listed)).map((s) => s.title),
    versions: listedVersions,
    defaultVersion,
    knownVersions,
    versionSegments,
    latestVersion: tagged ?? defaultVersion,
    languages: knownLanguages.filter((l) => !config.hiddenLanguages.includes(l)),
    knownLanguages,
  };
}

/**
 * Each known version's path segment as navigation places it without the pages withheld from this
 * reader, never the whole site's: segments are read off where versions' pages part ways, so a
 * restricted version's pages could give a public version a name (`v6.x (also v6)`, `docs`
 * accepted for `Current`) that the same site without them does not, and tell that they exist.
 * Listed paths with no page stay: they are the same for every reader.
 */
function readerVersionSegments(config: SiteConfig, knownVersions: readonly string[], withheld: (pagePath: string) => boolean): Map<string, string> {
  const out = new Map<string, string>();
  // The pages docs.json lists under one version, as `versionPaths` read them (without the
  // generated API pages a load adds): with none withheld, the site's own segments.
  const counted = (path: string, placement: PagePlacement): boolean => placement.versions?.length === 1 && config.generatedNav?.has(path) !== true;
  let any = false;
  for (const [path, placement] of config.navPages) {
    if (counted(path, placement) && withheld(path)) {
      any = true;
      break;
    }
  }
  if (!any) {
    for (const v of knownVersions) {
      const segment = config.versionPaths?.get(v)?.segment;
      if (segment !== undefined) out.set(v, segment);
    }
    return out;
  }
  const listed = new Map([...config.navPages].filter(([path, placement]) => counted(path, placement) && !withheld(path)));
  for (const [v, path] of versionPaths(listed, knownVersions)) out.set(v, path.segment);
  return out;
}
