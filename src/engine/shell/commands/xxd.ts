import { appendAll } from "../../../arrays.js";
import { readBytes } from "../lib/byte-inputs.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO } from "../lib/files.js";
import type { ShellCommandFactory } from "./command.js";

/**
 * xxd as vim's xxd (2022-01-14) prints a hex dump (issue 25): the plain `-p` form and the default
 * one with `-c` columns, `-g` groups, `-s` seek, `-l` length and `-u` upper case. xxd reads its
 * options in its own way (`-c8`, `-c 8`, `-cols 8`, `-ps`), not getopt's. Reverting (`-r`) and the
 * other forms (`-i`, `-b`, `-e`) are refused: the docs shell writes no files and these are not
 * needed to read one.
 */

/** What one xxd call prints, read from its command line. */
interface XxdSettings {
  plain: boolean;
  cols: number | undefined;
  group: number | undefined;
  seek: number;
  length: number | undefined;
  upper: boolean;
}

class XxdError extends Error {
  override readonly name = "XxdError";
}

/** A number as xxd reads one (strtol with base 0: `0x10`, `010` octal, `-` allowed for -s). */
function number(text: string | undefined, option: string): number {
  const m = text === undefined ? null : /^([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)/.exec(text);
  if (m === null) throw new XxdError(`option ${option} requires an argument`);
  const digits = m[2] as string;
  const n = /^0[xX]/.test(digits) ? parseInt(digits.slice(2), 16) : digits.length > 1 && digits.startsWith("0") ? parseInt(digits, 8) : Number(digits);
  return m[1] === "-" ? -n : n;
}

/** The options xxd matches by prefix (`-c`, `-cols`), with or without their value attached. */
const VALUED = [
  ["c", "cols"],
  ["g", "groupsize"],
  ["s", "seek"],
  ["l", "len"],
] as const;

function readSettings(args: readonly string[]): { settings: XxdSettings; operands: string[] } {
  const s: XxdSettings = { plain: false, cols: undefined, group: undefined, seek: 0, length: undefined, upper: false };
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (operands.length > 0 || !a.startsWith("-") || a === "-") {
      operands.push(a);
      continue;
    }
    if (a === "--") {
      appendAll(operands, args.slice(i + 1));
      break;
    }
    const name = a.slice(1);
    if (["p", "ps", "postscript", "plain"].includes(name)) {
      s.plain = true;
      continue;
    }
    if (name === "u") {
      s.upper = true;
      continue;
    }
    const valued = VALUED.find(([short, long]) => name.startsWith(short) && (name.length === 1 || long.startsWith(name) || /^[+\-\d]/.test(name.slice(1))));
    if (valued !== undefined) {
      const [short, long] = valued;
      const attached = long.startsWith(name) ? "" : name.slice(1);
      const value = attached !== "" ? attached : args[++i];
      const n = number(value, `-${short}`);
      if (short === "c") s.cols = n;
      else if (short === "g") s.group = n;
      else if (short === "s") s.seek = n;
      else s.length = n;
      continue;
    }
    throw new XxdError(`option ${a} is not supported in the docs shell (it reads -p, -c, -g, -s, -l and -u)`);
  }
  return { settings: s, operands };
}

function runXxd(args: string[], io: CommandIo): number {
  let settings: XxdSettings;
  let operands: string[];
  try {
    ({ settings, operands } = readSettings(args));
  } catch (error) {
    if (!(error instanceof XxdError)) throw error;
    io.fail(error.message);
    return 1;
  }
  if (operands.length > 1) {
    io.fail(`${operands[1] as string}: Read-only file system`);
    return 2;
  }
  const input = readBytes(io, operands[0] ?? "-");
  if (!input.ok) {
    // xxd opens a folder and fails to read it, so its message names no file.
    io.fail(input.reason === ERRNO.EISDIR ? input.reason : `${input.name}: ${input.reason}`);
    return 2;
  }
  const start = settings.seek < 0 ? Math.max(0, input.bytes.length + settings.seek) : settings.seek;
  const data = input.bytes.subarray(start, settings.length === undefined ? undefined : start + Math.max(0, settings.length));
  const hex = (b: number): string => {
    const h = b.toString(16).padStart(2, "0");
    return settings.upper ? h.toUpperCase() : h;
  };
  if (settings.plain) {
    const cols = settings.cols === undefined || settings.cols <= 0 ? 30 : settings.cols;
    for (let at = 0; at < data.length; at += cols) {
      io.step();
      if (!io.out.write(`${[...data.subarray(at, at + cols)].map(hex).join("")}\n`)) return 2;
    }
    return 0;
  }
  const cols = settings.cols === undefined || settings.cols <= 0 ? 16 : settings.cols;
  const group = settings.group === undefined ? 2 : settings.group <= 0 ? cols : settings.group;
  // The hex part of a full line: two digits a byte and a space before each group.
  const hexWidth = cols * 2 + Math.ceil(cols / group);
  for (let at = 0; at < data.length; at += cols) {
    io.step();
    const bytes = data.subarray(at, at + cols);
    let line = `${(start + at).toString(16).padStart(8, "0")}:`;
    let hexPart = "";
    bytes.forEach((b, i) => {
      hexPart += (i % group === 0 ? " " : "") + hex(b);
    });
    line += `${hexPart.padEnd(hexWidth)}  ${[...bytes].map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : ".")).join("")}\n`;
    if (!io.out.write(line)) return 2;
  }
  return 0;
}

const HELP = `Usage: xxd [options] [infile]
Make a hex dump of a file or of standard input.

  -p, -ps, -plain   plain hex dump: 30 bytes a line, no offsets or text
  -c cols           bytes per line (16; 30 with -p)
  -g bytes          bytes per group in the normal dump (2; 0: one group)
  -s [+-]seek       start at byte seek (negative: from the end)
  -l len            stop after len bytes
  -u                upper case hex letters
-r (revert), -i, -b and -e are not supported.
`;

export const xxdCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "xxd", help: HELP, run: runXxd });
