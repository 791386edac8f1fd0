import { CountedRegExp } from "../../regex/counted.js";
import { guardRegex } from "../../regex/guard.js";
import { LinearRegExp } from "../../regex/linear.js";
import { LongLineRegExp } from "../../regex/long-line.js";
import { gnuIgnoreCase } from "../../regex/gnu-case.js";
import { PosixRegexError, translatePosix } from "../../regex/posix.js";
import { sedEscape } from "../../regex/sed-escape.js";
import { byteChar, byteEscape, bytewiseSource, joinBytes, markBytewise, regexBytes } from "./byte-escapes.js";

/** A sed script mistake, with GNU's wording and position (`-e expression #1, char 5: ...`). */
export class SedScriptError extends Error {
  override readonly name = "SedScriptError";
  constructor(
    message: string,
    /** Offset into the joined script where the error was detected (characters read so far). */
    readonly offset: number,
    /** Errors GNU reports without a position (`can't find label`). */
    readonly positionless = false,
    /** Exit status: 1 for script errors, 4 for files that cannot be opened. */
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** A compiled regex, or null for `//` (the last regex used). */
export type SedRegex = RegExp | null;

export type Address =
  | { readonly kind: "line"; readonly n: number }
  | { readonly kind: "last" }
  | { readonly kind: "zero" }
  | { readonly kind: "regex"; readonly re: SedRegex }
  | { readonly kind: "step"; readonly first: number; readonly step: number }
  | { readonly kind: "plus"; readonly n: number }
  | { readonly kind: "multiple"; readonly n: number };

/** A piece of an `s` replacement. */
export type ReplacementPart =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "group"; readonly n: number }
  | { readonly kind: "case"; readonly op: "L" | "U" | "l" | "u" | "E" };

export interface Substitution {
  readonly re: SedRegex;
  readonly replacement: readonly ReplacementPart[];
  readonly global: boolean;
  readonly nth: number;
  readonly print: number;
  readonly write?: string;
}

export interface SedCommand {
  readonly a1?: Address;
  readonly a2?: Address;
  readonly negate: boolean;
  readonly name: string;
  /** What a/i/c write, with its newline; empty for `a\` at the script's end, which writes nothing. */
  text?: string;
  label?: string;
  exitCode?: number;
  file?: string;
  width?: number;
  sub?: Substitution;
  translate?: Map<string, string>;
  /** For `{`: index of the matching `}`. */
  blockEnd?: number;
  /** Range state (per command, reset for each run). */
  active?: boolean;
  rangeEnd?: number;
}

export interface SedProgram {
  readonly commands: SedCommand[];
  readonly labels: ReadonlyMap<string, number>;
  /** `#n` on the script's first line acts like -n. */
  readonly quietFromScript: boolean;
}

/** Compile a sed regex (BRE or ERE, with the I and M flags). */
export function compileSedRegex(source: string, ere: boolean, ignoreCase: boolean, multiline: boolean, offset: number): RegExp {
  try {
    const t = translatePosix(regexBytes(source), ere, 0, { sed: true, multiline, ignoreCase });
    // sed's I folds as GNU grep's -i does (glibc's towupper/towlower, C.UTF-8): `I`, `i` and `ı` together, `k` without the Kelvin sign.
    const c = ignoreCase ? gnuIgnoreCase(t.source) : { source: t.source, ignoreCase: false };
    const guarded = guardRegex(new RegExp(c.source, c.ignoreCase ? "iu" : "u"));
    if (!(guarded instanceof RegExp)) throw new SedScriptError(guarded.refused, offset);
    // Run on its bytes when it meets part of a character, and the pattern as written is not one
    // for the linear-time engine: what the rewrite adds for `.` has one way to match at each
    // byte. A pattern on the counted machine (a backreference) stays there, rewritten.
    const bytewise = guarded instanceof LinearRegExp ? undefined : bytewiseSource(c.source, c.ignoreCase);
    if (bytewise === undefined) return guarded;
    // One kept on V8 for short texts keeps the linear-time engine for a long one.
    if (guarded instanceof CountedRegExp) return markBytewise(new CountedRegExp(bytewise, "u", guarded.unset));
    return markBytewise(guarded instanceof LongLineRegExp ? new LongLineRegExp(bytewise, "u", "text") : new RegExp(bytewise, "u"));
  } catch (error) {
    if (error instanceof SedScriptError) throw error;
    if (error instanceof PosixRegexError) throw new SedScriptError(error.message, offset);
    const message = error instanceof Error ? error.message : String(error);
    throw new SedScriptError(`unsupported regular expression in this docs shell (${message})`, offset);
  }
}

const NO_ARG = new Set(["=", "d", "D", "g", "G", "h", "H", "n", "N", "p", "P", "x", "z", "F"]);

/** Parse a whole sed script (the -e expressions joined by newlines). */
export function parseSedScript(script: string, ere: boolean): SedProgram {
  return new SedParser(script, ere).parse();
}

class SedParser {
  private i = 0;
  private readonly commands: SedCommand[] = [];
  private readonly labels = new Map<string, number>();
  private readonly blocks: number[] = [];

