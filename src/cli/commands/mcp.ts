import { describeAccess, mcpAvailable } from "../../bridge/middleware/access-policy.js";
import type { SiteSettings } from "../../store/state/state-store.js";
import { type SettingsChange, siteSettings } from "../../engine/use-cases/site-settings.js";
import { commandValue, withStateContext } from "../access-state.js";
import { defineCommand } from "../command.js";
import { CliError } from "../io.js";
import { withDir, withJson, withState } from "../options.js";
import { formatTable } from "../table.js";

const ACTIONS = ["status", "enable", "disable", "auth"] as const;

export const mcpCommand = defineCommand({
  command: "mcp <action> [mode]",
  describe: "The MCP server's availability and the site's auth setting: status, enable, disable, auth [public|partial|full]",
  builder: (y) =>
    withJson(withState(withDir(y)))
      .positional("action", { choices: ACTIONS, demandOption: true, describe: "status, enable, disable or auth" })
      .positional("mode", { type: "string", describe: "auth: public, partial or full (omit to print the current one)" }),
  run: async (args, io) => {
    if (args.action !== "auth" && args.mode !== undefined) throw new CliError(`mcp ${args.action} takes no argument; got ${JSON.stringify(args.mode)}`, 2);
    const change: SettingsChange | undefined = {
      enable: { mcp: "enabled" } as const,
      disable: { mcp: "disabled" } as const,
      auth: args.mode !== undefined ? { authMode: args.mode } : undefined,
      status: undefined,
    }[args.action];
    return withStateContext(io, args, async (context, project) => {
      const settings = commandValue(await siteSettings(context, change), ([i]) => `mcp auth: the ${i!.argument} ${i!.message}`);
      if (args.json) {
        io.stdout(`${JSON.stringify({ authMode: settings.authMode, mcp: mcpAvailable(settings) ? "enabled" : "disabled", toggle: settings.mcp ?? null, stateDir: project.state.label })}\n`);
        return 0;
      }
      const changed = {
        enable: "Enabled the MCP server.",
        disable: "Disabled the MCP server: /mcp and /authed/mcp answer 403.",
        auth: args.mode !== undefined ? `Site auth set to ${args.mode}.` : undefined,
        status: undefined,
      }[args.action];
      if (changed !== undefined) io.stdout(`${changed} A running server applies this at its next request.\n`);
      io.stdout(formatStatus(settings));
      return 0;
    });
  },
});

function formatStatus(settings: SiteSettings): string {
  const d = describeAccess(settings);
  return formatTable([
    ["site auth", settings.authMode],
    ["MCP server", d.server],
    ["/mcp", d.mcp],
    ["/authed/mcp", d.authed],
  ]);
}
