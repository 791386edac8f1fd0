import yargs from "yargs";
import { commandsFor } from "./commands/index.js";
import { CliError, type CliIO, processIO } from "./io.js";

/** Run the CLI with the given arguments; resolves to the process exit code. */
export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  let result: Promise<number> | undefined;
  let helpText = "";
  let y = yargs([...argv])
    .scriptName("svc-mcp")
    .usage("$0 <command> [options]\n\nServe a documentation repository as an MCP server.")
    .strict()
    .demandCommand(1, "Give a command; see `svc-mcp --help`.")
    .recommendCommands()
    .help()
    .alias("help", "h")
    .version(false)
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((msg, err) => {
      if (err !== undefined && err !== null) throw err;
      throw new CliError(`${msg}\nRun with --help for usage.`, 2);
    });
  for (const cmd of await commandsFor(argv)) {
    y = y.command(
      cmd.command,
      cmd.describe,
      (b) => cmd.builder(b),
      (args) => {
        result = cmd.run(args as never, io);
      },
    );
  }
  try {
    await y.parseAsync([...argv], {}, (_err, _args, output) => {
      helpText = output;
    });
    if (result === undefined) {
      // --help (or a bare command group): yargs produced text, no command ran.
      if (helpText !== "") io.stdout(helpText.endsWith("\n") ? helpText : `${helpText}\n`);
      return 0;
    }
    return await result;
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`svc-mcp: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
