import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO, joinDisplay, joinPath, lookup } from "../lib/files.js";
import { gnuHumanSize } from "../lib/format.js";
import { type OptionRow, applyOptions, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

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

/** A block size option: sizes in units of `unit` bytes, never human-readable. */
function blockSize(unit: number): OptionRow<DuSettings, CommandIo>["apply"] {
  return (s) => {
    s.unit = unit;
    s.human = false;
  };
}

/** Every option du accepts, as GNU coreutils spells it, with what it does to the settings. */
const DU_OPTIONS: readonly OptionRow<DuSettings, CommandIo>[] = [
  { key: "a", short: "a", long: "all", apply: (s) => void (s.all = true) },
  { key: "s", short: "s", long: "summarize", apply: (s) => void (s.summarize = true) },
  { key: "c", short: "c", long: "total", apply: (s) => void (s.total = true) },
  { key: "h", short: "h", long: "human-readable", apply: (s) => void (s.human = true) },
  {
    key: "d",
    short: "d",
    long: "max-depth",
    value: true,
    apply: (s, v, io) => {
      if (!/^\d+$/.test(v)) {
        io.fail(`invalid maximum depth \u2018${v}\u2019`);
        io.out.error("Try 'du --help' for more information.\n");
        return 1;
      }
      s.maxDepth = Number(v);
      return undefined;
    },
  },
  {
    key: "b",
    short: "b",
    long: "bytes",
    apply: (s) => {
      s.apparent = true;
      s.unit = 1;
      s.human = false;
    },
  },
  { key: "apparent", long: "apparent-size", apply: (s) => void (s.apparent = true) },
  { key: "k", short: "k", apply: blockSize(1024) },
  { key: "m", short: "m", apply: blockSize(1024 * 1024) },
  { key: "0", short: "0", long: "null", apply: (s) => void (s.end = "\0") },
  // No links to follow or file systems to stay on.
  { key: "noop", short: "x", long: "one-file-system" },
  { key: "noop", short: "L", long: "dereference" },
  { key: "noop", short: "P", long: "no-dereference" },
];

function runDu(args: string[], io: CommandIo): number {
  const parsed = parseOptions(args, DU_OPTIONS, { abbreviations: true });
  const s: DuSettings = { all: false, summarize: false, total: false, human: false, maxDepth: Infinity, apparent: false, unit: 1024, end: "\n" };
  const stopped = applyOptions(parsed, DU_OPTIONS, s, io);
  if (stopped !== undefined) return stopped;
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
