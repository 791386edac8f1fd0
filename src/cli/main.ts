import { createRequire } from "node:module";
import type { Argv } from "yargs";
import { LoadStoppedError } from "../config/load-stopped.js";
import { terminalText } from "../config/visible-text.js";
import { StateFolderError, StoreUnavailableError } from "../store/errors.js";
import { VERSION } from "../version.js";
import { commandsFor } from "./commands/index.js";
import { CliError, type CliIO, processIO } from "./io.js";
import { checkFolderOptions, requireValues, usageMessage } from "./options.js";
import { wordsMessage } from "./words-usage.js";

/** Help is wrapped at the terminal's width, but no wider than this: long lines are hard to read. */
const MAX_HELP_WIDTH = 100;
/** Help width when stdout is not a terminal (a pipe, a file, a test). */
const DEFAULT_HELP_WIDTH = 80;

/**
 * yargs through its CommonJS build: the ESM build's help layout (cliui) wraps text at a column
 * count, splitting words (`search tool d` / `oes`); the CommonJS one wraps between words.
 */
const yargsOf = createRequire(import.meta.url)("yargs/yargs") as (args: string[]) => Argv;

/** Run the CLI with the given arguments; resolves to the process exit code. */
export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  if (argv.length === 1 && argv[0] === "--version") {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  let result: Promise<number> | undefined;
  let running: string | undefined;
  let helpText = "";
  const commands = await commandsFor(argv);
  let y = yargsOf([...argv])
    .scriptName("svc-mcp")
    .usage("$0 <command> [options]\n\nServe a documentation repository as an MCP server.")
    .strict()
    .demandCommand(1, "Give a command; see `svc-mcp --help`.")
    .recommendCommands()
    .help()
    .alias("help", "h")
    // Not yargs' .version(): that option is global, and `nav`/`search` have a `--version` of their own.
    .version(false)
    .option("version", { type: "boolean", global: false, describe: "Show the version number" })
    .wrap(Math.min(MAX_HELP_WIDTH, io.columns ?? DEFAULT_HELP_WIDTH))
    .exitProcess(false)
    .fail((msg, err) => {
      // yargs' own usage errors (an option without its value, a value not among its choices) come as a `YError`; any other is a command's.
      if (err !== undefined && err !== null && err.name !== "YError") throw err;
      const text = msg ?? err?.message ?? "";
      throw new CliError(`${usageMessage(text, argv) ?? wordsMessage(text, argv, commands) ?? text}\nRun with --help for usage.`, 2);
    });
  for (const cmd of commands) {
    y = y.command(
      cmd.command,
      cmd.describe,
      (b) => requireValues(cmd.builder(b), argv, cmd.command),
      (args) => {
        running = cmd.command.split(" ")[0];
        result = checkFolderOptions(io, args as { dir?: unknown; state?: unknown }).then(() => cmd.run(args as never, io));
      },
    );
  }
  try {
    await y.parseAsync([...argv], {}, (_err, _args, output) => {
      helpText = output;
    });
    if (result === undefined) {
      // --help, --version (or a bare command group): yargs produced text, no command ran.
      if (helpText !== "") io.stdout(helpText.endsWith("\n") ? helpText : `${helpText}\n`);
      return 0;
    }
    return await result;
  } catch (error) {
    // Every message below may quote a path, a slug or a key from the repository or the command
    // line: written as `check` writes them (`terminalText`), so none can rewrite the terminal.
    if (error instanceof StoreUnavailableError) {
      io.stderr(`svc-mcp: ${terminalText(error.explain(running ?? "this command"))}\n`);
      return 1;
    }
    if (error instanceof CliError) {
      io.stderr(`svc-mcp: ${terminalText(error.message)}\n`);
      return error.exitCode;
    }
    // The state folder cannot be written (read-only, no permission, full): a usage problem, exit 2.
    if (error instanceof StateFolderError) {
      io.stderr(`svc-mcp: ${terminalText(error.message)}\n`);
      return 2;
    }
    // The repository cannot be served safely (an unreadable ignore file): nothing is served.
    if (error instanceof LoadStoppedError) {
      io.stderr(`svc-mcp: ${terminalText(error.message)}\n`);
      return 2;
    }
    throw error;
  }
}
