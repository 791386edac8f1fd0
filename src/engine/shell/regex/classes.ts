import { GLIBC_CLASSES, GLIBC_WORD_BODY } from "./glibc-ctype.js";

/**
 * Character-class building blocks shared by the regex dialects. Every class excludes `\n`:
 * we search whole files at once, and a match must never run across a line end (the tools are
 * line-oriented; ripgrep likewise strips `\n` from classes outside multiline mode).
 */

/** Whitespace except `\n` (class body, for use inside `[...]`). */
export const SPACE_BODY = "\\t\\x0B\\f\\r \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";

/** GNU word constituents in a UTF-8 locale: glibc's alphanumerics and `_` (class body). */
export const GNU_WORD_BODY = GLIBC_WORD_BODY;

/** Rust regex's Unicode `\w` (class body). */
export const RUST_WORD_BODY = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}";

/**
 * Line anchors that work on a whole buffer without the `m` flag (which would treat `\r` as a line
 * end). Written as positive assertions: V8 tries positions inside a surrogate pair, where a
 * negative `(?<![^\n])(?![^\n])` holds, so `^$` matched in the middle of every emoji.
 */
export const LINE_START = "(?:^|(?<=\\n))";
export const LINE_END = "(?:$|(?=\\n))";
/** `$` under ripgrep's `--crlf`: before `\\n`, `\\r\\n`, or a `\\r` that ends the text. */
export const CRLF_LINE_END = "(?=\\r?(?:\\n|$))";

/** Word-boundary assertions over a word class body. */
export function wordAssertions(word: string) {
  const w = `[${word}]`;
  return {
    boundary: `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`,
    notBoundary: `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))`,
    start: `(?<!${w})(?=${w})`,
    end: `(?<=${w})(?!${w})`,
    /** Not preceded / not followed by a word character (`-w`). */
    before: `(?<!${w})`,
    after: `(?!${w})`,
  };
}

/** POSIX bracket classes (`[[:alpha:]]`) as class bodies, as glibc's C.UTF-8 locale defines them (GNU grep and sed). */
export const POSIX_CLASSES: Readonly<Record<string, string>> = GLIBC_CLASSES;

/** GNU `\s`: glibc's space class (no no-break spaces, no U+0085), `\n` left out. */
export const GNU_SPACE_BODY = GLIBC_CLASSES.space as string;

/**
 * ripgrep's POSIX bracket classes (`[[:alpha:]]`) as class bodies: ASCII-only, as Rust's regex
 * crate defines them, in Unicode mode too (`\n` left out, as everywhere).
 */
export const RUST_POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x09\\x0B-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x09\\x0B-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\x0B\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

/**
 * The same classes under PCRE2 with Unicode properties (`rg -P`, and our `grep -P`): where
 * PCRE2's UCP mode makes them Unicode, as it documents (`[:alpha:]` is `\p{L}`, `[:space:]` is
 * `\p{Xps}`, ...); `ascii`, `blank`, `cntrl`, `xdigit` stay ASCII.
 */
export const PCRE_POSIX_CLASSES: Readonly<Record<string, string>> = {
  ...RUST_POSIX_CLASSES,
  alnum: "\\p{L}\\p{N}",
  alpha: "\\p{L}",
  digit: "\\p{Nd}",
  graph: "!-~\\u00A1-\\u{10FFFF}",
  lower: "\\p{Ll}",
  print: "\\P{C}",
  punct: "\\p{P}$+<=>^`|~",
  space: "\\p{Z}\\t\\x0B\\f\\r",
  upper: "\\p{Lu}",
  word: "\\p{L}\\p{N}_",
};

/** Escape one code point for use inside a JS `u`-mode character class. */
export function classChar(cp: number): string {
  if (cp === 0x0a) return "\\n";
  const c = String.fromCodePoint(cp);
  if ("\\]^-[".includes(c)) return `\\${c}`;
  if (cp < 0x20 || cp === 0x7f) return `\\x${cp.toString(16).padStart(2, "0")}`;
  return c;
}

/** Escape a literal string for a JS `u`-mode pattern (outside classes). */
export function escapeLiteral(s: string): string {
  let out = "";
  for (const c of s) out += literalChar(c.codePointAt(0) as number);
  return out;
}

/** One literal code point outside a class. */
export function literalChar(cp: number): string {
  const c = String.fromCodePoint(cp);
  if ("^$\\.*+?()[]{}|/".includes(c)) return `\\${c}`;
  if (cp === 0x0a) return "\\n";
  if (cp < 0x20 || cp === 0x7f) return `\\x${cp.toString(16).padStart(2, "0")}`;
  return c;
}

/**
 * A literal letter matched in both cases, for scoped case-insensitivity (`a(?i)b`), which JS
 * regexes cannot express with flags.
 */
export function caseFoldedChar(cp: number): string {
  const c = String.fromCodePoint(cp);
  const variants = new Set([c, c.toLowerCase(), c.toUpperCase()].filter((v) => [...v].length === 1));
  if (variants.size === 1) return literalChar(cp);
  return `[${[...variants].map((v) => classChar(v.codePointAt(0) as number)).join("")}]`;
}

/** Case variants of a class range, for scoped case-insensitivity (ranges up to a sane size). */
export function caseFoldedRange(lo: number, hi: number): string {
  let out = "";
  if (hi - lo > 2000) return "";
  for (let cp = lo; cp <= hi; cp++) {
    const c = String.fromCodePoint(cp);
    for (const v of [c.toLowerCase(), c.toUpperCase()]) {
      if (v !== c && [...v].length === 1) out += classChar(v.codePointAt(0) as number);
    }
  }
  return out;
}
