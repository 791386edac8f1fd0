import type { CommandIo } from "../../lib/command.js";
import { baseName, lookup, walk } from "../../lib/files.js";
import { type GlobMatcher, fnmatchRegex, globsAllow } from "../../lib/glob.js";
import { literalHitInBytes } from "../../lib/byte-search.js";
import { hasSelectedLine, matchesInLine, selectLines } from "../../lib/line-search.js";
import { compilePatterns } from "../../regex/patterns.js";
import { RustRegexError, formatRustError } from "../../regex/rust-error.js";
import { hasUppercaseLiteral } from "../../regex/smart-case.js";
import { RG_TYPES } from "./file-types.js";
import type { RgSettings } from "./options.js";
import { printFile } from "./output.js";
import type { RgTarget } from "./target.js";
import type { StoredText } from "../../../../vfs/stored-text.js";
import { appendAll } from "../../../../arrays.js";

/** The files rg found to search, and whether finding them went wrong. */
interface Targets {
  readonly list: RgTarget[];
  /** A folder was searched (rg then names files, as with several paths). */
  readonly searchedDir: boolean;
  /** An operand was missing: the exit status is 2 whatever matched. */
  readonly errors: boolean;
  /** Paths searched (`./` when none was given and stdin is not read). */
  readonly operands: number;
}

const BUILTIN_TYPES: ReadonlyMap<string, readonly string[]> = new Map(RG_TYPES);
const TYPE_MATCHERS: ReadonlyMap<string, GlobMatcher[]> = new Map(RG_TYPES.map(([name, globs]) => [name, globs.map((g) => fnmatchRegex(g))]));

/** The file-type table with this call's --type-add / --type-clear applied: globs and matchers. */
function fileTypes(s: RgSettings): { globs: ReadonlyMap<string, readonly string[]>; matchers: ReadonlyMap<string, GlobMatcher[]> } {
  if (s.typeEdits.length === 0) return { globs: BUILTIN_TYPES, matchers: TYPE_MATCHERS };
  const edited = new Map([...BUILTIN_TYPES].map(([n, g]) => [n, [...g]]));
  for (const e of s.typeEdits) {
    if (e.glob === undefined) edited.delete(e.name);
    else edited.set(e.name, [...(edited.get(e.name) ?? []), e.glob]);
  }
  return { globs: edited, matchers: new Map([...edited].map(([n, g]) => [n, g.map((x) => fnmatchRegex(x))])) };
}

/** Whether a file name passes -t / -T; undefined (with the message written) for an unknown type. */
function typeFilter(s: RgSettings, types: ReadonlyMap<string, GlobMatcher[]>, io: CommandIo): ((base: string) => boolean) | undefined {
  for (const t of [...s.types, ...s.typesNot]) {
    if (!types.has(t) && t !== "all") {
      io.out.error(`unrecognized file type: ${t}\n`);
      return undefined;
    }
  }
  const matchers = (names: readonly string[]) => names.flatMap((n) => (n === "all" ? [...types.values()].flat() : (types.get(n) ?? [])));
  const include = matchers(s.types);
  const exclude = matchers(s.typesNot);
  return (base) => !exclude.some((re) => re.test(base)) && (include.length === 0 || include.some((re) => re.test(base)));
}

/**
 * The patterns as one regex, or undefined with ripgrep's message written. ripgrep 13 joins
 * several patterns with `|` into one and parses that: each is compiled alone first (a list of
 * plain words stays on the fast path), and when one is refused the joined pattern decides, as
 * in ripgrep: `-e '(a' -e 'b)'` is `(a|b)`, and an error's caret points into the joined text
 * (`a|(b` under its `(`, not the start of the line).
 */
