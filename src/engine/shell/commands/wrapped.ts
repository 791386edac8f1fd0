import type { Command, CommandContext } from "just-bash";
import { MERGE_STDERR_ENV } from "../merge-stderr.js";
import type { ShellCommandFactory } from "./command.js";

/**
 * just-bash built-ins kept, with their arguments corrected on the way in where they differ
 * from GNU coreutils:
 * - `paste` with no FILE reads standard input (`seq 3 | paste -sd,`); just-bash wants `-`;
 * - `tr` understands octal escapes (`tr '\0' '\n'` after `find -print0`); just-bash reads
 *   `\0` as the digit 0; `-t` (truncate SET1 to SET2's length), which just-bash refuses, is
 *   applied here when SET1 is characters and ranges.
 */
function wrap(name: string, rewrite: (args: readonly string[]) => Rewritten): ShellCommandFactory {
  return (): Command => ({
    name,
    async execute(args: string[], ctx: CommandContext) {
      if (ctx.origCommand === undefined) return { stdout: "", stderr: `${name}: not available\n`, exitCode: 127 };
      const rewritten = rewrite(args);
      if (Array.isArray(rewritten)) return ctx.origCommand(rewritten);
      const result = rewritten.error === undefined ? await ctx.origCommand(rewritten.args) : { stdout: "", stderr: rewritten.error, exitCode: 1 };
      if (rewritten.warnings === "") return result;
      // The warnings come before anything the command writes (GNU tr prints them as it reads its
      // sets); they are ASCII, so the same in a byte stdout and a text one.
      if (ctx.env.get(MERGE_STDERR_ENV) === "1") return { ...result, stdout: rewritten.warnings + result.stdout };
      return { ...result, stderr: rewritten.warnings + result.stderr };
    },
  });
}

/** The arguments handed on, and what the real tool warns about them on stderr. */
type Rewritten = string[] | { readonly args: string[]; readonly warnings: string; readonly error?: string };

/** paste: `-` when no FILE is named. */
export function pasteArguments(args: readonly string[]): string[] {
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--") {
      operands += args.length - i - 1;
      break;
    }
    if (a === "-d") i++;
    else if (a === "-" || !a.startsWith("-")) operands++;
  }
  return operands === 0 ? [...args, "-"] : [...args];
}

/** tr: octal escapes (`\0`, `\012`) in the sets become the characters (below 0x80) or bytes they name; `-t` cuts SET1. */
export function trArguments(args: readonly string[]): { args: string[]; warnings: string; error?: string } {
  const warnings: string[] = [];
  const escaped = trEscapes(args, warnings);
  // GNU tr counts its operands before it reads the sets: a wrong count is its error alone.
  if (!readsSets(args)) return { args: trTruncated(escaped), warnings: "" };
  const reversed = reversedRange(escaped);
  return reversed === undefined ? { args: trTruncated(escaped), warnings: warnings.join("") } : { args: [], warnings: warnings.join(""), error: reversed };
}

/**
 * GNU tr's error for a range whose end comes before its start (`z-a`; `a-\777`, whose end is
 * `\077`, `?`), which just-bash ignored (the range matched nothing and tr went on, exit 0).
 * tr works on bytes: an endpoint is the byte next to the `-` (the last byte of `é` before it),
 * shown as itself when printable ASCII and as `\ooo` otherwise, as GNU's message does. Sets
 * with `[` constructs are left to just-bash. `escaped`: the arguments after `trEscapes`.
 */
