import type { CommandIo } from "../../lib/command.js";
import { ERRNO, lookup, lookupError } from "../../lib/files.js";
import { type GlobMatcher, fnmatchRegex } from "../../lib/glob.js";
import { LINE_SEARCH_ROWS, type LineSearchFlags, patternLines } from "../../lib/line-search-options.js";
import { type OptionRow, applyOptions, parseOptions } from "../../lib/options.js";
import type { Dialect } from "../../regex/patterns.js";
import { GREP_VERSION, USAGE } from "./help.js";
import { appendAll } from "../../../../arrays.js";

/** What one grep call does, read from its command line. */
export interface GrepSettings extends LineSearchFlags {
  dialect: Dialect;
  patterns: string[];
  /** Where each of `patterns` came from, as GNU names it in an error (`FILE:LINE` of `-f FILE`), or undefined (`-e`, the operand). */
  origins: (string | undefined)[];
  ignoreCase: boolean;
  count: boolean;
  listMatching: boolean;
  listMissing: boolean;
  maxCount: number;
  quiet: boolean;
  noMessages: boolean;
  /** -T: numbers padded to 4 columns and a tab before the line text. */
  initialTab: boolean;
  label: string;
  lineNumber: boolean;
  nullAfterName: boolean;
  before: number;
  after: number;
  separator: string | null;
  directories: "read" | "recurse" | "skip";
  include: GlobMatcher[];
  exclude: GlobMatcher[];
  excludeDir: GlobMatcher[];
  /** FILE operands (after the pattern operand, when no -e/-f gave patterns). */
  operands: string[];
  /** `-f -` read stdin for patterns: read once, it is empty as input (GNU's `printf 'a\n' | grep -f -` finds nothing). */
  stdinTaken: boolean;
}

/** The settings while options are read: what only the end of the command line settles. */
interface Draft extends GrepSettings {
  /** -e or -f gave patterns, so the first operand is a file. */
  explicitPatterns: boolean;
  /** -C NUM / -NUM: the context on the sides -A / -B leave unset (-1: none given). */
  context: number;
}

type GrepRow = OptionRow<Draft, CommandIo>;

/** A context length as grep reads it: sets it, or writes grep's message and stops with 2. */
function contextInto(set: (s: Draft, n: number) => void): GrepRow["apply"] {
  return (s, value, io) => {
    if (!/^\d+$/.test(value)) {
      io.fail(`${value}: invalid context length argument`);
      return 2;
    }
    set(s, Number(value));
    return undefined;
  };
}

/** `-f FILE`: one pattern per line of FILE (`-` is stdin, as in GNU grep). */
function patternsFromFile(s: Draft, value: string, io: CommandIo): number | undefined {
  if (value === "-") {
    addPatterns(s, s.stdinTaken ? [] : patternLines(io.stdin()), value);
    s.explicitPatterns = true;
    s.stdinTaken = true;
    return undefined;
  }
  const entry = lookup(io.view, io.cwd, value, io.piped);
  if (entry.kind !== "file" && entry.kind !== "device") {
    io.fail(`${value}: ${entry.kind === "dir" ? ERRNO.EISDIR : lookupError(entry)}`);
    return 2;
  }
  const text = entry.kind === "file" ? entry.text : "";
  addPatterns(s, patternLines(text), value);
  s.explicitPatterns = true;
  return undefined;
}

/** Patterns from the command line (`file` undefined) or from the lines of pattern file `file`, as named there. */
function addPatterns(s: Draft, patterns: readonly string[], file?: string): void {
  appendAll(s.patterns, patterns);
  appendAll(s.origins, patterns.map((_, i) => (file === undefined ? undefined : `${file}:${i + 1}`)));
}

function maxCount(s: Draft, value: string, io: CommandIo): number | undefined {
  if (!/^-?\d+$/.test(value)) {
    io.fail(`invalid max count`);
    return 2;
  }
  const n = Number(value);
  s.maxCount = n < 0 ? Number.POSITIVE_INFINITY : n;
  return undefined;
}

function directories(s: Draft, value: string, io: CommandIo): number | undefined {
  if (value !== "read" && value !== "recurse" && value !== "skip") {
    io.fail(`invalid argument '${value}' for '--directories'\nValid arguments are:\n  - 'read'\n  - 'recurse'\n  - 'skip'`);
    io.out.error(`Usage: ${USAGE}\nTry '${io.name} --help' for more information.\n`);
    return 2;
  }
  s.directories = value;
  return undefined;
}

