import { type CommandIo, docsCommand } from "../lib/command.js";
import { type Count, byteLength, fromLine, lastLines, sliceBytes } from "../lib/counts.js";
import { SLICE_OPTIONS, printSlices, readSliceOptions } from "../lib/head-tail.js";
import { parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

/** head's options, and `-f`/`-F`, accepted without effect: the docs do not change during a call. */
const TAIL_OPTIONS = [...SLICE_OPTIONS, { key: "f", short: "f", long: "follow" }, { key: "f", short: "F" }];

const HELP = `Usage: tail [OPTION]... [FILE]...
Print the last 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to
                             output starting with byte NUM of each file
  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;
                             or use -n +NUM to skip NUM-1 lines at the start
  -q, --quiet, --silent    never output headers giving file names
  -v, --verbose            always output headers giving file names
  -f, --follow             accepted; the docs do not change during a call, so tail exits

NUM may have a multiplier suffix: b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024, ...
`;

function runTail(args: string[], io: CommandIo): number {
  // Obsolete `-NUM` / `+NUM` as the first argument, only valid with a single file.
  let rest = args;
  let count: Count = { value: 10, sign: "" };
  let obsolete: string | undefined;
  const first = args[0];
  if (first !== undefined && /^[-+]\d+[lcb]?$/.test(first)) {
    obsolete = first;
    const n = Number(first.replace(/[^\d]/g, ""));
    count = { value: first.endsWith("b") ? n * 512 : n, sign: first.startsWith("+") ? "+" : "" };
    rest = args.slice(1);
  }
  const parsed = parseOptions(rest, TAIL_OPTIONS, { abbreviations: true });
  const mode: "lines" | "bytes" = obsolete?.endsWith("c") || obsolete?.endsWith("b") ? "bytes" : "lines";
  if (obsolete !== undefined && parsed.operands.length > 1) {
    io.fail(`option used in invalid context -- ${obsolete.slice(1).replace(/[lcb]$/, "")}`);
    return 1;
  }
  const slice = readSliceOptions(parsed, TAIL_OPTIONS, { mode, count, headers: undefined }, { io, plus: "allowed" });
  if (typeof slice === "number") return slice;
  return printSlices(io, parsed.operands, slice.headers, (text) => {
    if (slice.mode === "lines") return slice.count.sign === "+" ? fromLine(text, slice.count.value) : lastLines(text, slice.count.value);
    return slice.count.sign === "+" ? sliceBytes(text, Math.max(0, slice.count.value - 1)) : sliceBytes(text, Math.max(0, byteLength(text) - slice.count.value));
  });
}

export const tailCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "tail", help: HELP, run: runTail, usageExitCode: 1 });
