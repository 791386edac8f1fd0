import { defaultResolveEntry, entryScope, type ResolveEntry } from "./docs-json/entries.js";
import { ROOT_ELEMENT_ORDER } from "./docs-json/elements.js";
import { type ElementNode, type NavItem, type NavModel, readNavigation } from "./docs-json/nav-model.js";
import type { ReadableDocsJson } from "./docs-json/readable.js";
import { listSpecReferences } from "./docs-json/spec-references.js";
import { versionPaths } from "./version-paths.js";
import { isWebUrl } from "./web-url.js";
import { type PagePlacement, scopeNames, type SiteConfig, type SiteSection, type SpecReference, toPagePath } from "./site-config.js";

/**
 * Navigation element kinds that can sit at the root, in the order the platform picks one when a
 * site (wrongly) sets several. Real sites do this: spree has both `versions` and a stale `tabs`.
 */
export { ROOT_ELEMENT_ORDER };

export interface ReadSiteConfigOptions {
  /** The navigation model, when the caller already read it. */
  readonly model?: NavModel;
  /** The validated document, kept on the configuration for the layers that read settings. */
  readonly document?: ReadableDocsJson;
  readonly resolveEntry?: ResolveEntry;
}

/**
 * The flat configuration the service runs on, from a parsed docs.json (`$ref`s resolved).
 * Tolerant: malformed parts are skipped (validation and its messages are `validateDocsJson`'s).
 */