/** Every option grep accepts, as GNU grep 3.8 spells it, with what it does to the settings. */
const GREP_OPTIONS: readonly GrepRow[] = [
  ...LINE_SEARCH_ROWS,
  { key: "E", short: "E", long: "extended-regexp", apply: (s) => void (s.dialect = "ere") },
  { key: "F", short: "F", long: "fixed-strings", apply: (s) => void (s.dialect = "fixed") },
  { key: "G", short: "G", long: "basic-regexp", apply: (s) => void (s.dialect = "bre") },
  { key: "P", short: "P", long: "perl-regexp", apply: (s) => void (s.dialect = "pcre") },
  {
    // A real option of GNU grep (NUL-separated records), named as such rather than reported as
    // an invalid one: `invalid option -- 'z'` sent agents looking for a typo (issue 25).
    key: "z",
    short: "z",
    long: "null-data",
    apply: (_s, _v, io) => {
      io.fail("-z (--null-data) is not supported by this docs shell; the docs are lines of text (to split on NUL, pipe through tr '\\0' '\\n')");
      return 2;
    },
  },
  {
    key: "e",
    short: "e",
    long: "regexp",
    value: true,
    apply: (s, v) => {
      addPatterns(s, v.split("\n"));
      s.explicitPatterns = true;
    },
  },
  { key: "f", short: "f", long: "file", value: true, apply: patternsFromFile },
  { key: "i", short: "i", long: "ignore-case", apply: (s) => void (s.ignoreCase = true) },
  { key: "i", short: "y" },
  { key: "no-i", long: "no-ignore-case", apply: (s) => void (s.ignoreCase = false) },
  { key: "c", short: "c", long: "count", apply: (s) => void (s.count = true) },
  { key: "color", long: ["color", "colour"], value: true },
  {
    key: "L",
    short: "L",
    long: "files-without-match",
    apply: (s) => {
      s.listMissing = true;
      s.listMatching = false;
    },
  },
  {
    key: "l",
    short: "l",
    long: "files-with-matches",
    apply: (s) => {
      s.listMatching = true;
      s.listMissing = false;
    },
  },
  { key: "m", short: "m", long: "max-count", value: true, apply: maxCount },
  { key: "q", short: "q", long: ["quiet", "silent"], apply: (s) => void (s.quiet = true) },
  { key: "s", short: "s", long: "no-messages", apply: (s) => void (s.noMessages = true) },
  { key: "T", short: "T", long: "initial-tab", apply: (s) => void (s.initialTab = true) },
  { key: "h", short: "h", long: "no-filename", apply: (s) => void (s.withFilename = false) },
  { key: "label", long: "label", value: true, apply: (s, v) => void (s.label = v) },
  { key: "no-n", long: "no-line-number", apply: (s) => void (s.lineNumber = false) },
  { key: "Z", short: "Z", long: "null", apply: (s) => void (s.nullAfterName = true) },
  { key: "A", short: "A", long: "after-context", value: true, apply: contextInto((s, n) => (s.after = n)) },
  { key: "B", short: "B", long: "before-context", value: true, apply: contextInto((s, n) => (s.before = n)) },
  { key: "C", short: "C", long: "context", value: true, apply: contextInto((s, n) => (s.context = n)) },
  // -NUM (parseOptions' numericKey).
  { key: "NUM", apply: contextInto((s, n) => (s.context = n)) },
  { key: "group-separator", long: "group-separator", value: true, apply: (s, v) => void (s.separator = v) },
  { key: "no-group-separator", long: "no-group-separator", apply: (s) => void (s.separator = null) },
  { key: "d", short: "d", long: "directories", value: true, apply: directories },
  { key: "r", short: "r", long: "recursive", apply: (s) => void (s.directories = "recurse") },
  { key: "r", short: "R", long: "dereference-recursive" },
  { key: "include", long: "include", value: true, apply: (s, v) => void s.include.push(fnmatchRegex(v)) },
  { key: "exclude", long: "exclude", value: true, apply: (s, v) => void s.exclude.push(fnmatchRegex(v)) },
  { key: "exclude-dir", long: "exclude-dir", value: true, apply: (s, v) => void s.excludeDir.push(fnmatchRegex(v)) },
  {
    key: "V",
    short: "V",
    long: "version",
    apply: (_s, _v, io) => {
      io.out.write(`grep (GNU grep) ${GREP_VERSION}\n`);
      return 0;
    },
  },
  // No effect on plain text output: binary files, devices, colour, buffering.
  { key: "a", short: "a", long: "text" },
  { key: "I", short: "I" },
  { key: "binary-files", long: "binary-files", value: true },
  { key: "D", short: "D", long: "devices", value: true },
  { key: "line-buffered", long: "line-buffered" },
  { key: "U", short: "U", long: "binary" },
];

function defaults(dialect: Dialect): Draft {
  return {
    dialect,
    patterns: [],
    origins: [],
    stdinTaken: false,
    ignoreCase: false,
    invert: false,
    word: false,
    line: false,
    count: false,
    listMatching: false,
    listMissing: false,
    maxCount: Number.POSITIVE_INFINITY,
    only: false,
    quiet: false,
    noMessages: false,
    byteOffset: false,
    initialTab: false,
    withFilename: undefined,
    label: "(standard input)",
    lineNumber: false,
    nullAfterName: false,
    before: -1,
    after: -1,
    separator: "--",
    directories: "read",
    include: [],
    exclude: [],
    excludeDir: [],
    operands: [],
    explicitPatterns: false,
    context: -1,
  };
}

/** grep's command line as settings, or the exit status once an option has answered (-V, an error). */
export function grepSettings(args: readonly string[], io: CommandIo, dialect: Dialect): GrepSettings | number {
  const parsed = parseOptions(args, GREP_OPTIONS, { abbreviations: true, numericKey: "NUM" });
  const s = defaults(dialect);
  const stopped = applyOptions(parsed, GREP_OPTIONS, s, io);
  if (stopped !== undefined) return stopped;
  if (s.before < 0) s.before = Math.max(s.context, 0);
  if (s.after < 0) s.after = Math.max(s.context, 0);
  s.operands = [...parsed.operands];
  if (!s.explicitPatterns) {
    const first = s.operands.shift();
    if (first === undefined) {
      io.out.error(`Usage: ${USAGE}\nTry '${io.name} --help' for more information.\n`);
      return 2;
    }
    addPatterns(s, first.split("\n"));
  }
  return s;
}
