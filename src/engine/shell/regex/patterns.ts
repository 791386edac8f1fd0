import { CRLF_LINE_END, GNU_WORD_BODY, LINE_END, LINE_START, RUST_WORD_BODY, escapeLiteral, wordAssertions } from "./classes.js";
import { FixedStringsRegExp, type Leftmost } from "./fixed-strings.js";
import { gnuIgnoreCase } from "./gnu-case.js";
import { PosixRegexError, translatePosix } from "./posix.js";
import { translateRust } from "./rust.js";
import { RustRegexError } from "./rust-error.js";
import { appendAll } from "../../../arrays.js";

/** Pattern syntaxes: GNU basic/extended, fixed strings, ripgrep's Rust regex, PCRE2 (`-P`). */
export type Dialect = "bre" | "ere" | "fixed" | "rust" | "pcre";

export interface PatternOptions {
  readonly dialect: Dialect;
  readonly ignoreCase: boolean;
  /** `-w`: the match must be a whole word. */
  readonly word: boolean;
  /** `-x`: the match must be the whole line. */
  readonly line: boolean;
  /** ripgrep's `--crlf`: `$` (and `-x`) also match before the `\r` of a `\r\n`. */
  readonly crlf?: boolean;
  /** Fixed strings: which of several matching at one place is the match (ripgrep's `first` by default). */
  readonly leftmost?: Leftmost;
  /**
   * GNU grep's rules: `-i` folds as glibc's towupper and towlower (gnu-case.ts: `I`, `i` and the
   * dotless `ı` match one another, `k` not the Kelvin sign, `ß` not `ẞ`), and `-P` is PCRE2
   * without Unicode properties (ASCII `\d`, `\w`, `\s`, `-w`).
   */
  readonly gnuCase?: boolean;
}

/** A compiled search: one JS regex (flags `gu`, plus `i`) that never matches across a line end. */
export interface CompiledPattern {
  readonly regex: RegExp;
  /** Warnings the real tool prints (`grep: warning: * at start of expression`). */
  readonly warnings: readonly string[];
}

/**
 * Up to this many fixed strings search as one V8 regex, past it on an Aho-Corasick automaton
 * (`FixedStringsRegExp`), with the same answers. V8 is faster for a few strings (one: ~1 ms per
 * MB against ~25 ms), the automaton for many: they cross near 200 strings (a 1.1 MB text, 3
 * passes, CPU: 64 strings 13 ms against 21-35, 256 strings 26-37 against 20-26, 1,000 strings
 * 39-49 against 19), and an alternation of 10,000 took 5.4 s over one 28 KB page.
 */
const MAX_FIXED_ALTERNATION = 200;

/** A character that is an operator, or starts one, in some dialect (GNU BRE and ERE, Rust, PCRE2). */
const OPERATORS = /[\\.[\]*^$+?(){}|]/;

/**
 * Compile one or more patterns (any line matches if any pattern does). Throws
 * `PosixRegexError` / `RustRegexError` with the real tool's message for invalid syntax.
 */
export function compilePatterns(patterns: readonly string[], options: PatternOptions): CompiledPattern {
  const leftmost = options.leftmost ?? "first";
  // Patterns with no operator of their dialect (`grep -f words.txt`) are fixed strings too.
  const literal = options.dialect === "fixed" || patterns.every((p) => !OPERATORS.test(p));
  // (`-x` with `--crlf` stays in V8's alternation: the automaton's whole line ends at `\n` only.)
  if (literal && patterns.length > MAX_FIXED_ALTERNATION && !(options.line && options.crlf === true)) {
    // Any number of strings in one pass (an alternation of 10,000 took seconds per page).
    const wordBody = options.word && !options.line ? wordBodyOf(options) : undefined;
    return { regex: new FixedStringsRegExp(patterns, undefined, { ignoreCase: options.ignoreCase, wordBody, line: options.line, leftmost }), warnings: [] };
  }
  // Fixed strings in V8's alternation, longest first when the longest at a place is the match:
  // the same answers as the automaton (test/shell/fixed-strings.test.ts).
  const ordered = literal && leftmost === "longest" ? [...patterns].sort((a, b) => b.length - a.length) : patterns;
  const sources: string[] = [];
  const warnings: string[] = [];
  let groups = 0;
  let ignoreCase = options.ignoreCase;
  for (const p of ordered) {
    switch (options.dialect) {
      case "fixed":
        sources.push(escapeLiteral(p));
        break;
      case "bre":
      case "ere": {
        const t = translatePosix(p, options.dialect === "ere", groups, { sed: false, ignoreCase: options.ignoreCase && options.gnuCase === true });
        sources.push(t.source);
        appendAll(warnings, t.warnings);
        groups += t.groups;
        break;
      }
      case "rust":
      case "pcre": {
        const ascii = options.dialect === "pcre" && options.gnuCase === true;
        const t = translateRust(p, { pcre: options.dialect === "pcre", crlf: options.crlf, ascii }, options.ignoreCase, groups);
        // A leading `(?i)` on a single pattern is the `i` flag; with several patterns the
        // translation is only exact if every one of them asks for it.
        if (t.ignoreCase && patterns.length === 1) ignoreCase = true;
        else if (t.ignoreCase) throw new RustRegexError("(?i) in one of several patterns is not supported by this docs shell; use -i", 0, 4);
        sources.push(t.source);
        groups += t.groups;
        break;
      }
    }
  }
  let source = sources.length === 1 ? (sources[0] as string) : sources.map((s) => `(?:${s})`).join("|");
  if (sources.length === 0) source = "(?!)"; // no pattern (e.g. `-f /dev/null`) matches nothing
  if (options.line) source = `${LINE_START}(?:${source})${options.crlf === true ? CRLF_LINE_END : LINE_END}`;
  else if (options.word) {
    const w = wordAssertions(wordBodyOf(options));
    source = `${w.before}(?:${source})${w.after}`;
  }
  // GNU's folding (glibc's towupper/towlower), where it differs from the `iu` flags'. (grep -P's
  // PCRE2 folds by Unicode: `ı` stays apart from `I` and `i` there, `k` matches the Kelvin sign.)
  if (ignoreCase && options.gnuCase === true && options.dialect !== "pcre") ({ source, ignoreCase } = gnuIgnoreCase(source));
  let regex: RegExp;
  try {
    regex = new RegExp(source, ignoreCase ? "giu" : "gu");
  } catch (error) {
    // A construct our translation does not cover: an honest error, never a wrong answer.
    const message = error instanceof Error ? error.message : String(error);
    if (options.dialect === "rust" || options.dialect === "pcre") throw new RustRegexError(`unsupported by this docs shell (${message})`, 0, 0);
    throw new PosixRegexError(`unsupported regular expression in this docs shell (${message})`);
  }
  return { regex, warnings };
}

/** Word characters for `-w`: ripgrep's Unicode ones, GNU grep -P's ASCII ones (no PCRE2_UCP), glibc's for GNU's own. */
function wordBodyOf(options: PatternOptions): string {
  if (options.dialect === "pcre" && options.gnuCase === true) return "0-9A-Za-z_";
  return options.dialect === "rust" || options.dialect === "pcre" ? RUST_WORD_BODY : GNU_WORD_BODY;
}
