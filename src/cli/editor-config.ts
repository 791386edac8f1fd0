import { join } from "node:path";
import { type ParseError, applyEdits, modify, parse, printParseErrorCode } from "jsonc-parser";
import type { StdioServer } from "../bridge/connect-options.js";
import { xdgBaseDir } from "../store/xdg.js";
import { EditorConfigError, locateConfig, readConfig, writeConfig } from "./editor-config-file.js";

export { EditorConfigError };

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
    stdio: (c: StdioServer) => ({ command: c.command, args: [...c.args] }),
  },
  vscode: {
    name: "VS Code",
    project: (dir: string) => join(dir, ".vscode", "mcp.json"),
    user: (home: string, env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform) => join(vscodeUserDir(home, env, platform), "mcp.json"),
    key: "servers",
    http: (url: string) => ({ type: "http", url }),
    stdio: (c: StdioServer) => ({ type: "stdio", command: c.command, args: [...c.args] }),
  },
  "claude-code": {
    name: "Claude Code",
    project: (dir: string) => join(dir, ".mcp.json"),
    user: (home: string) => join(home, ".claude.json"),
    key: "mcpServers",
    http: (url: string) => ({ type: "http", url }),
    stdio: (c: StdioServer) => ({ type: "stdio", command: c.command, args: [...c.args] }),
  },
} as const;

export type EditorId = keyof typeof EDITORS;

function vscodeUserDir(home: string, env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): string {
  if (platform === "darwin") return join(home, "Library", "Application Support", "Code", "User");
  if (platform === "win32") return join(env.APPDATA ?? join(home, "AppData", "Roaming"), "Code", "User");
  return join(xdgBaseDir(env, "XDG_CONFIG_HOME") ?? join(home, ".config"), "Code", "User");
}

export type InstallResult = "added" | "updated" | "unchanged";

/**
 * Put one server entry into an editor's JSON config, keeping everything else as it is, comments
 * and layout included: VS Code's and Cursor's mcp.json are JSON with comments (JSONC), so the
 * file is parsed and edited as JSONC (jsonc-parser's `modify`, which changes only the entry's
 * text). A file that does not parse is left alone. `inside`: the folder a project's config must
 * stay in, links included (`locateConfig`); `linkTo` says where a linked config was edited.
 */
export function installServer(
  file: string,
  key: string,
  name: string,
  entry: Record<string, unknown>,
  inside: string | undefined,
): { readonly result: InstallResult; readonly linkTo: string | undefined } {
  const place = locateConfig(file, inside);
  const text = readConfig(place);
  const { linkTo } = place;
  const empty = text === undefined || text.trim() === "";
  const source = empty ? "{}" : (text as string);
  const errors: ParseError[] = [];
  const config: unknown = parse(source, errors, { allowTrailingComma: true });
  const [first] = errors;
  if (first !== undefined) throw new EditorConfigError(`${file} is not JSON (with comments): ${printParseErrorCode(first.error)} at ${position(source, first.offset)}; it was left unchanged`);
  if (typeof config !== "object" || config === null || Array.isArray(config)) throw new EditorConfigError(`${file} does not hold a JSON object; it was left unchanged`);
  const servers = (config as Record<string, unknown>)[key] ?? {};
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) throw new EditorConfigError(`"${key}" in ${file} is not an object; it was left unchanged`);
  const existing = (servers as Record<string, unknown>)[name];
  if (JSON.stringify(existing) === JSON.stringify(entry)) return { result: "unchanged", linkTo };
  const indent = indentOf(source);
  // A new entry goes first: jsonc-parser reformats the line it inserts after and would move a
  // comment that ends the last entry's line onto the new one; inserted first, every existing line
  // stays as it was.
  const edits = modify(source, [key, name], entry, { getInsertionIndex: () => 0, formattingOptions: { insertSpaces: indent !== "\t", tabSize: indent === "\t" ? 1 : indent.length, eol: source.includes("\r\n") ? "\r\n" : "\n" } });
  const updated = applyEdits(source, edits);
  writeConfig(place, empty || !updated.endsWith("\n") ? `${updated}\n` : updated);
  return { result: existing === undefined ? "added" : "updated", linkTo };
}

/** The indentation the file uses (its first indented line's), two spaces when it has none. */
function indentOf(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  if (m === null) return "  ";
  const lead = m[1] as string;
  return lead.startsWith("\t") ? "\t" : lead;
}

/** `line L, column C` (1-based) of an offset, for a parse error's message. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${(before.at(-1) ?? "").length + 1}`;
}
