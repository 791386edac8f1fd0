import type { Argv } from "yargs";
import { loadDocsJson } from "../../config/load-docs-json.js";
import { projectIdFromName } from "../../store/state-dir.js";
import { homeDir } from "../../store/xdg.js";
import type { AuthMode } from "../../store/state/state-store.js";
import { readSettings } from "../access-state.js";
import { defineCommand } from "../command.js";
import { commandLine } from "../../bridge/connect-options.js";
import { EDITORS, type EditorId, EditorConfigError, installServer } from "../editor-config.js";
import { CliError, type CliIO } from "../io.js";
import { describeLaunch, launchCommand } from "../launch-command.js";
import { resolveDir, withDir, withState } from "../options.js";
import { resolveProject } from "../project.js";

/** Where `svc-mcp serve --http` listens by default. */
export const DEFAULT_HTTP_ORIGIN = "http://127.0.0.1:3333";

/** `/mcp` for public docs; `/authed/mcp` when pages need sign-in (the tool signs people in). */
export function defaultServerUrl(mode: AuthMode): string {
  return `${DEFAULT_HTTP_ORIGIN}${mode === "public" ? "/mcp" : "/authed/mcp"}`;
}

/** `--url U`: the MCP server URL to connect to. */
export function withUrl<T>(y: Argv<T>) {
  return y.option("url", {
    type: "string",
    describe: "MCP server URL",
    defaultDescription: `${DEFAULT_HTTP_ORIGIN}/mcp (/authed/mcp when the site has authentication)`,
  });
}

/** The docs.json name (the folder name without one). */
export async function siteNameAt(io: CliIO, dir: string | undefined): Promise<string> {
  const docs = await loadDocsJson(resolveDir(io, dir));
  return docs.config?.name ?? "docs";
}

/** `--npx`: write the pinned npx form instead of this installation's command. */
export function withNpx<T>(y: Argv<T>) {
  return y.option("npx", {
    type: "boolean",
    default: false,
    describe: "Start the server with `npx -y svc-mcp@<this version>` (it must be published on the npm registry) instead of this installation",
  });
}

export const installCommand = defineCommand({
  command: "install",
  describe: "Add the docs' MCP server to an editor's config (Cursor, VS Code, Claude Code), keeping what is there: started by the editor (stdio), or over HTTP with --http",
  builder: (y) =>
    withNpx(withState(withUrl(withDir(y))))
      .option("editor", { choices: Object.keys(EDITORS) as EditorId[], demandOption: true, describe: "cursor, vscode or claude-code" })
      .option("http", {
        type: "boolean",
        default: false,
        describe: "Connect to a running `svc-mcp serve --http` (at --url) instead of having the editor start `svc-mcp serve --dir <folder>`; --url implies it",
      })
      .option("global", { type: "boolean", default: false, describe: "Write the user-wide config instead of the current folder's" })
      .option("name", { type: "string", describe: "Server name in the config", defaultDescription: "derived from the docs.json name" }),
  run: async (args, io) => {
    const http = args.http || args.url !== undefined;
    if (http && args.npx) throw new CliError("--npx says which command the editor starts; with --http or --url the editor starts nothing, it connects to the URL", 2);
    const root = resolveDir(io, args.dir);
    let url: string | undefined;
    if (http) {
      url = args.url ?? defaultServerUrl((await readSettings(await resolveProject(io, args))).authMode);
      if (!/^https?:\/\//.test(url)) throw new CliError(`--url must be an http(s) URL; got ${JSON.stringify(url)}`, 2);
    }
    const name = args.name ?? projectIdFromName(await siteNameAt(io, args.dir));
    const editor = EDITORS[args.editor];
    const launch = launchCommand(root, { npx: args.npx, env: io.env });
    const entry = url !== undefined ? editor.http(url) : editor.stdio(launch);
    const file = args.global ? editor.user(homeDir(io.env), io.env, process.platform) : editor.project(io.cwd);
    let installed;
    try {
      // A project's config stays inside the current folder; the user-wide one may be a link anywhere (dotfiles).
      installed = installServer(file, editor.key, name, entry, args.global ? undefined : io.cwd);
    } catch (error) {
      if (error instanceof EditorConfigError) {
        throw new CliError(`${error.message}. Add this under "${editor.key}" by hand:\n${JSON.stringify({ [name]: entry }, null, 2)}`, 1);
      }
      throw error;
    }
    const what = { added: "Added", updated: "Updated", unchanged: "Already up to date:" }[installed.result];
    const how = url ?? `stdio: ${commandLine(launch)}`;
    const where = installed.linkTo !== undefined ? `${file} (a link to ${installed.linkTo})` : file;
    io.stdout(`${what} MCP server "${name}" (${how}) in ${where} for ${editor.name}.\n`);
    io.stderr(
      url !== undefined
        ? `${editor.name} reaches ${url} only while \`svc-mcp serve --http\` is running there (for these docs: svc-mcp serve --http --dir ${root}).\n`
        : `${editor.name} starts the server itself when it needs the docs, with ${describeLaunch(launch)}.\n`,
    );
    return 0;
  },
});
