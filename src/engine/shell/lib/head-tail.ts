import type { CommandIo } from "./command.js";
import { type Count, parseCount } from "./counts.js";
import { readInputs } from "./inputs.js";
import { type OptionRow, type ParsedArgs, applyOptions } from "./options.js";

/** What `head` and `tail` print: how much of each input, and whether with headers. */
export interface SliceRequest {
  mode: "lines" | "bytes";
  count: Count;
  /** `-q` false, `-v` true; undefined: headers when there are several inputs. */
  headers: boolean | undefined;
}

/** Where a slice option's mistake is told, and whether a `+NUM` count is one (head) or not (tail: "from NUM"). */
export interface SliceContext {
  readonly io: CommandIo;
  readonly plus: "refused" | "allowed";
}

type SliceRow = OptionRow<SliceRequest, SliceContext>;

/** `-n`/`-c NUM`: the last one wins, as in GNU; a bad count stops the command with status 1. */
function countOf(mode: SliceRequest["mode"]): SliceRow["apply"] {
  return (s, value, { io, plus }) => {
    const c = parseCount(value);
    if (c === undefined || (plus === "refused" && c.sign === "+")) {
      io.fail(`invalid number of ${mode}: \u2018${value}\u2019`);
      return 1;
    }
    s.mode = mode;
    s.count = c;
    return undefined;
  };
}

/** The options `head` and `tail` share (`tail` adds `-f`); `head`'s `-NUM` arrives as `n`. */
export const SLICE_OPTIONS: readonly SliceRow[] = [
  { key: "n", short: "n", long: "lines", value: true, apply: countOf("lines") },
  { key: "c", short: "c", long: "bytes", value: true, apply: countOf("bytes") },
  { key: "q", short: "q", long: ["quiet", "silent"], apply: (s) => void (s.headers = false) },
  { key: "v", short: "v", long: "verbose", apply: (s) => void (s.headers = true) },
];

/** Apply the slice options of `parsed` to `start`; the exit status when one stops the command. */
export function readSliceOptions(parsed: ParsedArgs, rows: readonly SliceRow[], start: SliceRequest, context: SliceContext): SliceRequest | number {
  const settings = { ...start };
  return applyOptions(parsed, rows, settings, context) ?? settings;
}

/**
 * Print `slice(text)` of each operand (stdin without any), with `==> NAME <==` headers as GNU
 * head and tail print them, and their messages for inputs that cannot be opened or read.
 */
export function printSlices(io: CommandIo, operands: readonly string[], headers: boolean | undefined, slice: (text: string) => string): number {
  const inputs = readInputs(io, operands);
  const showHeaders = headers ?? inputs.length > 1;
  let status = 0;
  let first = true;
  for (const input of inputs) {
    io.checkTime();
    if (!input.ok && !input.isDir) {
      io.fail(`cannot open '${input.name}' for reading: ${input.reason}`);
      status = 1;
      continue;
    }
    if (showHeaders) {
      io.out.write(`${first ? "" : "\n"}==> ${input.name === "-" ? "standard input" : input.name} <==\n`);
    }
    first = false;
    if (!input.ok) {
      io.fail(`error reading '${input.name}': ${input.reason}`);
      status = 1;
      continue;
    }
    if (!io.out.write(slice(input.text))) break;
  }
  return status;
}
