import { LIMITS } from "../../limits.js";
import { terminalText } from "../../config/visible-text.js";
import { readerWithGroups } from "../../vfs/access.js";
import { localContext } from "../../vfs/request-context.js";
import { describeArgumentIssues, parseInput } from "../../engine/use-cases/outcome.js";
import { runShell, shellInput } from "../../engine/use-cases/run-shell.js";
import { defineCommand } from "../command.js";
import { loadDocs } from "../load-docs.js";
import { CliError } from "../io.js";
import { parseGroups, withDir, withGroups } from "../options.js";

/** A local command may run long on purpose (a loop over every page); an hour still ends a runaway. */
const MAX_TIME_LIMIT_S = 3600;

export const fsCommand = defineCommand({
  command: "fs [command..]",
  describe: "Run a command in the read-only docs shell, as the filesystem tool does",
  builder: (y) =>
    withGroups(withDir(y))
      .positional("command", { type: "string", array: true, describe: "Command line, e.g. \"rg -il webhook /\" (quote it)" })
      .option("time-limit", { type: "number", describe: `Seconds the command line may run (default ${LIMITS.shell.maxExecutionMs / 1000}, as the tool; at most ${MAX_TIME_LIMIT_S})` })
      // Options of the docs command itself (`ls -la`) must reach the shell, not yargs.
      .parserConfiguration({ "unknown-options-as-args": true, "populate--": true })
      .example("$0 fs 'tree / -L 2'", "Show the top of the docs tree")
      .example("$0 fs -- rg -n -C 2 webhook /", "Everything after -- is the command"),
  run: async (args, io) => {
    // Words after `--` land in `--` or in `_` (after the subcommand's own name), by yargs version.
    const extra = args as { _?: unknown[]; "--"?: unknown[] };
    const words = [...((args.command as string[] | undefined) ?? []), ...(extra["--"] ?? []), ...(extra._ ?? []).slice(1)];
    if (words.length === 0) throw new CliError("give a command to run, e.g. svc-mcp fs 'tree / -L 2'", 2);
    const timeLimit = args["time-limit"] as number | undefined;
    if (timeLimit !== undefined && !(timeLimit > 0 && timeLimit <= MAX_TIME_LIMIT_S)) {
      throw new CliError(`--time-limit must be a number of seconds above 0 and at most ${MAX_TIME_LIMIT_S}`, 2);
    }
    const input = parseInput(shellInput, { command: words.map(String).join(" ") });
    if (!input.ok) throw new CliError(describeArgumentIssues(input.issues), 2);
    // One command, no search: the search index is never built. The command runs in a worker
    // (`LIMITS.shellWorker.oneShot`), where every step ends at its limits.
    const limits = timeLimit === undefined ? LIMITS.shell : { ...LIMITS.shell, maxExecutionMs: Math.round(timeLimit * 1000) };
    const runtime = await loadDocs(io, args.dir, { indexLater: true, shellWorker: { ...LIMITS.shellWorker.oneShot, limits } });
    let r;
    try {
      r = await runShell({ runtime, request: localContext(readerWithGroups(parseGroups(args.groups))) }, input.value);
    } finally {
      await runtime.close();
    }
    io.stdout(r.stdout);
    io.stderr(r.stderr);
    // The hint quotes the path asked for and the paths it may have meant: written as `check` writes them.
    if (r.hint !== undefined) io.stderr(`svc-mcp: ${terminalText(r.hint)}\n`);
    return r.exitCode;
  },
});
