import { type CommandIo, docsCommand } from "../lib/command.js";
import { type Count, allButLastLines, byteLength, firstLines, parseCount, sliceBytes } from "../lib/counts.js";
import { readInputs } from "../lib/inputs.js";
import { type OptionSpec, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

const SPECS: readonly OptionSpec[] = [
  { key: "n", short: "n", long: "lines", value: true },
  { key: "c", short: "c", long: "bytes", value: true },
  { key: "q", short: "q", long: ["quiet", "silent"] },
  { key: "v", short: "v", long: "verbose" },
];

const HELP = `Usage: head [OPTION]... [FILE]...
Print the first 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.
Batch reads work: head -50 /a.mdx /b.mdx

  -c, --bytes=[-]NUM       print the first NUM bytes of each file;
                             with the leading '-', print all but the last NUM bytes
  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;
                             with the leading '-', print all but the last NUM lines
  -NUM                     same as -n NUM
  -q, --quiet, --silent    never print headers giving file names
  -v, --verbose            always print headers giving file names

NUM may have a multiplier suffix: b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024, ...
`;

function runHead(args: string[], io: CommandIo): number {
  const parsed = parseOptions(args, SPECS, { abbreviations: true, numericKey: "n" });
  let mode: "lines" | "bytes" = "lines";
  let count: Count = { value: 10, sign: "" };
  let headers: boolean | undefined;
  for (const o of parsed.options) {
    if (o.key === "n" || o.key === "c") {
      const c = parseCount(o.value);
      if (c === undefined || c.sign === "+") {
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
  let first = true;
  for (const input of inputs) {
    io.checkTime();
    if (!input.ok && !input.isDir) {
      io.fail(`cannot open '${input.name}' for reading: ${input.reason}`);
      status = 1;
      continue;
    }
    if (showHeaders) {
      io.out.write(`${first ? "" : "\n"}==> ${input.name === "-" ? "standard input" : input.name} <==\n`);
    }
    first = false;
    if (!input.ok) {
      io.fail(`error reading '${input.name}': ${input.reason}`);
      status = 1;
      continue;
    }
    const { text } = input;
    let shown: string;
    if (mode === "lines") shown = count.sign === "-" ? allButLastLines(text, count.value) : firstLines(text, count.value);
    else shown = count.sign === "-" ? sliceBytes(text, 0, Math.max(0, byteLength(text) - count.value)) : sliceBytes(text, 0, count.value);
    if (!io.out.write(shown)) break;
  }
  return status;
}

export const headCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "head", help: HELP, run: runHead, usageExitCode: 1 });
