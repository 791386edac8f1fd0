import type { CommandIo } from "./command.js";
import { type Count, parseCount } from "./counts.js";
import { readInputs } from "./inputs.js";
import type { ParsedOption } from "./options.js";

/** What `head` and `tail` print: how much of each input, and whether with headers. */
export interface SliceRequest {
  readonly mode: "lines" | "bytes";
  readonly count: Count;
  /** `-q` false, `-v` true; undefined: headers when there are several inputs. */
  readonly headers: boolean | undefined;
}

/**
 * Read the options `head` and `tail` share: `-n`/`-c NUM` (the last one wins), `-q`, `-v`.
 * `head` refuses a `+NUM`; tail reads it as "from line NUM". Returns the exit status on a bad count.
 */
export function readSliceOptions(options: readonly ParsedOption[], io: CommandIo, start: SliceRequest, plus: "refused" | "allowed"): SliceRequest | number {
  let { mode, count, headers } = start;
  for (const o of options) {
    if (o.key === "n" || o.key === "c") {
      const c = parseCount(o.value);
      if (c === undefined || (plus === "refused" && c.sign === "+")) {
        io.fail(`invalid number of ${o.key === "n" ? "lines" : "bytes"}: \u2018${o.value}\u2019`);
        return 1;
      }
      mode = o.key === "n" ? "lines" : "bytes";
      count = c;
    } else if (o.key === "q") headers = false;
    else if (o.key === "v") headers = true;
  }
  return { mode, count, headers };
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
