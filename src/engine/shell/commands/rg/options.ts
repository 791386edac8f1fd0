import type { CommandIo } from "../../lib/command.js";
import { lookup } from "../../lib/files.js";
import { type IgnoreGlob, gitignoreGlob } from "../../lib/glob.js";
import { LINE_SEARCH_ROWS, type LineSearchFlags, patternLines } from "../../lib/line-search-options.js";
import { type OptionRow, applyOptions, parseOptions } from "../../lib/options.js";
import { HELP, RG_VERSION, USAGE_BLOCK } from "./help.js";
import { appendAll } from "../../../../arrays.js";

/** What one rg call does, read from its command line. */
export interface RgSettings extends LineSearchFlags {
  patterns: string[];
  fixed: boolean;
  pcre: boolean;
  caseMode: "sensitive" | "insensitive" | "smart";
  mode: "lines" | "files-with" | "files-without" | "count" | "count-matches" | "files" | "type-list";
  includeZero: boolean;
  quiet: boolean;
  maxCount: number;
  before: number;
  after: number;
  separator: string | null;
  passthru: boolean;
  column: boolean;
  heading: boolean;
  nul: boolean;
  vimgrep: boolean;
  trim: boolean;
  maxColumns: number;
  maxColumnsPreview: boolean;
  replace: string | undefined;
  globs: IgnoreGlob[];
  types: string[];
  typesNot: string[];
  /** `--type-add NAME:GLOB` and `--type-clear NAME`, in order. */
  typeEdits: Array<{ readonly name: string; readonly glob?: string }>;
  hidden: boolean;
  maxDepth: number;
  sort: "path" | "none" | "modified" | "rpath" | "rmodified";
  /**
   * `--sort`/`--sortr` (other than none) or `-j1`: ripgrep then searches on one thread, whose
   * error for a missing path reads `IO error for operation on PATH:`.
   */
  oneThread: boolean;
  /** `--crlf`: `$` matches before `\r\n`, and what rg writes itself ends in `\r\n`. */
  crlf: boolean;
  noMessages: boolean;
  paths: string[];
  /** `-f -` read the patterns from stdin: it is then empty as input, and with no path rg searches `./`, not stdin. */
  stdinTaken: boolean;
}

/** The settings while options are read: what only the end of the command line settles. */
interface Draft extends RgSettings {
  /** -e or -f gave patterns, so the first operand is a path. */
  explicitPatterns: boolean;
  /** -g / --iglob in order, with whether each ignores case (--glob-case-insensitive applies to all). */
  rawGlobs: Array<[string, boolean]>;
  globCaseInsensitive: boolean;
  /** -u seen so far: the second one searches hidden files. */
  unrestricted: number;
}

/** A row of rg's table; `placeholder` is the value's name as clap prints it in errors. */
type RgRow = OptionRow<Draft, CommandIo> & { readonly placeholder?: string };

/** A number argument as clap validates it: sets it, or writes clap's message and stops with 2. */
function numberInto(long: string, set: (s: Draft, n: number) => void): RgRow["apply"] {
  return (s, value, io) => {
    if (!/^\d+$/.test(value)) {
      io.out.error(`error: Invalid value for '--${long} <NUM>': invalid digit found in string\n\n`);
      return 2;
    }
    set(s, Number(value));
    return undefined;
  };
}

/** `-f FILE`: one pattern per line of FILE (`-` is stdin). */
function patternsFromFile(s: Draft, value: string, io: CommandIo): number | undefined {
  const entry = value === "-" ? { kind: "stdin" as const } : lookup(io.view, io.cwd, value, io.piped);
  let text: string;
  if (entry.kind === "stdin") {
    text = s.stdinTaken ? "" : io.stdin();
    s.stdinTaken = true;
  } else if (entry.kind === "file") text = entry.text;
  else if (entry.kind === "device") text = "";
  else {
    io.out.error(`${value}: No such file or directory (os error 2)\n`);
    return 2;
  }
  appendAll(s.patterns, rgPatternLines(text));
  s.explicitPatterns = true;
  return undefined;
}

/** ripgrep strips each pattern line's `\n` or `\r\n` (a CRLF pattern file works); grep keeps the `\r`. */
function rgPatternLines(text: string): string[] {
  const lines = patternLines(text);
  return lines.map((line, i) => ((i < lines.length - 1 || text.endsWith("\n")) && line.endsWith("\r") ? line.slice(0, -1) : line));
}

