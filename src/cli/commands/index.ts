import type { CliCommand } from "../command.js";

/** A subcommand by name, its module loaded only when it runs (or when `--help` lists them all). */
export interface CommandEntry {
  /** The first word of the command (`redirect-domains` for `redirect-domains <action> [entry]`). */
  readonly name: string;
  readonly load: () => Promise<CliCommand>;
}

/**
 * Every `svc-mcp` subcommand, in the order `--help` lists them. Adding a command means adding
 * its file under `commands/` and one line here (and its row in docs/cli.md).
 *
 * Loaded lazily: importing every command (the MCP SDK, Hono, SQLite, the shell) costs ~1 s of
 * start-up through tsx, which `svc-mcp check` or `nav` would pay for nothing.
 */
export const COMMANDS: readonly CommandEntry[] = [
  { name: "serve", load: async () => (await import("./serve.js")).serveCommand },
  { name: "preview", load: async () => (await import("./preview.js")).previewCommand },
  { name: "search", load: async () => (await import("./search.js")).searchCommand },
  { name: "fs", load: async () => (await import("./fs.js")).fsCommand },
  { name: "check", load: async () => (await import("./check.js")).checkCommand },
  { name: "nav", load: async () => (await import("./nav.js")).navCommand },
  { name: "schema", load: async () => (await import("./schema.js")).schemaCommand },
  { name: "feedback", load: async () => (await import("./feedback.js")).feedbackCommand },
  { name: "keys", load: async () => (await import("./keys.js")).keysCommand },
  { name: "mcp", load: async () => (await import("./mcp.js")).mcpCommand },
  { name: "users", load: async () => (await import("./users.js")).usersCommand },
  { name: "credentials", load: async () => (await import("./credentials.js")).credentialsCommand },
  { name: "redirect-domains", load: async () => (await import("./redirect-domains.js")).redirectDomainsCommand },
  { name: "connect", load: async () => (await import("./connect.js")).connectCommand },
  { name: "install", load: async () => (await import("./install.js")).installCommand },
];

/**
 * The commands `argv` needs: the one it names, or all of them (for `--help`, a missing or
 * misspelt command, so that yargs can list them and suggest the closest).
 */
export async function commandsFor(argv: readonly string[]): Promise<CliCommand[]> {
  const first = argv.find((a) => !a.startsWith("-"));
  const named = COMMANDS.find((c) => c.name === first);
  if (named !== undefined && argv[0] === first) return [await named.load()];
  return Promise.all(COMMANDS.map((c) => c.load()));
}
