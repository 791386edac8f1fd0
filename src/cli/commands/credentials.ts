import { createCredential, deleteCredential, listCredentials } from "../../engine/use-cases/client-credentials.js";
import { commandValue, withStateContext } from "../access-state.js";
import { defineCommand } from "../command.js";
import { CliError } from "../io.js";
import { withDir, withJson, withState } from "../options.js";
import { formatTable } from "../table.js";

const ACTIONS = ["create", "list", "delete"] as const;

export const credentialsCommand = defineCommand({
  command: "credentials <action> [id]",
  describe: "Client credentials for non-interactive access to /authed/mcp: create (secret shown once), list, delete <client id>",
  builder: (y) =>
    withJson(withState(withDir(y)))
      .positional("action", { choices: ACTIONS, demandOption: true, describe: "create, list or delete" })
      .positional("id", { type: "string", describe: "delete: the client ID" })
      .option("label", { type: "string", describe: "create: what the credential is for" }),
  run: async (args, io) => {
    if (args.action !== "delete" && args.id !== undefined) throw new CliError(`credentials ${args.action} takes no argument; got ${JSON.stringify(args.id)}`, 2);
    if (args.action === "delete" && args.id === undefined) throw new CliError("credentials delete needs the client ID (see `svc-mcp credentials list`)", 2);
    if (args.action !== "create" && args.label !== undefined) throw new CliError("--label is for credentials create", 2);
    return withStateContext(io, args, async (context) => {
      switch (args.action) {
        case "create": {
          const { info, clientSecret } = commandValue(await createCredential(context, args.label), ([i]) => `credentials create needs --label: ${i!.message}`);
          if (args.json) {
            io.stdout(`${JSON.stringify({ label: info.label, clientId: info.clientId, clientSecret })}\n`);
          } else {
            io.stdout(`Client ID:     ${info.clientId}\nClient secret: ${clientSecret}\n`);
          }
          io.stderr(
            `Created client credential "${info.label}". Copy the secret now: it is shown only once and cannot be retrieved.\n` +
              "Exchange it at POST <server>/authed/mcp/oauth/token (grant_type=client_credentials); treat it like a password.\n",
          );
          return 0;
        }
        case "list": {
          const list = commandValue(await listCredentials(context));
          if (args.json) {
            io.stdout(`${JSON.stringify(list.map((c) => ({ label: c.label, clientId: c.clientId, createdAt: new Date(c.createdAt).toISOString() })), null, 2)}\n`);
          } else if (list.length === 0) {
            io.stderr("No client credentials. Create one with `svc-mcp credentials create --label L`.\n");
          } else {
            io.stdout(formatTable([["LABEL", "CLIENT ID", "CREATED"], ...list.map((c) => [c.label, c.clientId, new Date(c.createdAt).toISOString()])]));
          }
          return 0;
        }
        case "delete": {
          const deleted = commandValue(await deleteCredential(context, args.id as string), undefined, "; see `svc-mcp credentials list`");
          if (args.json) io.stdout(`${JSON.stringify({ label: deleted.label, clientId: deleted.clientId })}\n`);
          else io.stdout(`Deleted client credential ${deleted.clientId} ("${deleted.label}"): its tokens stopped working. This cannot be undone.\n`);
          return 0;
        }
      }
    });
  },
});