function compileRg(s: RgSettings, io: CommandIo): RegExp | undefined {
  const ignoreCase = s.caseMode === "insensitive" || (s.caseMode === "smart" && !s.patterns.some(hasUppercaseLiteral));
  const compile = (patterns: readonly string[]) =>
    compilePatterns(patterns, { dialect: s.fixed ? "fixed" : s.pcre ? "pcre" : "rust", ignoreCase, word: s.word, line: s.line, crlf: s.crlf }).regex;
  try {
    return compile(s.patterns);
  } catch (error) {
    if (!(error instanceof RustRegexError)) throw error;
    if (s.patterns.length === 1) {
      io.out.error(formatRustError(s.patterns[0] as string, error));
      return undefined;
    }
  }
  const joined = s.patterns.join("|");
  try {
    return compile([joined]);
  } catch (error) {
    if (!(error instanceof RustRegexError)) throw error;
    io.out.error(formatRustError(joined, error));
    return undefined;
  }
}

/** Explicit files always; folders walked with the hidden, glob, type and depth filters. */
function collectTargets(s: RgSettings, io: CommandIo, typeAllows: (base: string) => boolean): Targets {
  const relative = (path: string): string => {
    const cwd = io.cwd === "/" ? "/" : `${io.cwd}/`;
    return path.startsWith(cwd) ? path.slice(cwd.length) : path.slice(1);
  };
  const list: RgTarget[] = [];
  let searchedDir = false;
  let errors = false;
  // ripgrep searches stdin when given no path, unless `-f -` read the patterns from it.
  const useStdin = s.paths.length === 0 && s.mode !== "files" && io.hasStdin && !s.stdinTaken;
  const paths = s.paths.length > 0 ? s.paths : useStdin ? [] : ["./"];
  const implicit = s.paths.length === 0;
  for (const operand of paths) {
    // `-` is stdin, as in ripgrep (empty once `-f -` read it).
    if (operand === "-" && s.mode !== "files") {
      list.push({ display: "<stdin>", text: s.stdinTaken ? "" : io.stdin(), mtime: 0 });
      continue;
    }
    const entry = lookup(io.view, io.cwd, operand, io.piped);
    if (entry.kind === "missing" || entry.kind === "notdir") {
      errors = true;
      const reason = entry.kind === "notdir" ? "Not a directory (os error 20)" : "No such file or directory (os error 2)";
      if (!s.noMessages) io.out.error(s.oneThread ? `${operand}: IO error for operation on ${operand}: ${reason}\n` : `${operand}: ${reason}\n`);
      continue;
    }
    if (entry.kind === "device") {
      list.push({ display: operand, text: "", mtime: 0 });
      continue;
    }
    if (entry.kind === "file") {
      const file = io.view.fileAt(entry.path);
      list.push({ display: operand, text: entry.text, mtime: file?.mtime.getTime() ?? 0 });
      continue;
    }
    searchedDir = true;
    const found: RgTarget[] = [];
    walk(io.view, entry.path, implicit ? "" : operand, (w) => {
      if (w.depth > s.maxDepth) return false;
      const base = baseName(w.path);
      if (!s.hidden && base.startsWith(".")) return false;
      if (s.globs.length > 0 && !globsAllow(s.globs, relative(w.path), w.isDir)) return false;
      if (w.isDir) return true;
      if (!typeAllows(base)) return;
      const file = io.view.fileAt(w.path);
      // Read when searched, one at a time: a worker's texts are decoded from the shared snapshot
      // when read, and a folder of 50,000 pages read first held them all at once (issue 22).
      if (file !== undefined) found.push(lazyTarget(w.display, file));
      return;
    });
    if (s.sort === "modified" || s.sort === "rmodified") found.sort((a, b) => a.mtime - b.mtime);
    if (s.sort === "rpath" || s.sort === "rmodified") found.reverse();
    appendAll(list, found);
  }
  if (useStdin) list.push({ display: "<stdin>", text: io.stdin(), mtime: 0 });
  return { list, searchedDir, errors, operands: paths.length };
}

/** A file to search whose text is read when asked (each time: read it once). */
function lazyTarget(display: string, file: { readonly text: string; readonly mtime: Date; readonly stored?: StoredText }): RgTarget {
  return {
    display,
    get text() {
      return file.text;
    },
    mtime: file.mtime.getTime(),
    ...(file.stored !== undefined ? { stored: file.stored } : {}),
  };
}

