import type { SiteView } from "../../../vfs/view.js";
import { type CommandIo, docsCommand } from "../lib/command.js";
import { baseName, lookup, walk } from "../lib/files.js";
import { type IgnoreGlob, fnmatchRegex, gitignoreGlob, globsAllow } from "../lib/glob.js";
import {
  type SelectedLine,
  anyLineMatches,
  byteOffsets,
  matchesInLine,
  printWithContext,
  selectLines,
} from "../lib/line-search.js";
import { type OptionError, type OptionSpec, parseOptions } from "../lib/options.js";
import { RustRegexError, compilePatterns, formatRustError, hasUppercaseLiteral } from "../lib/patterns.js";
import type { ShellCommandFactory } from "./command.js";
import { RG_TYPES } from "./rg-types.js";

/** Long names with their value placeholder, as clap prints them in errors. */
const SPECS: readonly (OptionSpec & { readonly placeholder?: string })[] = [
  { key: "e", short: "e", long: "regexp", value: true, placeholder: "PATTERN" },
  { key: "f", short: "f", long: "file", value: true, placeholder: "PATTERNFILE" },
  { key: "i", short: "i", long: "ignore-case" },
  { key: "s", short: "s", long: "case-sensitive" },
  { key: "S", short: "S", long: "smart-case" },
  { key: "F", short: "F", long: "fixed-strings" },
  { key: "no-F", long: "no-fixed-strings" },
  { key: "w", short: "w", long: "word-regexp" },
  { key: "x", short: "x", long: "line-regexp" },
  { key: "v", short: "v", long: "invert-match" },
  { key: "P", short: "P", long: "pcre2" },
  { key: "no-P", long: "no-pcre2" },
  { key: "engine", long: "engine", value: true, placeholder: "ENGINE" },
  { key: "U", short: "U", long: "multiline" },
  { key: "l", short: "l", long: "files-with-matches" },
  { key: "files-without-match", long: "files-without-match" },
  { key: "c", short: "c", long: "count" },
  { key: "count-matches", long: "count-matches" },
  { key: "include-zero", long: "include-zero" },
  { key: "o", short: "o", long: "only-matching" },
  { key: "q", short: "q", long: "quiet" },
  { key: "m", short: "m", long: "max-count", value: true, placeholder: "NUM" },
  { key: "A", short: "A", long: "after-context", value: true, placeholder: "NUM" },
  { key: "B", short: "B", long: "before-context", value: true, placeholder: "NUM" },
  { key: "C", short: "C", long: "context", value: true, placeholder: "NUM" },
  { key: "context-separator", long: "context-separator", value: true, placeholder: "SEPARATOR" },
  { key: "no-context-separator", long: "no-context-separator" },
  { key: "passthru", long: ["passthru", "passthrough"] },
  { key: "n", short: "n", long: "line-number" },
  { key: "N", short: "N", long: "no-line-number" },
  { key: "column", long: "column" },
  { key: "no-column", long: "no-column" },
  { key: "b", short: "b", long: "byte-offset" },
  { key: "heading", long: "heading" },
  { key: "no-heading", long: "no-heading" },
  { key: "H", short: "H", long: "with-filename" },
  { key: "I", short: "I", long: "no-filename" },
  { key: "0", short: "0", long: "null" },
  { key: "vimgrep", long: "vimgrep" },
  { key: "p", short: "p", long: "pretty" },
  { key: "trim", long: "trim" },
  { key: "no-trim", long: "no-trim" },
  { key: "M", short: "M", long: "max-columns", value: true, placeholder: "NUM" },
  { key: "max-columns-preview", long: "max-columns-preview" },
  { key: "r", short: "r", long: "replace", value: true, placeholder: "REPLACEMENT_TEXT" },
  { key: "g", short: "g", long: "glob", value: true, placeholder: "GLOB" },
  { key: "iglob", long: "iglob", value: true, placeholder: "GLOB" },
  { key: "glob-case-insensitive", long: "glob-case-insensitive" },
  { key: "t", short: "t", long: "type", value: true, placeholder: "TYPE" },
  { key: "T", short: "T", long: "type-not", value: true, placeholder: "TYPE" },
  { key: "type-list", long: "type-list" },
  { key: "type-add", long: "type-add", value: true, placeholder: "TYPE_SPEC" },
  { key: "type-clear", long: "type-clear", value: true, placeholder: "TYPE" },
  { key: "files", long: "files" },
  { key: "hidden", short: "." , long: "hidden" },
  { key: "no-hidden", long: "no-hidden" },
  { key: "u", short: "u", long: "unrestricted" },
  { key: "d", short: "d", long: "max-depth", value: true, placeholder: "NUM" },
  { key: "sort", long: "sort", value: true, placeholder: "SORTBY" },
  { key: "sortr", long: "sortr", value: true, placeholder: "SORTBY" },
  { key: "color", long: ["color", "colour"], value: true, placeholder: "WHEN" },
  { key: "no-messages", long: "no-messages" },
  { key: "V", short: "V", long: "version" },
  { key: "h", short: "h" },
  // Accepted without effect: the docs have no ignore files, links, archives or encodings.
  ...["no-ignore", "no-ignore-vcs", "no-ignore-parent", "no-ignore-dot", "no-ignore-global", "no-ignore-exclude", "no-ignore-files", "no-require-git", "follow", "no-follow", "search-zip", "text", "no-text", "binary", "no-binary", "line-buffered", "block-buffered", "no-config", "crlf", "no-crlf", "mmap", "no-mmap", "one-file-system", "stats", "no-unicode", "unicode", "no-pcre2-unicode", "ignore-case-literal", "auto-hybrid-regex"].map(
    (l) => ({ key: "noop", long: l }),
  ),
  // Accepted without effect, with a value: size limits and colours do not apply here.
  ...["max-filesize", "regex-size-limit", "dfa-size-limit", "colors", "ignore-file"].map((l) => ({ key: "noop", long: l, value: true, placeholder: "VALUE" })),
  { key: "unsupported", long: ["json", "pre", "pre-glob", "null-data", "multiline-dotall", "field-match-separator", "field-context-separator", "path-separator", "debug", "trace", "pcre2-version"] },
  { key: "noop", short: "L" },
  { key: "noop", short: "a" },
  { key: "noop", short: "z" },
  { key: "j", short: "j", long: "threads", value: true, placeholder: "NUM" },
  { key: "E", short: "E", long: "encoding", value: true, placeholder: "ENCODING" },
];