function reversedRange(escaped: readonly string[]): string | undefined {
  let options = true;
  for (const a of escaped) {
    if (options && a === "--") {
      options = false;
      continue;
    }
    if (options && a.startsWith("-") && a.length > 1) continue;
    options = false;
    if (a.includes("[")) continue;
    // One entry per element: a `\X` escape is its character, anything else itself.
    const elements: string[] = [];
    const units = [...a];
    for (let i = 0; i < units.length; i++) {
      const c = units[i] as string;
      if (c === "\\" && i + 1 < units.length) {
        const e = units[++i] as string;
        elements.push(({ n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v" } as Record<string, string>)[e] ?? e);
      } else elements.push(c === "-" ? "\u0000-" : c);
    }
    for (let i = 0; i + 2 < elements.length; i++) {
      if (elements[i + 1] !== "\u0000-" || elements[i] === "\u0000-") continue;
      const start = trBytes(elements[i] as string);
      const end = trBytes(elements[i + 2] as string);
      const from = start[start.length - 1] as number;
      const to = end[0] as number;
      if (to < from) return `tr: range-endpoints of '${trShown(from)}-${trShown(to)}' are in reverse collating sequence order\n`;
      i += 2;
    }
  }
  return undefined;
}

/** The bytes of one element of a set: a held byte (U+DC80-U+DCFF) is its byte, a `-` marker a `-`, any other character its UTF-8. */
function trBytes(c: string): number[] {
  if (c === "\u0000-") return [0x2d];
  const code = c.charCodeAt(0);
  if (c.length === 1 && code >= 0xdc80 && code <= 0xdcff) return [code - 0xdc00];
  return [...Buffer.from(c, "utf8")];
}

/** A byte as GNU tr's message shows it. */
function trShown(byte: number): string {
  return byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\${byte.toString(8).padStart(3, "0")}`;
}

/** Whether GNU tr gets as far as reading its sets: as many operands as its options want (options end at the first operand: `tr a -d` translates to `-d`). */
function readsSets(args: readonly string[]): boolean {
  let del = false;
  let squeeze = false;
  let operands = 0;
  let options = true;
  for (const a of args) {
    if (options && a === "--") options = false;
    else if (options && /^-[cCdst]+$/.test(a)) {
      del ||= a.includes("d");
      squeeze ||= a.includes("s");
    } else if (options && a.startsWith("--") && a.length > 2) {
      del ||= a === "--delete";
      squeeze ||= a === "--squeeze-repeats";
    } else {
      options = false;
      operands++;
    }
  }
  // coreutils' tr.c: at least 1 + (delete == squeeze) operands, at most 1 + (delete <= squeeze).
  return operands >= 1 + (del === squeeze ? 1 : 0) && operands <= 1 + (!del || squeeze ? 1 : 0);
}

/** `-t`: SET1 cut to SET2's length (just-bash refuses the option). */
function trTruncated(escaped: string[]): string[] {
  let truncate = false;
  const rest: string[] = [];
  let operands = false;
  for (const a of escaped) {
    if (!operands && (a === "-t" || a === "--truncate-set1")) truncate = true;
    else if (!operands && /^-[cCdst]+$/.test(a) && a.includes("t")) {
      truncate = true;
      rest.push(a.replace(/t/g, ""));
    } else {
      if (a === "--" || !a.startsWith("-") || a === "-") operands = true;
      rest.push(a);
    }
  }
  if (!truncate) return escaped;
  const at = rest.findIndex((a, i) => a === "--" || !a.startsWith("-") || a === "-" || (i > 0 && rest[i - 1] === "--"));
  const first = rest[at] === "--" ? at + 1 : at;
  const set1 = rest[first];
  const set2 = rest[first + 1];
  const chars1 = set1 === undefined ? undefined : trSetChars(set1);
  const chars2 = set2 === undefined ? undefined : trSetChars(set2);
  // SET1 with classes or equivalence classes: just-bash's own message (-t is not supported).
  if (chars1 === undefined || chars2 === undefined) return escaped;
  const out = [...rest];
  out[first] = chars1.slice(0, chars2.length).map(trLiteral).join("");
  return out;
}

/** A set of only characters, escapes and ranges, one entry per character; undefined for anything else. */
function trSetChars(set: string): string[] | undefined {
  if (/\[:|\[=|\*/.test(set)) return undefined;
  const chars: string[] = [];
  const units = [...set];
  for (let i = 0; i < units.length; i++) {
    let c = units[i] as string;
    if (c === "\\" && i + 1 < units.length) {
      const e = units[++i] as string;
      c = ({ n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v", "\\": "\\" } as Record<string, string>)[e] ?? e;
    }
    if (units[i + 1] === "-" && i + 2 < units.length) {
      const end = units[i + 2] as string;
      if (end === "\\") return undefined;
      const from = c.codePointAt(0) as number;
      const to = end.codePointAt(0) as number;
      if (to < from) return undefined;
      for (let cp = from; cp <= to; cp++) chars.push(String.fromCodePoint(cp));
      i += 2;
      continue;
    }
    chars.push(c);
  }
  return chars;
}

/** One character of a set as tr reads it literally. */
function trLiteral(c: string): string {
  return c === "\\" ? "\\\\" : c === "-" ? "\\-" : c === "[" ? "\\[" : c;
}

/** Octal escapes in every argument; GNU tr's warning for each of three digits past `\377` goes to `warnings`. */
function trEscapes(args: readonly string[], warnings: string[]): string[] {
  return args.map((a) => {
    if (a.startsWith("-") && a.length > 1 && !a.includes("\\")) return a;
    let out = "";
    for (let i = 0; i < a.length; i++) {
      const c = a[i] as string;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const octal = /^[0-7]{1,3}/.exec(a.slice(i + 1));
      if (octal !== null) {
        let digits = octal[0];
        // Three digits past \377 do not fit a byte: GNU tr 9.1 takes the first two and leaves the
        // third a character of the set, with a warning (`\400` is a space, then `0`); the bits
        // past the byte were dropped, so `\400` was NUL.
        if (digits.length === 3 && digits >= "400") {
          warnings.push(`tr: warning: the ambiguous octal escape \\${digits} is being\n\tinterpreted as the 2-byte sequence \\0${digits.slice(0, 2)}, ${digits[2] as string}\n`);
          digits = digits.slice(0, 2);
        }
        // A byte 0x80-0xff is held as the placeholder text read from bytes has for it (the one
        // byte rule, docs/shell.md), so `tr '\377' x` meets the byte ff of its input and
        // `tr a '\377'` writes that byte; as U+0080-U+00FF it met neither and wrote two bytes.
        const byte = Number.parseInt(digits, 8);
        out += String.fromCharCode(byte < 0x80 ? byte : 0xdc00 + byte);
        i += digits.length;
      } else {
        out += c + (a[i + 1] ?? "");
        i++;
      }
    }
    return out;
  });
}

export const pasteCommand = wrap("paste", pasteArguments);
export const trCommand = wrap("tr", trArguments);
