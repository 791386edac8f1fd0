import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO, lookup } from "../lib/files.js";
import { type OptionRow, applyOptions, parseOptions } from "../lib/options.js";
import { commandNotFound, runSubcommand, shellQuote } from "../lib/subcommand.js";
import type { ShellCommandFactory } from "./command.js";

const HELP = `Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...
Run COMMAND with arguments INITIAL-ARGS and more arguments read from input
(GNU findutils 4.9 compatible; commands run in this docs shell, one after the other).

  -0, --null                   items are separated by a null, not whitespace;
                                 disables quote and backslash processing
  -a, --arg-file=FILE          read arguments from FILE, not standard input
  -d, --delimiter=CHARACTER    items in input stream are separated by CHARACTER
  -E END                       set logical EOF string
  -I R                         replace R in INITIAL-ARGS with names read from
                                 standard input, one command per line
  -i, --replace[=R]            same as -I R; R defaults to {}
  -L, --max-lines=MAX-LINES    use at most MAX-LINES non-blank input lines per
                                 command line
  -n, --max-args=MAX-ARGS      use at most MAX-ARGS arguments per command line
  -P, --max-procs=MAX-PROCS    accepted; commands run one at a time
  -r, --no-run-if-empty        if there are no arguments, then do not run COMMAND
  -s, --max-chars=MAX-CHARS    limit length of command line to MAX-CHARS
  -t, --verbose                print commands before executing them
  -x, --exit                   exit if the size (see -s) is exceeded

Exit status: 0 if all commands succeeded, 123 if any failed with status 1-125,
124 if one exited with status 255, 126 if one cannot run, 127 if one was not found.
`;

/** GNU's default command-line size budget (bytes of arguments): large enough for any docs site. */
const DEFAULT_MAX_CHARS = 131_072;

class XargsError extends Error {}

interface Item {
  readonly word: string;
  /** The input line the item ended (for -L: a line ending in a blank continues). */
  readonly endsLine: boolean;
}

/** Split input the default way: blanks and newlines separate; quotes and backslashes escape. */
function splitQuoted(text: string, eof: string | undefined, lineMode: boolean): Item[] {
  const items: Item[] = [];
  let word = "";
  let has = false;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (c === "\n") {
        throw new XargsError(`unmatched ${quote === "'" ? "single" : "double"} quote; by default quotes are special to xargs unless you use the -0 option`);
      } else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === "\\" && i + 1 < text.length) {
      word += text[++i];
      has = true;
    } else if (c === "\n" || ((c === " " || c === "\t") && !lineMode)) {
      if (has) {
        if (eof !== undefined && word === eof) return items;
        items.push({ word, endsLine: c === "\n" });
      } else if (c === "\n" && items.length > 0) {
        const last = items[items.length - 1] as Item;
        items[items.length - 1] = { ...last, endsLine: true };
      }
      word = "";
      has = false;
    } else if ((c === " " || c === "\t") && lineMode && !has) {
      // -I: leading blanks of a line are dropped; inner and trailing ones are kept.
    } else {
      word += c;
      has = true;
    }
  }
  if (quote !== undefined) {
    throw new XargsError(`unmatched ${quote === "'" ? "single" : "double"} quote; by default quotes are special to xargs unless you use the -0 option`);
  }
  if (has && !(eof !== undefined && word === eof)) items.push({ word, endsLine: true });
  return items;
}

/** Split on one delimiter character (-0, -d): no quoting, an empty item between two delimiters. */
function splitDelimited(text: string, delimiter: string): Item[] {
  const parts = text.split(delimiter);
  if (parts[parts.length - 1] === "") parts.pop();
  return parts.map((word) => ({ word, endsLine: true }));
}

/** `-d`'s argument: one character or a C escape (`\n`, `\t`, `\0`, `\x2c`, `\054`). */
function delimiterOf(spec: string): string {
  if (spec.length === 1) return spec;
  const simple: Record<string, string> = { "\\n": "\n", "\\t": "\t", "\\0": "\0", "\\\\": "\\", "\\r": "\r", "\\a": "\x07", "\\b": "\b", "\\f": "\f", "\\v": "\v" };
  if (simple[spec] !== undefined) return simple[spec];
  const hex = /^\\x([0-9a-fA-F]{1,2})$/.exec(spec);
  if (hex !== null) return String.fromCharCode(Number.parseInt(hex[1] as string, 16));
  const oct = /^\\([0-7]{1,3})$/.exec(spec);
  if (oct !== null) return String.fromCharCode(Number.parseInt(oct[1] as string, 8));
  throw new XargsError(`invalid input delimiter specification ${spec}: the delimiter must be either a single character or an escape sequence starting with \\.`);
}

