import { type PagePlacement, type SiteConfig, type SiteSection, type SpecReference, toPagePath } from "./site-config.js";

/**
 * Navigation element kinds that can sit at the root, in the order the platform picks one when a
 * site (wrongly) sets several. Real sites do this: spree has both `versions` and a stale `tabs`.
 */
export const ROOT_ELEMENT_ORDER = [
  "products",
  "languages",
  "versions",
  "tabs",
  "dropdowns",
  "anchors",
  "groups",
  "pages",
] as const;

/** The title key of each navigation element kind. */
const TITLE_KEYS = ["product", "language", "version", "tab", "dropdown", "anchor", "group", "item"] as const;

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

interface Context {
  versions?: string[];
  languages?: string[];
  breadcrumbs: string[];
}

/**
 * Read the parts of a parsed docs.json the service runs on. Tolerant: whatever is malformed is
 * skipped here (validation and its messages belong to `svc-mcp check`).
 */
export function readSiteConfig(raw: Json, fallbackName: string): SiteConfig {
  const doc = isObject(raw) ? raw : {};
  const name = typeof doc.name === "string" && doc.name.trim() !== "" ? doc.name.trim() : fallbackName;
  const navPages = new Map<string, PagePlacement>();
  const specs = new Map<string, SpecReference>();
  const versions: string[] = [];
  const languages: string[] = [];
  const sections: SiteSection[] = [];
  let defaultVersion: string | undefined;

  const addSpec = (value: Json): void => {
    const sources: Json[] = Array.isArray(value) ? value : [value];
    for (const s of sources) {
      const source = typeof s === "string" ? s : isObject(s) && typeof s.source === "string" ? s.source : undefined;
      if (source === undefined || source.trim() === "") continue;
      const remote = /^https?:\/\//i.test(source);
      const key = remote ? source : source.replace(/^\.?\//, "");
      specs.set(key, { source: key, remote });
    }
  };

  const addPage = (entry: string, ctx: Context): void => {
    // `GET /users` style operation entries are API pages, not files.
    if (/^(\S+\s+)?(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|WEBHOOK)\s+\S/i.test(entry)) return;
    const path = toPagePath(entry);
    const prev = navPages.get(path);
    navPages.set(path, {
      versions: mergeScope(prev?.versions, ctx.versions, prev !== undefined),
      languages: mergeScope(prev?.languages, ctx.languages, prev !== undefined),
      breadcrumbs: prev?.breadcrumbs ?? ctx.breadcrumbs,
    });
  };

  const walk = (node: Json, ctx: Context): void => {
    if (Array.isArray(node)) {
      for (const child of node) walk(child, ctx);
      return;
    }
    if (typeof node === "string") {
      addPage(node, ctx);
      return;
    }
    if (!isObject(node)) return;
    if (node.openapi !== undefined) addSpec(node.openapi);
    if (node.asyncapi !== undefined) addSpec(node.asyncapi);
    let next = ctx;
    if (typeof node.version === "string") {
      next = { ...next, versions: [node.version] };
      if (!versions.includes(node.version)) versions.push(node.version);
      if (node.default === true && defaultVersion === undefined) defaultVersion = node.version;
    }
    if (typeof node.language === "string") {
      next = { ...next, languages: [node.language] };
      if (!languages.includes(node.language)) languages.push(node.language);
    }
    const title = TITLE_KEYS.map((k) => node[k]).find((v): v is string => typeof v === "string");
    if (title !== undefined && typeof node.version !== "string" && typeof node.language !== "string") {
      next = { ...next, breadcrumbs: [...next.breadcrumbs, title] };
    }
    if (typeof node.root === "string") addPage(node.root, next);
    for (const key of [...ROOT_ELEMENT_ORDER, "menu"]) {
      if (node[key] !== undefined) walk(node[key], next);
    }
  };

  const nav = doc.navigation;
  if (isObject(nav)) {
    const rootKey = ROOT_ELEMENT_ORDER.find((k) => nav[k] !== undefined);
    if (rootKey !== undefined) {
      const root = nav[rootKey];
      // Sections: the first level that is not a version or language split.
      collectSections(root, sections);
      walk(root, { breadcrumbs: [] });
    }
    if (nav.openapi !== undefined) addSpec(nav.openapi);
  }
  if (isObject(doc.api) && doc.api.openapi !== undefined) addSpec(doc.api.openapi);
  if (isObject(doc.api) && doc.api.asyncapi !== undefined) addSpec(doc.api.asyncapi);
  if (defaultVersion === undefined) defaultVersion = versions[0];

  const seo = isObject(doc.seo) ? doc.seo : {};
  const metatags = isObject(seo.metatags) ? seo.metatags : {};
  const canonical = typeof metatags.canonical === "string" ? metatags.canonical : undefined;

  const config: SiteConfig = {
    name,
    present: true,
    navPages,
    indexing: seo.indexing === "all" ? "all" : "navigable",
    specs: [...specs.values()],
    versions,
    languages,
    sections,
    ...(typeof doc.description === "string" ? { description: doc.description } : {}),
    ...(defaultVersion !== undefined ? { defaultVersion } : {}),
    ...(canonical !== undefined ? { canonicalUrl: canonical } : {}),
  };
  return config;
}

/** A page listed in several scopes belongs to the union of them; "all" wins over any list. */
function mergeScope(prev: readonly string[] | undefined, next: readonly string[] | undefined, seen: boolean): string[] | undefined {
  if (!seen) return next === undefined ? undefined : [...next];
  if (prev === undefined || next === undefined) return undefined;
  return [...new Set([...prev, ...next])];
}

function collectSections(root: Json, out: SiteSection[]): void {
  if (!Array.isArray(root)) return;
  for (const el of root) {
    if (!isObject(el)) continue;
    if (typeof el.version === "string" || typeof el.language === "string") {
      // Sections of the first version/language only: the others repeat them.
      if (out.length === 0) {
        const inner = ROOT_ELEMENT_ORDER.map((k) => el[k]).find((v) => v !== undefined);
        collectSections(inner, out);
      }
      continue;
    }
    const title = TITLE_KEYS.map((k) => el[k]).find((v): v is string => typeof v === "string");
    if (title === undefined) continue;
    const pages: string[] = [];
    gatherPages(el, pages);
    out.push({ title, pages });
  }
}

function gatherPages(node: Json, out: string[]): void {
  if (typeof node === "string") {
    out.push(toPagePath(node));
  } else if (Array.isArray(node)) {
    for (const c of node) gatherPages(c, out);
  } else if (isObject(node)) {
    if (typeof node.root === "string") out.push(toPagePath(node.root));
    for (const key of [...ROOT_ELEMENT_ORDER, "menu"]) if (node[key] !== undefined) gatherPages(node[key], out);
  }
}
