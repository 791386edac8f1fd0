import { isAbsolute, join } from "node:path";
import { type CacheSeal, cacheKeyFile, cacheSeal } from "./cache-key.js";
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

/** A cache folder with what vouches for its files (`cacheSeal`). */
export interface UserCache {
  readonly dir: string;
  readonly seal: CacheSeal;
}

/** Why there is no seal, per key file (or environment key): said once per process. */
const told = new Set<string>();

/**
 * The cache folder (`resolveCacheDir`) and the caches' seal, or undefined: no folder, or no key
 * to seal with (then `warn` is told why, once per process, and nothing is cached).
 */
export function resolveCache(env: Readonly<Record<string, string | undefined>>, docsRoot: string | undefined, warn: (message: string) => void): UserCache | undefined {
  const dir = resolveCacheDir(env, docsRoot);
  if (dir === undefined) return undefined;
  const seal = keyInsideCaches(env, dir) ?? cacheSeal(env, docsRoot);
  if (typeof seal !== "string") return { dir, seal };
  if (!told.has(seal)) {
    told.add(seal);
    warn(`caches off: ${seal}`);
  }
  return undefined;
}

/**
 * Why the key file may not seal `dir`'s caches: it lies inside the cache folder (XDG_STATE_HOME
 * set to XDG_CACHE_HOME, or below it), so whatever restores the caches (a CI cache from a fork's
 * run) brings the key that seals them, and the seal would prove nothing (adversary round 37 F3).
 */
function keyInsideCaches(env: Readonly<Record<string, string | undefined>>, dir: string): string | undefined {
  if (env.SVC_MCP_CACHE_KEY !== undefined && env.SVC_MCP_CACHE_KEY !== "") return undefined;
  const file = cacheKeyFile(env);
  return isInsideFolder(file, dir) ? `its key ${file} would be inside the cache folder ${dir} (set XDG_STATE_HOME apart from XDG_CACHE_HOME, or SVC_MCP_CACHE_KEY)` : undefined;
}
