import { openSpecCache } from "../config/openapi/spec-cache.js";
import { terminalText } from "../config/visible-text.js";
import { resolveCache } from "../store/cache-dir.js";
import type { LoadSiteOptions } from "../vfs/load-site.js";
import type { CliIO } from "./io.js";

/**
 * How a command loads a docs repository: parsed API specs cached in the user's cache folder
 * (`resolveCache`), and remote specs fetched with the global `fetch` when `fetchRemote` is set.
 */
export function siteLoadOptions(io: CliIO, root: string, options: { fetchRemote?: boolean } = {}): LoadSiteOptions {
  const warn = (message: string): void => io.stderr(`svc-mcp: warning: ${terminalText(message)}\n`);
  const cache = resolveCache(io.env, root, warn);
  return {
    ...(cache !== undefined ? { specCache: openSpecCache(cache.dir, cache.seal, { warn }) } : {}),
    ...(options.fetchRemote === true ? { fetchRemoteSpecs: fetch } : {}),
  };
}

/** The docs folder as the user named it, for messages: `--dir` as given, or "this folder" without one. */
export function folderAsNamed(dir: string | undefined): string {
  return dir === undefined || dir === "." ? "this folder" : dir;
}
