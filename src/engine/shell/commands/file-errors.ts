import type { Command, CommandContext } from "just-bash";
import type { ShellCommandFactory } from "./command.js";

/**
 * How a tool words an operand it cannot read: coreutils' `nl: /x: No such file or directory`,
 * util-linux's `rev: cannot open /x: No such file or directory`.
 */
type Wording = (name: string, path: string, reason: Reason) => string;

type Reason = "No such file or directory" | "Is a directory" | "Not a directory";

/** The strerror text of the Node error code just-bash's read failed with. */
const REASONS: Readonly<Record<string, Reason>> = { ENOENT: "No such file or directory", EISDIR: "Is a directory", ENOTDIR: "Not a directory" };

const COREUTILS: Wording = (name, path, reason) => `${name}: ${path}: ${reason}`;
const UTIL_LINUX_REV: Wording = (name, path, reason) => (reason === "Is a directory" ? `${name}: ${path}: 0: ${reason}` : `${name}: cannot open ${path}: ${reason}`);

/** just-bash's report of a failed read: Node's error text (`nl: ENOENT: no such file or directory, open '/x'`). */
const NODE_ERROR = /^([\w-]+): (ENOENT|EISDIR|ENOTDIR): [^,\n]*, (?:open|read) '([^'\n]*)'$/gm;

/** just-bash's checksum commands print a missing file's line on stdout; GNU's on stderr. */
const SUM_ERROR = /^([\w-]+sum): .*: No such file or directory\n/gm;

/**
 * just-bash built-ins kept, with the message for an operand they cannot read worded as the real
 * tool words it (issue 25: the most frequent difference the differential run over just-bash's
 * commands found). Only the wording changes: a command that stops at a missing file still stops
 * there (GNU's reads the other operands; docs/shell.md "not matched yet").
 */
function withFileErrors(name: string, wording: Wording): ShellCommandFactory {
  return (): Command => ({
    name,
    async execute(args: string[], ctx: CommandContext) {
      if (ctx.origCommand === undefined) return { stdout: "", stderr: `${name}: not available\n`, exitCode: 127 };
      let result: Awaited<ReturnType<typeof ctx.origCommand>>;
      try {
        result = await ctx.origCommand(args);
      } catch (error) {
        // Some report a failed read by throwing Node's error, which the shell would print as
        // `rev: ENOENT: no such file or directory, open '/x'`.
        const failed = /^(ENOENT|EISDIR|ENOTDIR): [^,\n]*, (?:open|read) '([^'\n]*)'$/.exec(error instanceof Error ? error.message : "");
        if (failed === null) throw error;
        return { stdout: "", stderr: `${wording(name, failed[2] as string, REASONS[failed[1] as string] as Reason)}\n`, exitCode: 1 };
      }
      let { stdout, stderr } = result;
      if (typeof stdout === "string" && SUM_ERROR.test(stdout)) {
        const moved = stdout.match(SUM_ERROR) ?? [];
        stdout = stdout.replace(SUM_ERROR, "");
        stderr = `${stderr}${moved.join("")}`;
      }
      SUM_ERROR.lastIndex = 0;
      stderr = stderr.replace(NODE_ERROR, (_m, _cmd: string, code: string, path: string) => wording(name, path, REASONS[code] as Reason));
      return { ...result, stdout, stderr };
    },
  });
}

export const FILE_ERROR_COMMANDS: readonly ShellCommandFactory[] = [
  withFileErrors("rev", UTIL_LINUX_REV),
  withFileErrors("nl", COREUTILS),
  withFileErrors("expand", COREUTILS),
  withFileErrors("unexpand", COREUTILS),
  withFileErrors("column", COREUTILS),
  withFileErrors("join", COREUTILS),
  withFileErrors("md5sum", COREUTILS),
  withFileErrors("sha1sum", COREUTILS),
  withFileErrors("sha256sum", COREUTILS),
];
