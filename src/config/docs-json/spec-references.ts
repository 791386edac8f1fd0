import { type NavContext, type NavModel, readNavigation } from "./nav-model.js";
import { type SpecSource, specSources } from "./spec-source.js";

/** One `openapi` / `asyncapi` key in docs.json, with what it applies to. */
export interface SpecReferenceSite {
  readonly kind: "openapi" | "asyncapi";
  /** JSON path of the key (`navigation.tabs[1].openapi`, `api.openapi`). */
  readonly path: string;
  /** JSON path of the element holding it (`navigation.tabs[1]`, `navigation`, or `api`). */
  readonly element: string;
  readonly sources: readonly SpecSource[];
  /** Descendant elements that inherit it (they set none of their own), by JSON path. */
  readonly inheritedBy: readonly string[];
  /** Navigation entries (pages and group roots) whose nearest spec this is. */
  readonly entries: readonly { readonly path: string; readonly entry: string }[];
}

const KINDS = ["openapi", "asyncapi"] as const;

/**
 * Every spec reference in a docs.json (navigation elements at any depth, the navigation object
 * itself, and `api.openapi` / `api.asyncapi`), in document order, with the elements and entries
 * that inherit each. `api.*` references are not inherited by navigation entries.
 */
export function listSpecReferences(doc: unknown, model: NavModel = readNavigation(doc)): SpecReferenceSite[] {
  const sites = new Map<string, { kind: (typeof KINDS)[number]; path: string; element: string; sources: readonly SpecSource[]; inheritedBy: string[]; entries: { path: string; entry: string }[] }>();
  const own = (ctx: NavContext, element: string): void => {
    for (const kind of KINDS) {
      const spec = ctx[kind];
      if (spec !== undefined && spec.element === element && !sites.has(spec.path)) {
        sites.set(spec.path, { kind, path: spec.path, element, sources: spec.sources, inheritedBy: [], entries: [] });
      }
    }
  };
  own(model.rootContext, "navigation");
  for (const el of model.elements) {
    own(el.context, el.path);
    for (const kind of KINDS) {
      const spec = el.context[kind];
      if (spec !== undefined && spec.element !== el.path) sites.get(spec.path)?.inheritedBy.push(el.path);
    }
  }
  for (const e of model.entries) {
    for (const kind of KINDS) {
      const spec = e.context[kind];
      if (spec !== undefined) sites.get(spec.path)?.entries.push({ path: e.path, entry: e.entry });
    }
  }
  const out: SpecReferenceSite[] = [...sites.values()];
  const api = (doc as { api?: Record<string, unknown> } | undefined)?.api;
  if (api !== null && typeof api === "object") {
    for (const kind of KINDS) {
      if (api[kind] === undefined) continue;
      const path = `api.${kind}`;
      out.push({ kind, path, element: "api", sources: specSources(api[kind], path), inheritedBy: [], entries: [] });
    }
  }
  return out;
}
