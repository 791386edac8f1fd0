import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { toPlainText } from "../../../src/engine/search/sections.js";
import { inlineSite } from "./inline-site.js";

/**
 * Pages that made the search's text extraction read the text once per mark (issue 25,
 * adversary finding 39): one such page stalled the whole index's build. Each is now read a
 * bounded number of times; the sizes are past what the code before finished within this suite's
 * ten-minute hang detector (it grew with the square of the size: 20,000 `[a](` took 2.4 s,
 * 20,000 `{` 1.1 s, 10,000 `<a {` 2.4 s), and the delimiter-row test never finished at 40 dashes.
 */
const SHAPES: Readonly<Record<string, string>> = {
  "unclosed links": "[a](".repeat(500_000),
  "unclosed braces": "{".repeat(1_000_000),
  "tags with unclosed braces": "<a {".repeat(500_000),
  "brackets before a reference": `${"[".repeat(1_000_000)}][`,
  // TeX math's dollars (`math-text.ts`): runs of three never open or close a formula, so each
  // `$$` inside them read 8,000 characters for its close (1.7 s per 200 KB before the scans
  // were bounded per text).
  "dollar runs that close no formula": "a$$$".repeat(500_000),
  "formulas of no TeX": "$$a".repeat(500_000),
};

describe("text extraction of hostile pages", () => {
  it("keeps unclosed links, braces and brackets as text", () => {
    for (const [shape, text] of Object.entries(SHAPES)) expect([shape, toPlainText(text) === text]).toEqual([shape, true]);
  });

  it("reads a line of dashes after a pipe as text, not a table's delimiter row", () => {
    expect(toPlainText(`|${"-".repeat(40)}x`)).toBe(`${"-".repeat(40)}x`);
    expect(toPlainText(`a |${" ".repeat(100_000)}| b`)).toBe("a b");
    // Delimiter rows still go.
    expect(["| --- | :-: |", "---|---", "|:--|--:|", "- | -"].map(toPlainText)).toEqual(["", "", "", ""]);
  });

  it("ends a code span at the next run of its own length, and keeps unclosed runs' words", () => {
    const runs = Array.from({ length: 2_000 }, (_, i) => `${"`".repeat(i + 1)} w${i} `).join("");
    expect(toPlainText(runs)).toBe(Array.from({ length: 2_000 }, (_, i) => `w${i}`).join(" "));
    // Runs that close nothing are the prose's backticks and go; a span hides what would be a tag
    // or an expression and keeps its text as written, a lone backtick in it too (CommonMark).
    expect(toPlainText("a ``b`{c}`` d ``` <e> ` f")).toBe("a b`{c} d f");
  });

  it("reads a heading with a long run of spaces once (the code before tried its end at every space: 40,000 took 6 s)", () => {
    const page = `# Spaced${" ".repeat(1_000_000)}out #\n\nText.`;
    const index = new SearchIndex();
    index.sync(inlineSite({ "/spaced.mdx": page }));
    const hits = index.search({ query: "text", canRead: () => true });
    expect(hits.map((h) => [h.page.path, h.section.heading])).toEqual([["/spaced", `Spaced out`]]);
  });

  it("indexes such a page beside the others", () => {
    const hostile = ["---", "title: Zephyrine notes", "---", "", "## Links", "", "[a](".repeat(50_000), "", "## Braces", "", "{".repeat(50_000), "", "## Pipes", "", `|${"-".repeat(40)}x`].join("\n");
    const index = new SearchIndex();
    index.sync(inlineSite({ "/hostile.mdx": hostile, "/guide.mdx": "---\ntitle: Guide\n---\n\nZephyrine is a word here too.\n" }));
    const hits = index.search({ query: "zephyrine", canRead: () => true });
    expect(hits.map((h) => h.page.path).sort()).toEqual(["/guide", "/hostile"]);
  });
});
