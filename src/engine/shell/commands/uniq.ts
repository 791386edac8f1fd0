import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO } from "../lib/files.js";
import { readInputs, splitLines } from "../lib/inputs.js";
import { quotef } from "../lib/format.js";
import { type OptionRow, applyOptions, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

const HELP = `Usage: uniq [OPTION]... [INPUT [OUTPUT]]
Filter adjacent matching lines from INPUT (or standard input), writing to standard output.
Sort first to count every distinct line: sort FILE | uniq -c | sort -rn

  -c, --count           prefix lines by the number of occurrences
  -d, --repeated        only print duplicate lines, one for each group
  -D                    print all duplicate lines
  -f, --skip-fields=N   avoid comparing the first N fields
  -i, --ignore-case     ignore differences in case when comparing
  -s, --skip-chars=N    avoid comparing the first N characters
  -u, --unique          only print unique lines
  -w, --check-chars=N   compare no more than N characters in lines
`;

/** What one uniq call does, read from its command line. */
interface UniqSettings {
  count: boolean;
  repeated: boolean;
  allRepeated: boolean;
  unique: boolean;
  ignoreCase: boolean;
  skipFields: number;
  skipChars: number;
  checkChars: number;
}

/** A count option: sets it, or GNU's message (naming `what`) and exit status 1. */
function countInto(what: string, set: (s: UniqSettings, n: number) => void): OptionRow<UniqSettings, CommandIo>["apply"] {
  return (s, value, io) => {
    if (!/^\d+$/.test(value)) {
      io.fail(`${value}: invalid number of ${what}`);
      return 1;
    }
    set(s, Number(value));
    return undefined;
  };
}

/** Every option uniq accepts, as GNU coreutils spells it, with what it does to the settings. */
const UNIQ_OPTIONS: readonly OptionRow<UniqSettings, CommandIo>[] = [
  { key: "c", short: "c", long: "count", apply: (s) => void (s.count = true) },
  { key: "d", short: "d", long: "repeated", apply: (s) => void (s.repeated = true) },
  { key: "D", short: "D", long: "all-repeated", apply: (s) => void (s.allRepeated = true) },
  { key: "u", short: "u", long: "unique", apply: (s) => void (s.unique = true) },
  { key: "i", short: "i", long: "ignore-case", apply: (s) => void (s.ignoreCase = true) },
  { key: "f", short: "f", long: "skip-fields", value: true, apply: countInto("fields to skip", (s, n) => (s.skipFields = n)) },
  { key: "s", short: "s", long: "skip-chars", value: true, apply: countInto("bytes to skip", (s, n) => (s.skipChars = n)) },
  { key: "w", short: "w", long: "check-chars", value: true, apply: countInto("bytes to compare", (s, n) => (s.checkChars = n)) },
  { key: "z", short: "z", long: "zero-terminated" },
];

function runUniq(args: string[], io: CommandIo): number {
  const parsed = parseOptions(args, UNIQ_OPTIONS, { abbreviations: true });
  const settings: UniqSettings = {
    count: false,
    repeated: false,
    allRepeated: false,
    unique: false,
    ignoreCase: false,
    skipFields: 0,
    skipChars: 0,
    checkChars: Number.POSITIVE_INFINITY,
  };
  const stopped = applyOptions(parsed, UNIQ_OPTIONS, settings, io);
  if (stopped !== undefined) return stopped;
  const { count, repeated, allRepeated, unique, ignoreCase, skipFields, skipChars, checkChars } = settings;
  if (parsed.operands.length > 2) {
    io.fail(`extra operand \u2018${parsed.operands[2]}\u2019`);
    io.out.error("Try 'uniq --help' for more information.\n");
    return 1;
  }
  if (parsed.operands[1] !== undefined && parsed.operands[1] !== "-") {
    io.fail(`${parsed.operands[1]}: ${ERRNO.EROFS}`);
    return 1;
  }
  if (allRepeated && count) {
    io.fail("printing all duplicated lines and repeat counts is meaningless");
    io.out.error("Try 'uniq --help' for more information.\n");
    return 1;
  }
  const [input] = readInputs(io, parsed.operands.slice(0, 1));
  if (input === undefined || !input.ok) {
    io.fail(`${quotef(input?.name ?? "-")}: ${input?.ok === false ? input.reason : ERRNO.ENOENT}`);
    return 1;
  }
  const keyOf = (line: string): string => {
    let k = line;
    for (let f = 0; f < skipFields; f++) k = k.replace(/^[ \t]*[^ \t]*/, "");
    k = k.slice(skipChars);
    if (checkChars !== Number.POSITIVE_INFINITY) k = k.slice(0, checkChars);
    // GNU uniq -i folds with toupper() byte by byte (memcasecmp): ASCII letters only, in C.UTF-8
    // as in C (`É` and `é` stay two lines; issue 25).
    return ignoreCase ? k.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : k;
  };
  const lines = splitLines(input.text);
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const key = keyOf(lines[i] as string);
    let j = i + 1;
    while (j < lines.length && keyOf(lines[j] as string) === key) j++;
    const n = j - i;
    const show = (repeated || allRepeated ? n > 1 : true) && (unique ? n === 1 : true);
    if (show) {
      if (allRepeated) for (let k = i; k < j; k++) out.push(lines[k] as string);
      else out.push(count ? `${String(n).padStart(7)} ${lines[i]}` : (lines[i] as string));
    }
    i = j;
  }
  if (out.length > 0) io.out.write(`${out.join("\n")}\n`);
  return 0;
}

export const uniqCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "uniq", help: HELP, run: runUniq, usageExitCode: 1 });
