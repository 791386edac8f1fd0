import type { Diagnostic } from "../config/diagnostic.js";
import type { ResolveEntry } from "../config/docs-json/entries.js";
import { readNavigation } from "../config/docs-json/nav-model.js";
import { buildNavTree, type GeneratedNavPage, type NavTree } from "../config/docs-json/nav-tree.js";
import { resolveEntryFromSite } from "./api-entries.js";
import { type LoadedSite, type LoadLog, loadSite } from "./load-site.js";
import { pageFilesOf } from "./page-files.js";

export type SiteNavigation =
  | { readonly ok: true; readonly tree: NavTree; readonly loaded: LoadedSite }
  /** No docs.json, or one with errors (`diagnostics` says which). */
  | { readonly ok: false; readonly reason: "missing" | "invalid"; readonly diagnostics: readonly Diagnostic[]; readonly loaded: LoadedSite };

export interface SiteNavigationOptions {
  readonly version?: string;
  readonly language?: string;
  readonly resolveEntry?: ResolveEntry;
  readonly log?: LoadLog;
}

/** `svc-mcp nav`: load the repository and resolve its navigation, with page titles from front matter. */
export async function siteNavigation(root: string, options: SiteNavigationOptions = {}): Promise<SiteNavigation> {
  const loaded = await loadSite(root, options.log);
  const { config } = loaded.site;
  if (!config.present) return { ok: false, reason: "missing", diagnostics: [], loaded };
  const document = config.document;
  if (document === undefined) {
    const configErrors = loaded.site.diagnostics.filter((d) => d.severity === "error" && !/\.(mdx?|MDX?)$/.test(d.file));
    return { ok: false, reason: "invalid", diagnostics: configErrors, loaded };
  }
  const files = pageFilesOf(loaded);
  // Pages the API reference generated from a whole spec, by the element they are listed under.
  const generated = new Map<string, GeneratedNavPage[]>();
  for (const item of loaded.site.api?.plan.nav ?? []) {
    if (item.entry !== undefined) continue;
    const list = generated.get(item.element) ?? [];
    list.push({ page: item.pagePath, title: loaded.site.pages.get(item.pagePath)?.title ?? item.pagePath, ...(item.group !== undefined ? { group: item.group } : {}) });
    generated.set(item.element, list);
  }
  const pageOf = (p: string) => loaded.site.pages.get(p) ?? loaded.site.pages.get(p === "/" ? "/index" : `${p}/index`);
  const tree = buildNavTree(document, readNavigation(document), {
    titleOf: (p) => pageOf(p)?.meta.title,
    fileOf: (p) => files.fileOf(p),
    fallbackName: config.name,
    resolveEntry: options.resolveEntry ?? resolveEntryFromSite(loaded.site),
    generatedUnder: (path) => generated.get(path) ?? [],
    ...(options.version !== undefined ? { version: options.version } : {}),
    ...(options.language !== undefined ? { language: options.language } : {}),
  });
  return { ok: true, tree, loaded };
}
