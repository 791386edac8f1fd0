import { homedir } from "node:os";
import { isAbsolute } from "node:path";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * An XDG base directory from the environment, or undefined when the variable is unset, empty or
 * relative: the XDG Base Directory spec says such a value is invalid and must be ignored (an
 * empty `XDG_STATE_HOME` would otherwise put state in `./svc-mcp/` of whatever folder we run in).
 */
export function xdgBaseDir(env: Env, name: "XDG_CONFIG_HOME" | "XDG_STATE_HOME" | "XDG_CACHE_HOME"): string | undefined {
  const value = env[name];
  return value !== undefined && isAbsolute(value) ? value : undefined;
}

/** The home folder: `$HOME` when it is an absolute path, else the account's (`os.homedir()`). */
export function homeDir(env: Env): string {
  const home = env.HOME;
  return home !== undefined && isAbsolute(home) ? home : homedir();
}
