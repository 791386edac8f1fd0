import type { ArgumentIssue } from "../../engine/use-cases/outcome.js";
import { addRedirectDomain, listRedirectDomains, removeRedirectDomain } from "../../engine/use-cases/redirect-domains.js";
import { commandValue, withStateContext } from "../access-state.js";
import { defineCommand } from "../command.js";
import { CliError } from "../io.js";
import { withDir, withJson, withState } from "../options.js";

const ACTIONS = ["add", "remove", "list"] as const;

export const redirectDomainsCommand = defineCommand({
  command: "redirect-domains <action> [entry]",
  describe: "Where web-based AI tools may return people after sign-in: add, remove, list (loopback is always trusted)",
  builder: (y) =>
    withJson(withState(withDir(y)))
      .positional("action", { choices: ACTIONS, demandOption: true, describe: "add, remove or list" })
      .positional("entry", { type: "string", describe: "a domain (https:// by default: tool.example.com) or a custom scheme written in full (myapp://callback)" }),
  run: async (args, io) => {
    if (args.action === "list" && args.entry !== undefined) throw new CliError(`redirect-domains list takes no argument; got ${JSON.stringify(args.entry)}`, 2);
    if (args.action !== "list" && args.entry === undefined) throw new CliError(`redirect-domains ${args.action} needs a domain, e.g. tool.example.com or myapp://callback`, 2);
    const usage = ([i]: readonly ArgumentIssue[]) => `redirect-domains ${args.action}: ${i!.message}`;
    return withStateContext(io, args, async (context) => {
      if (args.action === "list" || args.entry === undefined) {
        const entries = commandValue(await listRedirectDomains(context));
        if (args.json) io.stdout(`${JSON.stringify(entries)}\n`);
        else io.stdout(entries.map((e) => `${e}\n`).join(""));
        if (!args.json) io.stderr(`${entries.length === 0 ? "No redirect domains. " : ""}Always trusted: localhost, 127.0.0.1 and [::1] (http or https, any port).\n`);
        return 0;
      }
      if (args.action === "add") {
        const { entry, changed, note } = commandValue(await addRedirectDomain(context, args.entry), usage);
        io.stdout(changed ? `Added redirect domain ${entry}${note !== undefined ? ` (${note})` : ""}.\n` : `${entry} is already listed.\n`);
        return 0;
      }
      const { entry } = commandValue(await removeRedirectDomain(context, args.entry), usage, "; see `svc-mcp redirect-domains list`");
      io.stdout(`Removed redirect domain ${entry}: tools returning there can no longer complete sign-in.\n`);
      return 0;
    });
  },
});