  constructor(
    private readonly s: string,
    private readonly ere: boolean,
  ) {}

  private error(message: string): never {
    throw new SedScriptError(message, this.i);
  }

  parse(): SedProgram {
    const s = this.s;
    const quietFromScript = s.startsWith("#n\n") || s === "#n";
    while (this.i < s.length) {
      this.skip(" \t\n;");
      if (this.i >= s.length) break;
      if (s[this.i] === "#") {
        this.toEndOfLine();
        continue;
      }
      this.command();
    }
    if (this.blocks.length > 0) throw new SedScriptError("unmatched `{'", 0);
    for (const c of this.commands) {
      if ((c.name === "b" || c.name === "t" || c.name === "T") && c.label !== "" && !this.labels.has(c.label as string)) {
        throw new SedScriptError(`can't find label for jump to \`${c.label}'`, 0, true);
      }
    }
    return { commands: this.commands, labels: this.labels, quietFromScript };
  }

  private skip(chars: string): void {
    while (this.i < this.s.length && chars.includes(this.s[this.i] as string)) this.i++;
  }

  private toEndOfLine(): string {
    const start = this.i;
    while (this.i < this.s.length && this.s[this.i] !== "\n") this.i++;
    return this.s.slice(start, this.i);
  }

  private number(): number {
    const m = /^\d+/.exec(this.s.slice(this.i));
    if (m === null) return Number.NaN;
    this.i += m[0].length;
    return Number(m[0]);
  }

