import { homedir } from "node:os";
import { join, resolve } from "node:path";

/**
 * Where service state (credentials, tokens, feedback) lives: `--state DIR` when given, else
 * `$XDG_STATE_HOME/svc-mcp/<projectId>` (default `~/.local/state/svc-mcp/<projectId>`).
 * Never inside the docs repository by default: state holds secret hashes and must not be
 * committed with the docs.
 */
export function resolveStateDir(
  projectId: string,
  options: { state?: string | undefined; cwd: string; env: Readonly<Record<string, string | undefined>> },
): string {
  if (options.state !== undefined && options.state !== "") return resolve(options.cwd, options.state);
  const base = options.env.XDG_STATE_HOME ?? join(options.env.HOME ?? homedir(), ".local", "state");
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
