import type { SiteView } from "../../../vfs/view.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { ERRNO, baseName, lookup, lookupError, walk } from "../lib/files.js";
import { type GlobMatcher, fnmatchRegex } from "../lib/glob.js";
import {
  type SelectedLine,
  anyLineMatches,
  byteOffsets,
  matchesInLine,
  printWithContext,
  selectLines,
} from "../lib/line-search.js";
import { type OptionSpec, type ParsedArgs, parseOptions } from "../lib/options.js";
import { type Dialect, PosixRegexError, RustRegexError, compilePatterns } from "../lib/patterns.js";
import type { ShellCommandFactory } from "./command.js";

const SPECS: readonly OptionSpec[] = [
  { key: "E", short: "E", long: "extended-regexp" },
  { key: "F", short: "F", long: "fixed-strings" },
  { key: "G", short: "G", long: "basic-regexp" },
  { key: "P", short: "P", long: "perl-regexp" },
  { key: "e", short: "e", long: "regexp", value: true },
  { key: "f", short: "f", long: "file", value: true },
  { key: "i", short: "i", long: "ignore-case" },
  { key: "i", short: "y" },
  { key: "no-i", long: "no-ignore-case" },
  { key: "v", short: "v", long: "invert-match" },
  { key: "w", short: "w", long: "word-regexp" },
  { key: "x", short: "x", long: "line-regexp" },
  { key: "c", short: "c", long: "count" },
  { key: "color", long: ["color", "colour"], value: true },
  { key: "L", short: "L", long: "files-without-match" },
  { key: "l", short: "l", long: "files-with-matches" },
  { key: "m", short: "m", long: "max-count", value: true },
  { key: "o", short: "o", long: "only-matching" },
  { key: "q", short: "q", long: ["quiet", "silent"] },
  { key: "s", short: "s", long: "no-messages" },
  { key: "b", short: "b", long: "byte-offset" },
  { key: "T", short: "T", long: "initial-tab" },
  { key: "H", short: "H", long: "with-filename" },
  { key: "h", short: "h", long: "no-filename" },
  { key: "label", long: "label", value: true },
  { key: "n", short: "n", long: "line-number" },
  { key: "no-n", long: "no-line-number" },
  { key: "T", short: "T", long: "initial-tab" },
  { key: "Z", short: "Z", long: "null" },
  { key: "A", short: "A", long: "after-context", value: true },
  { key: "B", short: "B", long: "before-context", value: true },
  { key: "C", short: "C", long: "context", value: true },
  { key: "group-separator", long: "group-separator", value: true },
  { key: "no-group-separator", long: "no-group-separator" },
  { key: "a", short: "a", long: "text" },
  { key: "I", short: "I" },
  { key: "binary-files", long: "binary-files", value: true },
  { key: "d", short: "d", long: "directories", value: true },
  { key: "D", short: "D", long: "devices", value: true },
  { key: "r", short: "r", long: "recursive" },
  { key: "r", short: "R", long: "dereference-recursive" },
  { key: "include", long: "include", value: true },
  { key: "exclude", long: "exclude", value: true },
  { key: "exclude-dir", long: "exclude-dir", value: true },
  { key: "line-buffered", long: "line-buffered" },
  { key: "U", short: "U", long: "binary" },
  { key: "V", short: "V", long: "version" },
];

const USAGE = "grep [OPTION]... PATTERNS [FILE]...";

