import {
  GNU_SPACE_BODY,
  GNU_WORD_BODY,
  LINE_END,
  LINE_START,
  POSIX_CLASSES,
  classChar,
  literalChar,
  wordAssertions,
} from "./classes.js";
import { sedEscape } from "./sed-escape.js";

/** A pattern GNU grep rejects, with grep's own message (`Unmatched ( or \(`). */
export class PosixRegexError extends Error {
  override readonly name = "PosixRegexError";
}

/** A GNU BRE/ERE pattern as a JS `u`-mode source. */
export interface PosixTranslation {
  readonly source: string;
  /** Capturing groups in `source` (for renumbering back-references when patterns are joined). */
  readonly groups: number;
  /** grep's warnings (`* at start of expression`), printed to stderr as `grep: warning: ...`. */
  readonly warnings: readonly string[];
}

const W = wordAssertions(GNU_WORD_BODY);

const GNU_WORD_CHAR = new RegExp(`^[${GNU_WORD_BODY}]$`, "u");

/** RE_DUP_MAX: the largest interval count glibc accepts. */
const DUP_MAX = 32767;

/** How a pattern is applied: to single lines (grep) or to sed's pattern space. */
export interface PosixMode {
  /** sed: `^`/`$` are the ends of the pattern space (unless `multiline`), `.` matches `\n`,
   *  and `\n`, `\t`... are escapes. grep: each match stays inside one line. */
  readonly sed: boolean;
  /** sed's `M` flag: `^`/`$` also match around embedded newlines. */
  readonly multiline?: boolean;
  /**
   * GNU's emacs syntax (find's default `-regex` dialect, RE_SYNTAX_EMACS): groups and
   * alternation are `\(\)` and `\|` as in a BRE, but `+` and `?` are operators (`\+`, `\?`
   * literal), there are no intervals (`{` and `\{` are literal) and no `[:class:]` names.
   * Use with `ere = false`.
   */
  readonly emacs?: boolean;
  /** grep's `-i`, sed's `I`: [:upper:] and [:lower:] become [:alpha:], as GNU reads them then. */
  readonly ignoreCase?: boolean;
  /** The pattern goes to glibc's regcomp alone (find), not first through gnulib's dfa as in
   *  grep and sed: no dfa-only diagnostics, and glibc's wording where the two differ. */
  readonly glibc?: boolean;
}

const GREP_MODE: PosixMode = { sed: false };

/**
 * Translate a GNU basic (`ere = false`) or extended regular expression, with GNU's extensions
 * (`\w \s \b \< \> \| \+ \?`, back-references) and its quirks (a BRE `*` at the start is
 * literal; an ERE `{` that does not start an interval is literal; a stray `\` before an
 * ordinary character is that character). `groupOffset` renumbers back-references.
 */
export function translatePosix(pattern: string, ere: boolean, groupOffset = 0, mode: PosixMode = GREP_MODE): PosixTranslation {
  return new PosixTranslator(pattern, ere, groupOffset, mode).run();
}

interface Frame {
  /** Output index where the current alternative began. */
  altStart: number;
  /** Groups closed before this level began: each alternative starts from these (glibc's `initial_bkref_map`). */
  readonly initial: ReadonlySet<number>;
  /** Groups closed in this level's earlier alternatives: closed for what follows the level. */
  readonly accumulated: Set<number>;
}

class PosixTranslator {
  private out = "";
  private i = 0;
  private groups = 0;
  private readonly open: number[] = [];
  private readonly closed = new Set<number>();
  private readonly warnings: string[] = [];
  /** Output index of the last atom (for quantifiers), or -1 when nothing can be repeated. */
  private atomStart = -1;
  private atomQuantified = false;
  /** The last atom certainly matched one word character (lets `\b` use a one-sided test). */
  private prevWord = false;
  private readonly frames: Frame[] = [{ altStart: 0, initial: new Set(), accumulated: new Set() }];

  /** `^` and `$` as assertions; `.` and negated sets; the `\n` to add to negations. */
  private readonly start: string;
  private readonly end: string;
  private readonly any: string;
  private readonly nl: string;
  private readonly emacs: boolean;

