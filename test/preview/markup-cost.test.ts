import { describe, expect, it } from "vitest";
import { costlyMarkup } from "../../src/config/markup-cost.js";
import { SearchIndex } from "../../src/engine/search/search-index.js";
import { renderFindings } from "../../src/engine/render/component-findings.js";
import { renderMdx } from "../../src/engine/render/render-mdx.js";
import { inlineSite } from "../tools/search/inline-site.js";

/**
 * Shapes the MDX parser is slow on without any nesting (issue 25, adversary finding 39), each
 * just past the preview's limit; at the adversary's sizes they took seconds (runs of every
 * length, 1.1 MB: no answer in 8 s; 30,000 `[a](`: 7.4 s; a 300 x 300 table: 7.7 s; `*_`
 * 3,000 deep: 2.3 s) while every other page waited. The limits are counted from the text.
 */
const table = (n: number): string => {
  const row = (c: string): string => `|${Array.from({ length: n }, () => ` ${c} `).join("|")}|`;
  return [row("h"), `|${Array.from({ length: n }, () => "---").join("|")}|`, ...Array.from({ length: n }, () => row("x"))].join("\n");
};
const SHAPES: Readonly<Record<string, string>> = {
  "backtick runs of every length": Array.from({ length: 250 }, (_, i) => `${"`".repeat(i + 1)} a `).join(""),
  "unclosed links": "[a](".repeat(501),
  "a 100 x 100 table": table(100),
  "alternating emphasis": `${"*_".repeat(251)}x${"_*".repeat(251)}`,
};

describe("costlyMarkup: inline markup the parser reads far slower than its length", () => {
  it("finds each shape past the limit, at the paragraph where the limit is passed", () => {
    expect(Object.entries(SHAPES).map(([shape, text]) => [shape, costlyMarkup(`# Title\n\nIntro.\n\n${text}`)])).toEqual([
      ["backtick runs of every length", { what: "unclosed code spans would have the parser re-read 5,333,750 characters, more than the preview allows (2,000,000)", line: 5 }],
      ["unclosed links", { what: "emphasis and link marks would take the parser 1,004,004 steps to pair, more than the preview allows (1,000,000)", line: 5 }],
      ["a 100 x 100 table", { what: "tables hold 10,404 cells, more than the preview reads (10,000)", line: 5 }],
      ["alternating emphasis", { what: "emphasis and link marks would take the parser 1,008,016 steps to pair, more than the preview allows (1,000,000)", line: 5 }],
    ]);
  });

  it("lets through what real pages write, and each shape at the limit", () => {
    const page = [
      "Use `a`, ``b ` c``, and `` ` `` in text; a stray ` backtick.",
      "A **bold** word, _emphasis_, [a link](/x), snake_case_name and ![img](/i.png).",
      table(20),
    ].join("\n\n");
    expect(costlyMarkup(page)).toBeUndefined();
    const atLimit = [Array.from({ length: 175 }, (_, i) => `${"`".repeat(i + 1)} a `).join(""), "[a](".repeat(500), table(97), `${"*_".repeat(250)}x${"_*".repeat(250)}`];
    expect(atLimit.map((t) => costlyMarkup(t))).toEqual([undefined, undefined, undefined, undefined]);
    // Fenced code is what the parser finds as code (finding 41: a line a scan took for a fence
    // hid what followed), so a fence holding the shape is not counted (`markup-cost-code.test.ts`).
    expect(costlyMarkup(`${"`".repeat(3)}\n${"[a](".repeat(5_000)}\n${"`".repeat(3)}`)).toBeUndefined();
    const json = Array.from({ length: 100 }, (_, i) => `  { "id": ${i}, "tags": ["a", "b"], "args": [*a, **kw] },`).join("\n");
    expect(costlyMarkup(`\`\`\`json\n[\n${json}\n]\n\`\`\``)).toBeUndefined();
  });

  it("shows such a page as its text with the reason, and check warns at its line", () => {
    const text = SHAPES["unclosed links"] as string;
    const rendered = renderMdx(`# Title\n\n${text}`, { filePath: "/guides/links.mdx" });
    expect(rendered).toEqual({
      html: `<p># Title</p>\n<p>${text}</p>`,
      toc: [],
      unknown: [],
      problem: { message: "its emphasis and link marks would take the parser 1,004,004 steps to pair, more than the preview allows (1,000,000)", line: 3, asText: true },
    });
    expect(renderFindings("guides/table.mdx", `Intro\n\n${SHAPES["a 100 x 100 table"] as string}`, 4, () => false)).toEqual([
      { severity: "warning", file: "guides/table.mdx", line: 6, code: "markup-too-costly", message: "the page's tables hold 10,404 cells, more than the preview reads (10,000): the preview shows it as plain text" },
    ]);
  });

  it("leaves such a page in the search index", () => {
    const pages = Object.fromEntries(Object.values(SHAPES).map((text, i) => [`/shape-${i}.mdx`, `---\ntitle: Shape ${i}\n---\n\nZephyrine.\n\n${text}\n`]));
    const index = new SearchIndex();
    index.sync(inlineSite(pages));
    const hits = index.search({ query: "zephyrine", canRead: () => true });
    expect(hits.map((h) => h.page.path).sort()).toEqual(["/shape-0", "/shape-1", "/shape-2", "/shape-3"]);
  });
});
