import { join, resolve } from "node:path";
import { homeDir, xdgBaseDir } from "./xdg.js";

/**
 * Where service state (credentials, tokens, feedback) lives: `--state DIR` when given, else
 * `$XDG_STATE_HOME/svc-mcp/<projectId>` (default `~/.local/state/svc-mcp/<projectId>`; an empty or
 * relative `XDG_STATE_HOME` is ignored, see `xdgBaseDir`).
 * Never inside the docs repository by default: state holds secret hashes and must not be
 * committed with the docs.
 */
export function resolveStateDir(
  projectId: string,
  options: { state?: string | undefined; cwd: string; env: Readonly<Record<string, string | undefined>> },
): string {
  if (options.state !== undefined && options.state !== "") return resolve(options.cwd, options.state);
  const base = xdgBaseDir(options.env, "XDG_STATE_HOME") ?? join(homeDir(options.env), ".local", "state");
  return join(base, "svc-mcp", projectId);
}

/** A project ID from a site name: `Spree Commerce documentation` -> `spree-commerce-documentation`. */
export function projectIdFromName(name: string): string {
  const id = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return id === "" ? "docs" : id.slice(0, 64);
}