  constructor(
    private readonly p: string,
    private readonly ere: boolean,
    private readonly groupOffset: number,
    private readonly mode: PosixMode,
  ) {
    const lines = !mode.sed || mode.multiline === true;
    this.start = lines ? LINE_START : "^";
    this.end = lines ? LINE_END : "$";
    // sed's pattern space holds newlines, which `.` and `[^...]` match; its `M` flag is glibc's
    // REG_NEWLINE, under which they do not (`sed 'N;s/a.*/X/M'` keeps the second line).
    this.any = lines ? "[^\\n]" : "[\\s\\S]";
    this.nl = lines ? "\\n" : "";
    this.emacs = mode.emacs === true;
  }

  run(): PosixTranslation {
    const p = this.p;
    while (this.i < p.length) {
      const c = p[this.i] as string;
      if (c === "\\") this.escape();
      else if (c === "[") this.bracket();
      else if (c === ".") this.atom(this.any, 1);
      else if (c === "*") this.star();
      else if (this.ere && (c === "+" || c === "?")) this.quantifier(c, 1, c);
      else if (this.emacs && (c === "+" || c === "?")) this.emacsOperator(c);
      else if (this.ere && c === "{") this.braceInterval(1);
      else if (this.ere && c === "(") this.openGroup(1);
      else if (this.ere && c === ")") {
        if (this.open.length > 0) this.closeGroup(1);
        else this.atom("\\)", 1); // GNU: an unmatched ERE `)` is an ordinary character
      } else if (this.ere && c === "|") this.alternate(1);
      else if (c === "^") this.caret();
      else if (c === "$") this.dollar();
      else this.literal();
    }
    if (this.open.length > 0) throw new PosixRegexError("Unmatched ( or \\(");
    return { source: this.out, groups: this.groups, warnings: this.warnings };
  }

  /** True at the start of an expression (where `*` and `^` behave specially in a BRE). */
  private atExpressionStart(): boolean {
    const frame = this.frames[this.frames.length - 1] as Frame;
    return this.out.length === frame.altStart || this.atomStart === -2;
  }

  private atom(source: string, consumed: number, word = false): void {
    this.atomStart = this.out.length;
    this.atomQuantified = false;
    this.prevWord = word;
    this.out += source;
    this.i += consumed;
  }

  /** An assertion: cannot be repeated (a following `*` applies to nothing). */
  private assertion(source: string, consumed: number): void {
    this.prevWord = false;
    this.out += source;
    this.i += consumed;
    this.atomStart = -2;
  }

  private literal(): void {
    const cp = this.p.codePointAt(this.i) as number;
    this.atom(literalChar(cp), cp > 0xffff ? 2 : 1, GNU_WORD_CHAR.test(String.fromCodePoint(cp)));
  }

  /** Whether the next atom certainly matches one word character and is not optional. */
  private nextAtomIsWord(): boolean {
    const p = this.p;
    const c = p[this.i];
    let width: number;
    if (c === "\\" && p[this.i + 1] === "w") width = 2;
    else if (c !== undefined && !"\\.[*^$(){}|+?".includes(c) && GNU_WORD_CHAR.test(c)) width = 1;
    else return false;
    const after = p[this.i + width];
    if (after === "*" || (this.ere && (after === "?" || after === "{"))) return false;
    return !(after === "\\" && (p[this.i + width + 1] === "?" || p[this.i + width + 1] === "{"));
  }

  /** A word assertion, one-sided when a neighbour is known to be a word character (much faster in V8). */
  private wordAssertion(kind: "boundary" | "start" | "end", consumed: number): void {
    const prev = this.prevWord;
    this.i += consumed;
    const next = this.nextAtomIsWord();
    this.i -= consumed;
    let source: string;
    if (kind === "start") source = prev ? "(?!)" : next ? W.before : W.start;
    else if (kind === "end") source = next ? "(?!)" : prev ? W.after : W.end;
    else source = prev && next ? "(?!)" : next ? W.before : prev ? W.after : W.boundary;
    this.assertion(source, consumed);
  }

  private caret(): void {
    // BRE: `^` anchors only at the start of an expression; elsewhere it is literal, after
    // another anchor too (`\<^a` looks for a literal `^`, while `^*` keeps `*` literal).
    const frame = this.frames[this.frames.length - 1] as Frame;
    if (this.ere || this.out.length === frame.altStart) this.assertion(this.start, 1);
    else this.atom("\\^", 1);
  }

