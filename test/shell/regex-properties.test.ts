import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { escapeLiteral } from "../../src/engine/shell/regex/classes.js";
import { CountedRegExp } from "../../src/engine/shell/regex/counted.js";
import { guardRegex } from "../../src/engine/shell/regex/guard.js";
import { LinearRegExp } from "../../src/engine/shell/regex/linear.js";
import { LongLineRegExp } from "../../src/engine/shell/regex/long-line.js";
import { type Dialect, compilePatterns } from "../../src/engine/shell/regex/patterns.js";
import { type PosixMode, PosixRegexError, translatePosix } from "../../src/engine/shell/regex/posix.js";
import { translateRust } from "../../src/engine/shell/regex/rust.js";
import { RustRegexError, formatRustError } from "../../src/engine/shell/regex/rust-error.js";
import { isRisky } from "../../src/engine/shell/regex/shape.js";
import { propertyParams } from "../helpers/property.js";

/**
 * Properties of the regex translators (src/engine/shell/regex/) on random patterns built from the
 * pieces each syntax gives meaning to, so most samples hit a rule (an interval, a group, a
 * back-reference, a class, an anchor, a stray backslash) rather than plain letters. Runs are
 * bounded and seeded (test/helpers/property.ts), so a run is repeatable and quick; a failure
 * prints the seed to replay it.
 */

/** Pieces of GNU BRE/ERE (and of their sed and find modes): each means something in one of them. */
const POSIX_PIECES = [
  "a", "b", "c", "1", " ", "é", "-", ",",
  ".", "*", "+", "?", "^", "$", "|", "(", ")", "{", "}", "[", "]",
  "\\+", "\\?", "\\|", "\\(", "\\)", "\\{", "\\}", "\\.", "\\*", "\\[", "\\\\", "\\1", "\\2",
  "\\w", "\\W", "\\s", "\\S", "\\b", "\\B", "\\<", "\\>", "\\`", "\\'", "\\a", "\\n",
  "{1}", "{1,2}", "{,2}", "{2,}", "\\{1\\}", "\\{1,2\\}", "\\{,2\\}",
  "[ab]", "[^a]", "[a-c]", "[]a]", "[^]a]", "[[:alpha:]]", "[[:digit:]]", "[[:space:]]", "[[:nope:]]", "[.]", "[*]", "[a-]", "[c-a]",
];

/** Pieces of ripgrep's Rust syntax and of PCRE2. */
const RUST_PIECES = [
  "a", "b", "c", "1", " ", "é", "-", ",", "A",
  ".", "*", "+", "?", "*?", "+?", "^", "$", "|", "(", ")", "(?:", "(?i)", "(?i:", "(?-i)", "(?P<n>", "(?<n>", "(?=", "(?!", "(?<=",
  "{", "}", "{1}", "{1,2}", "{2,}", "[", "]", "[ab]", "[^a]", "[a-c]", "[[:alpha:]]", "[a&&b]", "[a--b]", "[\\w]", "[\\d-z]",
  "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\b", "\\B", "\\A", "\\z", "\\pL", "\\p{Lu}", "\\P{N}", "\\x41", "\\x{e9}", "\\u00e9",
  "\\.", "\\*", "\\\\", "\\1", "\\k<n>", "\\Q", "\\E", "\\n", "\\t", "\\-", "\\#",
];

/** Characters of the lines patterns are matched against: what the pieces above can match, and not. */
const LINE_CHARS = ["a", "b", "c", "A", "1", " ", "é", "-", ",", ".", "*", "(", ")", "[", "]", "{", "}", "\\", "|", "+", "?", "^", "$", "\t", "😀"];

const pieces = (from: readonly string[], maxPieces: number) => fc.array(fc.constantFrom(...from), { maxLength: maxPieces });
const pattern = (from: readonly string[], maxPieces: number) => pieces(from, maxPieces).map((p) => p.join(""));