function positive(value: string, option: string): number {
  if (!/^\d+$/.test(value)) throw new XargsError(`invalid number "${value}" for -${option} option\nTry 'xargs --help' for more information.`);
  if (Number(value) < 1) throw new XargsError(`value ${value} for -${option} option should be >= 1\nTry 'xargs --help' for more information.`);
  return Number(value);
}

/** What one xargs call does, read from its options. */
interface XargsSettings {
  delimiter: string | undefined;
  /** -I / -i: the string replaced in the command by each input line. */
  replace: string | undefined;
  perLine: number | undefined;
  perCommand: number | undefined;
  noEmpty: boolean;
  trace: boolean;
  argFile: string | undefined;
  eof: string | undefined;
  maxChars: number;
  exitOnSize: boolean;
}

/** `-I R`, `-i`, `--replace`: one command per input line. */
function replaceWith(replace: (value: string) => string) {
  return (s: XargsSettings, value: string) => {
    s.replace = replace(value);
    s.perLine = 1;
    s.perCommand = undefined;
  };
}

/** Every option xargs accepts, as GNU findutils spells it; a mistake throws an XargsError. */
const XARGS_OPTIONS: readonly OptionRow<XargsSettings>[] = [
  { key: "0", short: "0", long: "null", apply: (s) => void (s.delimiter = "\0") },
  { key: "d", short: "d", long: "delimiter", value: true, apply: (s, v) => void (s.delimiter = delimiterOf(v)) },
  { key: "I", short: "I", value: true, apply: replaceWith((v) => v) },
  { key: "replace", long: "replace", apply: replaceWith(() => "{}") },
  { key: "i", short: "i", apply: replaceWith(() => "{}") },
  {
    key: "n",
    short: "n",
    long: "max-args",
    value: true,
    apply: (s, v) => {
      s.perCommand = positive(v, "n");
      if (s.replace === undefined) s.perLine = undefined;
    },
  },
  {
    key: "L",
    short: "L",
    long: "max-lines",
    value: true,
    apply: (s, v) => {
      s.perLine = positive(v, "L");
      s.perCommand = undefined;
    },
  },
  { key: "r", short: "r", long: "no-run-if-empty", apply: (s) => void (s.noEmpty = true) },
  { key: "t", short: "t", long: "verbose", apply: (s) => void (s.trace = true) },
  {
    key: "P",
    short: "P",
    long: "max-procs",
    value: true,
    apply: (_s, v) => {
      if (!/^\d+$/.test(v)) throw new XargsError(`invalid number "${v}" for -P option\nTry 'xargs --help' for more information.`);
    },
  },
  { key: "a", short: "a", long: "arg-file", value: true, apply: (s, v) => void (s.argFile = v) },
  { key: "E", short: "E", value: true, apply: (s, v) => void (s.eof = v) },
  { key: "s", short: "s", long: "max-chars", value: true, apply: (s, v) => void (s.maxChars = positive(v, "s")) },
  { key: "x", short: "x", long: "exit", apply: (s) => void (s.exitOnSize = true) },
  // There is no terminal to open.
  { key: "o", short: "o", long: "open-tty" },
];

/** Short options that take a value, and long ones (for finding where the command starts). */
const VALUE_SHORT = new Set(XARGS_OPTIONS.filter((r) => r.value === true && r.short !== undefined).map((r) => r.short as string));
const VALUE_LONG = XARGS_OPTIONS.filter((r) => r.value === true && typeof r.long === "string").map((r) => r.long as string);

/** xargs's options as settings and the command (words after the options), or an XargsError. */
function xargsSettings(args: readonly string[]): { s: XargsSettings; command: string[] } {
  // Options end at the command: `xargs grep -l x` gives `-l` to grep.
  const optionWords = commandStart(args);
  const parsed = parseOptions(args.slice(0, optionWords), XARGS_OPTIONS, { abbreviations: true, permute: false });
  const s: XargsSettings = {
    delimiter: undefined,
    replace: undefined,
    perLine: undefined,
    perCommand: undefined,
    noEmpty: false,
    trace: false,
    argFile: undefined,
    eof: undefined,
    maxChars: DEFAULT_MAX_CHARS,
    exitOnSize: false,
  };
  applyOptions(parsed, XARGS_OPTIONS, s, undefined);
  const command = [...parsed.operands, ...args.slice(optionWords)];
  if (command.length === 0) command.push("echo");
  return { s, command };
}

/** The input text: -a's file or stdin; undefined with GNU's message when the file cannot be read. */
function readInput(s: XargsSettings, io: CommandIo): string | undefined {
  if (s.argFile === undefined) return io.stdin();
  const entry = lookup(io.view, io.cwd, s.argFile, io.piped);
  if (entry.kind !== "file" && entry.kind !== "device") {
    io.fail(`Cannot open input file \u2018${s.argFile}\u2019: ${entry.kind === "dir" ? ERRNO.EISDIR : ERRNO.ENOENT}`);
    return undefined;
  }
  return entry.kind === "file" ? entry.text : "";
}