function sortInto(s: Draft, value: string, io: CommandIo, reverse: boolean): number | undefined {
  if (!["path", "none", "modified", "accessed", "created"].includes(value)) {
    io.out.error(
      `error: '${value}' isn't a valid value for '--${reverse ? "sortr" : "sort"} <SORTBY>'\n\t[possible values: accessed, created, modified, none, path]\n\n\n${USAGE_BLOCK}`,
    );
    return 2;
  }
  const by = value === "path" || value === "none" ? value : "modified";
  s.sort = (reverse && by !== "none" ? `r${by}` : by) as RgSettings["sort"];
  s.oneThread = by !== "none";
  return undefined;
}

function typeAdd(s: Draft, value: string, io: CommandIo): number | undefined {
  const colon = value.indexOf(":");
  if (colon <= 0) {
    io.out.error(`rg: invalid definition (format is type:glob, e.g., html:*.html): ${value}\n`);
    return 2;
  }
  s.typeEdits.push({ name: value.slice(0, colon), glob: value.slice(colon + 1) });
  return undefined;
}

/** `-u`: the second one (`-uu`) also searches hidden files; ignore files do not exist here. */
function unrestricted(s: Draft): void {
  s.unrestricted++;
  if (s.unrestricted >= 2) s.hidden = true;
}

/** Stop: the docs shell cannot do what the option asks. */
function unsupported(message: (name: string) => string): RgRow["apply"] {
  return (_s, _value, io, option) => {
    io.out.error(message(option.name));
    return 2;
  };
}

