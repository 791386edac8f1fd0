import { basename } from "node:path";
import type { PagePlacement, SiteConfig } from "../config/site-config.js";
import type { ReadDocsJson } from "../vfs/load-site.js";

/**
 * docs.json as a load read it (`ReadDocsJson`), as the site cache stores it: its placements by
 * page (one per page, 25,000 on a large versioned site) apart from the rest, as an array, so that
 * the writer stores them in runs that give the thread back (`CHUNKED`) and the placements the
 * index's pages share are stored once (the serializer keeps identity across its values).
 */
export interface StoredDocs {
  /** The name of the docs folder as the load was given it: a docs.json without a `name` names
   *  the site after it, and one folder may be served by two names (a link to it). */
  readonly folderName: string;
  /** The configuration with `navPages` null: its keys stay in their order. */
  readonly config: Omit<SiteConfig, "navPages"> & { readonly navPages: null };
  readonly navPages: readonly (readonly [string, PagePlacement])[];
  readonly document: ReadDocsJson["document"];
  readonly diagnostics: ReadDocsJson["diagnostics"];
  readonly files: ReadDocsJson["files"];
  readonly linkTargets: ReadDocsJson["linkTargets"];
  readonly refsRead?: ReadDocsJson["refsRead"];
}

/**
 * The stored form of docs.json as read by a load of the folder `root`. `share` gives the one
 * object stored for equal placements (`SharedObjects`): docs.json parses a placement per page,
 * but a versioned site's 25,000 pages hold ~1,500 distinct ones, and reading 25,000 objects back
 * (with their version, language and breadcrumb arrays) was a tenth of the cache's body read and
 * ~100,000 objects the collector copied at every warm start.
 */
export function storedDocs(docs: ReadDocsJson, root: string, share: (placement: PagePlacement) => PagePlacement = (p) => p): StoredDocs {
  const navPages = [...docs.config.navPages].map(([path, placement]): [string, PagePlacement] => [path, share(placement)]);
  return { folderName: basename(root), config: { ...docs.config, navPages: null }, navPages, document: docs.document, diagnostics: docs.diagnostics, files: docs.files, linkTargets: docs.linkTargets, ...(docs.refsRead !== undefined ? { refsRead: docs.refsRead } : {}) };
}

/** docs.json as read, from its stored form, for a load of the folder `root`: undefined when that
 *  folder is given by another name (the site's name may be the folder's). */
export function docsOf(stored: StoredDocs, root: string): ReadDocsJson | undefined {
  if (stored.folderName !== basename(root)) return undefined;
  if (!Array.isArray(stored.navPages) || typeof stored.config !== "object" || stored.config === null) throw new Error("stored docs.json is not one");
  return { config: { ...stored.config, navPages: new Map(stored.navPages) }, document: stored.document, diagnostics: stored.diagnostics, files: stored.files, linkTargets: stored.linkTargets, ...(stored.refsRead !== undefined ? { refsRead: stored.refsRead } : {}) };
}