/** Group items into command lines: -I (one per line), -L (lines), -n (items), -s (size). */
function batches(items: readonly Item[], perLine: number | undefined, perCommand: number | undefined, maxChars: number, base: number): Item[][] {
  const out: Item[][] = [];
  let current: Item[] = [];
  let lines = 0;
  let size = base;
  for (const item of items) {
    const len = Buffer.byteLength(item.word) + 1;
    if (current.length > 0 && size + len > maxChars) {
      out.push(current);
      current = [];
      lines = 0;
      size = base;
    }
    current.push(item);
    size += len;
    if (item.endsLine) lines++;
    if ((perLine !== undefined && lines >= perLine) || (perCommand !== undefined && current.length >= perCommand)) {
      out.push(current);
      current = [];
      lines = 0;
      size = base;
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

async function runXargs(args: string[], io: CommandIo): Promise<number> {
  let settings: { s: XargsSettings; command: string[] };
  let items: Item[];
  try {
    settings = xargsSettings(args);
    const input = readInput(settings.s, io);
    if (input === undefined) return 1;
    const { delimiter, eof, replace } = settings.s;
    items = delimiter !== undefined ? splitDelimited(input, delimiter) : splitQuoted(input, eof, replace !== undefined);
  } catch (error) {
    if (!(error instanceof XargsError)) throw error;
    io.fail(error.message);
    return 1;
  }
  const { s, command } = settings;
  // The command's own words count against -s, as in GNU xargs.
  const base = command.reduce((n, w) => n + Buffer.byteLength(w) + 1, 0);
  if (s.exitOnSize && items.some((item) => base + Buffer.byteLength(item.word) + 1 > s.maxChars)) {
    io.fail("argument line too long");
    return 1;
  }
  const groups = batches(items, s.perLine, s.perCommand, s.maxChars, base);
  // GNU xargs runs the command once even on empty input, unless -r.
  if (groups.length === 0 && !s.noEmpty && s.replace === undefined) groups.push([]);
  return runGroups(s, command, groups, io);
}

/** Run the command once per group; GNU's exit status for what the runs returned. */
async function runGroups(s: XargsSettings, command: readonly string[], groups: readonly Item[][], io: CommandIo): Promise<number> {
  const replace = s.replace;
  let status = 0;
  for (const group of groups) {
    io.checkTime();
    const words =
      replace !== undefined
        ? command.map((w) => w.replaceAll(replace, group.map((i) => i.word).join(" ")))
        : [...command, ...group.map((i) => i.word)];
    if (s.trace) io.out.error(`${words.map(traceQuote).join(" ")}\n`);
    const r = await runSubcommand(io, words);
    io.out.write(r.stdout);
    if (commandNotFound(r)) {
      io.fail(`${words[0] ?? ""}: ${ERRNO.ENOENT}`);
      return 127;
    }
    if (r.stderr !== "") io.out.error(r.stderr);
    if (r.exitCode === 255) {
      io.fail(`${words[0] ?? ""}: exited with status 255; aborting`);
      return 124;
    }
    if (r.exitCode === 126 || r.exitCode === 127) return r.exitCode;
    if (r.exitCode !== 0) status = 123;
    if (io.out.full) break;
  }
  return status;
}

/** `-t` prints words shell-quoted only when they need it. */
function traceQuote(word: string): string {
  return word === "" ? "''" : shellQuote(word);
}

/** Index of the first word of the command: options (and their values) come before it. */
function commandStart(args: readonly string[]): number {
  let k = 0;
  while (k < args.length) {
    const a = args[k] as string;
    if (a === "--") return k + 1;
    if (!a.startsWith("-") || a === "-") return k;
    if (a.startsWith("--")) {
      const name = a.slice(2).split("=")[0] as string;
      const needs = VALUE_LONG.some((l) => l.startsWith(name) && name.length > 0);
      k += needs && !a.includes("=") ? 2 : 1;
      continue;
    }
    // A cluster like -0n1 or -I{}: the value is the rest of the word, or the next word.
    let next = k + 1;
    for (let i = 1; i < a.length; i++) {
      if (VALUE_SHORT.has(a[i] as string)) {
        if (i === a.length - 1) next = k + 2;
        break;
      }
    }
    k = next;
  }
  return k;
}

export const xargsCommand: ShellCommandFactory = (view) => docsCommand(view, { name: "xargs", help: HELP, run: runXargs, usageExitCode: 1 });
