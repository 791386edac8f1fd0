import { bytesOfText, textFromBytes } from "../lib/byte-text.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { readInputs, splitLines } from "../lib/inputs.js";
import { quotef } from "../lib/format.js";
import { type OptionRow, applyOptions, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

/** What one cut call selects, read from its command line. */
interface CutSettings {
  mode: "bytes" | "fields" | undefined;
  list: string;
  delim: string;
  /** -d was given: GNU cut refuses it with -b/-c rather than ignore it. */
  delimSet: boolean;
  onlyDelimited: boolean;
  complement: boolean;
  outDelim: string | undefined;
}

/** cut's complaint about its command line, then where to read more; exit status 1. */
function usage(io: CommandIo, message: string): number {
  io.fail(message);
  io.out.error("Try 'cut --help' for more information.\n");
  return 1;
}

/** -b, -c, -f: the one list of what to select. */
function listOf(mode: "bytes" | "fields"): OptionRow<CutSettings, CommandIo>["apply"] {
  return (s, value, io) => {
    if (s.mode !== undefined) return usage(io, "only one type of list may be specified");
    s.mode = mode;
    s.list = value;
    return undefined;
  };
}

/** Every option cut accepts, as GNU coreutils spells it, with what it does to the settings. */
const CUT_OPTIONS: readonly OptionRow<CutSettings, CommandIo>[] = [
  { key: "b", short: "b", long: "bytes", value: true, apply: listOf("bytes") },
  // GNU cut counts bytes even for -c.
  { key: "c", short: "c", long: "characters", value: true, apply: listOf("bytes") },
  { key: "f", short: "f", long: "fields", value: true, apply: listOf("fields") },
  {
    key: "d",
    short: "d",
    long: "delimiter",
    value: true,
    apply: (s, v, io) => {
      if ([...v].length > 1) return usage(io, "the delimiter must be a single character");
      s.delim = v === "" ? "\0" : v;
      s.delimSet = true;
      return undefined;
    },
  },
  { key: "s", short: "s", long: "only-delimited", apply: (s) => void (s.onlyDelimited = true) },
  { key: "complement", long: "complement", apply: (s) => void (s.complement = true) },
  { key: "output-delimiter", long: "output-delimiter", value: true, apply: (s, v) => void (s.outDelim = v) },
  // -n (do not split characters) has nothing to do when -c counts bytes; NUL-terminated lines are not docs.
  { key: "n", short: "n" },
  { key: "z", short: "z", long: "zero-terminated" },
];

const HELP = `Usage: cut OPTION... [FILE]...
Print selected parts of lines from each FILE to standard output.

  -b, --bytes=LIST        select only these bytes
  -c, --characters=LIST   select only these characters (bytes, as GNU cut does)
  -d, --delimiter=DELIM   use DELIM instead of TAB for field delimiter
  -f, --fields=LIST       select only these fields; also print any line
                            that contains no delimiter character, unless -s
      --complement        complement the set of selected bytes, characters or fields
  -s, --only-delimited    do not print lines not containing delimiters
      --output-delimiter=STRING  use STRING as the output delimiter

LIST is made up of ranges separated by commas: N, N-, N-M, -M (counted from 1).
`;

type Range = [number, number];

function parseList(list: string): Range[] | string {
  const ranges: Range[] = [];
  for (const part of list.split(/[, ]/)) {
    const m = /^(\d*)(-?)(\d*)$/.exec(part);
    if (m === null || part === "" || part === "-") return `invalid field value \u2018${part}\u2019`;
    const lo = m[1] === "" ? 1 : Number(m[1]);
    const hi = m[2] === "" ? lo : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
    if (lo === 0 || (m[3] !== "" && Number(m[3]) === 0)) return "fields and positions are numbered from 1";
    if (hi < lo) return "invalid decreasing range";
    ranges.push([lo, hi]);
  }
  return ranges;
}

function selected(ranges: readonly Range[], n: number, complement: boolean): boolean {
  const inside = ranges.some(([lo, hi]) => n >= lo && n <= hi);
  return complement ? !inside : inside;
}

function runCut(args: string[], io: CommandIo): number {
  const parsed = parseOptions(args, CUT_OPTIONS, { abbreviations: true });
  const settings: CutSettings = { mode: undefined, list: "", delim: "\t", delimSet: false, onlyDelimited: false, complement: false, outDelim: undefined };
  const stopped = applyOptions(parsed, CUT_OPTIONS, settings, io);
  if (stopped !== undefined) return stopped;
  const { mode, list, delim, onlyDelimited, complement, outDelim } = settings;
  if (mode === undefined) return usage(io, "you must specify a list of bytes, characters, or fields");
  // GNU cut 9.1 checks these before it reads the list (`cut -c0 -d,` names the delimiter).
  if (settings.delimSet && mode !== "fields") return usage(io, "an input delimiter may be specified only when operating on fields");
  if (onlyDelimited && mode !== "fields") return usage(io, "suppressing non-delimited lines makes sense\n\tonly when operating on fields");
  const ranges = parseList(list);
  if (typeof ranges === "string") return usage(io, ranges);
  let status = 0;
  for (const input of readInputs(io, parsed.operands)) {
    // Written per input, so that an error for a later input comes after (under `2>&1`).
    const out: string[] = [];
    if (!input.ok) {
      io.fail(`${quotef(input.name)}: ${input.reason}`);
      status = 1;
      continue;
    }
    for (const line of splitLines(input.text)) {
      if (mode === "fields") {
        if (!line.includes(delim)) {
          if (!onlyDelimited) out.push(line);
          continue;
        }
        const fields = line.split(delim);
        out.push(fields.filter((_f, k) => selected(ranges, k + 1, complement)).join(outDelim ?? delim));
      } else {
        // GNU cut counts bytes even for -c.
        const bytes = bytesOfText(line);
        const pieces: Buffer[] = [];
        let run: number[] = [];
        for (let k = 0; k < bytes.length; k++) {
          if (selected(ranges, k + 1, complement)) {
            run.push(bytes[k] as number);
          } else if (run.length > 0) {
            pieces.push(Buffer.from(run));
            run = [];
          }
        }
        if (run.length > 0) pieces.push(Buffer.from(run));
        out.push(outDelim === undefined ? textFromBytes(Buffer.concat(pieces)) : pieces.map((p) => textFromBytes(p)).join(outDelim));
      }
    }
    if (out.length > 0 && !io.out.write(`${out.join("\n")}\n`)) break;
  }
  return status;
}

export const cutCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "cut", help: HELP, run: runCut, usageExitCode: 1 });
