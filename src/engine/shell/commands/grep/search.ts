import type { CommandIo } from "../../lib/command.js";
import { ERRNO, baseName, lookup, lookupError, walk } from "../../lib/files.js";
import { literalHitInBytes } from "../../lib/byte-search.js";
import { type SelectedLine, byteOffsets, hasSelectedLine, matchesInLine, printWithContext, selectLines } from "../../lib/line-search.js";
import { compilePatterns } from "../../regex/patterns.js";
import { PosixRegexError, translatePosix } from "../../regex/posix.js";
import { RustRegexError } from "../../regex/rust-error.js";
import type { GrepSettings } from "./options.js";
import type { StoredText } from "../../../../vfs/stored-text.js";

/** One thing to search: a file's text (or stdin), with the name grep prints. */
interface Target {
  readonly display: string;
  readonly text: string;
  /** Whether lines are prefixed with the name. */
  readonly named: boolean;
  /** An operand that could not be read: its message, written when its turn comes. */
  readonly error?: string;
  /** Standard input or a device: no size (grep -T pads to 19 columns). */
  readonly stream?: boolean;
  /** The bytes the text is decoded from, when it is held so (`SiteFile.stored`). */
  readonly stored?: StoredText;
}

/** What searching has found so far, across files. */
interface Progress {
  selectedAny: boolean;
  /** Context output: whether a group was printed (the next one is preceded by `--`). */
  readonly state: { printedGroup: boolean };
}

/** The patterns as one regex (warnings written), or undefined with grep's message written. */
function compileGrep(s: GrepSettings, io: CommandIo): RegExp | undefined {
  try {
    const compiled = compilePatterns(s.patterns, { dialect: s.dialect, ignoreCase: s.ignoreCase, word: s.word, line: s.line, leftmost: "longest", gnuCase: true });
    for (const w of compiled.warnings) io.fail(`warning: ${w}`);
    return compiled.regex;
  } catch (error) {
    if (error instanceof PosixRegexError || error instanceof RustRegexError) {
      const each = s.dialect === "bre" || s.dialect === "ere" ? regexErrors(s) : [];
      for (const message of each.length > 0 ? each : [error.message]) io.fail(message);
      return undefined;
    }
    throw error;
  }
}

/** gnulib dfa's own diagnostics: GNU grep reaches them only once every pattern passed regcomp, and names no pattern file. */
const DFA_ONLY = new Set(["character class syntax is [[:space:]], not [:space:]"]);

/**
 * GNU grep's errors for patterns its regcomp refuses: each distinct pattern is compiled alone,
 * and every one refused is reported, a pattern from `-f FILE` with `FILE:LINE: ` before the
 * message (`grep: pats:2: Unmatched ( or \(`), the first place a repeated pattern appears
 * counting. Empty when regcomp refuses none (a dfa diagnostic, said once as it is).
 */
function regexErrors(s: GrepSettings): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  s.patterns.forEach((pattern, i) => {
    if (seen.has(pattern)) return;
    seen.add(pattern);
    try {
      translatePosix(pattern, s.dialect === "ere", 0, { sed: false, ignoreCase: s.ignoreCase });
    } catch (error) {
      if (!(error instanceof PosixRegexError) || DFA_ONLY.has(error.message)) return;
      const origin = s.origins[i];
      out.push(origin === undefined ? error.message : `${origin}: ${error.message}`);
    }
  });
  return out;
}

/** Every suffix of a path that starts a component (`a/b/c.md`, `b/c.md`, `c.md`). */
function suffixes(path: string): string[] {
  const out = [path];
  for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) {
    if (i + 1 < path.length) out.push(path.slice(i + 1));
  }
  return out;
}

/** --include / --exclude: a command-line file is matched by any suffix, a walked one by its name. */
function excludedFile(s: GrepSettings, display: string, base: string, commandLine: boolean): boolean {
  const candidates = commandLine ? suffixes(display) : [base];
  if (s.exclude.some((re) => candidates.some((c) => re.test(c)))) return true;
  return s.include.length > 0 && !s.include.some((re) => candidates.some((c) => re.test(c)));
}

/**
 * First the files to search, in order, then the search. A missing operand is a target that
 * reports its error when its turn comes (in order with the output under `2>&1`).
 */
function collectTargets(s: GrepSettings, io: CommandIo): { targets: Target[]; errors: boolean } {
  const recursive = s.directories === "recurse";
  const operands = s.operands.length > 0 ? s.operands : [recursive ? "." : "-"];
  const stdinOperand = (o: string) => o === "-" && (s.operands.length > 0 || !recursive);
  const implicitDot = s.operands.length === 0 && recursive;
  // grep names files when there are several operands, or when -r descends into a folder.
  const named = s.withFilename ?? operands.length > 1;
  const targets: Target[] = [];
  let errors = false;
  const failed = (message: string) => {
    errors = true;
    if (!s.noMessages) targets.push({ display: "", text: "", named: false, error: message });
  };
  for (const operand of operands) {
    if (stdinOperand(operand)) {
      targets.push({ display: s.label, text: s.stdinTaken ? "" : io.stdin(), named, stream: true });
      continue;
    }
    const entry = lookup(io.view, io.cwd, operand, io.piped);
    if (entry.kind === "missing" || entry.kind === "notdir") failed(`${operand}: ${lookupError(entry)}`);
    else if (entry.kind === "device") targets.push({ display: operand, text: "", named, stream: true });
    else if (entry.kind === "file") {
      if (!excludedFile(s, operand, baseName(entry.path), true)) targets.push({ display: operand, text: entry.text, named });
    } else if (s.directories === "skip") continue;
    else if (!recursive) {
      // GNU grep opens the folder and its read fails: it says so, and then counts it as a file
      // with no lines (`grep -c x dir` prints `0` after the error, `grep -L x dir` names it).
      failed(`${operand}: ${ERRNO.EISDIR}`);
      targets.push({ display: operand, text: "", named });
    }
    else if (!s.excludeDir.some((re) => suffixes(operand).some((c) => re.test(c))) || implicitDot) {
      walk(io.view, entry.path, implicitDot ? "" : operand, (w) => {
        const base = baseName(w.path);
        if (w.isDir) return !s.excludeDir.some((re) => re.test(base));
        if (excludedFile(s, w.display, base, false)) return;
        const file = io.view.fileAt(w.path);
        // Read when searched, one at a time (`searchOne`): a worker's texts are decoded from the
        // shared snapshot when read, and a folder of 50,000 pages read first held them all (issue 22).
        if (file !== undefined) {
          const named = s.withFilename ?? true;
          targets.push({
            display: w.display,
            get text() {
              return file.text;
            },
            named,
            ...(file.stored !== undefined ? { stored: file.stored } : {}),
          });
        }
        return;
      });
    }
  }
  return { targets, errors };
}

