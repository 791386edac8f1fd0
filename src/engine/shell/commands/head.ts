import { type CommandIo, docsCommand } from "../lib/command.js";
import { allButLastLines, byteLength, firstLines, sliceBytes } from "../lib/counts.js";
import { SLICE_OPTIONS, printSlices, readSliceOptions } from "../lib/head-tail.js";
import { parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

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
  const parsed = parseOptions(args, SLICE_OPTIONS, { abbreviations: true, numericKey: "n" });
  const request = readSliceOptions(parsed, SLICE_OPTIONS, { mode: "lines", count: { value: 10, sign: "" }, headers: undefined }, { io, plus: "refused" });
  if (typeof request === "number") return request;
  const { mode, count } = request;
  return printSlices(io, parsed.operands, request.headers, (text) => {
    if (mode === "lines") return count.sign === "-" ? allButLastLines(text, count.value) : firstLines(text, count.value);
    return count.sign === "-" ? sliceBytes(text, 0, Math.max(0, byteLength(text) - count.value)) : sliceBytes(text, 0, count.value);
  });
}

export const headCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "head", help: HELP, run: runHead, usageExitCode: 1 });
