import type { ReadableDocsJson } from "./docs-json/readable.js";
import type { VersionPath } from "./version-path.js";

/**
 * What the rest of the service needs from docs.json, in one flat, typed value. The full
 * docs.json model (validation, navigation tree, positions) lives in `src/config/docs-json/`;
 * this is the narrow contract the filesystem, search and tools depend on.
 */

/** Where one page sits in the navigation. */
export interface PagePlacement {
  /** Versions the page is listed under; undefined when it sits under no version (all versions). */
  readonly versions?: readonly string[];
  /** Languages the page is listed under; undefined when it sits under no language (all). */
  readonly languages?: readonly string[];
  /** The versions named above its listings, when `versions` is undefined all the same (a page
   *  listed in v2 and again under no version is in every version for search, but names only v2):
   *  what a reader may be told a version has (`scopeNames`). Absent when none or when `versions`
   *  says it. */
  readonly versionListings?: readonly string[];
  /** Likewise for languages. */
  readonly languageListings?: readonly string[];
  /** Products the page is listed under; undefined when under none (Cloud / Self-host twins are
   *  told apart by it in search). */
  readonly products?: readonly string[];
  /** Titles of the navigation elements above the page, outermost first (tab, group, ...). */
  readonly breadcrumbs: readonly string[];
  /** Every listing of the page is under an element with `hidden: true`: readers' navigation
   *  does not show it (it stays readable by URL). */
  readonly hidden?: true;
  /** Every listing is under a hidden element without `searchable: true`: search leaves the page
   *  out unless `seo.indexing` is `all`. A page also listed in a visible place is searchable. */
  readonly unsearchable?: true;
}

/** One top-level section of the site (a tab, anchor or group), for the generated skill. */
export interface SiteSection {
  readonly title: string;
  /** JSON path of its navigation element (`navigation.tabs[1]`). */
  readonly path: string;
  /** Page paths in the section, in navigation order (`/guides/setup`); once the site is loaded,
   *  the API pages generated under it too. A reader is shown the section only if they may read
   *  one of them (or it has none: a link). */
  readonly pages: readonly string[];
  /** Page paths in the section only as API pages whose path a file takes (`SiteApi.taken`): they
   *  count for the readers that page is listed to, not for every reader of the file there. */
  readonly apiTaken?: readonly string[];
}

/** A spec file referenced by docs.json or front matter. */
export interface SpecReference {
  /** Repository-relative path (`api-reference/openapi.yaml`) or a URL. */
  readonly source: string;
  /** True when `source` is an http(s) URL (never fetched unless the user asks). */
  readonly remote: boolean;
  /** Named only in page front matter (`openapi: "/api/openapi.json GET /x"`), not in docs.json. */
  readonly frontMatter?: true;
}

export interface SiteConfig {
  /** docs.json `name` (falls back to the folder name, or the name the folder was last served under). */
  readonly name: string;
  /** docs.json named the site (a non-empty string `name`); else `name` is a fallback. */
  readonly named?: true;
  readonly description?: string;
  /** Whether docs.json was present. Without it, there is no navigation and every page is indexed. */
  readonly present: boolean;
  /** Set when there is no docs.json and the configuration was read from this older file (mint.json). */
  readonly olderFormat?: string;
  /** Pages listed in navigation, by page path (`/guides/setup`). */
  readonly navPages: ReadonlyMap<string, PagePlacement>;
  /** `seo.indexing: all` indexes pages outside navigation too. */
  readonly indexing: "navigable" | "all";
  /** OpenAPI/AsyncAPI files referenced anywhere in docs.json; once the site is loaded, also the
   *  files page front matter names (`frontMatter: true`). */
  readonly specs: readonly SpecReference[];
  /** Declared versions, in order; `defaultVersion` is the first unless one sets `default: true`. */
  readonly versions: readonly string[];
  readonly defaultVersion?: string;
  /** Version badges (`tag`: Latest, Recommended, Beta...), by version; absent when none is set. */
  readonly versionTags?: ReadonlyMap<string, string>;
  /** Where each version's pages live (`versionPaths`) over the whole site's navigation. Absent
   *  when versions follow no path scheme. What a reader is told derives its own from the pages
   *  they may read (`siteOutline`, `twinRules`): restricted pages move segments. */
  readonly versionPaths?: ReadonlyMap<string, VersionPath>;
  /** The paths of `navPages` that a load added for generated API pages (docs.json does not list
   *  them; `versionPaths` was read without them). Absent when none. */
  readonly generatedNav?: ReadonlySet<string>;
  /** Placements of generated API pages at paths a file takes, where a reader of the file may not
   *  read the generated page (`SiteApi.taken`): in no `navPages` (a placement is every reader's:
   *  search would index and place the file by it), counted in the outline only for the readers
   *  the page is listed to. Absent when none. */
  readonly takenNav?: ReadonlyMap<string, PagePlacement>;
  readonly languages: readonly string[];
  /** The language with `default: true`, else the first; absent without languages. Search shows a
   *  page in it when its copies in other languages match about as well. */
  readonly defaultLanguage?: string;
  /** Versions with `hidden: true` (every element of that name, or an ancestor): not offered to
   *  readers in lists (instructions, skill, error messages), still accepted as a search filter. */
  readonly hiddenVersions: readonly string[];
  /** Likewise for languages. */
  readonly hiddenLanguages: readonly string[];
  /** Top-level sections, for the generated skill and server instructions. */
  readonly sections: readonly SiteSection[];
  /** A canonical site URL from docs.json (`seo.metatags.canonical`), used for links when no
   *  `--base-url` is given. */
  readonly canonicalUrl?: string;
  /** The validated docs.json (`$ref`s resolved), for settings other layers read (`api.*`,
   *  `styling`, `interaction`). Absent for a repository without docs.json. */
  readonly document?: ReadableDocsJson;
}

/**
 * The versions (languages) a page's listings are under by name: a version is named to a reader
 * only if they may read a page listed under it, listing by listing (adversary round 14 F2: a
 * staff page listed in `v2-secret` and again in a version-less language named `v2-secret` to
 * anonymous readers, as the merged placement said "every version").
 */
export function scopeNames(placement: PagePlacement, kind: "versions" | "languages"): readonly string[] {
  return kind === "versions" ? (placement.versions ?? placement.versionListings ?? []) : (placement.languages ?? placement.languageListings ?? []);
}

/** The configuration of a repository without docs.json. */
export function emptySiteConfig(name: string): SiteConfig {
  return {
    name,
    present: false,
    navPages: new Map(),
    indexing: "all",
    specs: [],
    versions: [],
    languages: [],
    hiddenVersions: [],
    hiddenLanguages: [],
    sections: [],
  };
}

/** Normalise a navigation page entry (`guides/setup`, `/guides/setup/`, `./guides//setup`) to a
 *  page path. Empty and `.` segments go (the platform resolves them); `..` is kept, so an entry
 *  pointing outside the docs matches no page. */
export function toPagePath(entry: string): string {
  let p = entry.trim();
  if (p.includes("//") || p.includes("./")) p = p.split("/").filter((seg) => seg !== "" && seg !== ".").join("/");
  if (!p.startsWith("/")) p = `/${p}`;
  while (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p.replace(/\.(mdx|md)$/i, "");
}
