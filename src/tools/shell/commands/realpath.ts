import { normalize } from "../../../vfs/view.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO, lookup, resolvePath } from "../lib/files.js";
import { type OptionSpec, has, lastValue, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

const SPECS: readonly OptionSpec[] = [
  { key: "e", short: "e", long: "canonicalize-existing" },
  { key: "m", short: "m", long: "canonicalize-missing" },
  { key: "s", short: "s", long: ["strip", "no-symlinks"] },
  { key: "L", short: "L", long: "logical" },
  { key: "P", short: "P", long: "physical" },
  { key: "q", short: "q", long: "quiet" },
  { key: "z", short: "z", long: "zero" },
  { key: "relative-to", long: "relative-to", value: true },
];

const HELP = `Usage: realpath [OPTION]... FILE...
Print the resolved absolute file name (there are no symbolic links in the docs);
all but the last component must exist

  -e, --canonicalize-existing  all components of the path must exist
  -m, --canonicalize-missing   no path components need exist or be a directory
  -s, --strip, --no-symlinks   accepted (nothing to resolve)
  -q, --quiet                  suppress most error messages
      --relative-to=DIR        print the resolved path relative to DIR
  -z, --zero                   end each output line with NUL, not newline
`;

/** `to` relative to the folder `from` (both absolute and normalised). */
function relative(from: string, to: string): string {
  const a = from === "/" ? [] : from.slice(1).split("/");
  const b = to === "/" ? [] : to.slice(1).split("/");
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  const parts = [...a.slice(k).map(() => ".."), ...b.slice(k)];
  return parts.length === 0 ? "." : parts.join("/");
}

function runRealpath(args: string[], io: CommandIo): number {
  const parsed = parseOptions(args, SPECS, { abbreviations: true });
  if (parsed.operands.length === 0) {
    io.fail("missing operand");
    io.out.error("Try 'realpath --help' for more information.\n");
    return 1;
  }
  const existing = has(parsed, "e");
  const missingOk = has(parsed, "m");
  const quiet = has(parsed, "q");
  const end = has(parsed, "z") ? "\0" : "\n";
  const base = lastValue(parsed, "relative-to");
  const baseDir = base === undefined ? undefined : normalize(resolvePath(io.cwd, base));
  let status = 0;
  for (const operand of parsed.operands) {
    const path = normalize(resolvePath(io.cwd, operand));
    const entry = lookup(io.view, io.cwd, operand, io.piped);
    let error: string | undefined;
    if (!missingOk) {
      if (entry.kind === "notdir") error = ERRNO.ENOTDIR;
      else if (entry.kind === "missing") {
        const parent = path.slice(0, path.lastIndexOf("/")) || "/";
        if (existing || !io.view.isDir(parent)) error = ERRNO.ENOENT;
      }
    }
    if (error !== undefined) {
      if (!quiet) io.fail(`${operand}: ${error}`);
      status = 1;
      continue;
    }
    io.out.write(`${baseDir === undefined ? path : relative(baseDir, path)}${end}`);
  }
  return status;
}

export const realpathCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "realpath", help: HELP, run: runRealpath, usageExitCode: 1 });
