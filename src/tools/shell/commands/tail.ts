import { type CommandIo, docsCommand } from "../lib/command.js";
import { type Count, byteLength, fromLine, lastLines, parseCount, sliceBytes } from "../lib/counts.js";
import { readInputs } from "../lib/inputs.js";
import { type OptionSpec, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

const SPECS: readonly OptionSpec[] = [
  { key: "n", short: "n", long: "lines", value: true },
  { key: "c", short: "c", long: "bytes", value: true },
  { key: "q", short: "q", long: ["quiet", "silent"] },
  { key: "v", short: "v", long: "verbose" },
  { key: "f", short: "f", long: "follow" },
  { key: "f", short: "F" },
];

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
  const parsed = parseOptions(rest, SPECS, { abbreviations: true });
  let mode: "lines" | "bytes" = obsolete?.endsWith("c") || obsolete?.endsWith("b") ? "bytes" : "lines";
  if (obsolete !== undefined && parsed.operands.length > 1) {
    io.fail(`option used in invalid context -- ${obsolete.slice(1).replace(/[lcb]$/, "")}`);
    return 1;
  }
  let headers: boolean | undefined;
  for (const o of parsed.options) {
    if (o.key === "n" || o.key === "c") {
      const c = parseCount(o.value);
      if (c === undefined) {
        io.fail(`invalid number of ${o.key === "n" ? "lines" : "bytes"}: \u2018${o.value}\u2019`);
        return 1;
      }
      mode = o.key === "n" ? "lines" : "bytes";
      count = c;
    } else if (o.key === "q") headers = false;
    else if (o.key === "v") headers = true;
  }
  const inputs = readInputs(io, parsed.operands);
  const showHeaders = headers ?? inputs.length > 1;
  let status = 0;
  let firstOut = true;
  for (const input of inputs) {
    io.checkTime();
    if (!input.ok && !input.isDir) {
      io.fail(`cannot open '${input.name}' for reading: ${input.reason}`);
      status = 1;
      continue;
    }
    if (showHeaders) {
      io.out.write(`${firstOut ? "" : "\n"}==> ${input.name === "-" ? "standard input" : input.name} <==\n`);
    }
    firstOut = false;
    if (!input.ok) {
      io.fail(`error reading '${input.name}': ${input.reason}`);
      status = 1;
      continue;
    }
    const { text } = input;
    let shown: string;
    if (mode === "lines") shown = count.sign === "+" ? fromLine(text, count.value) : lastLines(text, count.value);
    else {
      const total = byteLength(text);
      shown = count.sign === "+" ? sliceBytes(text, Math.max(0, count.value - 1)) : sliceBytes(text, Math.max(0, total - count.value));
    }
    if (!io.out.write(shown)) break;
  }
  return status;
}

export const tailCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "tail", help: HELP, run: runTail, usageExitCode: 1 });
