import type { Diagnostic } from "../config/diagnostic.js";
import type { ResolveEntry } from "../config/docs-json/entries.js";
import { readNavigation } from "../config/docs-json/nav-model.js";
import { findLanguage } from "../config/languages.js";
import { filterNavTree } from "../config/docs-json/nav-filter.js";
import { buildNavTree, type GeneratedNavPage, type NavTree } from "../config/docs-json/nav-tree.js";
import { resolveEntryFromSite } from "./api-entries.js";
import { type LoadLog, type LoadSiteOptions, loadSite } from "./load-site.js";
import { listedApiPage, readablePage, readerOutline, readerPageAt } from "./outline.js";
import { pageFilesOf } from "./page-files.js";
import type { RequestContext } from "./request-context.js";
import type { Site } from "./site.js";

export type SiteNavigation =
  /** `errors`: docs.json's errors; the parts they name are read as far as they can be. */
  | { readonly ok: true; readonly tree: NavTree; readonly errors: readonly Diagnostic[] }
  /** No docs.json, or one that cannot be read as a whole (`diagnostics` says why). */
  | { readonly ok: false; readonly reason: "missing" | "invalid"; readonly diagnostics: readonly Diagnostic[] };

export interface SiteNavigationOptions {
  readonly version?: string;
  readonly language?: string;
  readonly resolveEntry?: ResolveEntry;
  readonly log?: LoadLog;
  readonly load?: LoadSiteOptions;
  /** Show only what this request's reader may see (`nav --groups`); unset: everything (the
   *  author's view). */
  readonly context?: RequestContext;
}

/** `svc-mcp nav`: load the repository and resolve its navigation, with page titles from front matter. */
export async function siteNavigation(root: string, options: SiteNavigationOptions = {}): Promise<SiteNavigation> {
  const loaded = await loadSite(root, options.log, undefined, options.load);
  return navigationOfSite(loaded.site, options);
}

/** The resolved navigation of a loaded site (a running server's, say). */
export function navigationOfSite(site: Site, options: SiteNavigationOptions = {}): SiteNavigation {
  const { config } = site;
  if (!config.present) return { ok: false, reason: "missing", diagnostics: [] };
  const document = config.document;
  const configErrors = site.diagnostics.filter((d) => d.severity === "error" && !/\.(mdx?|MDX?)$/.test(d.file));
  if (document === undefined) return { ok: false, reason: "invalid", diagnostics: configErrors };
  const files = pageFilesOf(site);
  const pageOf = (p: string) => site.pages.get(p) ?? site.pages.get(p === "/" ? "/index" : `${p}/index`);
  // For a reader, the page it gets there (`a.md` when `a.mdx` is not theirs, the generated API
  // page behind a file at its path): its title, file and `hidden`, never those of a file it may
  // not read. Pages it may not read are filtered out below.
  const { context } = options;
  const shownPage = context === undefined ? pageOf : (p: string) => readerPageAt(site, context, p) ?? pageOf(p);
  // Pages the API reference generated from a whole spec, by the element they are listed under.
  const generated = new Map<string, GeneratedNavPage[]>();
  for (const item of site.api?.plan.nav ?? []) {
    if (item.entry !== undefined) continue;
    const list = generated.get(item.element) ?? [];
    list.push({ page: item.pagePath, title: shownPage(item.pagePath)?.title ?? item.pagePath, ...(item.spec !== undefined ? { spec: item.spec } : {}), ...(item.group !== undefined ? { group: item.group } : {}) });
    generated.set(item.element, list);
  }
  const tree = buildNavTree(document, readNavigation(document), {
    // The page's title as search shows it: front matter `title`, else its first-line `# Heading`.
    titleOf: (p) => shownPage(p)?.title,
    fileOf: (p) => {
      const page = context === undefined ? undefined : readerPageAt(site, context, p);
      return page === undefined ? files.fileOf(p) : page.generated ? undefined : page.file.path.slice(1);
    },
    hiddenPage: (p) => shownPage(p)?.meta.hidden === true,
    fallbackName: config.name,
    resolveEntry: options.resolveEntry ?? resolveEntryFromSite(site, (p) => shownPage(p)?.title),
    generatedUnder: (path) => generated.get(path) ?? [],
    ...(options.version !== undefined ? { version: options.version } : {}),
    // `--language cn` shows a site's `zh` (one language table for every argument).
    ...(options.language !== undefined ? { language: findLanguage(options.language, config.languages) ?? options.language } : {}),
  });
  if (context === undefined) return { ok: true, tree, errors: configErrors };
  const readable = readablePage(site, context);
  const outline = readerOutline(site, context);
  const exists = (p: string): boolean => pageOf(p) !== undefined;
  return { ok: true, tree: filterNavTree(tree, { readable, listedOperation: listedApiPage(site, context), exists, versions: outline.knownVersions, languages: outline.knownLanguages }), errors: configErrors };
}