  private dollar(): void {
    if (this.ere) {
      this.assertion(this.end, 1);
      return;
    }
    // BRE: `$` anchors only at the end of an expression (before `\)`, `\|` or the end).
    const rest = this.p.slice(this.i + 1);
    if (rest === "" || rest.startsWith("\\)") || rest.startsWith("\\|")) this.assertion(this.end, 1);
    else this.atom("\\$", 1);
  }

  private star(): void {
    if (this.atomStart === -1 || this.atExpressionStart()) {
      if (!this.ere) {
        this.atom("\\*", 1); // BRE: a leading `*` is literal
        return;
      }
      this.warnings.push("* at start of expression");
      this.i += 1;
      return;
    }
    this.quantifier("*", 1, "*");
  }

  /** Emacs `+`/`?`: an operator after an atom, an ordinary character where nothing precedes. */
  private emacsOperator(c: string): void {
    if (this.atomStart < 0 || this.atExpressionStart()) this.atom(`\\${c}`, 1);
    else this.quantifier(c, 1, c);
  }

  private quantifier(q: string, consumed: number, name: string): void {
    if (this.atomStart < 0 || this.atExpressionStart()) {
      // ERE `+`, `?` or `{n}` with nothing to repeat: GNU warns and ignores it.
      this.warnings.push(`${name} at start of expression`);
      this.i += consumed;
      return;
    }
    if (this.atomQuantified) {
      this.out = `${this.out.slice(0, this.atomStart)}(?:${this.out.slice(this.atomStart)})`;
    }
    if (q === "*" || q === "?" || q.startsWith("{0")) this.prevWord = false;
    this.out += q;
    this.atomQuantified = true;
    this.i += consumed;
  }

  /** `{m,n}` (ERE) at `this.i`; `prefixLen` is 1 for `{`, 2 for BRE's `\{`. */
  private braceInterval(prefixLen: number): void {
    const p = this.p;
    const bre = prefixLen === 2;
    const close = bre ? "\\}" : "}";
    const start = this.i + prefixLen;
    const end = p.indexOf(close, start);
    const body = end === -1 ? undefined : p.slice(start, end);
    const shape = body === undefined ? null : /^(\d*)(,(\d*))?$/.exec(body);
    if (shape === null || (body as string) === "" || (body as string) === ",") {
      if (!bre && (shape === null || end === -1)) {
        this.atom("\\{", 1); // ERE: `{` not starting an interval is an ordinary character
        return;
      }
      if (end === -1) throw new PosixRegexError("Unmatched \\{");
      throw new PosixRegexError("Invalid content of \\{\\}");
    }
    const min = shape[1] === "" ? 0 : Number(shape[1]);
    const max = shape[2] === undefined ? min : shape[3] === "" ? Number.POSITIVE_INFINITY : Number(shape[3]);
    if (min > max) throw new PosixRegexError("Invalid content of \\{\\}");
    if (min > DUP_MAX || (max !== Number.POSITIVE_INFINITY && max > DUP_MAX)) {
      throw new PosixRegexError("Regular expression too big");
    }
    const q = max === min ? `{${min}}` : max === Number.POSITIVE_INFINITY ? `{${min},}` : `{${min},${max}}`;
    const consumed = end + close.length - this.i;
    if (bre && (this.atomStart === -1 || this.atExpressionStart())) {
      // BRE `\{` at the start: glibc treats it as an interval on nothing, i.e. an error.
      throw new PosixRegexError("Invalid preceding regular expression");
    }
    this.quantifier(q, consumed, "{...}");
  }

  private openGroup(consumed: number): void {
    this.groups += 1;
    this.open.push(this.groups);
    this.out += "(";
    this.i += consumed;
    this.frames.push({ altStart: this.out.length, initial: new Set(this.closed), accumulated: new Set() });
    this.atomStart = -1;
  }

  private closeGroup(consumed: number): void {
    const n = this.open.pop() as number;
    const level = this.frames.pop() as Frame;
    for (const k of level.accumulated) this.closed.add(k);
    this.closed.add(n);
    // The group is one atom: find its `(` by matching parentheses backwards is costly, so
    // remember the frame start instead.
    const groupStart = this.findGroupStart();
    this.out += ")";
    this.i += consumed;
    this.atomStart = groupStart;
    this.atomQuantified = false;
  }

