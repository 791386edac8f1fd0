import { describe, expect, it } from "vitest";
import { isRisky } from "./regex-guard.js";

describe("isRisky", () => {
  const cases: ReadonlyArray<[string, boolean]> = [
    ["webhook", false],
    ["\\p{L}+", false],
    ["spree[\\s]+\\w+", false],
    ["(foo|bar)+", false],
    ["a[^\\n]*b", false],
    ["(?:ab)?c", false],
    ["x{2,5}", false],
    ["(a+)+$", true],
    ["(?:\\w+\\s?)+$", true],
    ["(a*)*", true],
    ["(?<n>a+){2,}", true],
    ["[^\\n]*a[^\\n]*b", true],
    ["[^\\n]+x[^\\n]*", true],
  ];
  for (const [source, risky] of cases) {
    it(`${source} -> ${risky}`, () => {
      expect(isRisky(source)).toBe(risky);
    });
  }
});
