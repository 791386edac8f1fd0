import { GNU_WORD_BODY, LINE_END, LINE_START, RUST_WORD_BODY, escapeLiteral, wordAssertions } from "./regex-classes.js";
import { PosixRegexError, translatePosix } from "./regex-posix.js";
import { RustRegexError, translateRust } from "./regex-rust.js";

export { PosixRegexError, RustRegexError };

/** Pattern syntaxes: GNU basic/extended, fixed strings, ripgrep's Rust regex, PCRE2 (`-P`). */
export type Dialect = "bre" | "ere" | "fixed" | "rust" | "pcre";

export interface PatternOptions {
  readonly dialect: Dialect;
  readonly ignoreCase: boolean;
  /** `-w`: the match must be a whole word. */
  readonly word: boolean;
  /** `-x`: the match must be the whole line. */
  readonly line: boolean;
}

/** A compiled search: one JS regex (flags `gu`, plus `i`) that never matches across a line end. */
export interface CompiledPattern {
  readonly regex: RegExp;
  /** Warnings the real tool prints (`grep: warning: * at start of expression`). */
  readonly warnings: readonly string[];
}

/**
 * Compile one or more patterns (any line matches if any pattern does). Throws
 * `PosixRegexError` / `RustRegexError` with the real tool's message for invalid syntax.
 */
export function compilePatterns(patterns: readonly string[], options: PatternOptions): CompiledPattern {
  const sources: string[] = [];
  const warnings: string[] = [];
  let groups = 0;
  let ignoreCase = options.ignoreCase;
  for (const p of patterns) {
    switch (options.dialect) {
      case "fixed":
        sources.push(escapeLiteral(p));
        break;
      case "bre":
      case "ere": {
        const t = translatePosix(p, options.dialect === "ere", groups);
        sources.push(t.source);
        warnings.push(...t.warnings);
        groups += t.groups;
        break;
      }
      case "rust":
      case "pcre": {
        const t = translateRust(p, { pcre: options.dialect === "pcre" }, options.ignoreCase, groups);
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
  if (options.line) source = `${LINE_START}(?:${source})${LINE_END}`;
  else if (options.word) {
    const w = wordAssertions(options.dialect === "rust" || options.dialect === "pcre" ? RUST_WORD_BODY : GNU_WORD_BODY);
    source = `${w.before}(?:${source})${w.after}`;
  }
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

/** ripgrep's smart case: case-insensitive unless the pattern has an uppercase literal. */
export function hasUppercaseLiteral(pattern: string): boolean {
  // Escapes (`\S`, `\W`, `\p{Lu}`) are not literals.
  const literals = pattern.replace(/\\[pP]\{[^}]*\}|\\[pP].|\\./g, "");
  return /\p{Lu}/u.test(literals);
}

/** ripgrep's report of an invalid pattern, with its caret line under the pattern. */
export function formatRustError(pattern: string, error: RustRegexError): string {
  if (error.start < 0) {
    return `${error.message}\n\nConsider enabling multiline mode with the --multiline flag (or -U for short).\nWhen multiline mode is enabled, new line characters can be matched.\n`;
  }
  const caretStart = [...pattern].slice(0, error.start).length;
  const caretLen = Math.max(1, error.end - error.start);
  const carets = `${" ".repeat(caretStart)}${"^".repeat(caretLen)}`;
  const tail = error.hint !== undefined ? `\n\n${error.hint}` : "";
  return `regex parse error:\n    ${pattern}\n    ${carets}\nerror: ${error.headline}${tail}\n`;
}
