import { randomToken } from "../../store/state/secrets.js";
import { StateConflictError } from "../../store/state/state-store.js";
import { withAccessState } from "../access-state.js";
import { defineCommand } from "../command.js";
import { CliError, type CliIO } from "../io.js";
import { parseGroups, withDir, withJson, withState } from "../options.js";
import { formatTable } from "../table.js";

const ACTIONS = ["add", "remove", "list"] as const;

/** Names people type on the login page: letters, digits and . _ @ + - (an e-mail address fits). */
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/;
/** Shortest password accepted; a generated one is 20 random characters. */
const MIN_PASSWORD = 8;

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
    if (args.name !== undefined && !NAME_RE.test(args.name)) {
      throw new CliError(`user name must be 1 to 64 letters, digits or . _ @ + -, starting with a letter or digit; got ${JSON.stringify(args.name)}`, 2);
    }
    const groups = parseGroups(args.groups);
    let password: string | undefined;
    if (args.action === "add" && args["password-stdin"]) {
      password = await readPassword(io);
      if (password.length < MIN_PASSWORD) throw new CliError(`the password must be at least ${MIN_PASSWORD} characters`, 2);
    }
    return withAccessState(io, args, async (state) => {
      if (args.action === "list" || args.name === undefined) {
        const users = await state.users();
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
        if (!(await state.removeUser(args.name))) throw new CliError(`no user "${args.name.toLowerCase()}"; see \`svc-mcp users list\``, 1);
        io.stdout(`Removed user ${args.name.toLowerCase()}; their tokens stopped working.\n`);
        return 0;
      }
      const generated = password === undefined;
      const secret = password ?? randomToken("", 20);
      try {
        const user = await state.addUser(args.name, secret, groups);
        if (args.json) {
          io.stdout(`${JSON.stringify({ name: user.name, groups: user.groups, ...(generated ? { password: secret } : {}) })}\n`);
        } else {
          io.stdout(`Added user ${user.name} (groups: ${user.groups.join(", ") || "none"}).\n`);
          if (generated) io.stdout(`Password: ${secret}\n`);
        }
        if (generated) io.stderr("The password is shown only once; pass --password-stdin to choose one instead.\n");
      } catch (error) {
        if (error instanceof StateConflictError) throw new CliError(`${error.message}; remove it first to change its password or groups`, 1);
        throw error;
      }
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
