import { type CommandIo, docsCommand } from "../lib/command.js";
import { readBytes } from "../lib/byte-inputs.js";
import { type OptionRow, applyOptions, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

/** What one fold call does, read from its command line. */
interface FoldSettings {
  /** -b: every byte is one column (a tab, a backspace and a carriage return too). */
  countBytes: boolean;
  /** -s: break after the last blank that fits, when there is one. */
  breakSpaces: boolean;
  /** The width as written, checked once every option is read (the last one counts). */
  width: string;
}

const OPTIONS: readonly OptionRow<FoldSettings>[] = [
  { key: "b", short: "b", long: "bytes", apply: (s) => void (s.countBytes = true) },
  { key: "s", short: "s", long: "spaces", apply: (s) => void (s.breakSpaces = true) },
  { key: "w", short: "w", long: "width", value: true, apply: (s, v) => void (s.width = v) },
];

const HELP = `Usage: fold [OPTION]... [FILE]...
Wrap input lines in each FILE, writing to standard output.

With no FILE, or when FILE is -, read standard input.

  -b, --bytes         count bytes rather than columns
  -s, --spaces        break at spaces
  -w, --width=WIDTH   use WIDTH columns instead of 80
  -NUM                same as -w NUM
`;

/** GNU fold's limit: SIZE_MAX less a tab's width and one. */
const MAX_WIDTH = 2n ** 64n - 10n;

/**
 * `-NUM` (obsolete, still accepted): GNU's getopt string gives each digit an optional argument,
 * so `-23` is width 23 and `-s2` is `-s` and width 2. Rewritten to `-w NUM` before parsing.
 */
function obsoleteWidths(args: readonly string[]): string[] {
  const out: string[] = [];
  let ended = false;
  let value = false;
  for (const a of args) {
    // The argument after a bare `-w` (or `--width`) is its value, whatever it looks like: `-w -1`.
    const m = ended || value ? null : /^-([bs]*)(\d.*)$/.exec(a);
    value = !ended && !value && (/^-[bs]*w$/.test(a) || /^--w(i(d(t(h)?)?)?)?$/.test(a));
    if (a === "--") ended = true;
    if (m === null) {
      out.push(a);
      continue;
    }
    if (m[1] !== "") out.push(`-${m[1]}`);
    out.push("-w", m[2] as string);
  }
  return out;
}

/** xdectoumax's checks, with its messages: digits only (after blanks and a `+`), 1 to MAX_WIDTH. */
function readWidth(text: string, io: CommandIo): number | undefined {
  const m = /^[ \t\n\v\f\r]*\+?(\d+)$/.exec(text);
  const head = `invalid number of columns: \u2018${text}\u2019`;
  if (m === null) {
    io.fail(head);
    return undefined;
  }
  const n = BigInt(m[1] as string);
  if (n < 1n) {
    io.fail(`${head}: Numerical result out of range`);
    return undefined;
  }
  if (n > MAX_WIDTH) {
    io.fail(`${head}: Value too large for defined data type`);
    return undefined;
  }
  // Wider than any page: the exact size no longer matters.
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n);
}

/** GNU's adjust_column: the column after byte `c`. */
function nextColumn(column: number, c: number, countBytes: boolean): number {
  if (countBytes) return column + 1;
  if (c === 8) return column > 0 ? column - 1 : 0;
  if (c === 13) return 0;
  if (c === 9) return column + 8 - (column % 8);
  return column + 1;
}

/**
 * GNU coreutils 9.1's fold_file, byte for byte: fold counts bytes, not characters (a UTF-8
 * character of two bytes takes two columns and may be cut in two), and `-s` breaks after the
 * last space or tab of the pending line.
 */
function foldBytes(input: Buffer, width: number, settings: FoldSettings, io: CommandIo): string {
  const out: string[] = [];
  let line: number[] = [];
  let column = 0;
  const flush = (bytes: readonly number[]): void => void out.push(Buffer.from(bytes).toString("latin1"));
  for (const c of input) {
    if (c === 10) {
      line.push(c);
      flush(line);
      line = [];
      column = 0;
      continue;
    }
    io.step();
    for (;;) {
      column = nextColumn(column, c, settings.countBytes);
      if (column <= width) {
        line.push(c);
        break;
      }
      if (settings.breakSpaces) {
        let end = line.length;
        while (end > 0 && line[end - 1] !== 32 && line[end - 1] !== 9) end--;
        if (end > 0) {
          flush([...line.slice(0, end), 10]);
          line = line.slice(end);
          column = line.reduce((col, b) => nextColumn(col, b, settings.countBytes), 0);
          continue;
        }
      }
      if (line.length === 0) {
        line.push(c);
        break;
      }
      line.push(10);
      flush(line);
      line = [];
      column = 0;
    }
  }
  if (line.length > 0) flush(line);
  return out.join("");
}

function runFold(args: string[], io: CommandIo): number {
  const parsed = parseOptions(obsoleteWidths(args), OPTIONS, { abbreviations: true });
  const settings: FoldSettings = { countBytes: false, breakSpaces: false, width: "80" };
  const stopped = applyOptions(parsed, OPTIONS, settings, io);
  if (stopped !== undefined) return stopped;
  const width = readWidth(settings.width, io);
  if (width === undefined) return 1;
  let status = 0;
  for (const name of parsed.operands.length === 0 ? ["-"] : parsed.operands) {
    const input = readBytes(io, name);
    if (!input.ok) {
      io.fail(`${name}: ${input.reason}`);
      status = 1;
      continue;
    }
    if (!io.out.write(foldBytes(input.bytes, width, settings, io))) break;
  }
  return status;
}

export const foldCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "fold", help: HELP, run: runFold, usageExitCode: 1, writesBytes: true });
