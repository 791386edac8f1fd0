import { isAbsolute, join } from "node:path";
import { isInsideFolder } from "./real-path.js";
import { xdgBaseDir } from "./xdg.js";

/**
 * Where svc-mcp keeps disposable caches (parsed API specs): `$XDG_CACHE_HOME/svc-mcp`, default
 * `~/.cache/svc-mcp`. Undefined means no cache: `SVC_MCP_CACHE=off`, no usable `XDG_CACHE_HOME`
 * or `HOME` in the environment (an empty or relative `XDG_CACHE_HOME` is ignored, see `xdgBaseDir`), or
 * a folder inside the docs repository, where cache files would end up committed with the docs.
 */
export function resolveCacheDir(env: Readonly<Record<string, string | undefined>>, docsRoot?: string): string | undefined {
  if (env.SVC_MCP_CACHE === "off") return undefined;
  const base = xdgBaseDir(env, "XDG_CACHE_HOME") ?? (env.HOME !== undefined && isAbsolute(env.HOME) ? join(env.HOME, ".cache") : undefined);
  if (base === undefined) return undefined;
  const dir = join(base, "svc-mcp");
  // Compared where both really are: a link on either path, or a folder named `..cache`, must
  // not put cache files (restricted pages' text among them) inside the docs.
  if (docsRoot !== undefined && isInsideFolder(dir, docsRoot)) return undefined;
  return dir;
}
