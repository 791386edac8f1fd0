import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { xdgBaseDir } from "../store/xdg.js";

/** How an editor starts a local MCP server: a command it runs, talking over stdin/stdout. */
export interface StdioCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * Editors `svc-mcp install` writes to, and how each stores an MCP server: one it starts itself
 * (stdio) or one it reaches over HTTP.
 */
export const EDITORS = {
  cursor: {
    name: "Cursor",
    project: (dir: string) => join(dir, ".cursor", "mcp.json"),
    user: (home: string) => join(home, ".cursor", "mcp.json"),
    key: "mcpServers",
    http: (url: string) => ({ url }),
    stdio: (c: StdioCommand) => ({ command: c.command, args: [...c.args] }),
  },
  vscode: {
    name: "VS Code",
    project: (dir: string) => join(dir, ".vscode", "mcp.json"),
    user: (home: string, env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform) => join(vscodeUserDir(home, env, platform), "mcp.json"),
    key: "servers",
    http: (url: string) => ({ type: "http", url }),
    stdio: (c: StdioCommand) => ({ type: "stdio", command: c.command, args: [...c.args] }),
  },
  "claude-code": {
    name: "Claude Code",
    project: (dir: string) => join(dir, ".mcp.json"),
    user: (home: string) => join(home, ".claude.json"),
    key: "mcpServers",
    http: (url: string) => ({ type: "http", url }),
    stdio: (c: StdioCommand) => ({ type: "stdio", command: c.command, args: [...c.args] }),
  },
} as const;

export type EditorId = keyof typeof EDITORS;

function vscodeUserDir(home: string, env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): string {
  if (platform === "darwin") return join(home, "Library", "Application Support", "Code", "User");
  if (platform === "win32") return join(env.APPDATA ?? join(home, "AppData", "Roaming"), "Code", "User");
  return join(xdgBaseDir(env, "XDG_CONFIG_HOME") ?? join(home, ".config"), "Code", "User");
}

export type InstallResult = "added" | "updated" | "unchanged";

/** A config file we will not rewrite (unparsable, or not an object where we write). */
export class EditorConfigError extends Error {}

/**
 * Put one server entry into an editor's JSON config, keeping everything else as it is. A file
 * that does not parse as plain JSON is left alone (rewriting it would drop its comments).
 */
export function installServer(file: string, key: string, name: string, entry: Record<string, unknown>): InstallResult {
  let text: string | undefined;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new EditorConfigError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let config: Record<string, unknown> = {};
  if (text !== undefined && text.trim() !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new EditorConfigError(`${file} is not plain JSON (${(error as Error).message}); it was left unchanged`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new EditorConfigError(`${file} does not hold a JSON object; it was left unchanged`);
    config = parsed as Record<string, unknown>;
  }
  const servers = config[key] ?? {};
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) throw new EditorConfigError(`"${key}" in ${file} is not an object; it was left unchanged`);
  const existing = (servers as Record<string, unknown>)[name];
  if (JSON.stringify(existing) === JSON.stringify(entry)) return "unchanged";
  config[key] = { ...(servers as Record<string, unknown>), [name]: entry };
  writeAtomically(file, `${JSON.stringify(config, null, 2)}\n`);
  return existing === undefined ? "added" : "updated";
}

/** Write via a temp file and rename, keeping the old file's mode: a crash never leaves half a config. */
function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  let mode: number | undefined;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    mode = undefined;
  }
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, mode === undefined ? {} : { mode });
  if (mode !== undefined) chmodSync(tmp, mode);
  renameSync(tmp, file);
}
