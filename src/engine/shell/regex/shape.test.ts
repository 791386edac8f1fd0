import { describe, expect, it } from "vitest";
import { compilePatterns } from "./patterns.js";
import { isRisky } from "./shape.js";

describe("isRisky", () => {
  const cases: ReadonlyArray<[string, boolean]> = [
    ["webhook", false],
    ["\\p{L}+", false],
    ["spree[\\s]+\\w+", false],
    ["(foo|bar)+", false],
    ["a[^\\n]*b", false],
    ["(?:ab)?c", false],
    ["x{2,5}", false],
    ["(ab?)+c", false],
    ["\\w+\\s+\\w+", false],
    ["\\w+ \\w+", false],
    ["\\w+@\\w+\\.\\w+", false],
    ["#+ \\w+", false],
    ["[a-z]+[0-9]+", false],
    ["(\\s|,)+", false],
    ["(?:GET|POST) /v1", false],
    ["(a+)+$", true],
    ["(?:\\w+\\s?)+$", true],
    ["(a*)*", true],
    ["(?<n>a+){2,}", true],
    ["(a{1,5})+b", true],
    ["[^\\n]*a[^\\n]*b", true],
    ["[^\\n]+x[^\\n]*", true],
    // Overlapping alternation under a repeat: each repetition may take either branch.
    ["(\\w|\\w)+!", true],
    ["(a|a)*$", true],
    ["(a|ab)*c", true],
    ["(?:x|[a-z])+!", true],
    ["((a|a)b)*c", true],
    ["(a|)+b", true],
    // Two unbounded repeats that compete for the same characters: cubic on a long line.
    ["\\w*\\w*!", true],
    ["\\w+a\\w+!", true],
    [".*Signed.*access", true],
    // Counted repeats side by side try the product of their spans at each start (adversary round 29).
    ["a{0,190}a{0,190}b", true],
    ["\\w{0,300}\\w{0,300}\\w{0,300}b", true],
    ["\\w{0,5}\\w*X", true],
    ["a?a?a?a?a?a?a?a?a?a?b", true],
    ["a{0,30}a{0,30}b", false],
    ["\\w?\\s+\\w{1,3}", false],
    ["\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}", false],
    ["[0-9a-f]{7,40}", false],
  ];
  for (const [source, risky] of cases) {
    it(`${source} -> ${risky}`, () => {
      expect(isRisky(source)).toBe(risky);
    });
  }

  it("sees the shapes through our translations (GNU ERE and BRE, ripgrep's Rust syntax, -w, -x)", () => {
    const risky = (p: string, dialect: "ere" | "bre" | "rust", word = false, line = false) =>
      isRisky(compilePatterns([p], { dialect, ignoreCase: false, word, line }).regex.source);
    expect(risky("(\\w|\\w)+!", "rust")).toBe(true);
    expect(risky("(a|a)*$", "ere", true)).toBe(true);
    expect(risky("\\(a\\|ab\\)*c", "bre", false, true)).toBe(true);
    expect(risky("webhooks?", "rust", true, true)).toBe(false);
    expect(risky("(get|post)Item", "ere", true)).toBe(false);
    expect(risky("\\bsigned\\b", "rust")).toBe(false);
    // ripgrep's Unicode \w (letters, marks, digits, connectors, joiners) holds no "@" (issue 25).
    expect(risky("\\w+@\\w+", "rust")).toBe(false);
    expect(risky("\\w+\\w+@", "rust")).toBe(true);
  });
});
