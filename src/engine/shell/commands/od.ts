import { appendAll, maxOf } from "../../../arrays.js";
import { readBytes } from "../lib/byte-inputs.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { OptionError, type OptionSpec, parseOptions } from "../lib/options.js";
import type { ShellCommandFactory } from "./command.js";

/**
 * od as GNU coreutils 9.1 prints it (issue 25): `-t` types a, c, d, o, u, x with sizes 1, 2, 4
 * and 8 (C, S, I, L) and the `z` trailer, the traditional -a -b -c -d -h -i -l -o -s -x, `-A`,
 * `-j`, `-N`, `-v` and `-w`; fields aligned across types and repeated lines shown as `*`, with
 * GNU's padding arithmetic. Floating-point types are refused. The input is the operands' bytes
 * in order, as one stream (little-endian, as on the machines GNU od runs on here).
 */

/** One output type: how wide a datum is and how one prints. */
interface OdType {
  readonly kind: "a" | "c" | "d" | "o" | "u" | "x";
  /** Bytes per datum. */
  readonly size: number;
  /** Characters one field takes (without the separating space). */
  readonly width: number;
  /** `z`: `>...<` with the printable bytes after the line. */
  readonly trailer: boolean;
}

/** Digits of the largest value of each size: coreutils' bytes_to_*_digits tables. */
const DIGITS: Readonly<Record<OdType["kind"], readonly number[]>> = {
  o: [0, 3, 6, 8, 11, 14, 16, 19, 22],
  x: [0, 2, 4, 6, 8, 10, 12, 14, 16],
  u: [0, 3, 5, 8, 10, 13, 15, 17, 20],
  d: [1, 4, 6, 8, 11, 13, 16, 18, 20],
  a: [],
  c: [],
};

/** `-t a` names of the control characters (and `sp`), the byte's high bit dropped. */
const NAMES = [
  "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si",
  "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp",
];

/** `-t c` escapes, as GNU od spells them. */
const ESCAPES: Readonly<Record<number, string>> = { 0: "\\0", 7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v" };

const SIZE_LETTERS: Readonly<Record<string, number>> = { C: 1, S: 2, I: 4, L: 8 };

class OdError extends Error {
  override readonly name = "OdError";
}

/** The types one `-t` string names (`x1z`, `cx2`, `d`). */
function parseTypes(spec: string): OdType[] {
  const out: OdType[] = [];
  let i = 0;
  while (i < spec.length) {
    const kind = spec[i] as string;
    const start = i++;
    if (kind === "a" || kind === "c") {
      const trailer = spec[i] === "z";
      if (trailer) i++;
      out.push({ kind, size: 1, width: 3, trailer });
      continue;
    }
    if (kind === "f") throw new OdError(`floating-point types are not supported in the docs shell (type string '${spec}')`);
    if (kind !== "d" && kind !== "o" && kind !== "u" && kind !== "x") throw new OdError(`invalid character '${kind}' in type string \u2018${spec}\u2019`);
    let size = 4;
    const letter = SIZE_LETTERS[spec[i] ?? ""];
    if (letter !== undefined) {
      size = letter;
      i++;
    } else if (/\d/.test(spec[i] ?? "")) {
      let j = i;
      while (/\d/.test(spec[j] ?? "")) j++;
      size = Number(spec.slice(i, j));
      i = j;
      if (![1, 2, 4, 8].includes(size)) {
        throw new OdError(`invalid type string \u2018${spec.slice(start, i)}\u2019;\nthis system doesn't provide a ${size}-byte integral type`);
      }
    }
    const trailer = spec[i] === "z";
    if (trailer) i++;
    out.push({ kind, size, width: DIGITS[kind][size] as number, trailer });
  }
  return out;
}

/** A byte count as od reads one (`0x10`, `010` octal, `1k`, `2b` of 512). */
function parseCount(text: string, option: string): number {
  const m = /^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)(b|k|K|m|M|G|kB|KB|MB|GB)?$/.exec(text);
  if (m === null) throw new OdError(`invalid ${option} argument '${text}'`);
  const digits = m[1] as string;
  const base = /^0[xX]/.test(digits) ? parseInt(digits.slice(2), 16) : digits.length > 1 && digits.startsWith("0") ? parseInt(digits, 8) : Number(digits);
  const unit: Record<string, number> = { b: 512, k: 1024, K: 1024, m: 1 << 20, M: 1 << 20, G: 1 << 30, kB: 1000, KB: 1000, MB: 1e6, GB: 1e9 };
  return base * (unit[m[2] ?? ""] ?? 1);
}

