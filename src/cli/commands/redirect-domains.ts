import { normalizeRedirectDomain } from "../../bridge/auth/redirect-domains.js";
import { withAccessState } from "../access-state.js";
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
    let entry: string | undefined;
    let note: string | undefined;
    if (args.entry !== undefined) {
      const checked = normalizeRedirectDomain(args.entry);
      if (!checked.ok) throw new CliError(`redirect-domains ${args.action}: ${checked.error}`, 2);
      entry = checked.value;
      note = checked.note;
    }
    return withAccessState(io, args, async (state) => {
      if (args.action === "list" || entry === undefined) {
        const entries = await state.redirectDomains();
        if (args.json) io.stdout(`${JSON.stringify(entries)}\n`);
        else io.stdout(entries.map((e) => `${e}\n`).join(""));
        if (!args.json) io.stderr(`${entries.length === 0 ? "No redirect domains. " : ""}Always trusted: localhost, 127.0.0.1 and [::1] (http or https, any port).\n`);
        return 0;
      }
      if (args.action === "add") {
        const added = await state.addRedirectDomain(entry);
        io.stdout(added ? `Added redirect domain ${entry}${note !== undefined ? ` (${note})` : ""}.\n` : `${entry} is already listed.\n`);
        return 0;
      }
      if (!(await state.removeRedirectDomain(entry))) throw new CliError(`${entry} is not on the list; see \`svc-mcp redirect-domains list\``, 1);
      io.stdout(`Removed redirect domain ${entry}: tools returning there can no longer complete sign-in.\n`);
      return 0;
    });
  },
});
