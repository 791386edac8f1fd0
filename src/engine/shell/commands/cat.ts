import { bytesOfText } from "../lib/byte-text.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { readInputs } from "../lib/inputs.js";
import { quotef } from "../lib/format.js";
import { type OptionRow, applyOptions, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

/** What cat shows besides the text, read from its command line. */
interface CatSettings {
  numberAll: boolean;
  numberNonBlank: boolean;
  ends: boolean;
  tabs: boolean;
  nonprinting: boolean;
  squeeze: boolean;
}

/** Every option cat accepts, as GNU coreutils spells it, with what it does to the settings. */
const CAT_OPTIONS: readonly OptionRow<CatSettings>[] = [
  { key: "A", short: "A", long: "show-all", apply: (s) => void (s.nonprinting = s.ends = s.tabs = true) },
  { key: "b", short: "b", long: "number-nonblank", apply: (s) => void (s.numberNonBlank = true) },
  { key: "e", short: "e", apply: (s) => void (s.nonprinting = s.ends = true) },
  { key: "E", short: "E", long: "show-ends", apply: (s) => void (s.ends = true) },
  { key: "n", short: "n", long: "number", apply: (s) => void (s.numberAll = true) },
  { key: "s", short: "s", long: "squeeze-blank", apply: (s) => void (s.squeeze = true) },
  { key: "t", short: "t", apply: (s) => void (s.nonprinting = s.tabs = true) },
  { key: "T", short: "T", long: "show-tabs", apply: (s) => void (s.tabs = true) },
  // Unbuffered output: no effect on what is printed.
  { key: "u", short: "u" },
  { key: "v", short: "v", long: "show-nonprinting", apply: (s) => void (s.nonprinting = true) },
];

const HELP = `Usage: cat [OPTION]... [FILE]...
Concatenate FILE(s) to standard output. With no FILE, or when FILE is -, read standard input.
Read several pages in one call: cat /a.mdx /b.mdx

  -A, --show-all           equivalent to -vET
  -b, --number-nonblank    number nonempty output lines, overrides -n
  -e                       equivalent to -vE
  -E, --show-ends          display $ at end of each line
  -n, --number             number all output lines
  -s, --squeeze-blank      suppress repeated empty output lines
  -t                       equivalent to -vT
  -T, --show-tabs          display TAB characters as ^I
  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB
`;

/** `cat -v`: control bytes as ^X, DEL as ^?, bytes >= 128 as M-..., on the UTF-8 bytes. */
function showNonprinting(line: string, tabs: boolean): string {
  let out = "";
  for (const byte of bytesOfText(line)) {
    let b = byte;
    let prefix = "";
    if (b >= 128) {
      prefix = "M-";
      b -= 128;
    }
    if (b === 9 && !tabs && prefix === "") out += "\t";
    else if (b < 32) out += `${prefix}^${String.fromCharCode(b + 64)}`;
    else if (b === 127) out += `${prefix}^?`;
    else out += prefix + String.fromCharCode(b);
  }
  return out;
}

function runCat(args: string[], io: CommandIo): number {
  const parsed = parseOptions(args, CAT_OPTIONS, { abbreviations: true });
  const settings: CatSettings = { numberAll: false, numberNonBlank: false, ends: false, tabs: false, nonprinting: false, squeeze: false };
  applyOptions(parsed, CAT_OPTIONS, settings, undefined);
  const { numberAll, numberNonBlank, ends, tabs, nonprinting, squeeze } = settings;
  const plain = !numberAll && !numberNonBlank && !ends && !tabs && !nonprinting && !squeeze;
  let status = 0;
  let lineNo = 0;
  let prevBlank = false;
  for (const input of readInputs(io, parsed.operands)) {
    io.checkTime();
    if (!input.ok) {
      io.fail(`${quotef(input.name)}: ${input.reason}`);
      status = 1;
      continue;
    }
    if (plain) {
      if (!io.out.write(input.text)) break;
      continue;
    }
    const pieces = input.text.split("\n");
    pieces.forEach((line, k) => {
      const last = k === pieces.length - 1;
      if (last && line === "") return; // text ended with \n
      const blank = line === "";
      if (squeeze && blank && prevBlank) return;
      prevBlank = blank;
      let shown = nonprinting ? showNonprinting(line, tabs) : tabs ? line.replaceAll("\t", "^I") : line;
      if (numberNonBlank ? !blank : numberAll) shown = `${String(++lineNo).padStart(6)}\t${shown}`;
      if (ends && !last) shown += "$";
      io.out.write(last ? shown : `${shown}\n`);
    });
  }
  return status;
}

export const catCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "cat", help: HELP, run: runCat, usageExitCode: 1 });
