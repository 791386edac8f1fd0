// Its own file so that the site, which carries its API reference facts, and the code that
// builds the API pages (which makes site files) need not import each other.
import type { ApiSettings } from "../config/openapi/api-settings.js";
import type { ApiPagePlan, FrontMatterOperation } from "../config/openapi/plan-api-pages.js";
import type { PlaygroundSettings } from "../config/openapi/playground.js";
import type { ParameterAnchor } from "../config/openapi/render-page.js";
import type { Access } from "./access.js";

/** What the rest of the service knows about a page that documents an API operation. */
export interface ApiPageInfo {
  readonly pagePath: string;
  /** True for generated pages; false for MDX pages with front matter `openapi`. */
  readonly generated: boolean;
  readonly kind: "operation" | "webhook" | "channel";
  /** Spec source (repository path or URL). */
  readonly source: string;
  /** `GET`, `WEBHOOK`; for channels the operations' actions. */
  readonly method: string;
  /** Path template, webhook name or channel address. */
  readonly path: string;
  /** Base URLs the relay may call for this page (the spec's servers). */
  readonly servers: readonly string[];
  /** The servers of the page's operation are left out of its page (`ApiOperation.serversNotShown`):
   *  the relay calls none, nor any its path item or document declares. */
  readonly serversNotShown?: true;
  /** Every operation of the page's spec (not its webhooks), whoever may read it: what the relay
   *  compares a path with escaped slashes against as an API that decodes them before it routes
   *  would read it, so that no page carries a call to another operation (`operationServer`).
   *  One list per spec; unset for a channel. */
  readonly specOperations?: readonly SpecOperation[];
  readonly playground: PlaygroundSettings;
  readonly anchors: readonly ParameterAnchor[];
  /** The schema nodes the page shows at most (`SchemaShares`): its HTML is cut where its text is. */
  readonly schemaNodes: number;
}

/** An operation of a spec as the relay routes it: its method and path template. */
export interface SpecOperation {
  readonly method: string;
  readonly path: string;
}

/** API reference state of a site: the plan (for `check`/`nav`), settings, and page facts. */
export interface SiteApi {
  readonly settings: ApiSettings;
  readonly plan: ApiPagePlan;
  /** Every API page (generated or front matter), by page path. */
  readonly pages: ReadonlyMap<string, ApiPageInfo>;
  /** The facts of each generated page that stands behind a file at its path
   *  (`ApiPagePlan.behind`), by page path: they answer for a reader who gets that page there
   *  (`readerApiPage`), never for the file's readers. */
  readonly behind?: ReadonlyMap<string, ApiPageInfo>;
  /** What the pages a file before them at their path hides from some readers document
   *  (`Site.shadowed`, `x.md` behind `x.mdx`): their plans, one per depth, and by the page's file
   *  path (`/guides/x.md`) their facts and operations: they answer for a reader who gets that page. */
  readonly hidden?: {
    readonly plans: readonly ApiPagePlan[];
    readonly pages: ReadonlyMap<string, ApiPageInfo>;
    readonly operations: ReadonlyMap<string, FrontMatterOperation>;
  };
  /** The access rule of the generated page at each path a file takes (behind the file, or left
   *  out for a `<path>/index` file), by page path. Its navigation entry (a node of the API group,
   *  the path's place in a section, its placement) is the operation's: listed to the readers of
   *  this rule only, whichever page they get at the path (`apiListing`). */
  readonly taken?: ReadonlyMap<string, Access>;
}
