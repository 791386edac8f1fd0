import { allStages, type Stages } from "../stages.js";
import type { Diagnostic } from "../diagnostic.js";
import { API_CODES } from "./api-codes.js";
import { ROOT_ELEMENT_ORDER } from "../read-site-config.js";
import type { PagePlacement } from "../site-config.js";
import { readSpecSources, type SpecSource } from "./spec-source.js";

/**
 * A navigation element as API generation sees it: its own and effective (own, else inherited)
 * `openapi`/`asyncapi`, and the string entries of its `pages`.
 *
 * Interim: this walks the raw docs.json. When the typed docs.json model lands (issue 3), its
 * "every spec reference with the element it sits on" listing produces these records instead;
 * nothing below this file depends on the walk.
 */
export interface NavSpecElement {
  /** JSON path of the element (`navigation.tabs[1].groups[0]`; `navigation` for the root). */
  readonly path: string;
  readonly title?: string;
  readonly ownOpenapi?: readonly SpecSource[];
  readonly ownAsyncapi?: readonly SpecSource[];
  readonly openapi: readonly SpecSource[];
  readonly asyncapi: readonly SpecSource[];
  /** Index (in `elements`) of the element whose own `openapi` this one uses (maybe itself). */
  readonly openapiOwner?: number;
  readonly asyncapiOwner?: number;
  /** String entries of `pages` (and `root`), in order, with their JSON paths. */
  readonly entries: readonly { readonly value: string; readonly path: string }[];
  /** Versions, languages and breadcrumbs (ending with this element's title). */
  readonly placement: PagePlacement;
}

