import { type ConnectOption, connectOptions, MENU_EDITORS, stdioConnectOptions } from "../../bridge/connect-options.js";
import { projectIdFromName } from "../../store/state-dir.js";
import { siteTitle } from "../../engine/tool-names.js";
import { readSettings } from "../access-state.js";
import { defineCommand } from "../command.js";
import { CliError } from "../io.js";
import { resolveDir, withDir, withJson, withState } from "../options.js";
import { resolveProject } from "../project.js";
import { launchCommand } from "../launch-command.js";
import { formatTable } from "../table.js";
import { defaultServerUrl, siteNameAt, withNpx, withUrl } from "./install.js";

export const connectCommand = defineCommand({
  command: "connect",
  describe: "Print the four ways to connect an AI tool (the docs' contextual menu: mcp, add-mcp, install-editor-1, install-editor-2), to the HTTP server or, with --stdio, to a server the tool starts itself",
  builder: (y) =>
    withNpx(withJson(withState(withUrl(withDir(y))))).option("stdio", {
      type: "boolean",
      default: false,
      describe: "The ways in for a server the AI tool starts itself (this installation's `svc-mcp serve --dir <folder>`; --npx for the published package)",
    }),
  run: async (args, io) => {
    if (args.stdio) {
      if (args.url !== undefined) throw new CliError("--stdio and --url do not go together: --url names an HTTP server, --stdio a server the AI tool starts itself", 2);
      const siteName = await siteNameAt(io, args.dir);
      const options = stdioConnectOptions(launchCommand(resolveDir(io, args.dir), { npx: args.npx, env: io.env }), projectIdFromName(siteName));
      return print(options, `Connect an AI tool to the ${siteTitle(siteName)}, started by the tool itself`);
    }
    if (args.npx) throw new CliError("--npx goes with --stdio: it says which command the AI tool starts", 2);
    const project = await resolveProject(io, args);
    const url = args.url ?? defaultServerUrl((await readSettings(project)).authMode);
    if (!/^https?:\/\//.test(url)) throw new CliError(`--url must be an http(s) URL; got ${JSON.stringify(url)}`, 2);
    const siteName = await siteNameAt(io, args.dir);
    return print(connectOptions(url, projectIdFromName(siteName)), `Connect an AI tool to the ${siteTitle(siteName)}`);

    function print(options: readonly ConnectOption[], heading: string): number {
      if (args.json) {
        io.stdout(`${JSON.stringify(Object.fromEntries(options.map((o) => [o.id, o.value])), null, 2)}\n`);
        return 0;
      }
      io.stderr(`${heading} (install-editor-1: ${MENU_EDITORS[0]}, install-editor-2: ${MENU_EDITORS[1]}):\n`);
      io.stdout(formatTable(options.map((o) => [o.id, o.value])));
      return 0;
    }
  },
});
