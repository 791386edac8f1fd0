import { AhoCorasick } from "./aho-corasick.js";
import { foldCase } from "./case-fold.js";

/** Which of several strings that match at the same place is the match. */
export type Leftmost =
  /** The first given (ripgrep, and a JS or Rust alternation). */
  | "first"
  /** The longest (GNU grep: `grep -o -F -e a -e ab` prints `ab`). */
  | "longest";

export interface FixedStringsOptions {
  readonly ignoreCase: boolean;
  /** `-w`: the class body of word characters; a match may have none just before or after it. */
  readonly wordBody?: string | undefined;
  /** `-x`: a match is a whole line. */
  readonly line: boolean;
  readonly leftmost: Leftmost;
}

/** The compiled strings, shared by copies of one search. */
interface Program {
  readonly automaton: AhoCorasick;
  /** Index of the first empty string, if one was given (it matches everywhere its context allows). */
  readonly empty: number;
  readonly options: FixedStringsOptions;
  readonly word: RegExp | undefined;
}

function compile(patterns: readonly string[], options: FixedStringsOptions): Program {
  const folded = options.ignoreCase ? patterns.map(foldCase) : patterns;
  return {
    automaton: new AhoCorasick(folded),
    empty: patterns.indexOf(""),
    options,
    word: options.wordBody === undefined ? undefined : new RegExp(`^[${options.wordBody}]$`, "u"),
  };
}

/**
 * A RegExp that searches for any of many fixed strings (`grep -F`, `rg -F`, `grep -f FILE`) with an
 * Aho-Corasick automaton: time proportional to the text, not to the text times the strings. It
 * answers as the alternation of the escaped strings did (flags `gu`, `i` with `-i`; `-w` and `-x`
 * as lookarounds), except that GNU grep's pick among strings matching at one place is the longest.
 * It is a real RegExp (flags, `lastIndex`), so `test`, `replace`, `matchAll` and every command that
 * takes a RegExp use it unchanged: the spec's RegExp methods all go through `exec`. Its `source` is
 * `(?!)`: nothing may rebuild it from its source (`new RegExp(re.source)` would match nothing).
 */
export class FixedStringsRegExp extends RegExp {
  private readonly program: Program;
  /** The last text searched and its case fold (`exec` is called again and again on one text). */
  private last: { readonly text: string; readonly folded: string } | undefined;

  /** `pattern`: the strings, or (for a species copy) one of ours whose program is shared. */
  constructor(pattern: readonly string[] | RegExp, flags?: string, options?: FixedStringsOptions) {
    super("(?!)", flags ?? (options?.ignoreCase === true ? "giu" : "gu"));
    if (pattern instanceof FixedStringsRegExp) {
      if (this.ignoreCase !== pattern.ignoreCase) throw new Error("a copy of a fixed-strings search cannot change its case flag");
      this.program = pattern.program;
    } else if (Array.isArray(pattern) && options !== undefined) {
      this.program = compile(pattern as readonly string[], options);
    } else throw new Error("a fixed-strings search is built from its strings");
  }

  static override get [Symbol.species](): RegExpConstructor {
    return FixedStringsRegExp as unknown as RegExpConstructor;
  }

  /** Whether the context of [start, end) is what `-w` / `-x` ask for. */
  private fits(text: string, start: number, end: number): boolean {
    const { options, word } = this.program;
    if (options.line) return (start === 0 || text.charCodeAt(start - 1) === 10) && (end === text.length || text.charCodeAt(end) === 10);
    if (word === undefined) return true;
    if (start > 0) {
      const before = start > 1 && isLow(text.charCodeAt(start - 1)) && isHigh(text.charCodeAt(start - 2)) ? text.slice(start - 2, start) : text.slice(start - 1, start);
      if (word.test(before)) return false;
    }
    return end >= text.length || !word.test(String.fromCodePoint(text.codePointAt(end) as number));
  }

  override exec(text: string): RegExpExecArray | null {
    const input = String(text);
    const moving = this.global || this.sticky;
    const from = moving ? this.lastIndex : 0;
    const fail = (): null => {
      if (moving) this.lastIndex = 0;
      return null;
    };
    if (from > input.length) return fail();
    let hay = input;
    if (this.ignoreCase) {
      if (this.last?.text !== input) this.last = { text: input, folded: foldCase(input) };
      hay = this.last.folded;
    }
    const { automaton, empty, options } = this.program;
    let bestStart = Number.POSITIVE_INFINITY;
    let bestEnd = 0;
    let bestPattern = -1;
    if (empty >= 0) {
      // The empty string matches at the first place whose context fits (never inside a surrogate pair).
      for (let p = from; p <= input.length; p++) {
        if (isLow(input.charCodeAt(p)) && p > 0 && isHigh(input.charCodeAt(p - 1))) continue;
        if (this.fits(input, p, p)) {
          bestStart = p;
          bestEnd = p;
          bestPattern = empty;
          break;
        }
        if (this.sticky) break;
      }
    }
    automaton.scan(
      hay,
      from,
      (start, end, pattern) => {
        if (start > bestStart || (this.sticky && start !== from)) return true;
        if (start === bestStart && (options.leftmost === "first" ? pattern > bestPattern : end <= bestEnd)) return true;
        if (!this.fits(input, start, end)) return true;
        bestStart = start;
        bestEnd = end;
        bestPattern = pattern;
        return true;
      },
      // A string read past here would start after the best match so far.
      () => bestStart + automaton.longest,
    );
    if (bestPattern < 0) return fail();
    const result = Object.assign([input.slice(bestStart, bestEnd)], { index: bestStart, input, groups: undefined }) as unknown as RegExpExecArray;
    if (moving) this.lastIndex = bestEnd;
    return result;
  }
}

function isHigh(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
