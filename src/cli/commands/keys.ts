import type { AdminKeyInfo } from "../../store/keys/key-store.js";
import { createAdminKey, listAdminKeys, revokeAdminKey } from "../../engine/use-cases/admin-keys.js";
import { commandValue, withStateContext } from "../access-state.js";
import { defineCommand } from "../command.js";
import { CliError } from "../io.js";
import { withDir, withJson, withState } from "../options.js";
import { describeProject } from "../project.js";
import { formatTable } from "../table.js";

const ACTIONS = ["create", "list", "revoke"] as const;

export const keysCommand = defineCommand({
  command: "keys <action> [key]",
  describe: "Admin API keys for the feedback API: create (shown once), list, revoke <id>",
  builder: (y) =>
    withJson(withState(withDir(y)))
      .positional("action", { choices: ACTIONS, demandOption: true, describe: "create, list or revoke" })
      .positional("key", { type: "string", describe: "revoke: the key's id (from `keys list`) or the key itself" })
      .option("label", { type: "string", describe: "create: what the key is for (shown by `keys list`)" }),
  run: async (args, io) => {
    if (args.action !== "revoke" && args.key !== undefined) throw new CliError(`keys ${args.action} takes no argument; got ${JSON.stringify(args.key)}`, 2);
    if (args.action !== "create" && args.label !== undefined) throw new CliError("--label is for keys create", 2);
    return withStateContext(io, args, async (context, project) => {
      switch (args.action) {
        case "create": {
          const { key, info } = commandValue(await createAdminKey(context, args.label), ([i]) => `--${i!.argument} ${i!.message}`);
          // The key alone on stdout (`KEY=$(svc-mcp keys create)` works); the advice on stderr.
          io.stdout(args.json ? `${JSON.stringify({ key })}\n` : `${key}\n`);
          io.stderr(`Created API key ${info.id} for ${describeProject(project)}.\nCopy it now: it is shown only once. Use it as Authorization: Bearer <key>.\n`);
          return 0;
        }
        case "list": {
          const list = commandValue(await listAdminKeys(context));
          if (args.json) io.stdout(`${JSON.stringify(list, null, 2)}\n`);
          else io.stdout(formatKeys(list));
          return 0;
        }
        case "revoke": {
          if (args.key === undefined) throw new CliError("keys revoke needs the key's id (see `svc-mcp keys list`)", 2);
          const { info, alreadyRevoked } = commandValue(await revokeAdminKey(context, args.key));
          if (args.json) io.stdout(`${JSON.stringify(info)}\n`);
          else io.stdout(alreadyRevoked ? `API key ${info.id} was already revoked (${info.revokedAt}).\n` : `Revoked API key ${info.id}.\n`);
          return 0;
        }
      }
    });
  },
});

function formatKeys(list: readonly AdminKeyInfo[]): string {
  if (list.length === 0) return "No API keys. Create one with `svc-mcp keys create --label NAME`.\n";
  const rows = [["ID", "LABEL", "CREATED", "LAST USED", "STATUS"]];
  for (const k of list) {
    rows.push([k.id, k.label === "" ? "-" : k.label, k.createdAt, k.lastUsedAt ?? "never", k.revokedAt === null ? "active" : `revoked ${k.revokedAt}`]);
  }
  return formatTable(rows);
}
