import { MERGE_STDERR_ENV } from "../merge-stderr.js";
import type { CommandIo } from "./command.js";

/** What a command run from inside another (`xargs`, `find -exec`) produced. */
export interface SubcommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** Shell-quote a word (for `xargs -t` traces, and the command name handed to the shell). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * Run `words` as one command in the docs shell, at `cwd` (the caller's folder), with empty stdin (as
 * `find -exec` and `xargs` give their commands). The arguments bypass shell parsing, so a
 * thousand paths do not count against the command-line length limit and are never re-globbed.
 */
export async function runSubcommand(io: CommandIo, words: readonly string[], cwd = io.cwd): Promise<SubcommandResult> {
  const exec = io.ctx.exec;
  if (exec === undefined) return { stdout: "", stderr: `${io.name}: running commands is not available here\n`, exitCode: 126 };
  const [name, ...args] = words;
  // Under `2>&1` the command's errors stay in order with its output, as the caller's do.
  const env = io.out.mergeErrors ? { [MERGE_STDERR_ENV]: "1" } : undefined;
  const r = await exec(shellQuote(name ?? ""), { cwd, signal: io.ctx.signal, args, stdin: "", ...(env === undefined ? {} : { env }) });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

/**
 * The shell could not find the command (a host program, or a name it does not have). just-bash
 * says so only in words, with exit 127 (as bash does): its result has no code to read instead.
 */
export function commandNotFound(r: SubcommandResult): boolean {
  return r.exitCode === 127 && /^bash: [^\n]*: command not [^\n]*\n$/.test(r.stderr);
}