const USAGE_BLOCK = `USAGE:
    
    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list
    command | rg [OPTIONS] PATTERN
    rg [OPTIONS] --help
    rg [OPTIONS] --version

For more information try --help

`;

const HELP = `ripgrep 13.0.0 (read-only docs shell)
Recursively search the docs for lines matching a regex pattern.

USAGE:
    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list
    command | rg [OPTIONS] PATTERN

Output is ripgrep's when piped (never a terminal here): no colours, no line numbers unless -n,
file names when searching a folder or several paths, no headings unless --heading. Files are
searched and printed in path order (as with --sort path). Patterns use ripgrep's (Rust) regex
syntax; -P adds look-around and back-references. Type md also covers *.mdx here.

OPTIONS:
  -e, --regexp PATTERN       a pattern (repeatable)        -f, --file FILE   patterns from a file
  -i, --ignore-case          case-insensitive              -S, --smart-case  insensitive unless uppercase
  -s, --case-sensitive       case-sensitive (default)      -F, --fixed-strings  literal strings
  -w, --word-regexp          whole words                   -x, --line-regexp  whole lines
  -v, --invert-match         non-matching lines            -P, --pcre2       PCRE2 syntax
  -l, --files-with-matches   only file names               --files-without-match
  -c, --count                matching lines per file       --count-matches   matches per file
  -o, --only-matching        only the matched parts        -q, --quiet       exit status only
  -m, --max-count NUM        at most NUM matching lines per file
  -A/-B/-C NUM               lines of context after/before/around each match
  -n, --line-number          show line numbers             -N, --no-line-number
      --column               show column numbers           -b, --byte-offset
      --heading              group matches under file names (--no-heading is the default)
  -H, --with-filename        -I, --no-filename             -0, --null
      --vimgrep              path:line:column:text for every match
  -r, --replace TEXT         replace matches ($1, \${name})  --trim   strip leading whitespace
  -M, --max-columns NUM      omit lines longer than NUM bytes
  -g, --glob GLOB            include (or !exclude) files by gitignore-style glob; --iglob ignores case
  -t, --type TYPE            only files of TYPE (see --type-list); -T, --type-not TYPE excludes
      --type-add NAME:GLOB   add a glob to file type NAME for this search; --type-clear NAME
      --files                list the files that would be searched
      --hidden               search hidden files and folders
  -d, --max-depth NUM        descend at most NUM folders
      --sort path|none|modified   --sortr path|modified (reverse)
      --passthru             print every line, matches and non-matches
`;

