import type { ApiCache } from "./api-pages.js";
import type { FileVariants } from "./file-variants.js";
import { importVariants } from "./import-variants.js";
import type { Site } from "./site.js";
import { specVariants } from "./spec-variants.js";

/**
 * The files of a snapshot whose bytes depend on the reader (spec files with restricted parts,
 * pages importing restricted files), by path. Built with every snapshot (a page edit can change
 * what a page imports, or a snippet's groups); the previous snapshot's variants of an unchanged
 * file with unchanged rules are reused, with the text they have built.
 */
export function siteVariants(site: Omit<Site, "variants">, apiCache: ApiCache | undefined, previous: Site | undefined): ReadonlyMap<string, FileVariants> {
  const results = new Map([...(apiCache?.specs ?? [])].map(([source, entry]) => [source, entry.result]));
  const out = new Map<string, FileVariants>();
  for (const v of [...importVariants(site, previous?.variants), ...specVariants(site, results, previous?.variants)]) out.set(v.file.path, v);
  return out;
}
