import { type CommandIo, docsCommand } from "../lib/command.js";
import { readInputs } from "../lib/inputs.js";
import { type OptionSpec, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

const SPECS: readonly OptionSpec[] = [
  { key: "A", short: "A", long: "show-all" },
  { key: "b", short: "b", long: "number-nonblank" },
  { key: "e", short: "e" },
  { key: "E", short: "E", long: "show-ends" },
  { key: "n", short: "n", long: "number" },
  { key: "s", short: "s", long: "squeeze-blank" },
  { key: "t", short: "t" },
  { key: "T", short: "T", long: "show-tabs" },
  { key: "u", short: "u" },
  { key: "v", short: "v", long: "show-nonprinting" },
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
  for (const byte of Buffer.from(line, "utf8")) {
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
  const parsed = parseOptions(args, SPECS, { abbreviations: true });
  let numberAll = false;
  let numberNonBlank = false;
  let ends = false;
  let tabs = false;
  let nonprinting = false;
  let squeeze = false;
  for (const o of parsed.options) {
    if (o.key === "A") {
      nonprinting = true;
      ends = true;
      tabs = true;
    } else if (o.key === "b") numberNonBlank = true;
    else if (o.key === "e") {
      nonprinting = true;
      ends = true;
    } else if (o.key === "E") ends = true;
    else if (o.key === "n") numberAll = true;
    else if (o.key === "s") squeeze = true;
    else if (o.key === "t") {
      nonprinting = true;
      tabs = true;
    } else if (o.key === "T") tabs = true;
    else if (o.key === "v") nonprinting = true;
  }
  const plain = !numberAll && !numberNonBlank && !ends && !tabs && !nonprinting && !squeeze;
  let status = 0;
  let lineNo = 0;
  let prevBlank = false;
  for (const input of readInputs(io, parsed.operands)) {
    io.checkTime();
    if (!input.ok) {
      io.fail(`${input.name}: ${input.reason}`);
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