/** Every option rg accepts, as ripgrep 13 spells it, with what it does to the settings. */
export const RG_OPTIONS: readonly RgRow[] = [
  ...LINE_SEARCH_ROWS,
  {
    key: "e",
    short: "e",
    long: "regexp",
    value: true,
    placeholder: "PATTERN",
    apply: (s, v) => {
      s.patterns.push(v);
      s.explicitPatterns = true;
    },
  },
  { key: "f", short: "f", long: "file", value: true, placeholder: "PATTERNFILE", apply: patternsFromFile },
  { key: "i", short: "i", long: "ignore-case", apply: (s) => void (s.caseMode = "insensitive") },
  { key: "s", short: "s", long: "case-sensitive", apply: (s) => void (s.caseMode = "sensitive") },
  { key: "S", short: "S", long: "smart-case", apply: (s) => void (s.caseMode = "smart") },
  { key: "F", short: "F", long: "fixed-strings", apply: (s) => void (s.fixed = true) },
  { key: "no-F", long: "no-fixed-strings", apply: (s) => void (s.fixed = false) },
  { key: "P", short: "P", long: "pcre2", apply: (s) => void (s.pcre = true) },
  { key: "no-P", long: "no-pcre2", apply: (s) => void (s.pcre = false) },
  { key: "engine", long: "engine", value: true, placeholder: "ENGINE", apply: (s, v) => void (s.pcre = v === "pcre2") },
  {
    key: "U",
    short: "U",
    long: "multiline",
    apply: unsupported(() => "rg: multiline search (-U) is not supported by this docs shell; search line by line, e.g. with -A/-B/-C context\n"),
  },
  { key: "l", short: "l", long: "files-with-matches", apply: (s) => void (s.mode = "files-with") },
  { key: "files-without-match", long: "files-without-match", apply: (s) => void (s.mode = "files-without") },
  { key: "c", short: "c", long: "count", apply: (s) => void (s.mode = "count") },
  { key: "count-matches", long: "count-matches", apply: (s) => void (s.mode = "count-matches") },
  { key: "include-zero", long: "include-zero", apply: (s) => void (s.includeZero = true) },
  { key: "q", short: "q", long: "quiet", apply: (s) => void (s.quiet = true) },
  { key: "m", short: "m", long: "max-count", value: true, placeholder: "NUM", apply: numberInto("max-count", (s, n) => (s.maxCount = n)) },
  { key: "A", short: "A", long: "after-context", value: true, placeholder: "NUM", apply: numberInto("after-context", (s, n) => (s.after = n)) },
  { key: "B", short: "B", long: "before-context", value: true, placeholder: "NUM", apply: numberInto("before-context", (s, n) => (s.before = n)) },
  { key: "C", short: "C", long: "context", value: true, placeholder: "NUM", apply: numberInto("context", (s, n) => (s.before = s.after = n)) },
  { key: "context-separator", long: "context-separator", value: true, placeholder: "SEPARATOR", apply: (s, v) => void (s.separator = v) },
  { key: "no-context-separator", long: "no-context-separator", apply: (s) => void (s.separator = null) },
  { key: "passthru", long: ["passthru", "passthrough"], apply: (s) => void (s.passthru = true) },
  { key: "N", short: "N", long: "no-line-number", apply: (s) => void (s.lineNumber = false) },
  // --column implies line numbers (ripgrep's documented behaviour).
  {
    key: "column",
    long: "column",
    apply: (s) => {
      s.column = true;
      s.lineNumber ??= true;
    },
  },
  { key: "no-column", long: "no-column", apply: (s) => void (s.column = false) },
  { key: "heading", long: "heading", apply: (s) => void (s.heading = true) },
  { key: "no-heading", long: "no-heading", apply: (s) => void (s.heading = false) },
  { key: "I", short: "I", long: "no-filename", apply: (s) => void (s.withFilename = false) },
  { key: "0", short: "0", long: "null", apply: (s) => void (s.nul = true) },
  { key: "vimgrep", long: "vimgrep", apply: (s) => void (s.vimgrep = true) },
  {
    key: "p",
    short: "p",
    long: "pretty",
    apply: (s) => {
      s.heading = true;
      s.lineNumber = true;
    },
  },
  { key: "trim", long: "trim", apply: (s) => void (s.trim = true) },
  { key: "no-trim", long: "no-trim", apply: (s) => void (s.trim = false) },
  { key: "M", short: "M", long: "max-columns", value: true, placeholder: "NUM", apply: numberInto("max-columns", (s, n) => (s.maxColumns = n)) },
  { key: "max-columns-preview", long: "max-columns-preview", apply: (s) => void (s.maxColumnsPreview = true) },
  { key: "r", short: "r", long: "replace", value: true, placeholder: "REPLACEMENT_TEXT", apply: (s, v) => void (s.replace = v) },
  { key: "g", short: "g", long: "glob", value: true, placeholder: "GLOB", apply: (s, v) => void s.rawGlobs.push([v, false]) },
  { key: "iglob", long: "iglob", value: true, placeholder: "GLOB", apply: (s, v) => void s.rawGlobs.push([v, true]) },
  { key: "glob-case-insensitive", long: "glob-case-insensitive", apply: (s) => void (s.globCaseInsensitive = true) },
  { key: "t", short: "t", long: "type", value: true, placeholder: "TYPE", apply: (s, v) => void s.types.push(v) },
  { key: "T", short: "T", long: "type-not", value: true, placeholder: "TYPE", apply: (s, v) => void s.typesNot.push(v) },
  { key: "type-list", long: "type-list", apply: (s) => void (s.mode = "type-list") },
  { key: "type-add", long: "type-add", value: true, placeholder: "TYPE_SPEC", apply: typeAdd },
  { key: "type-clear", long: "type-clear", value: true, placeholder: "TYPE", apply: (s, v) => void s.typeEdits.push({ name: v }) },
  { key: "files", long: "files", apply: (s) => void (s.mode = "files") },
  { key: "hidden", short: ".", long: "hidden", apply: (s) => void (s.hidden = true) },
  { key: "no-hidden", long: "no-hidden", apply: (s) => void (s.hidden = false) },
  { key: "u", short: "u", long: "unrestricted", apply: unrestricted },
  { key: "d", short: "d", long: "max-depth", value: true, placeholder: "NUM", apply: numberInto("max-depth", (s, n) => (s.maxDepth = n)) },
  { key: "sort", long: "sort", value: true, placeholder: "SORTBY", apply: (s, v, io) => sortInto(s, v, io, false) },
  { key: "sortr", long: "sortr", value: true, placeholder: "SORTBY", apply: (s, v, io) => sortInto(s, v, io, true) },
  { key: "color", long: ["color", "colour"], value: true, placeholder: "WHEN" },
  { key: "no-messages", long: "no-messages", apply: (s) => void (s.noMessages = true) },
  {
    key: "V",
    short: "V",
    long: "version",
    apply: (_s, _v, io) => {
      io.out.write(`ripgrep ${RG_VERSION}\n-SIMD -AVX (compiled)\n+SIMD +AVX (runtime)\n`);
      return 0;
    },
  },
  // ripgrep's -h is its short help: ours is short already.
  {
    key: "h",
    short: "h",
    apply: (_s, _v, io) => {
      io.out.write(HELP);
      return 0;
    },
  },
  // Accepted without effect: the docs have no ignore files, links, archives or encodings.
  ...["no-ignore", "no-ignore-vcs", "no-ignore-parent", "no-ignore-dot", "no-ignore-global", "no-ignore-exclude", "no-ignore-files", "no-require-git", "follow", "no-follow", "search-zip", "text", "no-text", "binary", "no-binary", "line-buffered", "block-buffered", "no-config", "mmap", "no-mmap", "one-file-system", "no-unicode", "unicode", "no-pcre2-unicode", "ignore-case-literal", "auto-hybrid-regex"].map(
    (l) => ({ key: "noop", long: l }),
  ),
  // Accepted without effect, with a value: size limits and colours do not apply here.
  ...["max-filesize", "regex-size-limit", "dfa-size-limit", "colors", "ignore-file"].map((l) => ({ key: "noop", long: l, value: true, placeholder: "VALUE" })),
  {
    // ripgrep's block of totals ends in timings, which would differ on every run; said by name
    // rather than accepted and ignored (issue 25: `rg --stats` printed the plain search).
    key: "stats",
    long: "stats",
    apply: unsupported(() => "rg: --stats is not supported by this docs shell; count with -c (matching lines per file), --count-matches, or -l | wc -l (files)\n"),
  },
  {
    key: "unsupported",
    long: ["json", "pre", "pre-glob", "null-data", "multiline-dotall", "field-match-separator", "field-context-separator", "path-separator", "debug", "trace", "pcre2-version"],
    apply: unsupported((name) => `rg: ${name} is not supported by this docs shell; use the default output, -n, --vimgrep or -l\n`),
  },
  { key: "noop", short: "L" },
  { key: "noop", short: "a" },
  { key: "noop", short: "z" },
  { key: "j", short: "j", long: "threads", value: true, placeholder: "NUM", apply: (s, v) => void (/^0*1$/.test(v) && (s.oneThread = true)) },
  { key: "crlf", long: "crlf", apply: (s) => void (s.crlf = true) },
  { key: "no-crlf", long: "no-crlf", apply: (s) => void (s.crlf = false) },
  { key: "E", short: "E", long: "encoding", value: true, placeholder: "ENCODING" },
];

