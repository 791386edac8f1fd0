import { type CommandIo, docsCommand } from "../lib/command.js";
import { readBytes } from "../lib/byte-inputs.js";
import { type OptionRow, applyOptions, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

/** What one tac call does, read from its command line. */
interface TacSettings {
  /** -b: a record's separator is written before it rather than after it. */
  before: boolean;
  /** -s: the separator, in bytes (one character per byte). */
  separator: string;
}

const OPTIONS: readonly OptionRow<TacSettings, CommandIo>[] = [
  { key: "b", short: "b", long: "before", apply: (s) => void (s.before = true) },
  {
    key: "r",
    short: "r",
    long: "regex",
    apply: (_s, _v, io) => {
      io.fail("--regex is not supported in the docs shell (use a literal separator)");
      return 1;
    },
  },
  { key: "s", short: "s", long: "separator", value: true, apply: (s, v) => void (s.separator = Buffer.from(v, "utf8").toString("latin1")) },
];

const HELP = `Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

With no FILE, or when FILE is -, read standard input.

  -b, --before             attach the separator before instead of after
  -s, --separator=STRING   use STRING as the separator instead of newline
`;

/**
 * GNU tac on one input (bytes as latin1 text): records end with the separator (or, under -b,
 * start with it) and are written last first; a last record without its separator stays without
 * (`printf '1\n2\n3' | tac` prints `32\n1\n`).
 */
function reverseRecords(text: string, separator: string, before: boolean): string {
  if (text === "") return text;
  const parts = text.split(separator);
  const records: string[] = [];
  if (before) {
    // The first part has no separator before it; every later part starts with one.
    if (parts[0] !== "") records.push(parts[0] as string);
    for (let i = 1; i < parts.length; i++) records.push(separator + (parts[i] as string));
  } else {
    for (let i = 0; i < parts.length - 1; i++) records.push((parts[i] as string) + separator);
    const last = parts[parts.length - 1] as string;
    if (last !== "") records.push(last);
  }
  return records.reverse().join("");
}

function runTac(args: string[], io: CommandIo): number {
  const parsed = parseOptions(args, OPTIONS, { abbreviations: true });
  const settings: TacSettings = { before: false, separator: "\n" };
  const stopped = applyOptions(parsed, OPTIONS, settings, io);
  if (stopped !== undefined) return stopped;
  // GNU tac's separator is a C string: an empty one is its terminating NUL (`tac -s ''` reverses NUL-ended records).
  if (settings.separator === "") settings.separator = "\0";
  let status = 0;
  for (const name of parsed.operands.length === 0 ? ["-"] : parsed.operands) {
    const input = readBytes(io, name);
    if (!input.ok) {
      // tac opens, then reads: a folder opens and fails to read.
      io.fail(input.reason === "Is a directory" ? `${name}: read error: Invalid argument` : `failed to open '${name}' for reading: ${input.reason}`);
      status = 1;
      continue;
    }
    if (!io.out.write(reverseRecords(input.bytes.toString("latin1"), settings.separator, settings.before))) break;
  }
  return status;
}

export const tacCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "tac", help: HELP, run: runTac, usageExitCode: 1, writesBytes: true });