const HELP = `Usage: grep [OPTION]... PATTERNS [FILE]...
Search for PATTERNS in each FILE (GNU grep 3.8 compatible, read-only docs shell).
Example: grep -rn 'webhook' /guides

Pattern selection and interpretation:
  -E, --extended-regexp     PATTERNS are extended regular expressions
  -F, --fixed-strings       PATTERNS are strings
  -G, --basic-regexp        PATTERNS are basic regular expressions (default)
  -P, --perl-regexp         PATTERNS are Perl regular expressions
  -e, --regexp=PATTERNS     use PATTERNS for matching
  -f, --file=FILE           take PATTERNS from FILE
  -i, --ignore-case         ignore case distinctions in patterns and data
      --no-ignore-case      do not ignore case distinctions (default)
  -w, --word-regexp         match only whole words
  -x, --line-regexp         match only whole lines

Miscellaneous:
  -s, --no-messages         suppress error messages
  -v, --invert-match        select non-matching lines

Output control:
  -m, --max-count=NUM       stop after NUM selected lines
  -b, --byte-offset         print the byte offset with output lines
  -n, --line-number         print line number with output lines
  -H, --with-filename       print file name with output lines
  -h, --no-filename         suppress the file name prefix on output
  -T, --initial-tab         make tabs line up (if needed)
      --label=LABEL         use LABEL as the standard input file name prefix
  -o, --only-matching       show only nonempty parts of lines that match
  -q, --quiet, --silent     suppress all normal output
  -d, --directories=ACTION  how to handle directories: read, recurse, skip
  -r, --recursive           search directories recursively (-R is the same here)
      --include=GLOB        search only files that match GLOB
      --exclude=GLOB        skip files that match GLOB
      --exclude-dir=GLOB    skip directories that match GLOB
  -L, --files-without-match print only names of FILEs with no selected lines
  -l, --files-with-matches  print only names of FILEs with selected lines
  -c, --count               print only a count of selected lines per FILE
  -Z, --null                print 0 byte after FILE name

Context control:
  -B, --before-context=NUM  print NUM lines of leading context
  -A, --after-context=NUM   print NUM lines of trailing context
  -C, --context=NUM         print NUM lines of output context
  -NUM                      same as --context=NUM
      --group-separator=SEP  print SEP on line between matches with context
      --no-group-separator  do not print separator for matches with context

With no FILE, read standard input; with -r and no FILE, search the docs from the current
folder ("/"). Exit status is 0 if any line is selected, 1 otherwise; 2 if an error occurred.
Files are searched in name order (byte order), folders depth-first.
`;

interface GrepSettings {
  dialect: Dialect;
  patterns: string[];
  ignoreCase: boolean;
  invert: boolean;
  word: boolean;
  line: boolean;
  count: boolean;
  listMatching: boolean;
  listMissing: boolean;
  maxCount: number;
  only: boolean;
  quiet: boolean;
  noMessages: boolean;
  byteOffset: boolean;
  /** -T: numbers padded to 4 columns and a tab before the line text. */
  initialTab: boolean;
  withFilename: boolean | undefined;
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
}

/** Parse a context or count argument the way grep does. */
function contextNumber(io: CommandIo, value: string): number | undefined {
  if (!/^\d+$/.test(value)) {
    io.fail(`${value}: invalid context length argument`);
    return undefined;
  }
  return Number(value);
}

