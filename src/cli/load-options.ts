import { openSpecCache } from "../config/openapi/spec-cache.js";
import { resolveCacheDir } from "../store/cache-dir.js";
import type { LoadSiteOptions } from "../vfs/load-site.js";
import type { CliIO } from "./io.js";

/**
 * How a command loads a docs repository: parsed API specs cached in the user's cache folder
 * (`resolveCacheDir`), and remote specs fetched with the global `fetch` when `fetchRemote` is set.
 */
export function siteLoadOptions(io: CliIO, root: string, options: { fetchRemote?: boolean } = {}): LoadSiteOptions {
  const dir = resolveCacheDir(io.env, root);
  return {
    ...(dir !== undefined ? { specCache: openSpecCache(dir, { warn: (m) => io.stderr(`svc-mcp: warning: ${m}\n`) }) } : {}),
    ...(options.fetchRemote === true ? { fetchRemoteSpecs: fetch } : {}),
  };
}
