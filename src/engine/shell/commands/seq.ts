import type { Command, CommandContext } from "just-bash";
import { appendAll } from "../../../arrays.js";
import { LIMITS } from "../../../limits.js";
import { type FloatSpec, formatFloat } from "../lib/c-float-format.js";
import type { ShellCommandFactory } from "./command.js";

/**
 * seq: just-bash's, with GNU seq 9.1's `-f FORMAT` (`--format`), which just-bash did not know
 * (`seq -f %g 1 3` said `invalid floating point argument: '-f'`). A command line with `-f` is
 * run here: the format is checked as GNU's `long_double_format` checks it (one `%` directive of
 * `efgaEFGA`, with GNU's message for none, an unknown one, a `%` at the end or two), each number
 * is FIRST + i * INCREMENT written by that directive (`c-float-format.ts`), and the last one is
 * also written when its text equals LAST's (GNU's rule for `seq -f %g 0 0.1 1`, whose sum
 * passes 1). Numbers are doubles where GNU's are long doubles: a precision past 17 digits
 * (`%.30g`) shows the double's digits. Any other command line goes to just-bash's seq.
 */

/** GNU's quoting of a format or argument in its messages (a UTF-8 locale). */
const quoted = (text: string): string => `‘${text}’`;

const TRY = "Try 'seq --help' for more information.\n";

/** The parts of a checked format: the text before and after its directive (`%%` already one `%`), and the directive. */
interface SeqFormat {
  readonly before: string;
  readonly spec: FloatSpec;
  readonly after: string;
}

/** GNU seq's check of FORMAT (long_double_format): the format, or GNU's message. */
export function seqFormat(format: string): SeqFormat | string {
  let i = 0;
  for (; !(format[i] === "%" && format[i + 1] !== "%"); i += format[i] === "%" ? 2 : 1) {
    if (i >= format.length) return `seq: format ${quoted(format)} has no % directive\n`;
  }
  const start = i;
  i++;
  const flags = /^[-+#0 ']*/.exec(format.slice(i))?.[0] ?? "";
  i += flags.length;
  const width = /^\d*/.exec(format.slice(i))?.[0] ?? "";
  i += width.length;
  let precision: number | undefined;
  if (format[i] === ".") {
    i++;
    const digits = /^\d*/.exec(format.slice(i))?.[0] ?? "";
    i += digits.length;
    precision = Number(digits === "" ? "0" : digits);
  }
  if (format[i] === "L") i++;
  const conversion = format[i];
  if (conversion === undefined) return `seq: format ${quoted(format)} ends in %\n`;
  if (!"efgaEFGA".includes(conversion)) return `seq: format ${quoted(format)} has unknown %${conversion} directive\n`;
  for (let j = i + 1; j < format.length; j += format[j] === "%" ? 2 : 1) {
    if (format[j] === "%" && format[j + 1] !== "%") return `seq: format ${quoted(format)} has too many % directives\n`;
  }
  return {
    before: format.slice(0, start).replace(/%%/g, "%"),
    spec: { flags, width: width === "" ? 0 : Number(width), precision, conversion },
    after: format.slice(i + 1).replace(/%%/g, "%"),
  };
}

/** A number operand as GNU seq reads it (strtold over the whole text), or undefined. */
function seqNumber(text: string): number | undefined {
  const m = /^[ \t\n\v\f\r]*([+-]?)(?:(inf(?:inity)?)|((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?))$/i.exec(text);
  if (m === null) return undefined;
  const value = m[2] !== undefined ? Infinity : Number(m[3]);
  return m[1] === "-" ? -value : value;
}

/** The command line read: FORMAT, -s, -w and the operands, or GNU's message. */
function parse(args: readonly string[]): { format: string | undefined; separator: string; equalWidth: boolean; operands: string[] } | string {
  let format: string | undefined;
  let separator = "\n";
  let equalWidth = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    // A negative number is an operand, as GNU seq reads it.
    if (operands.length > 0 || a === "-" || !a.startsWith("-") || /^-[\d.]/.test(a)) {
      operands.push(a);
      continue;
    }
    if (a === "--") {
      appendAll(operands, args.slice(i + 1));
      break;
    }
    const long = /^--(format|separator|equal-width)(?:=(.*))?$/s.exec(a);
    if (long !== null) {
      if (long[1] === "equal-width") equalWidth = true;
      else {
        const value = long[2] ?? args[++i];
        if (value === undefined) return `seq: option '--${long[1] as string}' requires an argument\n${TRY}`;
        if (long[1] === "format") format = value;
        else separator = value;
      }
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j] as string;
      if (c === "w") equalWidth = true;
      else if (c === "f" || c === "s") {
        const value = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        if (value === undefined) return `seq: option requires an argument -- '${c}'\n${TRY}`;
        if (c === "f") format = value;
        else separator = value;
        break;
      } else return `seq: invalid option -- '${c}'\n${TRY}`;
    }
  }
  return { format, separator, equalWidth, operands };
}

