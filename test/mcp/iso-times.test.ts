import { describe, expect, it } from "vitest";
import { isoTime } from "../../src/mcp/iso-times.js";

/** Issue 23: a result's `lastModified` formatted once per time value, the same text as `toISOString`. */
describe("isoTime", () => {
  it("gives toISOString's text, kept or not, and throws as it does for an invalid date", () => {
    const times = [0, 1_732_000_000_123, -62_198_755_200_000, 8.64e15, 1_732_000_000_123];
    for (const t of times) expect(isoTime(new Date(t))).toBe(new Date(t).toISOString());
    // More distinct times than are kept: every one still its own text.
    for (let t = 0; t < 20_000; t++) expect(isoTime(new Date(t * 1000))).toBe(new Date(t * 1000).toISOString());
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