/** ripgrep's report of an unknown option (clap 2), with its "Did you mean" line. */
function clapError(error: OptionError, io: CommandIo, args: readonly string[]): number {
  const names = SPECS.flatMap((s) => (s.long === undefined ? [] : typeof s.long === "string" ? [s.long] : [...s.long]));
  let text: string;
  if (error.kind === "missing-short" || error.kind === "missing-long") {
    const spec = SPECS.find((s) => (error.kind === "missing-short" ? s.short === error.option : error.option === `--${String(s.long)}`));
    const long = spec === undefined ? error.option : typeof spec.long === "string" ? spec.long : (spec.long?.[0] ?? error.option);
    const repeatable = ["e", "f", "g", "iglob", "t", "T"].includes(spec?.key ?? "");
    // clap 2 checks the required PATTERN first when nothing else was given.
    const onlyThisOption = args.length === 1 && !repeatable;
    text = onlyThisOption
      ? "error: The following required arguments were not provided:\n    <PATTERN>\n"
      : `error: The argument '--${long} <${spec?.placeholder ?? "VALUE"}>${repeatable ? "..." : ""}' requires a value but none was supplied\n`;
  } else if (error.kind === "no-argument") {
    text = `error: Found argument '${error.option}' which wasn't expected, or isn't valid in this context\n`;
  } else {
    // clap reads `---` as `--` followed by junk, and names `--`.
    const shown = error.kind === "invalid" ? `-${error.option}` : error.option.startsWith("---") ? "--" : error.option;
    text = `error: Found argument '${shown}' which wasn't expected, or isn't valid in this context\n`;
    if (shown.startsWith("--")) {
      const guess = closest(shown.slice(2), names);
      if (guess !== undefined) text += `\tDid you mean --${guess}?\n`;
    }
  }
  io.out.error(`${text}\n${USAGE_BLOCK}`);
  return 2;
}

/** clap's suggestion: the most similar long option by Jaro-Winkler, above 0.8. */
function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = 0.8;
  for (const c of candidates) {
    const score = jaroWinkler(word, c);
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return best;
}

