import type { LoadSiteOptions } from "../../vfs/load-site.js";
import type { RequestContext } from "../../vfs/request-context.js";

/**
 * What a use case over a repository on disk works from (`check`, `nav`): the folder, how it is
 * loaded (spec cache, remote specs), and optionally whose view it is. Without `request` it is
 * the author's view: every page, whatever its groups.
 */
export interface RepositoryContext {
  readonly root: string;
  readonly load?: LoadSiteOptions;
  readonly request?: RequestContext;
  /** The folder as the user named it (`--dir` as given), for messages that name it. */
  readonly named?: string;
}