/** Search the targets and print what the mode asks for; the exit status. */
function searchTargets(s: RgSettings, targets: Targets, re: RegExp, io: CommandIo): number {
  const named = s.withFilename ?? (targets.searchedDir || targets.operands > 1);
  const eol = s.crlf ? "\r\n" : "\n";
  const nameEnd = s.nul ? "\0" : eol;
  let matchedAny = false;
  const state = { printedGroup: false };
  let firstFile = true;
  for (const lazy of targets.list) {
    io.checkTime();
    if (io.out.full) break;
    // Whether it matches, told from its bytes when they can tell (`literalHitInBytes`): -l, -L
    // and -q need no more, and a file without a match prints nothing (-c --include-zero: 0).
    // Not with --crlf (a line end added), -v or --passthru (lines without a match printed).
    const fromBytes = s.crlf || s.invert || s.passthru || s.maxCount <= 0 ? undefined : literalHitInBytes(lazy.stored, re);
    if (fromBytes !== undefined && s.quiet) {
      if (fromBytes) return 0;
      continue;
    }
    if (fromBytes !== undefined && (s.mode === "files-with" || s.mode === "files-without")) {
      if (fromBytes === (s.mode === "files-with")) {
        matchedAny = true;
        io.out.write(`${lazy.display}${nameEnd}`);
      }
      continue;
    }
    if (fromBytes === false) {
      if ((s.mode === "count" || s.mode === "count-matches") && s.includeZero) io.out.write(named ? `${lazy.display}${s.nul ? "\0" : ":"}0${eol}` : `0${eol}`);
      continue;
    }
    // Its text read once (see `lazyTarget`); --crlf: ripgrep ends a last line without newline
    // with its own `\r\n`, context or not. A leading UTF-8 BOM is not searched nor printed:
    // ripgrep sniffs it and transcodes, dropping it (its `-b` offsets count without it too).
    const raw = lazy.text;
    const read = raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
    const t: RgTarget = { display: lazy.display, text: s.crlf && read !== "" && !read.endsWith("\n") ? `${read}\r\n` : read, mtime: lazy.mtime };
    const { text } = t;
    if (s.quiet) {
      if (hasSelectedLine(text, re, s.invert, s.maxCount)) return 0;
      continue;
    }
    if (s.mode === "files-with" || s.mode === "files-without") {
      // ripgrep's exit status follows what it printed: a listed file is a "match".
      if (hasSelectedLine(text, re, s.invert, s.maxCount) === (s.mode === "files-with")) {
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
      io.out.write(named ? `${t.display}${s.nul ? "\0" : ":"}${n}${eol}` : `${n}${eol}`);
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
  if (targets.errors) return 2;
  return matchedAny ? 0 : 1;
}

/** One rg call over the view: list types or files, or search; the exit status. */
export async function runRg(s: RgSettings, io: CommandIo): Promise<number> {
  const types = fileTypes(s);
  if (s.mode === "type-list") {
    for (const name of [...types.globs.keys()].sort()) {
      const globs = [...(types.globs.get(name) ?? [])].sort();
      if (globs.length > 0) io.out.write(`${name}: ${globs.join(", ")}\n`);
    }
    return 0;
  }
  const typeAllows = typeFilter(s, types.matchers, io);
  if (typeAllows === undefined) return 2;
  const regex = s.mode === "files" ? undefined : compileRg(s, io);
  if (s.mode !== "files" && regex === undefined) return 2;
  const targets = collectTargets(s, io, typeAllows);
  if (s.mode === "files") {
    const nameEnd = s.nul ? "\0" : "\n";
    for (const t of targets.list) if (!io.out.write(`${t.display}${nameEnd}`)) break;
    return targets.errors ? 2 : targets.list.length > 0 ? 0 : 1;
  }
  const re = io.safeRegex(regex as RegExp);
  if (re === undefined) return 2;
  return searchTargets(s, targets, re, io);
}
