import { LIMITS } from "../../limits.js";
import { type RequestContext, visibilityKey } from "../../vfs/request-context.js";
import type { Site } from "../../vfs/site.js";
import { navigationOfSite, type SiteNavigation } from "../../vfs/site-nav.js";
import { Lru } from "../search/lru.js";

/**
 * The navigation each kind of reader sees, resolved once per site snapshot: every page of the
 * preview shows it, and resolving a site of a thousand pages costs milliseconds. Keyed by what
 * decides it (the snapshot, the auth setting and the reader's groups), like the runtime's views.
 */
export class Navigations {
  private readonly trees: Lru<string, { readonly site: Site; readonly nav: SiteNavigation }>;

  constructor(capacity: number = LIMITS.preview.navigationTrees) {
    this.trees = new Lru(capacity);
  }

  /** The navigation of `site` as the request's reader sees it (as `nav --groups` shows it). */
  of(site: Site, context: RequestContext): SiteNavigation {
    const key = visibilityKey(context);
    const known = this.trees.get(key);
    if (known?.site === site) return known.nav;
    const nav = navigationOfSite(site, { context });
    this.trees.set(key, { site, nav });
    return nav;
  }
}