function settingsFrom(parsed: ParsedArgs, io: CommandIo, defaultDialect: Dialect): GrepSettings | number {
  const s: GrepSettings = {
    dialect: defaultDialect,
    patterns: [],
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
  };
  let explicitPatterns = false;
  let context = -1;
  for (const o of parsed.options) {
    switch (o.key) {
      case "E":
        s.dialect = "ere";
        break;
      case "F":
        s.dialect = "fixed";
        break;
      case "G":
        s.dialect = "bre";
        break;
      case "P":
        s.dialect = "pcre";
        break;
      case "e":
        s.patterns.push(...o.value.split("\n"));
        explicitPatterns = true;
        break;
      case "f": {
        const entry = lookup(io.view, io.cwd, o.value, io.piped);
        if (entry.kind !== "file" && entry.kind !== "device") {
          io.fail(`${o.value}: ${entry.kind === "dir" ? ERRNO.EISDIR : lookupError(entry)}`);
          return 2;
        }
        const text = entry.kind === "file" ? entry.text : "";
        const lines = text.split("\n");
        if (text.endsWith("\n")) lines.pop();
        if (text !== "") s.patterns.push(...lines);
        explicitPatterns = true;
        break;
      }
      case "i":
        s.ignoreCase = true;
        break;
      case "no-i":
        s.ignoreCase = false;
        break;
      case "v":
        s.invert = true;
        break;
      case "w":
        s.word = true;
        break;
      case "x":
        s.line = true;
        break;
      case "c":
        s.count = true;
        break;
      case "L":
        s.listMissing = true;
        s.listMatching = false;
        break;
      case "l":
        s.listMatching = true;
        s.listMissing = false;
        break;
      case "m": {
        if (!/^-?\d+$/.test(o.value)) {
          io.fail(`invalid max count`);
          return 2;
        }
        const n = Number(o.value);
        s.maxCount = n < 0 ? Number.POSITIVE_INFINITY : n;
        break;
      }
      case "o":
        s.only = true;
        break;
      case "q":
        s.quiet = true;
        break;
      case "s":
        s.noMessages = true;
        break;
      case "b":
        s.byteOffset = true;
        break;
      case "T":
        s.initialTab = true;
        break;
      case "H":
        s.withFilename = true;
        break;
      case "h":
        s.withFilename = false;
        break;
      case "label":
        s.label = o.value;
        break;
      case "n":
        s.lineNumber = true;
        break;
      case "no-n":
        s.lineNumber = false;
        break;
      case "Z":
        s.nullAfterName = true;
        break;
      case "A": {
        const n = contextNumber(io, o.value);
        if (n === undefined) return 2;
        s.after = n;
        break;
      }
      case "B": {
        const n = contextNumber(io, o.value);
        if (n === undefined) return 2;
        s.before = n;
        break;
      }
      case "C":
      case "NUM": {
        const n = contextNumber(io, o.value);
        if (n === undefined) return 2;
        context = n;
        break;
      }
      case "group-separator":
        s.separator = o.value;
        break;
      case "no-group-separator":
        s.separator = null;
        break;
      case "d":
        if (o.value !== "read" && o.value !== "recurse" && o.value !== "skip") {
          io.fail(`invalid argument '${o.value}' for '--directories'\nValid arguments are:\n  - 'read'\n  - 'recurse'\n  - 'skip'`);
          io.out.error(`Usage: ${USAGE}\nTry '${io.name} --help' for more information.\n`);
          return 2;
        }
        s.directories = o.value;
        break;
      case "r":
        s.directories = "recurse";
        break;
      case "include":
        s.include.push(fnmatchRegex(o.value));
        break;
      case "exclude":
        s.exclude.push(fnmatchRegex(o.value));
        break;
      case "exclude-dir":
        s.excludeDir.push(fnmatchRegex(o.value));
        break;
      case "V":
        io.out.write("grep (GNU grep) 3.8\n");
        return 0;
      default:
        // --color, -a, -I, -U, -T, -D, --binary-files, --line-buffered: no effect on plain text output.
        break;
    }
  }
  if (s.before < 0) s.before = Math.max(context, 0);
  if (s.after < 0) s.after = Math.max(context, 0);
  s.operands = [...parsed.operands];
  if (!explicitPatterns) {
    const first = s.operands.shift();
    if (first === undefined) {
      io.out.error(`Usage: ${USAGE}\nTry '${io.name} --help' for more information.\n`);
      return 2;
    }
    s.patterns.push(...first.split("\n"));
  }
  return s;
}

/** One thing to search: a file's text (or stdin), with the name grep prints. */
interface Target {
  readonly display: string;
  readonly text: string;
}