export function readSiteConfig(raw: unknown, fallbackName: string, options: ReadSiteConfigOptions = {}): SiteConfig {
  const doc = (typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const model = options.model ?? readNavigation(doc);
  const resolveEntry = options.resolveEntry ?? defaultResolveEntry;
  const named = typeof doc.name === "string" && doc.name.trim() !== "";
  const name = named ? (doc.name as string).trim() : fallbackName;

  const navPages = new Map<string, PagePlacement>();
  for (const e of model.entries) {
    if (e.entry.trim() === "") continue;
    if (resolveEntry(e.entry, entryScope(e.context, e.path)).kind !== "file") continue;
    const path = toPagePath(e.entry);
    const prev = navPages.get(path);
    const version = e.context.version !== undefined ? [e.context.version] : undefined;
    const language = e.context.language !== undefined ? [e.context.language] : undefined;
    const product = e.context.product !== undefined ? [e.context.product] : undefined;
    // Hidden only when hidden in every listing (a page listed in a visible place is visible).
    const hidden = e.context.hidden === true && (prev === undefined || prev.hidden === true);
    const unsearchable = e.context.unsearchable === true && (prev === undefined || prev.unsearchable === true);
    const versions = mergeScope(prev?.versions, version, prev !== undefined);
    const languages = mergeScope(prev?.languages, language, prev !== undefined);
    const versionListings = versions === undefined ? listings(prev === undefined ? [] : scopeNames(prev, "versions"), version) : [];
    const languageListings = languages === undefined ? listings(prev === undefined ? [] : scopeNames(prev, "languages"), language) : [];
    navPages.set(path, {
      versions,
      languages,
      ...(versionListings.length > 0 ? { versionListings } : {}),
      ...(languageListings.length > 0 ? { languageListings } : {}),
      ...optionalScope("products", mergeScope(prev?.products, product, prev !== undefined)),
      breadcrumbs: prev?.breadcrumbs ?? e.context.breadcrumbs,
      ...(hidden ? { hidden: true } : {}),
      ...(unsearchable ? { unsearchable: true } : {}),
    });
  }

  const versions: string[] = [];
  const languages: string[] = [];
  let defaultVersion: string | undefined;
  let defaultLanguage: string | undefined;
  const versionTags = new Map<string, string>();
  for (const el of model.elements) {
    if (el.kind === "version" && el.title !== undefined) {
      if (!versions.includes(el.title)) versions.push(el.title);
      if (typeof el.value.tag === "string" && el.value.tag.trim() !== "" && !versionTags.has(el.title)) versionTags.set(el.title, el.value.tag.trim());
      if (el.value.default === true && defaultVersion === undefined) defaultVersion = el.title;
    }
    // Under the code the site first writes for the language (`NavContext.language`): `cn` and `zh`
    // listed side by side are one language.
    const language = el.kind === "language" && el.title !== undefined ? el.context.language : undefined;
    if (language !== undefined) {
      if (!languages.includes(language)) languages.push(language);
      if (el.value.default === true && defaultLanguage === undefined) defaultLanguage = language;
    }
  }
  defaultVersion ??= versions[0];
  defaultLanguage ??= languages[0];
  const paths = versionPaths(navPages, versions);
  const hiddenVersions = versions.filter((v) => everyHidden(model.elements, "version", v));
  const hiddenLanguages = languages.filter((l) => everyHidden(model.elements, "language", l));

  const specs = new Map<string, SpecReference>();
  for (const ref of listSpecReferences(doc, model)) {
    for (const s of ref.sources) if (!specs.has(s.source)) specs.set(s.source, { source: s.source, remote: s.remote });
  }

  const seo = isObject(doc.seo) ? doc.seo : {};
  const metatags = isObject(seo.metatags) ? seo.metatags : {};
  // Used to build links only when it is a web address (`canonical-url` says so when it is not).
  const canonical = typeof metatags.canonical === "string" && isWebUrl(metatags.canonical) ? metatags.canonical : undefined;

  return {
    name,
    ...(named ? { named: true as const } : {}),
    present: true,
    navPages,
    indexing: seo.indexing === "all" ? "all" : "navigable",
    specs: [...specs.values()],
    versions,
    languages,
    hiddenVersions,
    hiddenLanguages,
    sections: sectionsOf(model.items, resolveEntry),
    ...(typeof doc.description === "string" ? { description: doc.description } : {}),
    ...(defaultVersion !== undefined ? { defaultVersion } : {}),
    ...(defaultLanguage !== undefined ? { defaultLanguage } : {}),
    ...(versionTags.size > 0 ? { versionTags } : {}),
    ...(paths.size > 0 ? { versionPaths: paths } : {}),
    ...(canonical !== undefined ? { canonicalUrl: canonical } : {}),
    ...(options.document !== undefined ? { document: options.document } : {}),
  };
}

/** `{ products: [...] }`, or nothing for a page under no product (most sites have none, and
 *  placements are compared and printed whole). */
function optionalScope(key: "products", value: string[] | undefined): { products?: string[] } {
  return value === undefined ? {} : { [key]: value };
}

/** Whether every element of this kind and title is hidden (itself or under a hidden ancestor). */
function everyHidden(elements: readonly ElementNode[], kind: "version" | "language", title: string): boolean {
  const named = (el: ElementNode): string | undefined => (kind === "language" && el.title !== undefined ? el.context.language : el.title);
  return elements.filter((el) => el.kind === kind && named(el) === title).every((el) => el.context.hidden === true);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The names a page's listings so far are under, and this listing's. */
function listings(prev: readonly string[], next: readonly string[] | undefined): string[] {
  return [...new Set([...prev, ...(next ?? [])])];
}

/** A page listed in several scopes belongs to the union of them; "all" wins over any list. */
function mergeScope(prev: readonly string[] | undefined, next: readonly string[] | undefined, seen: boolean): string[] | undefined {
  if (!seen) return next === undefined ? undefined : [...next];
  if (prev === undefined || next === undefined) return undefined;
  return [...new Set([...prev, ...next])];
}

/**
 * Top-level sections: the first level below the version/language split. Every version counts,
 * not only the first: versions mostly repeat the same sections, but one may have its own
 * (stagehand's v3 has dropdowns where v4 has groups), and a reader who may read only a later
 * version's pages must still be shown its sections. Sections of the same title are one, with the
 * pages of each version (titles compared case-insensitively); the default version's come first, in its order. Languages translate
 * the same sections, so only the default language's (else the first's) are listed. Hidden
 * elements are left out: readers are not shown them, so the generated skill and the server
 * instructions do not advertise them.
 */
function sectionsOf(items: readonly NavItem[], resolveEntry: ResolveEntry): SiteSection[] {
  const out: SiteSection[] = [];
  const branches: ElementNode[] = [];
  for (const item of items) {
    if (item.type !== "element" || item.context.hidden === true) continue;
    if (item.kind === "version" || item.kind === "language") {
      branches.push(item);
      continue;
    }
    if (item.title === undefined) continue;
    const pages: string[] = [];
    gatherPages(item, pages, resolveEntry);
    out.push({ title: item.title, path: item.path, pages });
  }
  const byDefault = [...branches.filter((b) => b.value.default === true), ...branches.filter((b) => b.value.default !== true)];
  const language = byDefault.find((b) => b.kind === "language");
  for (const branch of byDefault.filter((b) => b.kind === "version" || b === language)) {
    for (const section of sectionsOf(branch.children, resolveEntry)) {
      const at = out.findIndex((s) => s.title.toLowerCase() === section.title.toLowerCase());
      if (at === -1) out.push(section);
      else out[at] = { ...(out[at] as SiteSection), pages: [...new Set([...(out[at] as SiteSection).pages, ...section.pages])] };
    }
  }
  return out;
}

function gatherPages(el: ElementNode, out: string[], resolveEntry: ResolveEntry): void {
  const add = (entry: string, path: string): void => {
    if (entry.trim() !== "" && resolveEntry(entry, entryScope(el.context, path)).kind === "file") out.push(toPagePath(entry));
  };
  if (el.rootEntry !== undefined) add(el.rootEntry.entry, el.rootEntry.path);
  for (const child of el.children) {
    if (child.type === "entry") add(child.entry, child.path);
    else if (child.context.hidden !== true) gatherPages(child, out, resolveEntry);
  }
}
