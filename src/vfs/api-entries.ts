import { defaultResolveEntry, type ResolveEntry } from "../config/docs-json/entries.js";
import type { Site } from "./site.js";

/**
 * The navigation entry hook backed by the API reference's plan (`site.api.plan`), so `check`
 * and `nav` see operations as the server serves them: an entry the plan made a page for is an
 * operation (with that page and its title); one it could not generate (no `openapi`, a spec that
 * failed, an unfetched remote spec) is an operation it has reported on; one that matched no
 * operation is a page path whose missing file the plan has reported. Other entries are page
 * paths. Without a plan, the shape-only default applies. `titleOf` gives a page path's title
 * (for a reader, that of the page they get there: `nav --groups`); the site's page's when unset.
 */
export function resolveEntryFromSite(site: Site, titleOf: (pagePath: string) => string | undefined = (p) => site.pages.get(p)?.title): ResolveEntry {
  const plan = site.api?.plan;
  if (plan === undefined) return defaultResolveEntry;
  return (_entry, scope) => {
    const r = plan.entries.get(scope.path);
    if (r === undefined) return { kind: "file" };
    switch (r.kind) {
      case "api-page": {
        const title = titleOf(r.pagePath);
        // The spec the page is made from: an element may name several, the first not holding it.
        return { kind: "operation", page: r.pagePath, ...(r.spec !== undefined ? { spec: r.spec } : {}), ...(title !== undefined ? { title } : {}) };
      }
      case "not-generated":
        return { kind: "operation" };
      case "file":
        // When the file is missing the plan has said so, with why no operation matched.
        return { kind: "file", reported: true };
    }
  };
}