export interface NavSpecReferences {
  readonly elements: readonly NavSpecElement[];
  /** `api.openapi` / `api.asyncapi`: site-wide defaults, inherited by every element. */
  readonly siteOpenapi: readonly SpecSource[];
  readonly siteAsyncapi: readonly SpecSource[];
  /** Malformed `openapi`/`asyncapi` values. */
  readonly diagnostics: readonly Diagnostic[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const TITLE_KEYS = ["product", "language", "version", "tab", "dropdown", "anchor", "group", "item"] as const;

interface Inherited {
  openapi: readonly SpecSource[];
  asyncapi: readonly SpecSource[];
  openapiOwner?: number;
  asyncapiOwner?: number;
  versions?: string[];
  languages?: string[];
  breadcrumbs: string[];
  /** Under a `hidden: true` element; `unsearchable` when no `searchable: true` keeps it in search. */
  hidden?: true;
  unsearchable?: true;
}

/** Elements visited between two stages of `navSpecReferenceStages`. */
const ELEMENTS_PER_STAGE = 2_000;

/** List the navigation elements of a parsed docs.json with their API references. */
export function collectNavSpecReferences(raw: unknown): NavSpecReferences {
  return allStages(navSpecReferenceStages(raw));
}

/** `collectNavSpecReferences` in stages of `ELEMENTS_PER_STAGE` elements: a reload while serving
 *  gives the thread back between them (90,000 entries in groups: ~0.2-0.6 s in all). */
export function* navSpecReferenceStages(raw: unknown): Stages<NavSpecReferences> {
  const doc = isObj(raw) ? raw : {};
  const diagnostics: Diagnostic[] = [];
  const elements: NavSpecElement[] = [];

  const sources = (value: unknown, path: string): SpecSource[] | undefined => {
    if (value === undefined) return undefined;
    const r = readSpecSources(value);
    for (const p of r.problems) {
      diagnostics.push({ severity: "error", file: "docs.json", path: p.index === undefined ? path : `${path}[${p.index}]`, message: p.message, code: API_CODES.specReference });
    }
    // A single value that cannot be read is no `openapi` (the element inherits); an array is
    // the entries that can be read.
    return Array.isArray(value) || r.problems.length === 0 ? [...r.sources] : undefined;
  };

  const api = isObj(doc.api) ? doc.api : {};
  const siteOpenapi = sources(api.openapi, "api.openapi") ?? [];
  const siteAsyncapi = sources(api.asyncapi, "api.asyncapi") ?? [];

  const visit = function* (node: Obj, path: string, inherited: Inherited): Stages<void> {
    const index = elements.length;
    if ((index + 1) % ELEMENTS_PER_STAGE === 0) yield "API references in the navigation (part)";
    const ownOpenapi = sources(node.openapi, `${path}.openapi`);
    const ownAsyncapi = sources(node.asyncapi, `${path}.asyncapi`);
    const title = TITLE_KEYS.map((k) => node[k]).find((v): v is string => typeof v === "string");
    const next: Inherited = { ...inherited };
    if (ownOpenapi !== undefined) {
      next.openapi = ownOpenapi;
      next.openapiOwner = index;
    }
    if (ownAsyncapi !== undefined) {
      next.asyncapi = ownAsyncapi;
      next.asyncapiOwner = index;
    }
    // As the navigation model reads it (`ownContext` in docs-json/nav-model.ts).
    if (path !== "navigation" && node.hidden === true) {
      next.hidden = true;
      if (node.searchable !== true) next.unsearchable = true;
    }
    if (typeof node.version === "string") next.versions = [node.version];
    if (typeof node.language === "string") next.languages = [node.language];
    if (title !== undefined && typeof node.version !== "string" && typeof node.language !== "string") {
      next.breadcrumbs = [...inherited.breadcrumbs, title];
    }
    const entries: { value: string; path: string }[] = [];
    if (typeof node.root === "string") entries.push({ value: node.root, path: `${path}.root` });
    if (Array.isArray(node.pages)) {
      node.pages.forEach((p, i) => {
        if (typeof p === "string") entries.push({ value: p, path: `${path}.pages[${i}]` });
      });
    }
    elements.push({
      path,
      ...(title !== undefined ? { title } : {}),
      ...(ownOpenapi !== undefined ? { ownOpenapi } : {}),
      ...(ownAsyncapi !== undefined ? { ownAsyncapi } : {}),
      openapi: next.openapi,
      asyncapi: next.asyncapi,
      ...(next.openapiOwner !== undefined ? { openapiOwner: next.openapiOwner } : {}),
      ...(next.asyncapiOwner !== undefined ? { asyncapiOwner: next.asyncapiOwner } : {}),
      entries,
      placement: {
        ...(next.versions !== undefined ? { versions: next.versions } : {}),
        ...(next.languages !== undefined ? { languages: next.languages } : {}),
        breadcrumbs: next.breadcrumbs,
        ...(next.hidden !== undefined ? { hidden: true } : {}),
        ...(next.unsearchable !== undefined ? { unsearchable: true } : {}),
      },
    });
    if (Array.isArray(node.pages)) {
      for (const [i, p] of node.pages.entries()) if (isObj(p)) yield* visit(p, `${path}.pages[${i}]`, next);
    }
    // At the root only the element kind the platform picks counts (real sites leave stale
    // keys: spree has both `versions` and an old `tabs`); below it, every kind is walked.
    // A root that is not an array is refused as a whole and not the one used (`"versions": 5`
    // beside `"groups"`), as in the navigation model (docs-json/validate.ts).
    const rootKey = path === "navigation" ? (ROOT_ELEMENT_ORDER.find((k) => Array.isArray(node[k])) ?? ROOT_ELEMENT_ORDER.find((k) => node[k] !== undefined)) : undefined;
    for (const key of [...ROOT_ELEMENT_ORDER, "menu"]) {
      if (key === "pages" || (rootKey !== undefined && key !== rootKey)) continue;
      const children = node[key];
      if (!Array.isArray(children)) continue;
      for (const [i, c] of children.entries()) if (isObj(c)) yield* visit(c, `${path}.${key}[${i}]`, next);
    }
  };

  const nav = doc.navigation;
  if (isObj(nav)) {
    yield* visit(nav, "navigation", { openapi: siteOpenapi, asyncapi: siteAsyncapi, breadcrumbs: [] });
  }
  return { elements, siteOpenapi, siteAsyncapi, diagnostics };
}
