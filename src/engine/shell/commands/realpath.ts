import { normalize } from "../../../vfs/view.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO, lookup, resolvePath } from "../lib/files.js";
import { type OptionRow, applyOptions, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

/** What one realpath call does, read from its command line. */
interface RealpathSettings {
  /** -e: every component must exist. */
  existing: boolean;
  /** -m: no component need exist. */
  missingOk: boolean;
  quiet: boolean;
  /** What ends each line: NUL under -z. */
  end: string;
  /** --relative-to, as written (resolved against the working folder). */
  relativeTo: string | undefined;
}

/** Without symbolic links in the docs, -s, -L and -P change nothing: accepted, without a row's `apply`. */
const OPTIONS: readonly OptionRow<RealpathSettings>[] = [
  { key: "e", short: "e", long: "canonicalize-existing", apply: (s) => void (s.existing = true) },
  { key: "m", short: "m", long: "canonicalize-missing", apply: (s) => void (s.missingOk = true) },
  { key: "s", short: "s", long: ["strip", "no-symlinks"] },
  { key: "L", short: "L", long: "logical" },
  { key: "P", short: "P", long: "physical" },
  { key: "q", short: "q", long: "quiet", apply: (s) => void (s.quiet = true) },
  { key: "z", short: "z", long: "zero", apply: (s) => void (s.end = "\0") },
  { key: "relative-to", long: "relative-to", value: true, apply: (s, value) => void (s.relativeTo = value) },
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
  const parsed = parseOptions(args, OPTIONS, { abbreviations: true });
  if (parsed.operands.length === 0) {
    io.fail("missing operand");
    io.out.error("Try 'realpath --help' for more information.\n");
    return 1;
  }
  const settings: RealpathSettings = { existing: false, missingOk: false, quiet: false, end: "\n", relativeTo: undefined };
  applyOptions(parsed, OPTIONS, settings, undefined);
  const { existing, missingOk, quiet, end, relativeTo } = settings;
  const baseDir = relativeTo === undefined ? undefined : normalize(resolvePath(io.cwd, relativeTo));
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