/**
 * `-T`: GNU grep pads numbers to the digits of the largest it could print, the file's size
 * (plus one with -n); a stream has no size, and gets 19 columns.
 */
function initialTabWidth(s: GrepSettings, target: Target): number {
  if (target.stream === true) return 19;
  return String(Buffer.byteLength(target.text) + (s.lineNumber ? 1 : 0)).length;
}

/** The prefix of a printed line: name, line number, byte offset, as the options ask. */
function linePrefix(s: GrepSettings, target: Target): (line: number, isMatch: boolean, start: number) => string {
  const withOffsets = s.byteOffset ? byteOffsets(target.text) : undefined;
  const width = s.initialTab ? initialTabWidth(s, target) : 0;
  const num = (n: number) => String(n).padStart(width);
  const { text } = target;
  return (line, isMatch, start) => {
    const sep = isMatch ? ":" : "-";
    let p = "";
    if (target.named) p += `${target.display}${s.nullAfterName ? "\0" : sep}`;
    if (s.lineNumber) p += `${num(line)}${sep}`;
    if (withOffsets !== undefined) p += `${num(withOffsets(start))}${sep}`;
    // GNU puts no tab before an empty line.
    const empty = start >= text.length || text.charCodeAt(start) === 10;
    return s.initialTab && p !== "" && !empty ? `${p}\t` : p;
  };
}

/** Search one file; returns true when grep should stop everything (-q matched, output full). */
function searchOne(s: GrepSettings, lazy: Target, regex: RegExp, io: CommandIo, progress: Progress): boolean {
  io.checkTime();
  // Whether it matches, told from its bytes when they can tell (`literalHitInBytes`): -l, -L
  // and -q need no more, and a file without a match prints nothing but its count (-c).
  const fromBytes = s.invert || s.maxCount <= 0 ? undefined : literalHitInBytes(lazy.stored, regex);
  if (fromBytes !== undefined && (s.quiet || s.listMatching || s.listMissing)) {
    if (fromBytes) progress.selectedAny = true;
    if (s.quiet) return fromBytes;
    if (fromBytes === s.listMatching) io.out.write(`${lazy.display}${s.nullAfterName ? "\0" : "\n"}`);
    return false;
  }
  if (fromBytes === false) {
    if (s.count) io.out.write(lazy.named ? `${lazy.display}${s.nullAfterName ? "\0" : ":"}0\n` : "0\n");
    return false;
  }
  // Its text read once (a walked file's is read when asked, `collectTargets`; a spread of the
  // target would read it a second time, through its getter).
  const target: Target = { display: lazy.display, text: lazy.text, named: lazy.named, ...(lazy.stream === true ? { stream: true } : {}) };
  const { text, display } = target;
  if (s.quiet || s.listMatching || s.listMissing) {
    const hit = hasSelectedLine(text, regex, s.invert, s.maxCount);
    if (hit) progress.selectedAny = true;
    if (s.quiet) return hit;
    if (hit === s.listMatching) io.out.write(`${display}${s.nullAfterName ? "\0" : "\n"}`);
    return false;
  }
  const selected = selectLines(text, regex, s.invert, s.maxCount);
  if (selected.length > 0) progress.selectedAny = true;
  if (s.count) {
    io.out.write(target.named ? `${display}${s.nullAfterName ? "\0" : ":"}${selected.length}\n` : `${selected.length}\n`);
    return false;
  }
  if (selected.length === 0) return false;
  const prefix = linePrefix(s, target);
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
  printWithContext(text, selected, { before: s.before, after: s.after, separator: s.separator }, prefix, (x) => io.out.write(x), progress.state);
  return false;
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

/** One grep call over the view: files in name order, folders depth-first; the exit status. */
export async function runGrep(s: GrepSettings, io: CommandIo): Promise<number> {
  // GNU grep 3.8 stops at once on `-m 0`, before it compiles a pattern or opens a file, unless
  // -L must still list the files (it reads none of them).
  if (s.maxCount === 0 && !s.listMissing) return 1;
  const compiled = compileGrep(s, io);
  if (compiled === undefined) return 2;
  const regex = io.safeRegex(compiled);
  if (regex === undefined) return 2;
  const { targets, errors } = collectTargets(s, io);
  const progress: Progress = { selectedAny: false, state: { printedGroup: false } };
  for (const t of targets) {
    if (io.out.full) break;
    if (t.error !== undefined) io.fail(t.error);
    else if (searchOne(s, t, regex, io, progress)) break;
  }
  if (s.quiet && progress.selectedAny) return 0;
  if (errors) return 2;
  return progress.selectedAny ? 0 : 1;
}
