import { connectOptions, MENU_EDITORS } from "../../bridge/connect-options.js";
import { projectIdFromName } from "../../store/state-dir.js";
import { siteTitle } from "../../tools/tool-names.js";
import { readSettings } from "../access-state.js";
import { defineCommand } from "../command.js";
import { CliError } from "../io.js";
import { withDir, withJson, withState } from "../options.js";
import { resolveProject } from "../project.js";
import { formatTable } from "../table.js";
import { defaultServerUrl, siteNameAt, withUrl } from "./install.js";

export const connectCommand = defineCommand({
  command: "connect",
  describe: "Print the four ways to connect an AI tool (the docs' contextual menu: mcp, add-mcp, install-editor-1, install-editor-2)",
  builder: (y) => withJson(withState(withUrl(withDir(y)))),
  run: async (args, io) => {
    const project = await resolveProject(io, args);
    const url = args.url ?? defaultServerUrl((await readSettings(project)).authMode);
    if (!/^https?:\/\//.test(url)) throw new CliError(`--url must be an http(s) URL; got ${JSON.stringify(url)}`, 2);
    const siteName = await siteNameAt(io, args.dir);
    const options = connectOptions(url, projectIdFromName(siteName));
    if (args.json) {
      io.stdout(`${JSON.stringify(Object.fromEntries(options.map((o) => [o.id, o.value])), null, 2)}\n`);
      return 0;
    }
    io.stderr(`Connect an AI tool to the ${siteTitle(siteName)} (install-editor-1: ${MENU_EDITORS[0]}, install-editor-2: ${MENU_EDITORS[1]}):\n`);
    io.stdout(formatTable(options.map((o) => [o.id, o.value])));
    return 0;
  },
});