/** GNU grep over the view: files in name order, folders depth-first. */
export function grepSpec(view: SiteView, name: "grep" | "egrep" | "fgrep") {
  const defaultDialect: Dialect = name === "egrep" ? "ere" : name === "fgrep" ? "fixed" : "bre";
  return {
    name,
    help: HELP,
    usage: USAGE,
    run: async (args: string[], io: CommandIo): Promise<number> => {
      if (name !== "grep") io.out.error(`${name}: warning: ${name} is obsolescent\n`);
      const parsed = parseOptions(args, SPECS, { abbreviations: true, numericKey: "NUM" });
      const settings = settingsFrom(parsed, io, defaultDialect);
      if (typeof settings === "number") return settings;
      return runGrep(settings, io);
    },
  };
}

async function runGrep(s: GrepSettings, io: CommandIo): Promise<number> {
  let compiled: ReturnType<typeof compilePatterns>;
  try {
    compiled = compilePatterns(s.patterns, { dialect: s.dialect, ignoreCase: s.ignoreCase, word: s.word, line: s.line });
  } catch (error) {
    if (error instanceof PosixRegexError || error instanceof RustRegexError) {
      io.fail(error.message);
      return 2;
    }
    throw error;
  }
  for (const w of compiled.warnings) io.fail(`warning: ${w}`);
  const regex = compiled.regex;
  const operands = s.operands;

  let errors = false;
  let selectedAny = false;
  const state = { printedGroup: false };
  const recursive = s.directories === "recurse";
  // grep names files when there are several operands, or when -r descends into a folder.
  const nameFiles = (multiple: boolean): boolean => s.withFilename ?? multiple;

  const excludedFile = (display: string, base: string, commandLine: boolean): boolean => {
    const candidates = commandLine ? suffixes(display) : [base];
    if (s.exclude.some((re) => candidates.some((c) => re.test(c)))) return true;
    if (s.include.length > 0 && !s.include.some((re) => candidates.some((c) => re.test(c)))) return true;
    return false;
  };

  /** Search one file; returns true when grep should stop everything (-q matched). */
  const searchOne = (target: Target, named: boolean): boolean => {
    io.checkTime();
    const { text, display } = target;
    const nameSep = s.nullAfterName ? "\0" : ":";
    if (s.quiet) {
      const hit = s.invert ? selectLines(text, regex, true, 1).length > 0 : anyLineMatches(text, regex);
      if (hit && s.maxCount > 0) {
        selectedAny = true;
        return true;
      }
      return false;
    }
    if (s.listMatching || s.listMissing) {
      const hit = s.maxCount > 0 && (s.invert ? selectLines(text, regex, true, 1).length > 0 : anyLineMatches(text, regex));
      if (hit) selectedAny = true;
      if (hit === s.listMatching) io.out.write(`${display}${s.nullAfterName ? "\0" : "\n"}`);
      return false;
    }
    const selected = selectLines(text, regex, s.invert, s.maxCount);
    if (selected.length > 0) selectedAny = true;
    if (s.count) {
      io.out.write(named ? `${display}${nameSep}${selected.length}\n` : `${selected.length}\n`);
      return false;
    }
    if (selected.length === 0) return false;
    const withOffsets = s.byteOffset ? byteOffsets(text) : undefined;
    const prefix = (line: number, isMatch: boolean, start: number): string => {
      const sep = isMatch ? ":" : "-";
      let p = "";
      if (named) p += `${display}${s.nullAfterName ? "\0" : sep}`;
      const num = (n: number) => (s.initialTab ? String(n).padStart(4) : String(n));
      if (s.lineNumber) p += `${num(line)}${sep}`;
      if (withOffsets !== undefined) p += `${num(withOffsets(start))}${sep}`;
      return s.initialTab && p !== "" ? `${p}\t` : p;
    };
    if (s.only) {
      if (s.invert) return false; // -v -o selects lines but prints no matched parts
      for (const sel of selected) {
        const lineText = text.slice(sel.start, sel.end);
        for (const [a, b] of matchesInLine(lineText, regex)) {
          if (!io.out.write(`${prefix(sel.line, true, sel.start + a)}${lineText.slice(a, b)}\n`)) return true;
        }
      }
      return false;
    }
    if (s.before === 0 && s.after === 0) {
      writeLines(text, selected, prefix, io);
      return false;
    }
    printWithContext(text, selected, { before: s.before, after: s.after, separator: s.separator }, prefix, (x) => io.out.write(x), state);
    return false;
  };

  const operandList: Array<{ operand: string; stdin: boolean }> = [];
  if (operands.length === 0) {
    operandList.push(recursive ? { operand: ".", stdin: false } : { operand: "-", stdin: true });
  } else {
    for (const o of operands) operandList.push({ operand: o, stdin: o === "-" });
  }
  const implicitDot = operands.length === 0 && recursive;
  const multiple = operandList.length > 1;

  // First the files to search, in order, then the search. A missing operand is a target that
  // reports its error when its turn comes (in order with the output under `2>&1`).
  const targets: Array<Target & { named: boolean; error?: string }> = [];
  const failed = (message: string) => {
    errors = true;
    if (!s.noMessages) targets.push({ display: "", text: "", named: false, error: message });
  };
  for (const t of operandList) {
    if (t.stdin) {
      targets.push({ display: s.label, text: io.stdin(), named: nameFiles(multiple) });
      continue;
    }
    const entry = lookup(io.view, io.cwd, t.operand, io.piped);
    if (entry.kind === "missing" || entry.kind === "notdir") {
      failed(`${t.operand}: ${lookupError(entry)}`);
      continue;
    }
    if (entry.kind === "device") {
      targets.push({ display: t.operand, text: "", named: nameFiles(multiple) });
      continue;
    }
    if (entry.kind === "file") {
      if (!excludedFile(t.operand, baseName(entry.path), true)) targets.push({ display: t.operand, text: entry.text, named: nameFiles(multiple) });
      continue;
    }
    // A folder.
    if (s.directories === "skip") continue;
    if (!recursive) {
      failed(`${t.operand}: ${ERRNO.EISDIR}`);
      continue;
    }
    if (s.excludeDir.some((re) => suffixes(t.operand).some((c) => re.test(c))) && !implicitDot) continue;
    walk(io.view, entry.path, implicitDot ? "" : t.operand, (w) => {
      const base = baseName(w.path);
      if (w.isDir) return !s.excludeDir.some((re) => re.test(base));
      if (excludedFile(w.display, base, false)) return;
      const file = io.view.fileAt(w.path);
      if (file !== undefined) targets.push({ display: w.display, text: file.text, named: nameFiles(true) });
      return;
    });
  }
  if (!(await io.regexIsSafe(regex, targets.map((t) => t.text)))) return 2;
  for (const t of targets) {
    if (io.out.full) break;
    if (t.error !== undefined) io.fail(t.error);
    else if (searchOne(t, t.named)) break;
  }
  if (s.quiet && selectedAny) return 0;
  if (errors) return 2;
  return selectedAny ? 0 : 1;
}

/** Every suffix of a path that starts a component (`a/b/c.md`, `b/c.md`, `c.md`). */
function suffixes(path: string): string[] {
  const out = [path];
  for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) {
    if (i + 1 < path.length) out.push(path.slice(i + 1));
  }
  return out;
}

/** Plain selected lines, no context: the hot path. */
function writeLines(
  text: string,
  selected: readonly SelectedLine[],
  prefix: (line: number, isMatch: boolean, start: number) => string,
  io: CommandIo,
): void {
  for (const sel of selected) {
    if (!io.out.write(`${prefix(sel.line, true, sel.start)}${text.slice(sel.start, sel.end)}\n`)) return;
  }
}

export const grepCommand: ShellCommandFactory = (view) => docsCommand(view, grepSpec(view, "grep"));
export const egrepCommand: ShellCommandFactory = (view) => docsCommand(view, grepSpec(view, "egrep"));
export const fgrepCommand: ShellCommandFactory = (view) => docsCommand(view, grepSpec(view, "fgrep"));
