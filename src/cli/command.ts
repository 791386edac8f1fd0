import type { Argv } from "yargs";
import type { CliIO } from "./io.js";

/**
 * One `svc-mcp` subcommand, defined in its own file under `commands/` and listed in the
 * registry table (`commands/index.ts`). `run` returns the exit code; only `main` exits.
 */
export interface CliCommand<A = Record<string, unknown>> {
  /** yargs command string: `"search <query>"`, `"users <action> [name]"`. */
  readonly command: string;
  readonly describe: string;
  readonly builder: (yargs: Argv) => Argv<A>;
  readonly run: (args: A, io: CliIO) => Promise<number>;
}

/** Identity helper that keeps each command's argument type while storing them in one table. */
export function defineCommand<A>(command: CliCommand<A>): CliCommand {
  return command as unknown as CliCommand;
}