/** One datum of `type` at `at` in `block`, as text (without padding). */
function datum(type: OdType, block: Buffer, at: number): string {
  const b = block[at] as number;
  switch (type.kind) {
    case "a": {
      const c = b & 0x7f;
      return c === 0x7f ? "del" : c <= 32 ? (NAMES[c] as string) : String.fromCharCode(c);
    }
    case "c":
      return ESCAPES[b] ?? (b >= 32 && b < 127 ? String.fromCharCode(b) : b.toString(8).padStart(3, "0"));
    default: {
      let unsigned = 0n;
      for (let k = type.size - 1; k >= 0; k--) unsigned = (unsigned << 8n) | BigInt(block[at + k] as number);
      if (type.kind === "d") return BigInt.asIntN(type.size * 8, unsigned).toString();
      if (type.kind === "u") return unsigned.toString();
      return unsigned.toString(type.kind === "o" ? 8 : 16).padStart(type.width, "0");
    }
  }
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

const RADIX: Readonly<Record<string, { base: number; width: number } | undefined>> = {
  o: { base: 8, width: 7 },
  d: { base: 10, width: 7 },
  x: { base: 16, width: 6 },
  n: undefined,
};

/** What one od call prints, read from its command line. */
interface OdSettings {
  types: OdType[];
  radix: string;
  skip: number;
  limit: number | undefined;
  width: number | undefined;
  all: boolean;
}

const OPTIONS: readonly OptionSpec[] = [
  { key: "A", short: "A", long: "address-radix", value: true },
  { key: "j", short: "j", long: "skip-bytes", value: true },
  { key: "N", short: "N", long: "read-bytes", value: true },
  { key: "t", short: "t", long: "format", value: true },
  { key: "v", short: "v", long: "output-duplicates" },
  { key: "w", short: "w", long: "width", value: true },
  ...["a", "b", "c", "d", "h", "i", "l", "o", "s", "x"].map((c) => ({ key: c, short: c })),
];

/** The traditional one-letter types. */
const LEGACY: Readonly<Record<string, string>> = { a: "a", b: "o1", c: "c", d: "u2", h: "x2", i: "dI", l: "dL", o: "o2", s: "d2", x: "x2" };

/** `-w` and `--width` take an optional value: alone they mean 32. */
function withWidthDefault(args: readonly string[]): string[] {
  const out: string[] = [];
  let done = false;
  for (const a of args) {
    if (!done && a === "--") done = true;
    if (!done && a === "--width") out.push("--width=32");
    else if (!done && /^-[^-]*w$/.test(a)) out.push(`${a}32`);
    else out.push(a);
  }
  return out;
}

function readSettings(args: readonly string[]): { settings: OdSettings; operands: readonly string[] } {
  const parsed = parseOptions(withWidthDefault(args), OPTIONS, { abbreviations: true });
  const s: OdSettings = { types: [], radix: "o", skip: 0, limit: undefined, width: undefined, all: false };
  for (const o of parsed.options) {
    switch (o.key) {
      case "A":
        if (o.value.length !== 1 || !(o.value in RADIX)) throw new OdError(`invalid output address radix '${o.value}'; it must be one character from [doxn]`);
        s.radix = o.value;
        break;
      case "j":
        s.skip = parseCount(o.value, "-j");
        break;
      case "N":
        s.limit = parseCount(o.value, "-N");
        break;
      case "t":
        appendAll(s.types, parseTypes(o.value));
        break;
      case "v":
        s.all = true;
        break;
      case "w":
        s.width = /^\d+$/.test(o.value) ? Number(o.value) : parseCount(o.value, "-w");
        break;
      default:
        appendAll(s.types, parseTypes(LEGACY[o.key] as string));
    }
  }
  if (s.types.length === 0) appendAll(s.types, parseTypes("o2"));
  return { settings: s, operands: parsed.operands };
}

function runOd(args: string[], io: CommandIo): number {
  let settings: OdSettings;
  let operands: readonly string[];
  try {
    ({ settings, operands } = readSettings(args));
  } catch (error) {
    if (error instanceof OptionError) throw error;
    if (!(error instanceof OdError)) throw error;
    io.fail(error.message);
    return 1;
  }
  let status = 0;
  const chunks: Buffer[] = [];
  for (const name of operands.length === 0 ? ["-"] : operands) {
    const input = readBytes(io, name);
    if (input.ok) chunks.push(input.bytes);
    else {
      io.fail(`${name}: ${input.reason}`);
      status = 1;
    }
  }
  let data = Buffer.concat(chunks);
  if (settings.skip > data.length) {
    io.fail("cannot skip past end of combined input");
    return 1;
  }
  data = data.subarray(settings.skip, settings.limit === undefined ? undefined : settings.skip + settings.limit);

  const types = settings.types;
  const lcm = types.reduce((m, t) => (m * t.size) / gcd(m, t.size), 1);
  let perLine = lcm < 16 ? lcm * Math.floor(16 / lcm) : lcm;
  if (settings.width !== undefined) {
    if (settings.width !== 0 && settings.width % lcm === 0) perLine = settings.width;
    else {
      io.out.error(`od: warning: invalid width ${settings.width}; using ${lcm} instead\n`);
      perLine = lcm;
    }
  }
  // GNU od's alignment: every type's line is as wide as the widest, the extra spread over its fields.
  const lineWidth = maxOf(types.map((t) => (t.width + 1) * (perLine / t.size)));
  const pads = types.map((t) => lineWidth - t.width * (perLine / t.size));
  const radix = RADIX[settings.radix];
  const address = (n: number): string => (radix === undefined ? "" : n.toString(radix.base).padStart(radix.width, "0"));
  const indent = radix === undefined ? "" : " ".repeat(radix.width);

  let previous: Buffer | undefined;
  let starred = false;
  for (let at = 0; at < data.length; at += perLine) {
    io.step();
    const bytes = data.subarray(at, at + perLine);
    if (!settings.all && previous !== undefined && bytes.length === perLine && bytes.equals(previous)) {
      if (!starred) io.out.write("*\n");
      starred = true;
      continue;
    }
    starred = false;
    previous = bytes;
    // A short last line is read as zeros after its end; each type prints the data that start in it.
    const block = Buffer.alloc(perLine);
    bytes.copy(block);
    let text = "";
    types.forEach((t, k) => {
      text += k === 0 ? address(settings.skip + at) : indent;
      const fields = perLine / t.size;
      const blank = Math.floor((perLine - bytes.length) / t.size);
      const pad = pads[k] as number;
      let remaining = pad;
      for (let i = fields, f = 0; i > blank; i--, f++) {
        const next = Math.floor((pad * (i - 1)) / fields);
        text += datum(t, block, f * t.size).padStart(remaining - next + t.width);
        remaining = next;
      }
      if (t.trailer) {
        text += " ".repeat(blank * (t.width + 1));
        text += `  >${[...bytes].map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : ".")).join("")}<`;
      }
      text += "\n";
    });
    if (!io.out.write(text)) return 2;
  }
  if (radix !== undefined) io.out.write(`${address(settings.skip + data.length)}\n`);
  return status;
}

const HELP = `Usage: od [OPTION]... [FILE]...
Write an unambiguous representation, octal bytes by default, of FILE to standard output.
With more than one FILE argument, concatenate them in the listed order to form the input.

  -A, --address-radix=RADIX   output format for file offsets; RADIX is one of [doxn]
  -j, --skip-bytes=BYTES      skip BYTES input bytes first
  -N, --read-bytes=BYTES      limit dump to BYTES input bytes
  -t, --format=TYPE           select output format or formats: a, c, d[SIZE], o[SIZE],
                              u[SIZE], x[SIZE] (SIZE 1, 2, 4, 8 or C, S, I, L), z suffix
  -v, --output-duplicates     do not use * to mark line suppression
  -w, --width[=BYTES]         output BYTES bytes per output line; 32 is implied
  -a -b -c -d -h -i -l -o -s -x   same as -t a, o1, c, u2, x2, dI, dL, o2, d2, x2
Floating-point types (-t f) are not supported.
`;

export const odCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "od", help: HELP, run: runOd, usageExitCode: 1 });
