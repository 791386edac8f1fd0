import {
  CRLF_LINE_END,
  LINE_END,
  LINE_START,
  PCRE_POSIX_CLASSES,
  RUST_POSIX_CLASSES,
  RUST_WORD_BODY,
  SPACE_BODY,
  caseFoldedChar,
  caseFoldedRange,
  classChar,
  literalChar,
  wordAssertions,
} from "./classes.js";
import { Pcre2CompileError, RustRegexError } from "./rust-error.js";

/** ripgrep's advice for what only its PCRE2 engine matches. */
const PCRE2_HINT = "Consider enabling PCRE2 with the --pcre2 flag, which can handle backreferences\nand look-around.";

export interface RustTranslation {
  readonly source: string;
  readonly groups: number;
  /** The whole pattern is case-insensitive (a leading `(?i)`): use the `i` flag. */
  readonly ignoreCase: boolean;
}

/** Dialect switches: ripgrep's default engine, or PCRE2 (`-P`), which adds look-around and back-references. */
export interface RustDialect {
  readonly pcre: boolean;
  /** ripgrep's `--crlf`: `$` also matches before a `\r` that ends the line. */
  readonly crlf?: boolean;
  /**
   * GNU grep 3.8's `-P`: PCRE2 in UTF mode without Unicode properties (no PCRE2_UCP), so `\d`,
   * `\w`, `\s`, `\b` and `[[:alpha:]]` are ASCII; its `\D`, `\W` and `\S` (outside a class)
   * match ASCII characters only (`é` is neither `\w` nor `\W` there: recorded from grep 3.8
   * with PCRE2 10.42). Case-insensitive matching stays Unicode.
   */
  readonly ascii?: boolean;
}

const W = wordAssertions(RUST_WORD_BODY);
/** Word boundaries with Unicode off (`(?-u:\b)`): ASCII word characters. */
const ASCII_WORD_BODY = "0-9A-Za-z_";
const ASCII_W = wordAssertions(ASCII_WORD_BODY);
/** `\s` with Unicode off, without `\n`. */
const ASCII_SPACE_BODY = "\\t\\x0B\\f\\r ";
/** GNU grep -P's `\D`, `\W`, `\S`: ASCII characters outside the class (and not `\n`). */
const GNU_PCRE_NEGATED: Readonly<Record<string, string>> = {
  D: "[\\x00-\\x09\\x0B-/:-\\x7F]",
  W: "[\\x00-\\x09\\x0B-/:-@\\[-\\^`{-\\x7F]",
  S: "[\\x00-\\x08\\x0E-\\x1F!-\\x7F]",
};

/** Characters Rust's regex syntax lets you escape. */
const RUST_META = new Set([..."\\.+*?()|[]{}^$#&-~"]);

/**
 * Translate a ripgrep pattern (Rust regex syntax, line-oriented: no match spans a line end) or,
 * with `pcre`, a PCRE2 pattern, to a JS `u`-mode source. Scoped flags (`a(?i)b`) are expanded
 * into case-folded literals, since JS has no inline modifiers.
 */
export function translateRust(pattern: string, dialect: RustDialect, ignoreCase: boolean, groupOffset = 0): RustTranslation {
  const chars = [...pattern];
  try {
    return new RustTranslator(chars, dialect, ignoreCase, groupOffset).run();
  } catch (error) {
    if (dialect.pcre && error instanceof RustRegexError && !(error instanceof Pcre2CompileError)) throw asPcre2Error(chars, error);
    throw error;
  }
}

/**
 * PCRE2's words for the syntax errors the parser shares with Rust's, and where PCRE2 reports
 * each (`end`: after the whole pattern; `start`/`last`: the first/last character of the span;
 * `after`: just past it). GNU grep -P prints the words alone, ripgrep -P with the byte offset
 * (`PCRE2: error compiling pattern at offset 1: missing closing parenthesis`); before, both
 * printed ripgrep's Rust-engine report (`unclosed group`), which neither tool ever says for -P.
 */
