import { byteLengthOfText } from "../lib/byte-text.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { readInputs } from "../lib/inputs.js";
import { quotef } from "../lib/format.js";
import { type OptionRow, applyOptions, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

/** What wc counts and when it prints a total, read from its command line. */
interface WcSettings {
  want: { l: boolean; w: boolean; m: boolean; c: boolean; L: boolean };
  totalMode: string;
}

/** A count to print. */
function countRow(key: keyof WcSettings["want"], short: string, long: string): OptionRow<WcSettings, CommandIo> {
  return { key, short, long, apply: (s) => void (s.want[key] = true) };
}

/** Every option wc accepts, as GNU coreutils spells it, with what it does to the settings. */
const WC_OPTIONS: readonly OptionRow<WcSettings, CommandIo>[] = [
  countRow("c", "c", "bytes"),
  countRow("m", "m", "chars"),
  countRow("l", "l", "lines"),
  countRow("w", "w", "words"),
  countRow("L", "L", "max-line-length"),
  {
    key: "total",
    long: "total",
    value: true,
    apply: (s, v, io) => {
      if (!["auto", "always", "only", "never"].includes(v)) {
        io.fail(`invalid argument '${v}' for '--total'\nValid arguments are:\n  - 'auto'\n  - 'always'\n  - 'only'\n  - 'never'`);
        io.out.error("Try 'wc --help' for more information.\n");
        return 1;
      }
      s.totalMode = v;
      return undefined;
    },
  },
];

const HELP = `Usage: wc [OPTION]... [FILE]...
Print newline, word, and byte counts for each FILE, and a total line if more than one FILE is
specified. A word is a non-zero-length sequence of printable characters delimited by white space.

  -c, --bytes            print the byte counts
  -m, --chars            print the character counts
  -l, --lines            print the newline counts
  -w, --words            print the word counts
  -L, --max-line-length  print the maximum display width
      --total=WHEN       when to print a line with total counts: auto, always, only, never
`;

interface Counts {
  lines: number;
  words: number;
  chars: number;
  bytes: number;
  maxLine: number;
}

const WIDE = /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/u;

/** Word separators: glibc's iswspace in C.UTF-8 (no-break spaces are not separators). */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return c === 0x1680 || (c >= 0x2000 && c <= 0x2006) || (c >= 0x2008 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x205f || c === 0x3000;
}

function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/** Code points (surrogate pairs count once). */
function countChars(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) n--;
  }
  return n;
}

function count(text: string, want: { w: boolean; m: boolean; L: boolean }): Counts {
  const withMaxLine = want.L;
  let lines = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  const words = want.w ? countWords(text) : 0;
  let maxLine = 0;
  for (const line of withMaxLine ? text.split("\n") : []) {
    let width = 0;
    for (const ch of line) {
      if (ch === "\t") width += 8 - (width % 8);
      else if (/\p{Mn}|\p{Me}|\p{Cf}/u.test(ch)) continue;
      else if (/\p{Cc}/u.test(ch)) continue;
      else width += WIDE.test(ch) ? 2 : 1;
    }
    maxLine = Math.max(maxLine, width);
  }
  return { lines, words, chars: want.m ? countChars(text) : 0, bytes: byteLengthOfText(text), maxLine };
}

function runWc(args: string[], io: CommandIo): number {
  const parsed = parseOptions(args, WC_OPTIONS, { abbreviations: true });
  const settings: WcSettings = { want: { l: false, w: false, m: false, c: false, L: false }, totalMode: "auto" };
  const stopped = applyOptions(parsed, WC_OPTIONS, settings, io);
  if (stopped !== undefined) return stopped;
  const { want, totalMode } = settings;
  if (!want.l && !want.w && !want.m && !want.c && !want.L) {
    want.l = true;
    want.w = true;
    want.c = true;
  }
  const kinds = (["l", "w", "m", "c", "L"] as const).filter((k) => want[k]);
  const inputs = readInputs(io, parsed.operands);
  // GNU's column width: digits of the summed sizes of regular files, at least 7 when stdin or
  // a folder is among the inputs; a lone count of a lone input is not padded.
  let width = 1;
  if (!(inputs.length === 1 && kinds.length === 1)) {
    let regular = 0;
    let min = 1;
    for (const input of inputs) {
      if (input.ok && input.regular) regular += byteLengthOfText(input.text);
      else if (input.ok || input.isDir) min = 7;
    }
    width = Math.max(String(regular).length, min);
  }
  const total: Counts = { lines: 0, words: 0, chars: 0, bytes: 0, maxLine: 0 };
  const row = (c: Counts, name: string | undefined): string => {
    const values = kinds.map((k) => ({ l: c.lines, w: c.words, m: c.chars, c: c.bytes, L: c.maxLine })[k]);
    const cols = values.map((v) => String(v).padStart(width)).join(" ");
    return name === undefined ? `${cols}\n` : `${cols} ${name}\n`;
  };
  let status = 0;
  for (const input of inputs) {
    io.checkTime();
    let c: Counts;
    if (!input.ok) {
      io.fail(`${quotef(input.name)}: ${input.reason}`);
      status = 1;
      if (!input.isDir) continue;
      c = { lines: 0, words: 0, chars: 0, bytes: 0, maxLine: 0 };
    } else {
      c = count(input.text, want);
      // A pipe's bytes as written: its text reads a byte that is not UTF-8 as U+FFFD's three (`printf '\377' | wc -c` is 1).
      if (input.name === "-") c.bytes = io.stdinBytes().length;
    }
    total.lines += c.lines;
    total.words += c.words;
    total.chars += c.chars;
    total.bytes += c.bytes;
    total.maxLine = Math.max(total.maxLine, c.maxLine);
    if (totalMode !== "only") io.out.write(row(c, parsed.operands.length === 0 ? undefined : input.name));
  }
  const showTotal = totalMode === "always" || totalMode === "only" || (totalMode === "auto" && inputs.length > 1);
  if (showTotal) io.out.write(totalMode === "only" ? row(total, undefined) : row(total, "total"));
  return status;
}

export const wcCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "wc", help: HELP, run: runWc, usageExitCode: 1 });