function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const range = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatch = new Array<boolean>(a.length).fill(false);
  const bMatch = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = Math.max(0, i - range); j < Math.min(b.length, i + range + 1); j++) {
      if (!bMatch[j] && a[i] === b[j]) {
        aMatch[i] = true;
        bMatch[j] = true;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let t = 0;
  let k = 0;
  for (let i = 0; i < a.length; i++) {
    if (!aMatch[i]) continue;
    while (!bMatch[k]) k++;
    if (a[i] !== b[k]) t++;
    k++;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - t / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

interface RgSettings {
  patterns: string[];
  fixed: boolean;
  pcre: boolean;
  caseMode: "sensitive" | "insensitive" | "smart";
  word: boolean;
  line: boolean;
  invert: boolean;
  mode: "lines" | "files-with" | "files-without" | "count" | "count-matches" | "files" | "type-list";
  includeZero: boolean;
  only: boolean;
  quiet: boolean;
  maxCount: number;
  before: number;
  after: number;
  separator: string | null;
  passthru: boolean;
  lineNumber: boolean | undefined;
  column: boolean;
  byteOffset: boolean;
  heading: boolean;
  withFilename: boolean | undefined;
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
  noMessages: boolean;
  paths: string[];
}

/** A number argument as clap validates it. */
function numberArg(value: string, io: CommandIo, name: string): number | undefined {
  if (!/^\d+$/.test(value)) {
    io.out.error(`error: Invalid value for '--${name} <NUM>': invalid digit found in string\n\n`);
    return undefined;
  }
  return Number(value);
}

function settingsFrom(args: string[], io: CommandIo): RgSettings | number {
  const parsed = parseOptions(args, SPECS, { abbreviations: false });
  const s: RgSettings = {
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
    noMessages: false,
    paths: [],
  };
  let explicitPatterns = false;
  let globCaseInsensitive = false;
  const rawGlobs: Array<[string, boolean]> = [];
  for (const o of parsed.options) {
    switch (o.key) {
      case "e":
        s.patterns.push(o.value);
        explicitPatterns = true;
        break;
      case "f": {
        const entry = o.value === "-" ? { kind: "stdin" as const } : lookup(io.view, io.cwd, o.value, io.piped);
        let text: string;
        if (entry.kind === "stdin") text = io.stdin();
        else if (entry.kind === "file") text = entry.text;
        else if (entry.kind === "device") text = "";
        else {
          io.out.error(`${o.value}: No such file or directory (os error 2)\n`);
          return 2;
        }
        const lines = text.split("\n");
        if (text.endsWith("\n")) lines.pop();
        if (text !== "") s.patterns.push(...lines);
        explicitPatterns = true;
        break;
      }
      case "i":
        s.caseMode = "insensitive";
        break;
      case "s":
        s.caseMode = "sensitive";
        break;
      case "S":
        s.caseMode = "smart";
        break;
      case "F":
        s.fixed = true;
        break;
      case "no-F":
        s.fixed = false;
        break;
      case "w":
        s.word = true;
        break;
      case "x":
        s.line = true;
        break;
      case "v":
        s.invert = true;
        break;
      case "P":
        s.pcre = true;
        break;
      case "no-P":
        s.pcre = false;
        break;
      case "engine":
        s.pcre = o.value === "pcre2";
        break;
      case "U":
        io.out.error("rg: multiline search (-U) is not supported by this docs shell; search line by line, e.g. with -A/-B/-C context\n");
        return 2;
      case "unsupported":
        io.out.error(`rg: ${o.name} is not supported by this docs shell; use the default output, -n, --vimgrep or -l\n`);
        return 2;
      case "l":
        s.mode = "files-with";
        break;
      case "files-without-match":
        s.mode = "files-without";
        break;
      case "c":
        s.mode = "count";
        break;
      case "count-matches":
        s.mode = "count-matches";
        break;
      case "include-zero":
        s.includeZero = true;
        break;
      case "o":
        s.only = true;
        break;
      case "q":
        s.quiet = true;
        break;
      case "m": {
        const n = numberArg(o.value, io, "max-count");
        if (n === undefined) return 2;
        s.maxCount = n;
        break;
      }
      case "A":
      case "B":
      case "C": {
        const n = numberArg(o.value, io, { A: "after-context", B: "before-context", C: "context" }[o.key]);
        if (n === undefined) return 2;
        if (o.key !== "B") s.after = n;
        if (o.key !== "A") s.before = n;
        break;
      }
      case "context-separator":
        s.separator = o.value;
        break;
      case "no-context-separator":
        s.separator = null;
        break;
      case "passthru":
        s.passthru = true;
        break;
      case "n":
        s.lineNumber = true;
        break;
      case "N":
        s.lineNumber = false;
        break;
      case "column":
        // --column implies line numbers (ripgrep's documented behaviour).
        s.column = true;
        s.lineNumber ??= true;
        break;
      case "no-column":
        s.column = false;
        break;
      case "b":
        s.byteOffset = true;
        break;
      case "heading":
        s.heading = true;
        break;
      case "no-heading":
        s.heading = false;
        break;
      case "H":
        s.withFilename = true;
        break;
      case "I":
        s.withFilename = false;
        break;
      case "0":
        s.nul = true;
        break;
      case "vimgrep":
        s.vimgrep = true;
        break;
      case "p":
        s.heading = true;
        s.lineNumber = true;
        break;
      case "trim":
        s.trim = true;
        break;
      case "no-trim":
        s.trim = false;
        break;
      case "M": {
        const n = numberArg(o.value, io, "max-columns");
        if (n === undefined) return 2;
        s.maxColumns = n;
        break;
      }
      case "max-columns-preview":
        s.maxColumnsPreview = true;
        break;
      case "r":
        s.replace = o.value;
        break;
      case "g":
        rawGlobs.push([o.value, false]);
        break;
      case "iglob":
        rawGlobs.push([o.value, true]);
        break;
      case "glob-case-insensitive":
        globCaseInsensitive = true;
        break;
      case "t":
        s.types.push(o.value);
        break;
      case "T":
        s.typesNot.push(o.value);
        break;
      case "type-add": {
        const colon = o.value.indexOf(":");
        if (colon <= 0) {
          io.out.error(`rg: invalid definition (format is type:glob, e.g., html:*.html): ${o.value}\n`);
          return 2;
        }
        s.typeEdits.push({ name: o.value.slice(0, colon), glob: o.value.slice(colon + 1) });
        break;
      }
      case "type-clear":
        s.typeEdits.push({ name: o.value });
        break;
      case "type-list":
        s.mode = "type-list";
        break;
      case "files":
        s.mode = "files";
        break;
      case "hidden":
        s.hidden = true;
        break;
      case "no-hidden":
        s.hidden = false;
        break;
      case "u":
        s.hidden = s.hidden || parsed.options.filter((x) => x.key === "u").length >= 2;
        break;
      case "d": {
        const n = numberArg(o.value, io, "max-depth");
        if (n === undefined) return 2;
        s.maxDepth = n;
        break;
      }
      case "sort":
      case "sortr": {
        const v = o.value;
        if (!["path", "none", "modified", "accessed", "created"].includes(v)) {
          io.out.error(
            `error: '${v}' isn't a valid value for '--${o.key} <SORTBY>'\n\t[possible values: accessed, created, modified, none, path]\n\n\n${USAGE_BLOCK}`,
          );
          return 2;
        }
        const by = v === "path" || v === "none" ? v : "modified";
        s.sort = (o.key === "sortr" && by !== "none" ? `r${by}` : by) as RgSettings["sort"];
        break;
      }
      case "no-messages":
        s.noMessages = true;
        break;
      case "V":
        io.out.write("ripgrep 13.0.0\n-SIMD -AVX (compiled)\n+SIMD +AVX (runtime)\n");
        return 0;
      case "h":
        // ripgrep's -h is its short help: ours is short already.
        io.out.write(HELP);
        return 0;
      default:
        break;
    }
  }
  s.globs = rawGlobs.map(([g, ci]) => gitignoreGlob(g, ci || globCaseInsensitive));
  s.paths = [...parsed.operands];
  if (s.mode !== "files" && s.mode !== "type-list" && !explicitPatterns) {
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

/** A file to search, with the path rg prints for it. */
interface Target {
  readonly display: string;
  readonly text: string;
  readonly mtime: number;
}

const BUILTIN_TYPES: ReadonlyMap<string, readonly string[]> = new Map(RG_TYPES);
const TYPE_MATCHERS = new Map(RG_TYPES.map(([name, globs]) => [name, globs.map((g) => fnmatchRegex(g))]));

async function runRg(s: RgSettings, io: CommandIo): Promise<number> {
  // The built-in type table, with this call's --type-add / --type-clear applied.
  let typeGlobs = BUILTIN_TYPES;
  let TYPES = TYPE_MATCHERS;
  if (s.typeEdits.length > 0) {
    const edited = new Map([...BUILTIN_TYPES].map(([n, g]) => [n, [...g]]));
    for (const e of s.typeEdits) {
      if (e.glob === undefined) edited.delete(e.name);
      else edited.set(e.name, [...(edited.get(e.name) ?? []), e.glob]);
    }
    typeGlobs = edited;
    TYPES = new Map([...edited].map(([n, g]) => [n, g.map((x) => fnmatchRegex(x))]));
  }
  if (s.mode === "type-list") {
    for (const name of [...typeGlobs.keys()].sort()) {
      const globs = [...(typeGlobs.get(name) ?? [])].sort();
      if (globs.length > 0) io.out.write(`${name}: ${globs.join(", ")}\n`);
    }
    return 0;
  }
  for (const t of [...s.types, ...s.typesNot]) {
    if (!TYPES.has(t) && t !== "all") {
      io.out.error(`unrecognized file type: ${t}\n`);
      return 2;
    }
  }
  let regex: RegExp | undefined;
  if (s.mode !== "files") {
    const ignoreCase = s.caseMode === "insensitive" || (s.caseMode === "smart" && !s.patterns.some(hasUppercaseLiteral));
    try {
      regex = compilePatterns(s.patterns, {
        dialect: s.fixed ? "fixed" : s.pcre ? "pcre" : "rust",
        ignoreCase,
        word: s.word,
        line: s.line,
      }).regex;
    } catch (error) {
      if (!(error instanceof RustRegexError)) throw error;
      const offending = s.patterns.length === 1 ? (s.patterns[0] as string) : s.patterns.join("|");
      io.out.error(formatRustError(offending, error));
      return 2;
    }
  }

  let errors = false;
  const typeMatchers = (names: readonly string[]) => names.flatMap((n) => (n === "all" ? [...TYPES.values()].flat() : (TYPES.get(n) ?? [])));
  const include = typeMatchers(s.types);
  const exclude = typeMatchers(s.typesNot);
  const typeAllows = (base: string): boolean => {
    if (exclude.some((re) => re.test(base))) return false;
    return include.length === 0 || include.some((re) => re.test(base));
  };
  const relative = (path: string): string => {
    const cwd = io.cwd === "/" ? "/" : `${io.cwd}/`;
    return path.startsWith(cwd) ? path.slice(cwd.length) : path.slice(1);
  };

  // Collect targets: explicit files always, folders walked with hidden/glob/type/depth filters.
  const targets: Target[] = [];
  let searchedDir = false;
  const useStdin = s.paths.length === 0 && s.mode !== "files" && io.hasStdin;
  const paths = s.paths.length > 0 ? s.paths : useStdin ? [] : ["./"];
  const implicit = s.paths.length === 0;
  for (const operand of paths) {
    const entry = lookup(io.view, io.cwd, operand, io.piped);
    if (entry.kind === "missing" || entry.kind === "notdir") {
      errors = true;
      if (!s.noMessages) io.out.error(`${operand}: ${entry.kind === "notdir" ? "Not a directory (os error 20)" : "No such file or directory (os error 2)"}\n`);
      continue;
    }
    if (entry.kind === "device") {
      targets.push({ display: operand, text: "", mtime: 0 });
      continue;
    }
    if (entry.kind === "file") {
      const file = io.view.fileAt(entry.path);
      targets.push({ display: operand, text: entry.text, mtime: file?.mtime.getTime() ?? 0 });
      continue;
    }
    searchedDir = true;
    const start: Target[] = [];
    walk(io.view, entry.path, implicit ? "" : operand, (w) => {
      if (w.depth > s.maxDepth) return false;
      const base = baseName(w.path);
      if (!s.hidden && base.startsWith(".")) return false;
      if (s.globs.length > 0 && !globsAllow(s.globs, relative(w.path), w.isDir)) return false;
      if (w.isDir) return true;
      if (!typeAllows(base)) return;
      const file = io.view.fileAt(w.path);
      if (file !== undefined) start.push({ display: w.display, text: file.text, mtime: file.mtime.getTime() });
      return;
    });
    if (s.sort === "modified" || s.sort === "rmodified") start.sort((a, b) => a.mtime - b.mtime);
    if (s.sort === "rpath" || s.sort === "rmodified") start.reverse();
    targets.push(...start);
  }
  if (useStdin) targets.push({ display: "<stdin>", text: io.stdin(), mtime: 0 });

  const named = s.withFilename ?? (searchedDir || paths.length > 1);
  const nameEnd = s.nul ? "\0" : "\n";

  if (s.mode === "files") {
    for (const t of targets) if (!io.out.write(`${t.display}${nameEnd}`)) break;
    return errors ? 2 : targets.length > 0 ? 0 : 1;
  }
  const re = regex as RegExp;
  if (!(await io.regexIsSafe(re, targets.map((t) => t.text)))) return 2;
  let matchedAny = false;
  const state = { printedGroup: false };
  let firstFile = true;
  for (const t of targets) {
    io.checkTime();
    if (io.out.full) break;
    const { text } = t;
    if (s.quiet) {
      if (s.maxCount > 0 && (s.invert ? selectLines(text, re, true, 1).length > 0 : anyLineMatches(text, re))) return 0;
      continue;
    }
    if (s.mode === "files-with" || s.mode === "files-without") {
      const hit = s.maxCount > 0 && (s.invert ? selectLines(text, re, true, 1).length > 0 : anyLineMatches(text, re));
      // ripgrep's exit status follows what it printed: a listed file is a "match".
      if (hit === (s.mode === "files-with")) {
        matchedAny = true;
        io.out.write(`${t.display}${nameEnd}`);
      }
      continue;
    }
    const selected = selectLines(text, re, s.invert, s.maxCount);
    if (selected.length > 0) matchedAny = true;
    if (s.mode === "count" || s.mode === "count-matches") {
      let n = selected.length;
      if (s.mode === "count-matches" && !s.invert) {
        n = 0;
        for (const sel of selected) n += matchesInLine(text.slice(sel.start, sel.end), re).length;
      }
      if (n === 0 && !s.includeZero) continue;
      io.out.write(named ? `${t.display}${s.nul ? "\0" : ":"}${n}\n` : `${n}\n`);
      continue;
    }
    if (selected.length === 0 && !s.passthru) continue;
    if (s.heading && named) {
      if (!firstFile) io.out.write("\n");
      io.out.write(`${t.display}\n`);
      state.printedGroup = false;
    }
    firstFile = false;
    printFile(t, selected, s, re, named && !s.heading, io, state);
  }
  if (errors) return 2;
  return matchedAny ? 0 : 1;
}

/** Print one file's matching lines in ripgrep's standard (non-tty) format. */
function printFile(
  t: Target,
  selected: readonly SelectedLine[],
  s: RgSettings,
  re: RegExp,
  named: boolean,
  io: CommandIo,
  state: { printedGroup: boolean },
): void {
  const { text } = t;
  const lineNumbers = s.lineNumber ?? false;
  const offsets = s.byteOffset ? byteOffsets(text) : undefined;
  const prefix = (line: number, isMatch: boolean, start: number, column?: number): string => {
    const sep = isMatch ? ":" : "-";
    let p = "";
    if (named) p += `${t.display}${s.nul ? "\0" : sep}`;
    if (lineNumbers) p += `${line}${sep}`;
    if (s.column && column !== undefined) p += `${column}${sep}`;
    if (offsets !== undefined) p += `${offsets(start)}${sep}`;
    return p;
  };
  const render = (lineText: string): string => {
    let out = s.replace === undefined ? lineText : replaceAll(lineText, re, s.replace);
    if (s.trim) out = out.replace(/^[ \t]+/, "");
    return out;
  };
  const columnOf = (lineText: string): number | undefined => {
    if (!s.column) return undefined;
    re.lastIndex = 0;
    const m = re.exec(lineText);
    return m === null ? 1 : Buffer.byteLength(lineText.slice(0, m.index)) + 1;
  };
  const omitted = (lineText: string, isMatch: boolean): string | undefined => {
    if (s.maxColumns === 0 || Buffer.byteLength(lineText) <= s.maxColumns) return undefined;
    // ripgrep 13's wording; the preview keeps the first NUM characters.
    if (s.maxColumnsPreview) return `${[...lineText].slice(0, s.maxColumns).join("")} [... omitted end of long line]`;
    return isMatch ? "[Omitted long matching line]" : "[Omitted long context line]";
  };

  if (s.only || s.vimgrep) {
    for (const sel of selected) {
      const lineText = text.slice(sel.start, sel.end);
      const spans = s.invert ? [[0, lineText.length] as [number, number]] : matchesInLine(lineText, re);
      for (const [a, b] of spans) {
        const col = Buffer.byteLength(lineText.slice(0, a)) + 1;
        const shown = s.vimgrep && !s.only ? render(lineText) : s.replace === undefined ? lineText.slice(a, b) : replaceAll(lineText.slice(a, b), re, s.replace);
        if (!io.out.write(`${prefix(sel.line, true, sel.start + a, col)}${omitted(shown, true) ?? shown}\n`)) return;
        if (s.vimgrep && !s.only) continue;
      }
    }
    return;
  }
  if (s.before === 0 && s.after === 0) {
    for (const sel of selected) {
      const lineText = text.slice(sel.start, sel.end);
      const shown = omitted(lineText, true) ?? render(lineText);
      if (!io.out.write(`${prefix(sel.line, true, sel.start, columnOf(lineText))}${shown}\n`)) return;
    }
    return;
  }
  const maxed = selected.length >= s.maxCount;
  printWithContext(
    text,
    selected,
    {
      before: s.before,
      after: s.after,
      separator: s.separator,
      // After -m stops, trailing context lines that match are still shown as matches.
      markMatchingContext: maxed && !s.invert ? (line) => anyLineMatches(line, re) : undefined,
      render: (line, isMatch) => omitted(line, isMatch) ?? (isMatch ? render(line) : s.trim ? line.replace(/^[ \t]+/, "") : line),
    },
    (line, isMatch, start) => prefix(line, isMatch, start, isMatch ? columnOf(lineAt(text, start)) : undefined),
    (chunk) => io.out.write(chunk),
    state,
  );
}

function lineAt(text: string, start: number): string {
  const end = text.indexOf("\n", start);
  return text.slice(start, end === -1 ? text.length : end);
}

/** `-r`: ripgrep's replacement syntax (`$1`, `${1}`, `${name}`, `$$`) applied to every match. */
function replaceAll(lineText: string, re: RegExp, replacement: string): string {
  const js = replacement.replace(/\$(\$|\{(\w+)\}|(\d+)|([A-Za-z_]\w*))/g, (_m, all: string, braced?: string, num?: string, name?: string) => {
    if (all === "$") return "$$";
    const ref = braced ?? num ?? name ?? "";
    return /^\d+$/.test(ref) ? `$${ref}` : `$<${ref}>`;
  });
  re.lastIndex = 0;
  return lineText.replace(re, js);
}

function rgSpec(_view: SiteView) {
  return {
    name: "rg",
    help: HELP,
    usageError: clapError,
    run: async (args: string[], io: CommandIo): Promise<number> => {
      const settings = settingsFrom(args, io);
      if (typeof settings === "number") return settings;
      return runRg(settings, io);
    },
  };
}

export const rgCommand: ShellCommandFactory = (view) => docsCommand(view, rgSpec(view));