const PCRE2_WORDS: Readonly<Record<string, { readonly words: string; readonly at: "end" | "start" | "last" | "after" }>> = {
  "unclosed group": { words: "missing closing parenthesis", at: "end" },
  "unopened group": { words: "unmatched closing parenthesis", at: "start" },
  "unclosed character class": { words: "missing terminating ] for character class", at: "end" },
  "invalid repetition count range, the start must be <= the end": { words: "numbers out of order in {} quantifier", at: "last" },
  "repetition operator missing expression": { words: "quantifier does not follow a repeatable item", at: "start" },
  "incomplete escape sequence, reached end of pattern prematurely": { words: "\\ at end of pattern", at: "end" },
  "invalid character class range, the start must be <= the end": { words: "range out of order in character class", at: "last" },
  "Unicode property not found": { words: "unknown property after \\P or \\p", at: "after" },
  "unrecognized flag": { words: "unrecognized character after (? or (?-", at: "start" },
};

function asPcre2Error(chars: readonly string[], error: RustRegexError): RustRegexError {
  const known = PCRE2_WORDS[error.headline];
  if (known === undefined) return error;
  const at = { end: chars.length, start: error.start, last: Math.max(error.start, error.end - 1), after: error.end }[known.at];
  return new Pcre2CompileError(known.words, error.start, error.end, Buffer.byteLength(chars.slice(0, at).join("")));
}

interface Flags {
  i: boolean;
  x: boolean;
  U: boolean;
  /** Unicode mode (on unless `(?-u)`): off, `\w` `\d` `\s` `\b` are ASCII and `.` matches bytes. */
  u: boolean;
}

class RustTranslator {
  private i = 0;
  private groups = 0;
  /** Output index of the last repeatable atom, or -1. */
  private atomStart = -1;
  private atomQuantified = false;
  /** The last atom certainly matched one word character (lets `\b` use a cheap one-sided test). */
  private prevWord = false;
  private flags: Flags;
  private readonly flagStack: Flags[] = [];
  private readonly openAt: number[] = [];
  private wholeIgnoreCase = false;
  /** PCRE2 back-references (`\1`): the group number and where its digit is, checked once every group is counted. */
  private readonly backReferences: { readonly group: number; readonly at: number }[] = [];

  constructor(
    private readonly p: string[],
    private readonly dialect: RustDialect,
    /** `-i` / smart case: the `i` flag applies everywhere, no expansion needed. */
    private readonly globalIgnoreCase: boolean,
    private readonly groupOffset: number,
  ) {
    this.flags = { i: false, x: false, U: false, u: true };
  }

  run(): RustTranslation {
    // A leading `(?i)` (the common form) becomes the `i` flag rather than expanded literals.
    if (this.p.slice(0, 4).join("") === "(?i)") {
      this.wholeIgnoreCase = true;
      this.i = 4;
    }
    const out = this.sequence(0);
    if (this.i < this.p.length) throw new RustRegexError("unopened group", this.i, this.i + 1);
    // PCRE2 allows a reference to a group opened later (`\1(a)`), so only now is one known to be missing.
    const missing = this.backReferences.find((r) => r.group > this.groups);
    if (missing !== undefined) {
      const offset = Buffer.byteLength(this.p.slice(0, missing.at).join(""));
      throw new Pcre2CompileError("reference to non-existent subpattern", missing.at, missing.at + 1, offset);
    }
    return { source: out, groups: this.groups, ignoreCase: this.wholeIgnoreCase };
  }

  private get foldCase(): boolean {
    return this.flags.i && !this.globalIgnoreCase && !this.wholeIgnoreCase;
  }

