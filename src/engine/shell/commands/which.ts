import { type CommandIo, docsCommand } from "../lib/command.js";
import { type OptionRow, applyOptions, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

const HELP = `Usage: which [-as] COMMAND...
Print where each COMMAND of the docs shell is (every command is shown under /usr/bin; shell
builtins such as cd have no file). Exit status 1 when any COMMAND is not found.

  -a    print all matches (there is one)
  -s    print nothing, only set the exit status
`;

/** Builtins of the shell itself: `which` finds no program file for them, as on Linux. */
const SHELL_BUILTINS = new Set(["cd", "export", "unset", "set", "shopt", "source", ".", "eval", "exit", "return", "local", "declare", "read", "mapfile", "readarray", "let", "break", "continue", "shift", "trap", "getopts", "wait", "hash", "type", "command", "builtin", "alias", "unalias", "pushd", "popd", "dirs", "exec", "jobs", "fg", "bg", "kill", "ulimit", "umask"]);

/** -a changes nothing (each command has one file): accepted, without a row's `apply`. */
const OPTIONS: readonly OptionRow<{ silent: boolean }>[] = [
  { key: "a", short: "a" },
  { key: "s", short: "s", apply: (s) => void (s.silent = true) },
];

function runWhich(args: string[], io: CommandIo): number {
  const parsed = parseOptions(args, OPTIONS, { abbreviations: false });
  const settings = { silent: false };
  applyOptions(parsed, OPTIONS, settings, undefined);
  const known = new Set(io.ctx.getRegisteredCommands?.() ?? []);
  const { silent } = settings;
  let status = parsed.operands.length === 0 ? 1 : 0;
  for (const name of parsed.operands) {
    if (name.includes("/") || !known.has(name) || SHELL_BUILTINS.has(name)) {
      status = 1;
      continue;
    }
    if (!silent) io.out.write(`/usr/bin/${name}\n`);
  }
  return status;
}

export const whichCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "which", help: HELP, run: runWhich, usageExitCode: 2 });
