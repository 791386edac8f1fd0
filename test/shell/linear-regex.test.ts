import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileFindRegex } from "../../src/engine/shell/commands/find/arguments.js";
import { compileSedRegex } from "../../src/engine/shell/commands/sed/script.js";
import { LinearRegExp, linearRegExp } from "../../src/engine/shell/regex/linear.js";
import { compilePatterns, type Dialect } from "../../src/engine/shell/regex/patterns.js";
import { guardRegex } from "../../src/engine/shell/regex/guard.js";
import { fixture } from "../helpers/paths.js";

/**
 * The linear-time engine answers exactly as V8 does (issue 25, item 7: the regex guard decides by
 * the pattern, and a pattern it moves to RE2 must not change an answer). Every pattern here has
 * a shape that can backtrack badly, but not on these texts (real pages, lines of docs length), so
 * V8 finishes and the two are compared match for match: offsets, groups, named groups, and the
 * result of `replace`.
 */

function pages(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(mdx?|json|ya?ml)$/.test(entry.name)) out.push(readFileSync(join(entry.parentPath, entry.name), "utf8"));
  }
  return out;
}

const TEXTS = [
  ...pages(fixture("demo")),
  ...pages(fixture("leak-site")),
  // Edges: astral characters and combining marks, empty lines, CRLF, a line without a newline, case pairs ſ/S, K/k.
  "😀 emoji😀 mail: ann@example.com\n\nCRLF line\r\nſtraße Kelvin K, ǅ\u0301 é\u0065\u0301 end",
];

const matches = (re: RegExp, text: string) => [...text.matchAll(new RegExp(re, re.flags.includes("g") ? re.flags : `${re.flags}g`))].map((m) => [m.index, [...m], m.groups]);
const linearMatches = (re: LinearRegExp, text: string) => [...text.matchAll(re.withFlags(re.flags.includes("g") ? re.flags : `${re.flags}g`))].map((m) => [m.index, [...m], m.groups]);

describe("LinearRegExp against V8", () => {
  const cases: [string, Dialect, boolean][] = [
    [".*Signed.*access", "rust", false],
    ["(\\w+\\s)+\\w+\\.", "rust", false],
    ["(a|ab)*c", "ere", false],
    ["(?P<key>\\w+)\\s*:\\s*(?P<value>.*)\\s.*", "rust", false],
    ["import.*from.*", "rust", true],
    ["\\w*\\w*e", "rust", true],
    ["(\\s|,)+.*,", "ere", false],
    ["[[:alpha:]]+.*[[:digit:]]+.*", "ere", true],
    ["\\(/[a-z]*\\)*\\.md", "bre", false],
    ["^.*e{2}.*$", "ere", false],
    ["(ab|a)+!", "rust", true],
    ["\\p{Greek}*.*\\d", "rust", false],
    ["(h|ht)+tps?:", "ere", true],
    ["[^\\s]*\\S*k", "rust", true],
  ];
  for (const [pattern, dialect, ignoreCase] of cases) {
    for (const line of [false, true]) {
      it(`${dialect} ${JSON.stringify(pattern)}${ignoreCase ? " -i" : ""}${line ? " -x" : ""}`, () => {
        const v8 = compilePatterns([pattern], { dialect, ignoreCase, word: false, line }).regex;
        const guarded = guardRegex(v8);
        expect(guarded).toBeInstanceOf(LinearRegExp);
        const linear = guarded as LinearRegExp;
        for (const text of TEXTS) {
          expect(linearMatches(linear, text)).toEqual(matches(v8, text));
          expect(text.replace(linear.withFlags(`${linear.flags.replace("g", "")}g`), "<$&|$1>")).toBe(text.replace(new RegExp(v8.source, `${v8.flags.replace("g", "")}g`), "<$&|$1>"));
        }
      });
    }
  }

  it("find -regex and sed patterns too", () => {
    const paths = ["/index.mdx", "/guides/webhooks.mdx", "/api/openapi.yaml", "/a/b/c/d/e/f.md", "/ñandú/éé.mdx"];
    for (const [source, syntax] of [["\\(.*\\)*\\.mdx", "emacs"], [".*e\\{2\\}.*", "posix-basic"], ["(/[a-z]*)*\\.md", "ere"]] as const) {
      const kind = syntax === "posix-basic" ? "bre" : syntax;
      const linear = compileFindRegex(source, kind, false);
      expect(linear).toBeInstanceOf(LinearRegExp);
      const v8 = new RegExp(linear.source, linear.flags);
      expect(paths.filter((p) => linear.test(p))).toEqual(paths.filter((p) => v8.test(p)));
    }
    const sed = compileSedRegex("\\(a\\|ab\\)*c", false, true, false, 0);
    expect(sed).toBeInstanceOf(LinearRegExp);
    for (const text of TEXTS) for (const l of text.split("\n")) expect(sed.exec(l)?.[0]).toBe(new RegExp(sed.source, sed.flags).exec(l)?.[0]);
    // sed's `.` is a class holding \S, which RE2 gets as ranges: `.*a.*b` was refused (adversary round 29 F5).
    for (const [source, ere] of [[".*a.*b", false], ["(a|b)*.*", true], ["[^X]*.*b", false]] as const) {
      const risky = compileSedRegex(source, ere, false, false, 0);
      expect(risky).toBeInstanceOf(LinearRegExp);
      for (const text of [...TEXTS, "aXbXc", "a\u3000b\u00a0c\u2028d\ufeffe"]) for (const l of text.split("\n")) expect(risky.exec(l)?.[0]).toBe(new RegExp(risky.source, risky.flags).exec(l)?.[0]);
    }
  });

  it("says what RE2 cannot run: backreferences, look-arounds, repeats over 1,000", () => {
    expect(linearRegExp(/(a+)+\1/u)).toEqual({ construct: "a backreference" });
    expect(linearRegExp(/(?<!x)(a|a)+/u)).toEqual({ construct: "a look-around (as -w, \\b on non-ASCII words, or class set operations write)" });
    expect(linearRegExp(/(a+){1,2000}/u)).toEqual({ construct: "invalid repeat count: `{1,2000}`" });
  });
});