  /** Parse alternatives until `)` or the end. */
  private sequence(depth: number): string {
    let out = "";
    this.atomStart = -1;
    while (this.i < this.p.length) {
      const c = this.p[this.i] as string;
      if (c === ")") {
        if (depth === 0) throw new RustRegexError("unopened group", this.i, this.i + 1);
        return out;
      }
      if (c === "|") {
        out += "|";
        this.i++;
        this.atomStart = -1;
        this.prevWord = false;
        continue;
      }
      if (this.flags.x && /\s/.test(c)) {
        this.i++;
        continue;
      }
      if (this.flags.x && c === "#") {
        while (this.i < this.p.length && this.p[this.i] !== "\n") this.i++;
        continue;
      }
      if (c === "*" || c === "+" || c === "?" || c === "{") {
        out = this.quantify(out);
        // `a*`, `a?`, `a{0,}` may match nothing: the character before is unknown.
        if (!/[+}]$/.test(out) || /\{0[,}]$/.test(out)) this.prevWord = false;
        continue;
      }
      const start = out.length;
      const piece = this.atom();
      if (piece === null) continue; // a flag group like `(?i)` changes state, emits nothing
      this.prevWord = piece.word === true;
      out += piece.source;
      this.atomStart = piece.repeatable ? start : -1;
      this.atomQuantified = false;
    }
    return out;
  }

  private quantify(out: string): string {
    const c = this.p[this.i] as string;
    const at = this.i;
    let q: string;
    if (c === "{") {
      const end = this.p.indexOf("}", this.i);
      if (end === -1) throw new RustRegexError("unclosed counted repetition", at, this.p.length);
      const body = this.p.slice(this.i + 1, end).join("");
      const m = /^\s*(\d+)\s*(?:(,)\s*(\d*)\s*)?$/.exec(body);
      if (m === null) {
        if (body.trim() === "" || /^\s*,/.test(body)) throw new RustRegexError("repetition quantifier expects a valid decimal", at + 1, at + 2);
        throw new RustRegexError("unclosed counted repetition", at, end + 1);
      }
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
      if (min > max) throw new RustRegexError("invalid repetition count range, the start must be <= the end", at, end + 1);
      q = max === min ? `{${min}}` : max === Number.POSITIVE_INFINITY ? `{${min},}` : `{${min},${max}}`;
      this.i = end + 1;
    } else {
      q = c;
      this.i++;
    }
    if (this.atomStart === -1) throw new RustRegexError("repetition operator missing expression", at, at + 1);
    let lazy = false;
    if (this.p[this.i] === "?") {
      lazy = true;
      this.i++;
    } else if (this.p[this.i] === "+" && this.dialect.pcre) {
      throw new RustRegexError("possessive quantifiers are not supported by this docs shell", at, this.i + 1);
    }
    if (this.flags.U) lazy = !lazy;
    let body = out;
    if (this.atomQuantified) body = `${out.slice(0, this.atomStart)}(?:${out.slice(this.atomStart)})`;
    this.atomQuantified = true;
    return body + q + (lazy ? "?" : "");
  }

  /** One atom; null for a pure flag change. */
  private atom(): { source: string; repeatable: boolean; word?: boolean } | null {
    const c = this.p[this.i] as string;
    switch (c) {
      case "(":
        return this.group();
      case "[":
        return { source: this.charClass(), repeatable: true };
      case ".":
        this.i++;
        if (!this.flags.u) this.byteOnly(this.i - 1, this.i);
        return { source: "[^\\n]", repeatable: true };
      case "^":
        this.i++;
        return { source: LINE_START, repeatable: false };
      case "$":
        this.i++;
        return { source: this.dialect.crlf === true ? CRLF_LINE_END : LINE_END, repeatable: false };
      case "\\":
        return this.escape();
      case "\n":
        throw new RustRegexError("the literal '\"\\n\"' is not allowed in a regex", -1, -1);
      default: {
        this.i++;
        const cp = c.codePointAt(0) as number;
        return { source: this.foldCase ? caseFoldedChar(cp) : literalChar(cp), repeatable: true, word: isWordChar(c) };
      }
    }
  }

  /**
   * Whether the next atom certainly matches one word character (a word literal, `\w`, `\d`)
   * and is not optional. Lets `\b` compile to a one-sided test, which V8 runs ~70x faster than
   * the two-sided alternation.
   */
  private nextAtomIsWord(): boolean {
    if (this.flags.x) return false;
    const c = this.p[this.i];
    let width: number;
    if (c === "\\" && (this.p[this.i + 1] === "w" || this.p[this.i + 1] === "d")) width = 2;
    else if (c !== undefined && !"\\.+*?()|[]{}^$".includes(c) && isWordChar(c)) width = 1;
    else return false;
    const after = this.p[this.i + width];
    return after !== "*" && after !== "?" && after !== "{";
  }

  private boundary(): string {
    const next = this.nextAtomIsWord();
    if (next && this.prevWord) return "(?!)"; // between two word characters: never a boundary
    if (next) return W.before;
    if (this.prevWord) return W.after;
    return W.boundary;
  }

  private group(): { source: string; repeatable: boolean } | null {
    const start = this.i;
    this.i++;
    let open = "(";
    let capturing = true;
    if (this.p[this.i] === "?") {
      const rest = this.p.slice(this.i + 1, this.i + 4).join("");
      if (rest.startsWith("=") || rest.startsWith("!") || rest.startsWith("<=") || rest.startsWith("<!")) {
        if (!this.dialect.pcre) {
          const len = rest.startsWith("<") ? 4 : 3;
          throw new RustRegexError("look-around, including look-ahead and look-behind, is not supported", start, start + len, PCRE2_HINT);
        }
        // `=`, `!`, `<=` or `<!`: only the opener; what follows is the look-around's own pattern.
        const len = rest.startsWith("<") ? 2 : 1;
        open = `(?${rest.slice(0, len)}`;
        this.i += 1 + len;
        capturing = false;
      } else if (rest.startsWith("P<") || (this.dialect.pcre && rest.startsWith("<"))) {
        const nameStart = this.i + (rest.startsWith("P") ? 3 : 2);
        const end = this.p.indexOf(">", nameStart);
        if (end === -1) throw new RustRegexError("unclosed capture group name", nameStart, this.p.length);
        const name = this.p.slice(nameStart, end).join("");
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new RustRegexError("invalid capture group character", nameStart, end);
        this.i = end + 1;
        open = `(?<${name}>`;
      } else if (this.dialect.pcre && rest.startsWith(">")) {
        throw new RustRegexError("atomic groups are not supported by this docs shell", start, start + 3);
      } else {
        // Flags: `(?i)`, `(?-i)`, `(?i:...)`.
        this.i++;
        const saved = { ...this.flags };
        let negate = false;
        for (;;) {
          const f = this.p[this.i];
          if (f === undefined) throw new RustRegexError("unclosed group", start, start + 1);
          if (f === ")" || f === ":") break;
          if (f === "-") negate = true;
          else if (f === "i" || f === "x" || f === "U" || f === "u") this.flags[f] = !negate;
          else if (f !== "m" && f !== "s") throw new RustRegexError("unrecognized flag", this.i, this.i + 1);
          this.i++;
        }
        if (this.p[this.i] === ")") {
          // `(?i)` mid-pattern: applies to the rest of the enclosing group.
          this.i++;
          return null;
        }
        this.i++;
        this.flagStack.push(saved);
        const inner = this.sequence(1);
        this.closeParen(start);
        this.flags = this.flagStack.pop() as Flags;
        return { source: `(?:${inner})`, repeatable: true };
      }
    }
    if (capturing) this.groups++;
    const savedFlags = { ...this.flags };
    const inner = this.sequence(1);
    this.closeParen(start);
    this.flags = savedFlags;
    // JS cannot repeat a look-around; ripgrep never sees one. Either way it is not repeatable.
    return { source: `${open}${inner})`, repeatable: capturing };
  }

  private closeParen(start: number): void {
    if (this.p[this.i] !== ")") throw new RustRegexError("unclosed group", start, start + 1);
    this.i++;
  }

  private escape(): { source: string; repeatable: boolean; word?: boolean } {
    const start = this.i;
    const c = this.p[this.i + 1];
    if (c === undefined) throw new RustRegexError("incomplete escape sequence, reached end of pattern prematurely", start, start + 1);
    this.i += 2;
    const unsupported = (): never => {
      throw new RustRegexError("unrecognized escape sequence", start, this.i);
    };
    if (this.dialect.ascii === true) {
      const negated = GNU_PCRE_NEGATED[c];
      if (negated !== undefined) return { source: negated, repeatable: true };
      if (c === "d") return { source: "[0-9]", repeatable: true, word: true };
      if (c === "w") return { source: `[${ASCII_WORD_BODY}]`, repeatable: true, word: true };
      if (c === "s") return { source: `[${ASCII_SPACE_BODY}]`, repeatable: true };
      if (c === "b") return { source: ASCII_W.boundary, repeatable: false };
      if (c === "B") return { source: ASCII_W.notBoundary, repeatable: false };
    }
    if (!this.flags.u) {
      if (c === "D" || c === "W" || c === "S") this.byteOnly(start, this.i);
      if (c === "p" || c === "P") throw new RustRegexError("Unicode not allowed here", start, this.i);
      if (c === "d") return { source: "[0-9]", repeatable: true, word: true };
      if (c === "w") return { source: `[${ASCII_WORD_BODY}]`, repeatable: true, word: true };
      if (c === "s") return { source: `[${ASCII_SPACE_BODY}]`, repeatable: true };
      if (c === "b") return { source: ASCII_W.boundary, repeatable: false };
      if (c === "B") return { source: ASCII_W.notBoundary, repeatable: false };
    }
    switch (c) {
      case "d":
        return { source: "\\p{Nd}", repeatable: true, word: true };
      case "D":
        return { source: "[^\\p{Nd}\\n]", repeatable: true };
      case "w":
        return { source: `[${RUST_WORD_BODY}]`, repeatable: true, word: true };
      case "W":
        return { source: `[^${RUST_WORD_BODY}\\n]`, repeatable: true };
      case "s":
        return { source: `[${SPACE_BODY}]`, repeatable: true };
      case "S":
        return { source: `[^${SPACE_BODY}\\n]`, repeatable: true };
      case "b":
        return { source: this.boundary(), repeatable: false };
      case "B":
        return { source: W.notBoundary, repeatable: false };
      case "A":
        return { source: LINE_START, repeatable: false };
      case "z":
        return { source: LINE_END, repeatable: false };
      case "n":
        throw new RustRegexError("the literal '\"\\n\"' is not allowed in a regex", -1, -1);
      case "t":
        return { source: "\\t", repeatable: true };
      case "r":
        return { source: "\\r", repeatable: true };
      case "f":
        return { source: "\\f", repeatable: true };
      case "v":
        return { source: "\\x0B", repeatable: true };
      case "a":
        return { source: "\\x07", repeatable: true };
      case "x":
      case "u":
      case "U":
        return { source: literalChar(this.hexEscape(c, start)), repeatable: true };
      case "p":
      case "P":
        return { source: this.unicodeProperty(c === "P", start), repeatable: true };
      case "Q":
        if (!this.dialect.pcre) return unsupported();
        return { source: this.quoted(), repeatable: true };
      case "K":
      case "G":
      case "R":
      case "X":
        if (this.dialect.pcre) throw new RustRegexError(`\\${c} is not supported by this docs shell`, start, this.i);
        return unsupported();
      case "h":
        if (this.dialect.pcre) return { source: "[ \\t\\xA0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000]", repeatable: true };
        return unsupported();
      default:
        break;
    }
    if (c >= "0" && c <= "9") {
      if (!this.dialect.pcre) {
        throw new RustRegexError("backreferences are not supported", start, this.i, PCRE2_HINT);
      }
      // PCRE2 reads all the digits: a back reference when the number is below 10, starts with 8 or 9,
      // or names a group opened before it; otherwise up to three octal digits are a character
      // (`(a)\10` is `a` and a backspace, as grep -P's; `\0` and `\011` always octal). The
      // reference is wrapped so that a digit after it stays a digit (`\1` then `0` is no `\10`).
      if (c !== "0") {
        let digits = c;
        for (let j = this.i; /^[0-9]$/.test(this.p[j] ?? ""); j++) digits += this.p[j] as string;
        const n = Number(digits);
        if (n < 10 || c === "8" || c === "9" || n <= this.groups) {
          this.i += digits.length - 1;
          this.backReferences.push({ group: n, at: start + 1 });
          return { source: `(?:\\${n + this.groupOffset})`, repeatable: true };
        }
      }
      let octal = c;
      while (octal.length < 3 && /^[0-7]$/.test(this.p[this.i] ?? "")) octal += this.p[this.i++] as string;
      return { source: literalChar(parseInt(octal, 8)), repeatable: true };
    }
    if (RUST_META.has(c) || (this.dialect.pcre && !/[A-Za-z0-9]/.test(c))) {
      const cp = c.codePointAt(0) as number;
      return { source: literalChar(cp), repeatable: true };
    }
    return unsupported();
  }

  private quoted(): string {
    let out = "";
    while (this.i < this.p.length) {
      if (this.p[this.i] === "\\" && this.p[this.i + 1] === "E") {
        this.i += 2;
        break;
      }
      out += literalChar((this.p[this.i] as string).codePointAt(0) as number);
      this.i++;
    }
    return out;
  }

  private hexEscape(kind: string, start: number): number {
    const width = kind === "x" ? 2 : kind === "u" ? 4 : 8;
    let digits: string;
    if (this.p[this.i] === "{") {
      const end = this.p.indexOf("}", this.i);
      if (end === -1) throw new RustRegexError("unclosed hexadecimal literal", start, this.p.length);
      digits = this.p.slice(this.i + 1, end).join("");
      this.i = end + 1;
    } else {
      digits = this.p.slice(this.i, this.i + width).join("");
      this.i += width;
    }
    const cp = /^[0-9A-Fa-f]+$/.test(digits) ? Number.parseInt(digits, 16) : Number.NaN;
    if (!(cp >= 0 && cp <= 0x10ffff)) throw new RustRegexError("invalid hexadecimal digit", start, this.i);
    if (cp === 0x0a) throw new RustRegexError("the literal '\"\\n\"' is not allowed in a regex", -1, -1);
    return cp;
  }

  private unicodeProperty(negated: boolean, start: number): string {
    let name: string;
    if (this.p[this.i] === "{") {
      const end = this.p.indexOf("}", this.i);
      if (end === -1) throw new RustRegexError("unclosed Unicode class literal", start, this.p.length);
      name = this.p.slice(this.i + 1, end).join("");
      this.i = end + 1;
    } else {
      name = this.p[this.i] ?? "";
      this.i++;
    }
    const js = jsProperty(name);
    if (js === undefined) throw new RustRegexError("Unicode property not found", start, this.i);
    return `\\${negated ? "P" : "p"}{${js}}`;
  }

  /** A Rust class `[...]`, possibly nested (`[a[b]]`) and with `[:alpha:]` items. */
  private charClass(): string {
    const start = this.i;
    this.i++;
    let negate = false;
    if (this.p[this.i] === "^") {
      negate = true;
      this.i++;
    }
    let body = "";
    let first = true;
    // Set operations (`[a-z&&[^aeiou]]`, `--`, `~~`): operands are unions, applied left to right.
    const operands: Array<{ body: string; negated: string[] }> = [];
    const ops: string[] = [];
    // Negated nested classes (`[a[^b]]`) cannot join a JS class body; they become look-aheads.
    let negated: string[] = [];
    for (;;) {
      const c = this.p[this.i];
      if (c === undefined) throw new RustRegexError("unclosed character class", start, start + 1);
      if (c === "]" && !first) break;
      first = false;
      if (c === "[" && this.p[this.i + 1] === ":") {
        const end = this.p.join("").indexOf(":]", this.i);
        const name = end === -1 ? "" : this.p.slice(this.i + 2, end).join("");
        // ASCII-only in Rust's regex crate, whatever the Unicode mode (PCRE2's are Unicode); `[:^alpha:]` is the complement.
        const classes = this.dialect.pcre && this.dialect.ascii !== true ? PCRE_POSIX_CLASSES : RUST_POSIX_CLASSES;
        const cls = /^\^?[a-z]+$/.test(name) ? classes[name.replace("^", "")] : undefined;
        if (cls !== undefined) {
          const folded = this.foldCase && (name.endsWith("upper") || name.endsWith("lower"))
              ? this.dialect.ascii === true
                ? "A-Za-z"
                : this.dialect.pcre
                ? "\\p{Lu}\\p{Ll}\\p{Lt}"
                : "A-Za-z\\u017F\\u212A"
              : cls;
          if (name.startsWith("^")) negated.push(folded);
          else body += folded;
          this.i = end + 2;
          continue;
        }
      }
      if (c === "[") {
        // A nested class: union its body into ours.
        const inner = this.charClass();
        if (inner.startsWith("[^")) negated.push(inner.slice(2, -1));
        else if (inner.startsWith("[")) body += inner.slice(1, -1);
        else throw new RustRegexError("nested class set operations are not supported by this docs shell", start, this.i);
        continue;
      }
      if ((c === "&" || c === "-" || c === "~") && this.p[this.i + 1] === c) {
        operands.push({ body, negated });
        ops.push(c);
        body = "";
        negated = [];
        this.i += 2;
        continue;
      }
      let lo: number;
      let loSource: string;
      if (c === "\\") {
        const esc = this.classEscape(start);
        if (esc.codePoint === undefined) {
          body += esc.source;
          continue;
        }
        lo = esc.codePoint;
        loSource = esc.source;
      } else {
        lo = c.codePointAt(0) as number;
        loSource = classChar(lo);
        this.i++;
      }
      if (lo === 0x0a) throw new RustRegexError("the literal '\"\\n\"' is not allowed in a regex", -1, -1);
      if (this.p[this.i] === "-" && this.p[this.i + 1] !== "]" && this.p[this.i + 1] !== undefined) {
        const rangeStart = this.i - 1;
        this.i++;
        let hi: number;
        if (this.p[this.i] === "\\") {
          const esc = this.classEscape(start);
          if (esc.codePoint === undefined) throw new RustRegexError("invalid range boundary, must be a literal", rangeStart, this.i);
          hi = esc.codePoint;
        } else {
          hi = (this.p[this.i] as string).codePointAt(0) as number;
          this.i++;
        }
        if (hi < lo) throw new RustRegexError("invalid character class range, the start must be <= the end", rangeStart, this.i);
        body += `${loSource}-${classChar(hi)}`;
        if (this.foldCase) body += caseFoldedRange(lo, hi);
        continue;
      }
      body += loSource;
      if (this.foldCase) body += caseFoldedRange(lo, lo);
    }
    this.i++;
    if ((operands.length > 0 || negated.length > 0) && !this.flags.u) this.byteOnly(start, this.i);
    // One negated item alone (`[[:^alpha:]]`, `[^[:^space:]]`): a plain class, no look-ahead.
    if (operands.length === 0 && negated.length === 1 && body === "") {
      return negate ? `[${negated[0] as string}]` : `[^${negated[0] as string}\\n]`;
    }
    if (operands.length > 0 || negated.length > 0) {
      operands.push({ body, negated });
      // A one-character test built from look-aheads: (?=[A])(?=[B]) is A && B, and so on.
      const member = (o: { body: string; negated: string[] }): string => {
        const alternatives = [...(o.body === "" ? [] : [`(?=[${o.body}])`]), ...o.negated.map((n) => `(?![${n}\\n])`)];
        return alternatives.length === 1 ? (alternatives[0] as string) : `(?:${alternatives.join("|")})`;
      };
      let test = member(operands[0] as { body: string; negated: string[] });
      ops.forEach((op, k) => {
        const next = member(operands[k + 1] as { body: string; negated: string[] });
        if (op === "&") test = `${test}${next}`;
        else if (op === "-") test = `${test}(?!${next})`;
        else test = `(?:${test}(?!${next})|(?!${test})${next})`;
      });
      return negate ? `(?:(?!(?:${test}))[^\\n])` : `(?:${test}[^\\n])`;
    }
    if (body === "" && !negate) throw new RustRegexError("empty character classes are not allowed", start, this.i);
    if (negate && !this.flags.u) this.byteOnly(start, this.i);
    return negate ? `[^${body}\\n]` : `[${body}]`;
  }

  /**
   * With Unicode off (`(?-u)`), `.`, negated classes and `\W` match single bytes, splitting
   * UTF-8 characters: output we cannot reproduce on decoded text, so refused.
   */
  private byteOnly(start: number, end: number): never {
    throw new RustRegexError("a class that can match part of a UTF-8 character (with Unicode off, `(?-u)`) is not supported by this docs shell", start, end);
  }

  /** An escape inside a class: a single code point, or a class body (`\d`). */
  private classEscape(classStart: number): { source: string; codePoint?: number } {
    const start = this.i;
    const c = this.p[this.i + 1];
    if (c === undefined) throw new RustRegexError("unclosed character class", classStart, classStart + 1);
    this.i += 2;
    switch (c) {
      case "d":
        return { source: this.flags.u && this.dialect.ascii !== true ? "\\p{Nd}" : "0-9" };
      case "w":
        return { source: this.flags.u && this.dialect.ascii !== true ? RUST_WORD_BODY : ASCII_WORD_BODY };
      case "s":
        return { source: this.flags.u && this.dialect.ascii !== true ? SPACE_BODY : ASCII_SPACE_BODY };
      case "D":
      case "W":
      case "S":
        throw new RustRegexError("negated classes inside a class are not supported by this docs shell", start, this.i);
      case "p":
      case "P":
        return { source: this.unicodeProperty(c === "P", start) };
      case "n":
        throw new RustRegexError("the literal '\"\\n\"' is not allowed in a regex", -1, -1);
      case "t":
        return { source: "\\t", codePoint: 9 };
      case "r":
        return { source: "\\r", codePoint: 13 };
      case "x":
      case "u":
      case "U": {
        const cp = this.hexEscape(c, start);
        return { source: classChar(cp), codePoint: cp };
      }
      default:
        if (RUST_META.has(c) || (this.dialect.pcre && !/[A-Za-z0-9]/.test(c))) {
          const cp = c.codePointAt(0) as number;
          return { source: classChar(cp), codePoint: cp };
        }
        // PCRE2: in a class, `\` and up to three octal digits is always a character (`[\1]` is U+0001).
        if (this.dialect.pcre && /^[0-7]$/.test(c)) {
          let octal = c;
          while (octal.length < 3 && /^[0-7]$/.test(this.p[this.i] ?? "")) octal += this.p[this.i++] as string;
          const cp = parseInt(octal, 8);
          return { source: classChar(cp), codePoint: cp };
        }
        throw new RustRegexError("unrecognized escape sequence", start, this.i);
    }
  }
}

const WORD_CHAR = new RegExp(`^[${RUST_WORD_BODY}]$`, "u");

function isWordChar(c: string): boolean {
  return WORD_CHAR.test(c);
}

/** Map a Rust `\p{...}` name to a JS property expression, or undefined if JS does not know it. */
function jsProperty(name: string): string | undefined {
  const candidates = [name, `Script=${name}`, name.replace(/[ _-]/g, ""), `Script=${name.replace(/[ _-]/g, "_")}`];
  const eq = /^(\w+)\s*[=:]\s*(\w+)$/.exec(name);
  if (eq !== null) {
    const key = (eq[1] as string).toLowerCase();
    const map: Record<string, string> = { sc: "Script", script: "Script", gc: "General_Category", scx: "Script_Extensions" };
    if (map[key] !== undefined) candidates.unshift(`${map[key]}=${eq[2]}`);
  }
  for (const c of candidates) {
    try {
      new RegExp(`\\p{${c}}`, "u");
      return c;
    } catch {
      // try the next spelling
    }
  }
  return undefined;
}
