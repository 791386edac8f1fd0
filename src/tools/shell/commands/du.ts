import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO, joinDisplay, joinPath, lookup } from "../lib/files.js";
import { gnuHumanSize } from "../lib/format.js";
import { type OptionSpec, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

const SPECS: readonly OptionSpec[] = [
  { key: "a", short: "a", long: "all" },
  { key: "s", short: "s", long: "summarize" },
  { key: "c", short: "c", long: "total" },
  { key: "h", short: "h", long: "human-readable" },
  { key: "d", short: "d", long: "max-depth", value: true },
  { key: "b", short: "b", long: "bytes" },
  { key: "apparent", long: "apparent-size" },
  { key: "k", short: "k" },
  { key: "m", short: "m" },
  { key: "0", short: "0", long: "null" },
  { key: "noop", short: "x", long: "one-file-system" },
  { key: "noop", short: "L", long: "dereference" },
  { key: "noop", short: "P", long: "no-dereference" },
];

const HELP = `Usage: du [OPTION]... [FILE]...
Summarize disk usage of each FILE, recursively for folders (GNU coreutils 9.1 compatible:
files take whole 4 KiB blocks, each folder one block of its own).

  -a, --all             write counts for all files, not just folders
      --apparent-size   print apparent sizes (bytes of text) rather than disk usage
  -b, --bytes           equivalent to '--apparent-size --block-size=1'
  -c, --total           produce a grand total
  -d, --max-depth=N     print the total for a folder only if it is N or fewer levels
                          below the command line argument
  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)
  -k                    like --block-size=1K (the default)
  -m                    like --block-size=1M
  -s, --summarize       display only a total for each argument
  -0, --null            end each output line with NUL, not newline
`;

interface DuSettings {
  all: boolean;
  summarize: boolean;
  total: boolean;
  human: boolean;
  maxDepth: number;
  apparent: boolean;
  unit: number;
  end: string;
}

function runDu(args: string[], io: CommandIo): number {
  const parsed = parseOptions(args, SPECS, { abbreviations: true });
  const s: DuSettings = { all: false, summarize: false, total: false, human: false, maxDepth: Infinity, apparent: false, unit: 1024, end: "\n" };
  for (const o of parsed.options) {
    switch (o.key) {
      case "a":
        s.all = true;
        break;
      case "s":
        s.summarize = true;
        break;
      case "c":
        s.total = true;
        break;
      case "h":
        s.human = true;
        break;
      case "d":
        if (!/^\d+$/.test(o.value)) {
          io.fail(`invalid maximum depth \u2018${o.value}\u2019`);
          io.out.error("Try 'du --help' for more information.\n");
          return 1;
        }
        s.maxDepth = Number(o.value);
        break;
      case "b":
        s.apparent = true;
        s.unit = 1;
        s.human = false;
        break;
      case "apparent":
        s.apparent = true;
        break;
      case "k":
        s.unit = 1024;
        s.human = false;
        break;
      case "m":
        s.unit = 1024 * 1024;
        s.human = false;
        break;
      case "0":
        s.end = "\0";
        break;
      default:
        break;
    }
  }
  if (s.summarize && s.all) {
    io.fail("cannot both summarize and show all entries");
    io.out.error("Try 'du --help' for more information.\n");
    return 1;
  }
  if (s.summarize) s.maxDepth = 0;
  // A unit of bytes in blocks: disk usage counts st_blocks (512 bytes each), apparent size bytes.
  const sizeOf = (path: string): number => {
    const info = io.view.info(path);
    if (info === undefined) return 0;
    return s.apparent ? info.size : info.blocks * 512;
  };
  const show = (bytes: number): string => (s.human ? gnuHumanSize(bytes) : String(Math.ceil(bytes / s.unit)));
  let status = 0;
  let grand = 0;
  const operands = parsed.operands.length > 0 ? parsed.operands : ["."];

  // Post-order: a folder's line comes after its contents', as du prints.
  const visit = (path: string, display: string, depth: number): number => {
    io.checkTime();
    let bytes = sizeOf(path);
    const names = io.view.childrenOf(path);
    if (names !== undefined) {
      for (const name of names) bytes += visit(joinPath(path, name), joinDisplay(display, name), depth + 1);
    }
    const isDir = names !== undefined;
    if (depth <= s.maxDepth && (isDir || s.all || depth === 0)) io.out.write(`${show(bytes)}\t${display}${s.end}`);
    return bytes;
  };

  for (const operand of operands) {
    const entry = lookup(io.view, io.cwd, operand, io.piped);
    if (entry.kind !== "file" && entry.kind !== "dir") {
      if (entry.kind === "device") {
        io.out.write(`${show(0)}\t${operand}${s.end}`);
        continue;
      }
      io.fail(`cannot access '${operand}': ${entry.kind === "notdir" ? ERRNO.ENOTDIR : ERRNO.ENOENT}`);
      status = 1;
      continue;
    }
    grand += visit(entry.path, operand, 0);
    if (io.out.full) break;
  }
  if (s.total) io.out.write(`${show(grand)}\ttotal${s.end}`);
  return status;
}

export const duCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "du", help: HELP, run: runDu, usageExitCode: 1 });
