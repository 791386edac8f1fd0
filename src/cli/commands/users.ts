import type { ArgumentIssue } from "../../engine/use-cases/outcome.js";
import { addAccount, listAccounts, removeAccount } from "../../engine/use-cases/user-accounts.js";
import { commandValue, withStateContext } from "../access-state.js";
import { defineCommand } from "../command.js";
import { CliError, type CliIO } from "../io.js";
import { parseGroups, withDir, withJson, withState } from "../options.js";
import { formatTable } from "../table.js";

const ACTIONS = ["add", "remove", "list"] as const;

/** The use case's issues as this command says them: `user name must be ...`, `the password must be ...`. */
const usage = ([issue]: readonly ArgumentIssue[]): string => `${issue!.argument === "password" ? "the password" : "user name"} ${issue!.message}`;

export const usersCommand = defineCommand({
  command: "users <action> [name]",
  describe: "Accounts that sign in on the OAuth login page: add (with --groups), remove, list",
  builder: (y) =>
    withJson(withState(withDir(y)))
      .positional("action", { choices: ACTIONS, demandOption: true, describe: "add, remove or list" })
      .positional("name", { type: "string", describe: "add/remove: the user name (case-insensitive)" })
      .option("groups", { type: "string", describe: "add: comma-separated user groups (pages with `groups` front matter)" })
      .option("password-stdin", { type: "boolean", default: false, describe: "add: read the password from standard input (default: generate one and print it once)" }),
  run: async (args, io) => {
    if (args.action === "list" && args.name !== undefined) throw new CliError(`users list takes no argument; got ${JSON.stringify(args.name)}`, 2);
    if (args.action !== "list" && args.name === undefined) throw new CliError(`users ${args.action} needs a user name`, 2);
    if (args.action !== "add" && (args.groups !== undefined || args["password-stdin"])) throw new CliError("--groups and --password-stdin are for users add", 2);
    const groups = parseGroups(args.groups);
    return withStateContext(io, args, async (context) => {
      if (args.action === "list" || args.name === undefined) {
        const users = commandValue(await listAccounts(context));
        if (args.json) {
          io.stdout(`${JSON.stringify(users.map((u) => ({ name: u.name, groups: u.groups, createdAt: new Date(u.createdAt).toISOString() })), null, 2)}\n`);
        } else if (users.length === 0) {
          io.stderr("No users. Add one with `svc-mcp users add NAME --groups a,b`.\n");
        } else {
          io.stdout(formatTable([["NAME", "GROUPS", "CREATED"], ...users.map((u) => [u.name, u.groups.join(",") || "-", new Date(u.createdAt).toISOString()])]));
        }
        return 0;
      }
      if (args.action === "remove") {
        const removed = commandValue(await removeAccount(context, args.name), usage, "; see `svc-mcp users list`");
        io.stdout(`Removed user ${removed}; their tokens stopped working.\n`);
        return 0;
      }
      const account = { name: args.name, groups, ...(args["password-stdin"] ? { password: () => readPassword(io) } : {}) };
      const { user, generatedPassword } = commandValue(await addAccount(context, account), usage, "; remove it first to change its password or groups");
      if (args.json) {
        io.stdout(`${JSON.stringify({ name: user.name, groups: user.groups, ...(generatedPassword !== undefined ? { password: generatedPassword } : {}) })}\n`);
      } else {
        io.stdout(`Added user ${user.name} (groups: ${user.groups.join(", ") || "none"}).\n`);
        if (generatedPassword !== undefined) io.stdout(`Password: ${generatedPassword}\n`);
      }
      if (generatedPassword !== undefined) io.stderr("The password is shown only once; pass --password-stdin to choose one instead.\n");
      return 0;
    });
  },
});

/** The password from standard input: everything up to the first line break. */
async function readPassword(io: CliIO): Promise<string> {
  const stdin = io.streams?.stdin;
  if (stdin === undefined) throw new CliError("--password-stdin needs standard input", 2);
  let text = "";
  for await (const chunk of stdin) text += typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8");
  return text.split(/\r?\n/)[0] ?? "";
}