/** What a repeat operator can follow and still have nothing to repeat. */
const NOTHING_BEFORE = new Set(["(", "|", "^", "$", "\\(", "\\|", "\\`", "\\'", "\\b", "\\B", "\\<", "\\>"]);
const REPEAT = /^(\*|\+|\?|\{|\\\{|\\\+|\\\?)/;

/**
 * A repeat with nothing to repeat (`{1}x`, `a|*x`, `^*`, `\(\{1\}x\)`). GNU grep answers these
 * two ways for one pattern, by which of its engines takes it: its dfa repeats nothing (`{1}.`
 * matches every line) while glibc's regex, which it uses when the pattern has `\w`, `\S`, `\B`
 * or a back-reference, reads them literally (`{1}\w` matches only `{1}x`); a BRE `\{` there is
 * a literal `{` to grep and "Unmatched \{" to us. We follow the dfa; the comparison leaves them
 * out rather than pin either engine's accident.
 */
function repeatsNothing(p: readonly string[]): boolean {
  return p.some((piece, i) => REPEAT.test(piece) && (i === 0 || NOTHING_BEFORE.has(p[i - 1]!)));
}
const line = fc.array(fc.constantFrom(...LINE_CHARS), { maxLength: 10 }).map((c) => c.join(""));
const lines = fc.array(line, { minLength: 1, maxLength: 6 });

const POSIX_MODES: readonly { readonly name: string; readonly ere: boolean; readonly mode: PosixMode }[] = [
  { name: "grep -G", ere: false, mode: { sed: false } },
  { name: "grep -E", ere: true, mode: { sed: false } },
  { name: "sed", ere: false, mode: { sed: true } },
  { name: "sed -E, M flag", ere: true, mode: { sed: true, multiline: true } },
  { name: "find -regex (emacs)", ere: false, mode: { sed: false, emacs: true, glibc: true } },
  { name: "find -regextype posix-extended", ere: true, mode: { sed: false, glibc: true } },
];

/** What a translation gave: its source and counts, or its error's type and message. */
function outcome(translate: () => unknown): unknown {
  try {
    return { ok: translate() };
  } catch (error) {
    return { error: (error as Error).name, message: (error as Error).message };
  }
}

/** The lines of `text` the regex matches somewhere (each line alone, as grep reads them). */
function matchingLines(regex: RegExp, text: readonly string[]): number[] {
  return text.flatMap((l, i) => {
    regex.lastIndex = 0;
    return regex.test(l) ? [i + 1] : [];
  });
}

/** What the guard made of a regex: V8 kept, moved to the linear engine, or refused (with why). */
function guardDecision(regex: RegExp): string {
  const guarded = guardRegex(regex);
  if (!(guarded instanceof RegExp)) return `refused: ${guarded.refused}`;
  if (guarded instanceof LinearRegExp) return "linear";
  if (guarded instanceof CountedRegExp) return "counted";
  if (guarded instanceof LongLineRegExp) return "v8, long lines linear";
  return guarded === regex ? "v8" : "v8 (a copy)";
}

describe("regex translators, on random patterns", () => {
  it.each(POSIX_MODES)("$name: a translation compiles, or is refused as a PosixRegexError", ({ ere, mode }) => {
    fc.assert(
      fc.property(pattern(POSIX_PIECES, 7), (p) => {
        let source: string;
        try {
          source = translatePosix(p, ere, 0, mode).source;
        } catch (error) {
          expect(error).toBeInstanceOf(PosixRegexError);
          return;
        }
        expect(() => new RegExp(source, "gu")).not.toThrow();
        expect(() => new RegExp(source, "giu")).not.toThrow();
      }),
      propertyParams(400),
    );
  });

  it.each([false, true])("rg (pcre2 %s): a translation compiles, or is refused as a RustRegexError", (pcre) => {
    fc.assert(
      fc.property(pattern(RUST_PIECES, 6), fc.boolean(), (p, ignoreCase) => {
        let source: string;
        try {
          source = translateRust(p, { pcre }, ignoreCase).source;
        } catch (error) {
          expect(error).toBeInstanceOf(RustRegexError);
          return;
        }
        expect(() => new RegExp(source, "gu")).not.toThrow();
      }),
      propertyParams(400),
    );
  });

  it("compilePatterns gives a regex or the dialect's own error, for several patterns and every switch", () => {
    const dialects: Dialect[] = ["bre", "ere", "fixed", "rust", "pcre"];
    fc.assert(
      fc.property(
        fc.constantFrom(...dialects),
        fc.array(pattern([...POSIX_PIECES, ...RUST_PIECES], 5), { minLength: 0, maxLength: 3 }),
        fc.record({ ignoreCase: fc.boolean(), word: fc.boolean(), line: fc.boolean() }),
        (dialect, patterns, switches) => {
          const expected = dialect === "rust" || dialect === "pcre" ? RustRegexError : PosixRegexError;
          try {
            const { regex } = compilePatterns(patterns, { dialect, ...switches });
            expect(regex.flags).toBe(switches.ignoreCase ? "giu" : "gu");
          } catch (error) {
            expect(dialect).not.toBe("fixed");
            expect(error).toBeInstanceOf(expected);
          }
        },
      ),
      propertyParams(400),
    );
  });

  it("the same pattern always translates to the same source, groups and warnings (or the same error)", () => {
    fc.assert(
      fc.property(pattern(POSIX_PIECES, 7), pattern(RUST_PIECES, 6), fc.constantFrom(...POSIX_MODES), (posix, rust, { ere, mode }) => {
        const twice = <T>(f: () => T) => [outcome(f), outcome(f)];
        const [p1, p2] = twice(() => translatePosix(posix, ere, 2, mode));
        expect(p2).toEqual(p1);
        const [r1, r2] = twice(() => translateRust(rust, { pcre: true }, false, 1));
        expect(r2).toEqual(r1);
      }),
      propertyParams(300),
    );
  });

  it("the guard decides by the pattern alone: the same decision whatever came before, on any copy of the regex", () => {
    const sources = fc.array(
      fc.oneof(
        pattern(POSIX_PIECES, 7).map((p) => outcome(() => compilePatterns([p], { dialect: "ere", ignoreCase: false, word: false, line: false }).regex)),
        pattern(RUST_PIECES, 6).map((p) => outcome(() => compilePatterns([p], { dialect: "pcre", ignoreCase: true, word: true, line: false }).regex)),
      ),
      { minLength: 1, maxLength: 8 },
    );
    fc.assert(
      fc.property(sources, (results) => {
        const regexes = results.flatMap((r) => ("ok" in (r as object) ? [(r as { ok: RegExp }).ok] : []));
        const forward = regexes.map((re) => [isRisky(re.source), guardDecision(re)]);
        // In reverse order, on fresh copies (lastIndex and identity differ): the same decisions.
        const backward = [...regexes].reverse().map((re) => [isRisky(re.source), guardDecision(new RegExp(re.source, re.flags))]);
        expect(backward.reverse().map(([risky, d]) => [risky, d === "v8 (a copy)" ? "v8" : d])).toEqual(forward);
      }),
      propertyParams(200),
    );
  });

  it("the guard changes no answer: a pattern moved to the linear engine matches the same lines as on V8", () => {
    // Short lines, so V8's backtracking on a risky pattern stays small.
    fc.assert(
      fc.property(fc.constantFrom<Dialect>("bre", "ere", "rust", "pcre"), pattern([...POSIX_PIECES, ...RUST_PIECES], 6), fc.boolean(), lines, (dialect, p, ignoreCase, text) => {
        let regex: RegExp;
        try {
          regex = compilePatterns([p], { dialect, ignoreCase, word: false, line: false }).regex;
        } catch {
          return;
        }
        const guarded = guardRegex(regex);
        if (!(guarded instanceof RegExp)) return;
        expect(matchingLines(guarded, text)).toEqual(matchingLines(regex, text));
      }),
      propertyParams(300),
    );
  });

  it("a fixed string (grep -F) matches exactly where it occurs, whatever characters it holds", () => {
    const literal = fc.oneof(
      fc.array(fc.constantFrom(...LINE_CHARS, "a*", "(?:", "\\1", "[[:alpha:]]", "$^", "{2}", "\u00ad", "ǅ"), { maxLength: 6 }).map((c) => c.join("")),
      fc.string({ unit: "grapheme", maxLength: 6 }).filter((s) => !s.includes("\n")),
    );
    fc.assert(
      fc.property(literal, lines, (s, text) => {
        const exact = new RegExp(`^(?:${escapeLiteral(s)})$`, "u");
        expect(exact.test(s)).toBe(true);
        const { regex } = compilePatterns([s], { dialect: "fixed", ignoreCase: false, word: false, line: false });
        expect(matchingLines(regex, text)).toEqual(text.flatMap((l, i) => (l.includes(s) ? [i + 1] : [])));
        // Embedded in a line: the first match is the string itself, where indexOf finds it.
        const haystack = `x${s}y${s}`;
        regex.lastIndex = 0;
        const m = regex.exec(haystack);
        expect([m?.index, m?.[0]]).toEqual([haystack.indexOf(s), s]);
      }),
      propertyParams(400),
    );
  });
});

const scratch = mkdtempSync(join(tmpdir(), "svc-regex-properties-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** GNU grep on this machine: which lines of `text` match, or its error. */
function gnuGrep(flag: "-G" | "-E", p: string, text: readonly string[]): { lines: number[] } | { refused: true } {
  // From a file, not stdin: grep refusing a pattern exits without reading its input.
  const file = join(scratch, "lines");
  writeFileSync(file, `${text.join("\n")}\n`);
  const run = spawnSync("grep", [flag, "-n", "-e", p, file], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C.UTF-8" },
  });
  if (run.error !== undefined) throw new Error(`GNU grep is needed for this comparison and could not run: ${run.error.message}`);
  if (run.status === 2) return { refused: true };
  if (run.status !== 0 && run.status !== 1) throw new Error(`grep exited ${run.status}: ${run.stderr}`);
  return { lines: run.stdout.split("\n").filter((l) => l !== "").map((l) => Number(l.slice(0, l.indexOf(":")))) };
}

describe("translated BRE/ERE against GNU grep", () => {
  it("GNU grep is installed (the comparison below never skips)", () => {
    const version = spawnSync("grep", ["--version"], { encoding: "utf8" });
    expect(version.error).toBeUndefined();
    expect(version.stdout).toMatch(/^grep \(GNU grep\) \d/);
  });

  it.each([
    ["-G", "bre"],
    ["-E", "ere"],
  ] as const)("grep %s selects the same lines, and refuses the same patterns", (flag, dialect) => {
    // Refusals are compared, not their wording: grep's messages change between versions (3.8
    // says "Invalid regular expression" for a trailing `[`, later ones "Unmatched [ ..."), and
    // the wording is what the recorded cases (fidelity.test.ts) pin.
    fc.assert(
      fc.property(pieces(POSIX_PIECES, 6).filter((p) => !repeatsNothing(p)).map((p) => p.join("")), lines, (p, text) => {
        const real = gnuGrep(flag, p, text);
        let ours: { lines: number[] } | { refused: true };
        try {
          ours = { lines: matchingLines(compilePatterns([p], { dialect, ignoreCase: false, word: false, line: false }).regex, text) };
        } catch (error) {
          if (!(error instanceof PosixRegexError)) throw error;
          ours = { refused: true };
        }
        expect(ours).toEqual(real);
      }),
      propertyParams(300),
    );
  });
});

describe("what the fuzzing found, pinned", () => {
  // Each answer is ripgrep 13's and GNU grep 3.8's, run by hand.
  const rgReport = (p: string) => {
    try {
      compilePatterns([p], { dialect: "pcre", ignoreCase: false, word: false, line: false });
      return "compiled";
    } catch (error) {
      return formatRustError(p, error as RustRegexError);
    }
  };
  it("rg -P: a back-reference to a group the pattern does not have is PCRE2's error, at its byte offset", () => {
    expect(["\\1", "x(a)\\2", "é\\1", "\\1(a)", "(a)\\1"].map(rgReport)).toEqual([
      "PCRE2: error compiling pattern at offset 1: reference to non-existent subpattern\n",
      "PCRE2: error compiling pattern at offset 5: reference to non-existent subpattern\n",
      "PCRE2: error compiling pattern at offset 3: reference to non-existent subpattern\n",
      "compiled",
      "compiled",
    ]);
  });

  it("rg -P: a look-around's first character is translated like any other (it was copied as written)", () => {
    const pcre = (p: string) => compilePatterns([p], { dialect: "pcre", ignoreCase: false, word: false, line: false }).regex;
    // ripgrep searches a whole file at once: `$` must be a line end there, not only the text's end.
    expect([..."ab\na\n".matchAll(pcre("a(?!$)"))].map((m) => m.index)).toEqual([0]);
    expect([..."ab bb".matchAll(pcre("(?<=[a])b"))].map((m) => m.index)).toEqual([1]);
    expect([..."a٣ a3".matchAll(pcre("a(?=\\d)"))].map((m) => m.index)).toEqual([0, 3]);
  });

  it("rg: with Unicode off, what can match part of a UTF-8 character is refused, never answered differently", () => {
    const rust = (p: string) => {
      try {
        compilePatterns([p], { dialect: "rust", ignoreCase: false, word: false, line: false });
        return "compiled";
      } catch (error) {
        return (error as RustRegexError).message;
      }
    };
    const refused = "a class that can match part of a UTF-8 character (with Unicode off, `(?-u)`) is not supported by this docs shell";
    expect(["(?-u:.)", "(?-u:[^a])", "(?-u)\\W", "(?-u)[[:^alpha:]]", "(?-u:\\w)+", "[[:^alpha:]]"].map(rust)).toEqual([
      refused,
      refused,
      refused,
      refused,
      "compiled",
      "compiled",
    ]);
  });

  it("grep -G: a ^ after another anchor is a literal ^ (only the start of an expression anchors)", () => {
    const bre = (p: string) => compilePatterns([p], { dialect: "bre", ignoreCase: false, word: false, line: false }).regex;
    expect(matchingLines(bre("\\<^b"), ["^b", "a ^b", "b"])).toEqual([]);
    expect(matchingLines(bre("\\B^b"), ["^b", "a^b", "b"])).toEqual([1]);
    expect(matchingLines(bre("^^b"), ["^b", "a^b", "b"])).toEqual([1]);
    expect(matchingLines(bre("\\(^b\\)"), ["^b", "ab", "b"])).toEqual([3]);
  });
});