  private findGroupStart(): number {
    // Walk the output, skipping escapes and classes, to the `(` still open: this group's.
    const s = this.out;
    const positions: number[] = [];
    let inClass = false;
    for (let k = 0; k < s.length; k++) {
      const c = s[k];
      if (c === "\\") {
        k++;
        continue;
      }
      if (inClass) {
        if (c === "]") inClass = false;
        continue;
      }
      if (c === "[") inClass = true;
      else if (c === "(") positions.push(k);
      else if (c === ")") positions.pop();
    }
    return positions[positions.length - 1] ?? 0;
  }

  private alternate(consumed: number): void {
    this.out += "|";
    this.prevWord = false;
    this.i += consumed;
    const frame = this.frames[this.frames.length - 1] as Frame;
    frame.altStart = this.out.length;
    // A group closed in an earlier alternative cannot be referred to in this one (glibc:
    // `(a)|b\1` is an invalid back reference), though it can after the alternation ends.
    for (const k of this.closed) frame.accumulated.add(k);
    this.closed.clear();
    for (const k of frame.initial) this.closed.add(k);
    this.atomStart = -1;
  }

  private escape(): void {
    const p = this.p;
    if (this.i + 1 >= p.length) throw new PosixRegexError("Trailing backslash");
    const c = p[this.i + 1] as string;
    if (!this.ere) {
      if (c === "(") return this.openGroup(2);
      if (c === ")") {
        if (this.open.length === 0) throw new PosixRegexError("Unmatched ) or \\)");
        return this.closeGroup(2);
      }
      if (c === "|") return this.alternate(2);
      // Emacs syntax has no intervals, and `\+`/`\?` are the literal characters.
      if (this.emacs && (c === "{" || c === "+" || c === "?")) return this.atom(`\\${c}`, 2);
      if (c === "{") return this.braceInterval(2);
      if (c === "}") return this.atom("\\}", 2);
      if (c === "+" || c === "?") {
        if (this.atomStart === -1 || this.atExpressionStart()) return this.atom(`\\${c}`, 2);
        return this.quantifier(c, 2, c);
      }
    }
    if (c >= "1" && c <= "9") {
      const n = Number(c);
      if (n > this.groups || !this.closed.has(n)) throw new PosixRegexError("Invalid back reference");
      // One digit only (`\10` is `\1` then `0`): kept apart from a digit after it.
      const next = p[this.i + 2];
      const ref = `\\${n + this.groupOffset}`;
      return this.atom(next !== undefined && next >= "0" && next <= "9" ? `(?:${ref})` : ref, 2);
    }
    switch (c) {
      case "w":
        return this.atom(`[${GNU_WORD_BODY}]`, 2, true);
      case "W":
        // Not a bracket list: REG_NEWLINE (sed's `M`) leaves `\W` matching the newline.
        return this.atom(`[^${GNU_WORD_BODY}${this.mode.sed ? "" : "\\n"}]`, 2);
      case "s":
        return this.atom(`[${GNU_SPACE_BODY}${this.mode.sed ? "\\n" : ""}]`, 2);
      case "S":
        return this.atom(`[^${GNU_SPACE_BODY}\\n]`, 2);
      case "b":
        return this.wordAssertion("boundary", 2);
      case "B":
        return this.assertion(W.notBoundary, 2);
      case "<":
        return this.wordAssertion("start", 2);
      case ">":
        return this.wordAssertion("end", 2);
      case "`":
        return this.assertion(this.mode.sed ? "(?<![\\s\\S])" : LINE_START, 2);
      case "'":
        return this.assertion(this.mode.sed ? "(?![\\s\\S])" : LINE_END, 2);
      default: {
        if (this.mode.sed) {
          const special = sedEscape(p, this.i + 1);
          if (special !== undefined) return this.atom(literalChar(special.code), 1 + special.length);
        }
        // Any other escaped character stands for itself (GNU grep 3.8 accepts `\d` as `d`).
        const cp = p.codePointAt(this.i + 1) as number;
        return this.atom(literalChar(cp), cp > 0xffff ? 3 : 2);
      }
    }
  }