function defaults(): Draft {
  return {
    patterns: [],
    fixed: false,
    pcre: false,
    caseMode: "sensitive",
    word: false,
    line: false,
    invert: false,
    mode: "lines",
    includeZero: false,
    only: false,
    quiet: false,
    maxCount: Number.POSITIVE_INFINITY,
    before: 0,
    after: 0,
    separator: "--",
    passthru: false,
    lineNumber: undefined,
    column: false,
    byteOffset: false,
    heading: false,
    withFilename: undefined,
    nul: false,
    vimgrep: false,
    trim: false,
    maxColumns: 0,
    maxColumnsPreview: false,
    replace: undefined,
    globs: [],
    types: [],
    typesNot: [],
    typeEdits: [],
    hidden: false,
    maxDepth: Number.POSITIVE_INFINITY,
    sort: "path",
    oneThread: false,
    crlf: false,
    noMessages: false,
    paths: [],
    stdinTaken: false,
    explicitPatterns: false,
    rawGlobs: [],
    globCaseInsensitive: false,
    unrestricted: 0,
  };
}

/**
 * clap's check of ripgrep 13's conflicting arguments, made before any option acts (as clap does,
 * so `-f` names no file it would read): patterns given by `-e` or `-f` with `--files` or
 * `--type-list`, which take none. `-f` is named when both are given; `--help` and `--version`
 * still answer. Before (issue 25), `rg --files -e x .` listed the files.
 */
function conflictingOptions(options: readonly { readonly key: string }[]): string | undefined {
  const keys = new Set(options.map((o) => o.key));
  if (keys.has("h") || keys.has("help") || keys.has("V")) return undefined;
  const listing = keys.has("files") ? "--files" : keys.has("type-list") ? "--type-list" : undefined;
  if (listing === undefined) return undefined;
  const pattern = keys.has("f") ? "--file <PATTERNFILE>..." : keys.has("e") ? "--regexp <PATTERN>..." : undefined;
  return pattern === undefined ? undefined : `error: The argument '${pattern}' cannot be used with '${listing}'\n`;
}

/** rg's command line as settings, or the exit status once an option has answered (help, error). */
export function rgSettings(args: readonly string[], io: CommandIo): RgSettings | number {
  const parsed = parseOptions(args, RG_OPTIONS, { abbreviations: false });
  const conflict = conflictingOptions(parsed.options);
  if (conflict !== undefined) {
    io.out.error(`${conflict}\n${USAGE_BLOCK}`);
    return 2;
  }
  const s = defaults();
  const stopped = applyOptions(parsed, RG_OPTIONS, s, io);
  if (stopped !== undefined) return stopped;
  s.globs = s.rawGlobs.map(([g, ci]) => gitignoreGlob(g, ci || s.globCaseInsensitive));
  s.paths = [...parsed.operands];
  if (s.mode !== "files" && s.mode !== "type-list" && !s.explicitPatterns) {
    const first = s.paths.shift();
    if (first === undefined) {
      io.out.error(`error: The following required arguments were not provided:\n    <PATTERN>\n\n${USAGE_BLOCK}`);
      return 2;
    }
    s.patterns.push(first);
  }
  if (s.vimgrep) {
    s.lineNumber = true;
    s.column = true;
    s.heading = false;
    s.withFilename = true;
  }
  if (s.passthru) {
    s.before = Number.MAX_SAFE_INTEGER;
    s.after = Number.MAX_SAFE_INTEGER;
  }
  return s;
}
