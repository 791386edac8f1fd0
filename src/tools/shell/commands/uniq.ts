import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO } from "../lib/files.js";
import { readInputs, splitLines } from "../lib/inputs.js";
import { type OptionSpec, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

const SPECS: readonly OptionSpec[] = [
  { key: "c", short: "c", long: "count" },
  { key: "d", short: "d", long: "repeated" },
  { key: "D", short: "D", long: "all-repeated" },
  { key: "u", short: "u", long: "unique" },
  { key: "i", short: "i", long: "ignore-case" },
  { key: "f", short: "f", long: "skip-fields", value: true },
  { key: "s", short: "s", long: "skip-chars", value: true },
  { key: "w", short: "w", long: "check-chars", value: true },
  { key: "z", short: "z", long: "zero-terminated" },
];

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

function runUniq(args: string[], io: CommandIo): number {
  const parsed = parseOptions(args, SPECS, { abbreviations: true });
  let count = false;
  let repeated = false;
  let allRepeated = false;
  let unique = false;
  let ignoreCase = false;
  let skipFields = 0;
  let skipChars = 0;
  let checkChars = Number.POSITIVE_INFINITY;
  for (const o of parsed.options) {
    const n = (what: string): number | undefined => {
      if (/^\d+$/.test(o.value)) return Number(o.value);
      io.fail(`${o.value}: invalid number of ${what}`);
      return undefined;
    };
    switch (o.key) {
      case "c":
        count = true;
        break;
      case "d":
        repeated = true;
        break;
      case "D":
        allRepeated = true;
        break;
      case "u":
        unique = true;
        break;
      case "i":
        ignoreCase = true;
        break;
      case "f": {
        const v = n("fields to skip");
        if (v === undefined) return 1;
        skipFields = v;
        break;
      }
      case "s": {
        const v = n("bytes to skip");
        if (v === undefined) return 1;
        skipChars = v;
        break;
      }
      case "w": {
        const v = n("bytes to compare");
        if (v === undefined) return 1;
        checkChars = v;
        break;
      }
      default:
        break;
    }
  }
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
    io.fail(`${input?.name ?? "-"}: ${input?.ok === false ? input.reason : ERRNO.ENOENT}`);
    return 1;
  }
  const keyOf = (line: string): string => {
    let k = line;
    for (let f = 0; f < skipFields; f++) k = k.replace(/^[ \t]*[^ \t]*/, "");
    k = k.slice(skipChars);
    if (checkChars !== Number.POSITIVE_INFINITY) k = k.slice(0, checkChars);
    return ignoreCase ? k.toLowerCase() : k;
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
