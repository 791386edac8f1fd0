import { describe, expect, it } from "vitest";
import { cutText } from "../../src/mcp/max-chars.js";

/** A maxChars cut never leaves half of a surrogate pair (an emoji), which JSON parsers refuse. */
describe("cutText", () => {
  it("cuts before a pair it would split, and anywhere else where asked", () => {
    const text = "ab😀cd";
    expect([0, 1, 2, 3, 4, 5, 6, 9].map((n) => cutText(text, n))).toEqual(["", "a", "ab", "ab", "ab😀", "ab😀c", "ab😀cd", "ab😀cd"]);
    expect(cutText("😀".repeat(100), 101)).toBe("😀".repeat(50));
  });
});
