/**
 * A pattern ripgrep's regex engine (or PCRE2) rejects. `start`/`end` index the pattern's code
 * points, for ripgrep's caret line under the pattern.
 */
export class RustRegexError extends Error {
  override readonly name: string = "RustRegexError";
  constructor(
    /** ripgrep's one-line error (`unclosed group`). */
    readonly headline: string,
    readonly start: number,
    readonly end: number,
    /** The advice ripgrep prints under it, when it has some (use --pcre2). */
    readonly hint?: string,
  ) {
    super(hint === undefined ? headline : `${headline}\n\n${hint}`);
  }
}

/**
 * A pattern PCRE2 itself refuses once it is parsed (`rg -P '\1'`): ripgrep prints PCRE2's one
 * line, which counts `offset` in the pattern's UTF-8 bytes, instead of its caret report.
 */
export class Pcre2CompileError extends RustRegexError {
  override readonly name: string = "Pcre2CompileError";
  constructor(
    headline: string,
    start: number,
    end: number,
    /** PCRE2's offset: UTF-8 bytes before the offending character. */
    readonly offset: number,
  ) {
    super(headline, start, end);
  }
}

/** ripgrep's report of an invalid pattern, with its caret line under the pattern. */
export function formatRustError(pattern: string, error: RustRegexError): string {
  if (error instanceof Pcre2CompileError) return `PCRE2: error compiling pattern at offset ${error.offset}: ${error.headline}\n`;
  if (error.start < 0) {
    return `${error.message}\n\nConsider enabling multiline mode with the --multiline flag (or -U for short).\nWhen multiline mode is enabled, new line characters can be matched.\n`;
  }
  const caretStart = [...pattern].slice(0, error.start).length;
  const caretLen = Math.max(1, error.end - error.start);
  const carets = `${" ".repeat(caretStart)}${"^".repeat(caretLen)}`;
  const tail = error.hint !== undefined ? `\n\n${error.hint}` : "";
  return `regex parse error:\n    ${pattern}\n    ${carets}\nerror: ${error.headline}${tail}\n`;
}