  /** A delimited regex starting at the delimiter; returns its source (delimiter escapes resolved). */
  private delimited(delim: string, what: string): string {
    let out = "";
    this.i++; // the delimiter
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined || c === "\n") this.error(`unterminated ${what}`);
      if (c === delim) {
        this.i++;
        return out;
      }
      if (c === "\\") {
        const next = this.s[this.i + 1];
        if (next === undefined) this.error(`unterminated ${what}`);
        if (next === delim) out += "^$.*[]\\+?(){}|/".includes(delim) && delim !== "/" ? `\\${delim}` : delim;
        else if (next === "\n") out += "\\n";
        else out += `\\${next}`;
        this.i += 2;
        continue;
      }
      out += c;
      this.i++;
    }
  }

  private regexAddress(delim: string): Address {
    const source = this.delimited(delim, "address regex");
    let ignoreCase = false;
    let multiline = false;
    for (;;) {
      const f = this.s[this.i];
      if (f === "I") ignoreCase = true;
      else if (f === "M") multiline = true;
      else break;
      this.i++;
    }
    const re = source === "" ? null : compileSedRegex(source, this.ere, ignoreCase, multiline, this.i);
    return { kind: "regex", re };
  }

  private address(second: boolean): Address | undefined {
    const c = this.s[this.i];
    if (c === undefined) return undefined;
    if (/\d/.test(c)) {
      const n = this.number();
      if (this.s[this.i] === "~" && !second) {
        this.i++;
        const step = this.number();
        return { kind: "step", first: n, step: Number.isNaN(step) ? 0 : step };
      }
      return n === 0 && !second ? { kind: "zero" } : { kind: "line", n };
    }
    if (c === "$") {
      this.i++;
      return { kind: "last" };
    }
    if (c === "/") return this.regexAddress("/");
    if (c === "\\") {
      const delim = this.s[this.i + 1];
      if (delim === undefined || delim === "\n" || delim === "\\") this.error("unexpected `,'");
      this.i++;
      return this.regexAddress(delim);
    }
    if (second && (c === "+" || c === "~")) {
      this.i++;
      const n = this.number();
      if (Number.isNaN(n)) this.error("expected newer version of sed");
      return c === "+" ? { kind: "plus", n } : { kind: "multiple", n };
    }
    return undefined;
  }

  /** After a command: only spaces, then `;`, `}`, `#`, a newline or the end. */
  private endOfCommand(): void {
    this.skip(" \t");
    const c = this.s[this.i];
    if (c === undefined || c === "\n" || c === ";" || c === "#") return;
    if (c === "}") return;
    this.i++;
    this.error(`extra characters after command`);
  }

  /**
   * Text of a/i/c, with its newline: GNU's one-line form (`a text`) or the classic `a\` newline
   * form. `a\` with nothing after it, at the script's end, is no text at all, as in GNU sed 4.9:
   * it writes nothing, not an empty line (`c\` only deletes; issue 25). `a\` and a newline at
   * the end is one empty line.
   */
  private text(): string {
    this.skip(" \t");
    // `a` with nothing after it (spaces aside): GNU's error, not an empty line.
    if (this.i >= this.s.length) this.error("expected \\ after `a', `c' or `i'");
    if (this.s[this.i] === "\\") {
      this.i++;
      if (this.i >= this.s.length) return "";
      if (this.s[this.i] === "\n") this.i++;
    }
    let out = "";
    while (this.i < this.s.length) {
      const c = this.s[this.i] as string;
      if (c === "\n") {
        this.i++;
        break;
      }
      if (c === "\\") {
        const next = this.s[this.i + 1];
        if (next === undefined) {
          this.i++;
          break;
        }
        out += this.escapedChar();
        continue;
      }
      out += c;
      this.i++;
    }
    return `${joinBytes(out)}\n`;
  }

  /**
   * The escape at the backslash `s[i]` in a/i/c text or a `y` string, as GNU sed 4.9 reads it: a
   * numeric escape is a byte, `\t` `\n` `\cA`... the character, any other character itself.
   */
  private escapedChar(): string {
    const bytes = byteEscape(this.s, this.i);
    if (bytes !== undefined) {
      this.i += bytes.length;
      return byteChar(bytes.byte);
    }
    const esc = sedEscape(this.s, this.i + 1);
    if (esc !== undefined) {
      this.i += 1 + esc.length;
      return String.fromCodePoint(esc.code);
    }
    const next = String.fromCodePoint(this.s.codePointAt(this.i + 1) as number);
    this.i += 1 + next.length;
    return next;
  }

  private label(): string {
    this.skip(" \t");
    const start = this.i;
    while (this.i < this.s.length && !";\n".includes(this.s[this.i] as string)) this.i++;
    return this.s.slice(start, this.i).trimEnd();
  }

  private jumpLabel(): string {
    this.skip(" \t");
    const start = this.i;
    while (this.i < this.s.length && !"; \t\n".includes(this.s[this.i] as string)) this.i++;
    return this.s.slice(start, this.i);
  }

  private filename(): string {
    this.skip(" \t");
    return this.toEndOfLine();
  }

  private command(): void {
    const a1 = this.address(false);
    let a2: Address | undefined;
    if (a1 !== undefined) {
      this.skip(" \t");
      if (this.s[this.i] === ",") {
        this.i++;
        this.skip(" \t");
        a2 = this.address(true);
        if (a2 === undefined) this.error("unexpected `,'");
      }
    }
    if (a1?.kind === "zero" && (a2 === undefined || a2.kind !== "regex")) this.error("invalid usage of line address 0");
    this.skip(" \t");
    let negate = false;
    while (this.s[this.i] === "!") {
      negate = true;
      this.i++;
      this.skip(" \t");
    }
    const name = this.s[this.i];
    if (name === undefined || name === "\n" || name === ";") this.error("missing command");
    this.i++;
    const cmd: SedCommand = { ...(a1 ? { a1 } : {}), ...(a2 ? { a2 } : {}), negate, name };
    if (NO_ARG.has(name)) {
      this.commands.push(cmd);
      this.endOfCommand();
      return;
    }
    switch (name) {
      case "{":
        this.blocks.push(this.commands.length);
        this.commands.push(cmd);
        return;
      case "}": {
        if (a1 !== undefined) this.error("} doesn't want any addresses");
        const open = this.blocks.pop();
        if (open === undefined) this.error("unexpected `}'");
        (this.commands[open] as SedCommand).blockEnd = this.commands.length;
        this.commands.push(cmd);
        this.endOfCommand();
        return;
      }
      case "a":
      case "i":
      case "c":
        cmd.text = this.text();
        this.commands.push(cmd);
        return;
      case ":": {
        if (a1 !== undefined) this.error(": doesn't want any addresses");
        const label = this.label();
        if (label === "") this.error('":" lacks a label');
        this.labels.set(label, this.commands.length);
        this.commands.push(cmd);
        return;
      }
      case "b":
      case "t":
      case "T":
        cmd.label = this.jumpLabel();
        this.commands.push(cmd);
        this.endOfCommand();
        return;
      case "q":
      case "Q": {
        this.skip(" \t");
        const n = this.number();
        cmd.exitCode = Number.isNaN(n) ? 0 : n;
        this.commands.push(cmd);
        this.endOfCommand();
        return;
      }
      case "l":
      case "L": {
        this.skip(" \t");
        const n = this.number();
        if (!Number.isNaN(n)) cmd.width = n;
        this.commands.push(cmd);
        this.endOfCommand();
        return;
      }
      case "r":
      case "R":
      case "w":
      case "W":
        cmd.file = this.filename();
        this.commands.push(cmd);
        return;
      case "s":
        cmd.sub = this.substitution();
        this.commands.push(cmd);
        return;
      case "y":
        cmd.translate = this.transliteration();
        this.commands.push(cmd);
        this.endOfCommand();
        return;
      case "e":
        this.error("the e command (run a shell command) is not available in the docs shell");
        return;
      case "v":
        this.label();
        return;
      default:
        this.error(`unknown command: \`${name}'`);
    }
  }

  private substitution(): Substitution {
    const delim = this.s[this.i];
    if (delim === undefined || delim === "\n" || delim === "\\") this.error("unterminated `s' command");
    const regexStart = this.i;
    const source = this.delimited(delim, "`s' command");
    void regexStart;
    // Replacement: keep escapes for expansion, resolve `\DELIM` and escaped newlines.
    const parts: ReplacementPart[] = [];
    let text = "";
    const flush = () => {
      if (text !== "") parts.push({ kind: "text", text: joinBytes(text) });
      text = "";
    };
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) this.error("unterminated `s' command");
      if (c === delim) {
        this.i++;
        break;
      }
      if (c === "\n") this.error("unterminated `s' command");
      if (c === "&") {
        flush();
        parts.push({ kind: "group", n: 0 });
        this.i++;
        continue;
      }
      if (c === "\\") {
        const next = this.s[this.i + 1];
        if (next === undefined) this.error("unterminated `s' command");
        // A numeric escape is a byte, taken as text: `\x26` is `&` and `\x5c` a backslash, not their roles.
        const bytes = byteEscape(this.s, this.i);
        if (bytes !== undefined) {
          text += byteChar(bytes.byte);
          this.i += bytes.length;
          continue;
        }
        this.i += 2;
        if (/[0-9]/.test(next)) {
          flush();
          parts.push({ kind: "group", n: Number(next) });
        } else if ("LUluE".includes(next)) {
          flush();
          parts.push({ kind: "case", op: next as "L" | "U" | "l" | "u" | "E" });
        } else if (next === "\n") text += "\n";
        else if (next === delim) text += delim;
        else {
          const esc = sedEscape(this.s, this.i - 1);
          if (esc !== undefined) {
            text += String.fromCodePoint(esc.code);
            this.i += esc.length - 1;
          } else text += next;
        }
        continue;
      }
      text += c;
      this.i++;
    }
    flush();
    let global = false;
    let nth = 1;
    let print = 0;
    let ignoreCase = false;
    let multiline = false;
    let write: string | undefined;
    let sawNumber = false;
    for (;;) {
      const f = this.s[this.i];
      if (f === "g") global = true;
      else if (f === "p") print++;
      else if (f === "i" || f === "I") ignoreCase = true;
      else if (f === "m" || f === "M") multiline = true;
      else if (f === "e") this.error("the e flag (run a shell command) is not available in the docs shell");
      else if (f !== undefined && /\d/.test(f)) {
        if (sawNumber) this.error("multiple number options to `s' command");
        const n = this.number();
        if (n === 0) this.error("number option to `s' command may not be zero");
        nth = n;
        sawNumber = true;
        continue;
      } else if (f === "w") {
        this.i++;
        write = this.filename();
        break;
      } else {
        if (f !== undefined && !" \t\n;}#".includes(f)) {
          this.i++;
          this.error("unknown option to `s'");
        }
        break;
      }
      this.i++;
    }
    if (write === undefined) this.endOfCommand();
    const re = source === "" ? null : compileSedRegex(source, this.ere, ignoreCase, multiline, this.i);
    for (const part of parts) {
      if (part.kind === "group" && part.n > 0 && re !== null) {
        const groups = new RegExp(`${re.source}|`, re.flags).exec("")?.length ?? 1;
        if (part.n >= groups) this.error(`invalid reference \\${part.n} on \`s' command's RHS`);
      }
    }
    return { re, replacement: parts, global, nth, print, ...(write !== undefined ? { write } : {}) };
  }

  private transliteration(): Map<string, string> {
    const delim = this.s[this.i];
    if (delim === undefined || delim === "\n" || delim === "\\") this.error("unterminated `y' command");
    // GNU sed 4.9 reads a `y` string's escapes as a/i/c text's: `\xff` is the byte ff, `\xc3\xa9` é, `\t` a tab, `\q` q.
    const read = (): string[] => {
      let text = "";
      for (;;) {
        const c = this.s[this.i];
        if (c === undefined || c === "\n") this.error("unterminated `y' command");
        if (c === delim) {
          this.i++;
          return [...joinBytes(text)];
        }
        if (c === "\\") {
          const next = this.s[this.i + 1];
          if (next === undefined || next === "\n") this.error("unterminated `y' command");
          if (next === delim) {
            text += delim;
            this.i += 2;
          } else text += this.escapedChar();
          continue;
        }
        text += c;
        this.i++;
      }
    };
    this.i++;
    const from = read();
    const to = read();
    if (from.length !== to.length) this.error("strings for `y' command are different lengths");
    return new Map(from.map((c, k) => [c, to[k] as string]));
  }
}