/** GNU seq -f: the output, or an error; each number is one step of the call's work budget. */
function formatted(args: readonly string[], ctx: CommandContext): { stdout: string; stderr: string; exitCode: number } {
  const fail = (stderr: string) => ({ stdout: "", stderr, exitCode: 1 });
  const line = parse(args);
  if (typeof line === "string") return fail(line);
  if (line.format === undefined) return fail("seq: internal: no format\n");
  if (line.operands.length === 0) return fail(`seq: missing operand\n${TRY}`);
  if (line.operands.length > 3) return fail(`seq: extra operand ${quoted(line.operands[3] as string)}\n${TRY}`);
  const values: number[] = [];
  for (const o of line.operands) {
    const v = seqNumber(o);
    if (v === undefined) return fail(`seq: invalid floating point argument: ${quoted(o)}\n${TRY}`);
    values.push(v);
  }
  if (line.equalWidth) return fail(`seq: format string may not be specified when printing equal width strings\n${TRY}`);
  const format = seqFormat(line.format);
  if (typeof format === "string") return fail(format);
  const [first, step, last] = values.length === 1 ? [1, 1, values[0] as number] : values.length === 2 ? [values[0] as number, 1, values[1] as number] : (values as [number, number, number]);
  if (step === 0) return fail(`seq: invalid Zero increment value: ${quoted(line.operands[1] as string)}\n${TRY}`);
  const text = (x: number): string => format.before + formatFloat(x, format.spec) + format.after;
  const budget = Math.min(ctx.limits?.maxOutputSize ?? LIMITS.shell.maxInternalOutputBytes, LIMITS.shell.maxInternalOutputBytes);
  const parts: string[] = [];
  let size = 0;
  const lastText = text(last);
  let previous = Number.NaN;
  for (let i = 0; ; i++) {
    ctx.coverage?.hit("seq:step");
    // FIRST itself first (-0 stays -0); a sum that no longer moves (1e20 + 1) ends the list.
    const x = i === 0 ? first : first + i * step;
    if (x === previous) break;
    previous = x;
    const past = step > 0 ? x > last : x < last;
    if (past) {
      // GNU prints a number past LAST when its text is LAST's (the sum's rounding passed it).
      if (i > 0 && text(x) === lastText && parts[parts.length - 1] !== lastText) parts.push(lastText);
      break;
    }
    const t = text(x);
    parts.push(t);
    size += t.length + line.separator.length;
    if (size > budget) return { stdout: "", stderr: `seq: output stopped after ${budget} bytes (limit); narrow the command\n`, exitCode: 2 };
  }
  return { stdout: parts.length === 0 ? "" : `${parts.join(line.separator)}\n`, stderr: "", exitCode: 0 };
}

export const seqCommand: ShellCommandFactory = (): Command => ({
  name: "seq",
  async execute(args: string[], ctx: CommandContext) {
    const line = parse(args);
    // A command line with -f (or --format) is GNU's to the end, its mistakes included.
    const formats = args.some((a) => /^(?:-[ws]*f|--format)/.test(a));
    if (!formats || (typeof line !== "string" && line.format === undefined)) {
      if (ctx.origCommand === undefined) return { stdout: "", stderr: "seq: not available\n", exitCode: 127 };
      return ctx.origCommand(args);
    }
    return formatted(args, ctx);
  },
});