  /** A bracket expression: `[abc]`, `[^a-z]`, `[]x]`, `[[:alpha:]]`; `\` is literal inside. */
  private bracket(): void {
    const p = this.p;
    const start = this.i;
    let k = this.i + 1;
    let negate = false;
    if (p[k] === "^") {
      negate = true;
      k++;
    }
    let body = "";
    let first = true;
    let prev: number | undefined; // last single code point, for ranges
    // glibc reports a `[` (or `[^`) that ends the pattern as a bad pattern, not as an unmatched
    // bracket; so do GNU grep 3.8 (`grep '['`, `grep 'a[^'`: "Invalid regular expression", while
    // `grep '[a'` is "Unmatched [ ...") and GNU sed 4.9 (its `s/a\x5b/X/`).
    if (k >= p.length) throw new PosixRegexError("Invalid regular expression");
    for (;;) {
      if (k >= p.length) throw new PosixRegexError("Unmatched [, [^, [:, [., or [=");
      const c = p[k] as string;
      if (c === "]" && !first) break;
      first = false;
      if (c === "[" && ((p[k + 1] === ":" && !this.emacs) || p[k + 1] === "." || p[k + 1] === "=")) {
        const kind = p[k + 1] as string;
        const end = p.indexOf(`${kind}]`, k + 2);
        if (end === -1) throw new PosixRegexError("Unmatched [, [^, [:, [., or [=");
        const name = p.slice(k + 2, end);
        if (kind === ":") {
          // Ignoring case, GNU reads [:upper:] and [:lower:] as [:alpha:] (dfa.c): `ß`, which has no upper case, matches [[:upper:]] too.
          const folded = this.mode.ignoreCase === true && (name === "upper" || name === "lower");
          const cls = POSIX_CLASSES[folded ? "alpha" : name];
          if (cls === undefined) throw new PosixRegexError("Invalid character class name");
          body += cls;
          // The tables leave the newline out (a line never holds one); sed's pattern space does,
          // and glibc's space and cntrl hold it (`sed 'N;s/[[:space:]]/_/'` joins the lines).
          if (this.mode.sed && (name === "space" || name === "cntrl")) body += "\\n";
          prev = undefined;
        } else {
          const cps = [...name];
          if (cps.length !== 1) throw new PosixRegexError("Invalid collation character");
          prev = cps[0]?.codePointAt(0) as number;
          body += classChar(prev);
        }
        k = end + 2;
        continue;
      }
      if (this.mode.sed && c === "\\" && p[k + 1] === "n") {
        // GNU sed reads `\n` as a newline inside a bracket too (`[^\n]`, `[\n]`); elsewhere `\` is literal there.
        body += "\\n";
        prev = 0x0a;
        k += 2;
        continue;
      }
      const cp = p.codePointAt(k) as number;
      const width = cp > 0xffff ? 2 : 1;
      if (c === "-" && prev !== undefined && p[k + 1] !== "]" && k + 1 < p.length) {
        // A range `a-z`.
        let hiCp = p.codePointAt(k + 1) as number;
        let hiWidth = hiCp > 0xffff ? 2 : 1;
        if (p[k + 1] === "[" && p[k + 2] === ".") {
          const end = p.indexOf(".]", k + 3);
          if (end === -1) throw new PosixRegexError("Unmatched [, [^, [:, [., or [=");
          hiCp = p.codePointAt(k + 3) as number;
          hiWidth = end + 2 - (k + 1);
        }
        // glibc 2.36's C.UTF-8 collates no character past ASCII in a range: GNU grep, sed and find reject it.
        if (prev > 0x7f || hiCp > 0x7f) throw new PosixRegexError("Invalid collation character");
        if (hiCp < prev) throw new PosixRegexError("Invalid range end");
        body += `-${classChar(hiCp)}`;
        prev = undefined;
        k += 1 + hiWidth;
        continue;
      }
      body += classChar(cp);
      prev = cp;
      k += width;
    }
    if (!negate && body === "") throw new PosixRegexError("Unmatched [, [^, [:, [., or [=");
    // `[:alpha:]` (a bracket of `:`, letters, `:`) is the classic mistake grep rejects.
    if (this.mode.glibc !== true && /^\[:[a-z]+:\]$/.test(p.slice(start, k + 1))) {
      throw new PosixRegexError("character class syntax is [[:space:]], not [:space:]");
    }
    this.atom(negate ? `[^${body}${this.nl}]` : `[${body}]`, k + 1 - this.i);
  }
}
