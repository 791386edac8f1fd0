import { describe, expect, it } from "vitest";
import { RENDER_PRICES, renderWeight } from "../../src/engine/render/render-weight.js";

/**
 * What the render pool charges a caller for a page (adversary rounds 65 F3 and 67 F1): the
 * constructs that cost more than their characters are priced, so a flood of tables or headings
 * weighs as much as it costs, not as little as its text.
 */
const rep = (n: number, f: () => string, sep: string): string => Array.from({ length: n }, f).join(sep);

describe("renderWeight", () => {
  it("prices characters, non-blank lines, table cells and inline delimiters, and a page's fixed cost", () => {
    expect(RENDER_PRICES).toEqual({ page: 128, line: 100, pipe: 48, mark: 12 });
    expect(renderWeight([])).toBe(128);
    expect(renderWeight([""])).toBe(128);
    expect(renderWeight(["Hello world."])).toBe(128 + 12 + 100);
    // Blank lines and lines of spaces are free; a last line without a newline counts.
    expect(renderWeight(["a\n\n   \n\t\r\nb"])).toBe(128 + 11 + 200);
    expect(renderWeight(["| a | b |\n|---|---|\n| 1 | 2 |"])).toBe(128 + 29 + 300 + 9 * 48);
    expect(renderWeight(["`x` *y* _z_ [l](u) <C>{e}</C>"])).toBe(128 + 29 + 100 + 10 * 12);
    // An API page's descriptions are one job: one fixed cost.
    expect(renderWeight(["one", "two"])).toBe(128 + 3 + 100 + 3 + 100);
  });

  it("weighs the costly pages of adversary round 67 as the prose they cost as much as, not as their characters", () => {
    const table = ["|" + rep(60, () => "a", "|") + "|", "|" + "-|".repeat(60), ...Array.from({ length: 60 }, () => "|" + rep(60, () => "a", "|") + "|")].join("\n");
    const headings = rep(6400, () => "## a", "\n");
    const prose = rep(70, () => "Paragraph explains how to install the thing with npm and a link. More words here to fill a line of prose.", "\n\n");
    expect([table.length, headings.length, prose.length]).toEqual([7563, 31999, 7488]);
    // Rendered in one thread on a quiet machine: 233 ms, ~670 ms, ~10 ms.
    expect([renderWeight([table]), renderWeight([headings]), renderWeight([prose])]).toEqual([195_427, 672_127, 14_616]);
  });
});
