import type { ApiCache } from "./api-pages.js";
import { FileVariants } from "./file-variants.js";
import { importVariants, MDX_FILE_RE } from "./import-variants.js";
import { pageOfFile } from "./page-routes.js";
import type { TimesMemory } from "./remembered-times.js";
import { pagePathOf, type Site } from "./site.js";
import type { SiteFile } from "./site-file.js";
import { specVariants } from "./spec-variants.js";
import { VariantTimes } from "./variant-times.js";

/**
 * The files of a snapshot whose bytes depend on the reader (spec files with restricted parts,
 * pages importing restricted files), by path. Built with every snapshot (a page edit can change
 * what a page imports, or a snippet's groups); the previous snapshot's variants of an unchanged
 * file with unchanged rules are reused, with the text they have built.
 *
 * Each reader's time is carried from the previous snapshot (`VariantTimes`) whatever happened to
 * the file's rules: a file gaining its first restricted part starts from the times of the file
 * every reader read, and one that lost its last keeps its times (`FileVariants.timesOnly`) while
 * some of its readers are dated otherwise than the file.
 *
 * With nothing before (a start, or a docs root replaced while serving: `previous` holds no file),
 * the times are what `memory` recalls (`RememberedTimes`: kept across starts; for a replaced root
 * the old tree's, which date a class only where its bytes in the new tree are the same), and it is
 * told each snapshot's variants.
 */
export async function siteVariants(site: Omit<Site, "variants">, apiCache: ApiCache | undefined, previous: Site | undefined, memory?: TimesMemory): Promise<ReadonlyMap<string, FileVariants>> {
  const results = new Map([...(apiCache?.specs ?? [])].map(([source, entry]) => [source, entry.result]));
  const fresh = previous === undefined || (previous.variants === undefined && previous.files.size === 0);
  const recalled = (path: string): VariantTimes | undefined => {
    const recall = fresh ? memory?.recall(path) : undefined;
    const file = site.files.get(path);
    return recall === undefined || file === undefined ? undefined : VariantTimes.recalled(file, recall);
  };
  const timesBefore = (path: string): VariantTimes | undefined => {
    const variants = previous?.variants?.get(path);
    if (variants !== undefined) return variants.times;
    const file = previous?.files.get(path);
    return file === undefined ? recalled(path) : VariantTimes.everyone(file);
  };
  const out = new Map<string, FileVariants>();
  for (const v of [...(await importVariants(site, previous?.variants, timesBefore)), ...(await specVariants(site, results, previous?.variants, timesBefore))]) out.set(v.file.path, v);
  for (const [path, before] of previous?.variants ?? []) {
    const file = site.files.get(path);
    if (out.has(path) || file === undefined) continue;
    const page = pageOfFile(site, pagePathOf(path), path);
    const kept = await FileVariants.timesOnly(file, page?.file === file ? page : undefined, before);
    if (kept !== undefined) out.set(path, kept);
  }
  // A file whose last restricted part went before the start keeps the times recalled for it,
  // while they date its readers otherwise than the file (as `timesOnly` keeps them while serving).
  for (const path of fresh ? (memory?.paths() ?? []) : []) {
    const file = site.files.get(path);
    const times = recalled(path);
    if (out.has(path) || file === undefined || times === undefined) continue;
    const page = pageOfFile(site, pagePathOf(path), path);
    const kept = await FileVariants.recalledOnly(file, page?.file === file ? page : undefined, times);
    if (kept !== undefined) out.set(path, kept);
  }
  if (memory !== undefined) memory.noted(out, wholeCandidates(site, out), site.files);
  return out;
}

/**
 * The files of a snapshot that could gain a restricted part and have none now: authored pages (a
 * restricted import) and local spec files (a restricted operation). A memory kept across starts
 * keeps their hash and time, so the first restricted part coming while stopped dates the readers
 * whose bytes it leaves as they were by the time they had (adversary round 53 F2).
 */
function wholeCandidates(site: Omit<Site, "variants">, variants: ReadonlyMap<string, FileVariants>): SiteFile[] {
  const generated = new Set<SiteFile>();
  for (const page of site.pages.values()) if (page.generated) generated.add(page.file);
  const out: SiteFile[] = [];
  for (const file of site.files.values()) {
    if (MDX_FILE_RE.test(file.path) && !generated.has(file) && !variants.has(file.path)) out.push(file);
  }
  for (const spec of site.config.specs) {
    const file = spec.remote ? undefined : site.files.get(`/${spec.source}`);
    if (file !== undefined && !variants.has(file.path)) out.push(file);
  }
  return out;
}
