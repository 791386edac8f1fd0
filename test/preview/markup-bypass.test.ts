import fc from "fast-check";
import type { Root } from "mdast";
import remarkGfm from "remark-gfm";
import remarkMdx from "remark-mdx";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { describe, expect, it } from "vitest";
import { fencedLines } from "../../src/config/markup-lines.js";
import { renderFindings } from "../../src/engine/render/component-findings.js";
import { renderMdx } from "../../src/engine/render/render-mdx.js";
import { propertyParams } from "../helpers/property.js";

/**
 * Adversary finding 41 (issue 25, fifth round): text the markup scans skipped but the parser
 * parsed. A line ```` ```x` ```` (a backtick in a backtick fence's info string) opens no fence,
 * and a line of no-break spaces is no blank line, yet the scans took them for both; 20,000
 * `[a](` after them took 8-18 s to render. Here each bypass just past the limit is shown as its
 * text with the reason, and `check` warns at its line.
 */
const FAKE = "```x`";
const NBSP = "\u00a0";
const BYPASSES: Readonly<Record<string, string>> = {
  "links after a fake fence": `Intro.\n\n${FAKE}\n${"[a](".repeat(501)}`,
  "links between no-break space lines": `Intro.\n\n${Array.from({ length: 501 }, () => "[a](").join(`\n${NBSP}\n`)}`,
  "a deep list after a fake fence": `Intro.\n\n${FAKE}\n\n${"* ".repeat(101)}x`,
  "deep emphasis after a fake fence": `Intro.\n\n${FAKE}\n${"*a ".repeat(101)}x${" a*".repeat(101)}`,
  "block quotes after a fake fence": `Intro.\n\n${FAKE}\n${"> ".repeat(101)}deep`,
};

describe("markup scans read fences and blank lines as the parser does", () => {
  it("shows each bypass page as its text with the reason", () => {
    const problems = Object.entries(BYPASSES).map(([shape, text]) => {
      const rendered = renderMdx(text, { filePath: "/guides/x.mdx" });
      expect(rendered.html.startsWith("<p>Intro.</p>\n<p>")).toBe(true);
      return [shape, rendered.problem];
    });
    expect(problems).toEqual([
      ["links after a fake fence", { message: "its emphasis and link marks would take the parser 1,004,004 steps to pair, more than the preview allows (1,000,000)", line: 3, asText: true }],
      ["links between no-break space lines", { message: "its emphasis and link marks would take the parser 1,004,004 steps to pair, more than the preview allows (1,000,000)", line: 3, asText: true }],
      ["a deep list after a fake fence", { message: "its lists nest more than 100 levels deep, the most the preview reads", line: 5, asText: true }],
      ["deep emphasis after a fake fence", { message: "its emphasis nest more than 100 levels deep, the most the preview reads", line: 4, asText: true }],
      ["block quotes after a fake fence", { message: "its block quotes nest more than 100 levels deep, the most the preview reads", line: 4, asText: true }],
    ]);
  });

  it("check warns at the line in the file", () => {
    const findings = Object.values(BYPASSES).flatMap((text) => renderFindings("guides/x.mdx", text, 5, () => false));
    expect(findings).toEqual([
      { severity: "warning", file: "guides/x.mdx", line: 7, code: "markup-too-costly", message: "the page's emphasis and link marks would take the parser 1,004,004 steps to pair, more than the preview allows (1,000,000): the preview shows it as plain text" },
      { severity: "warning", file: "guides/x.mdx", line: 7, code: "markup-too-costly", message: "the page's emphasis and link marks would take the parser 1,004,004 steps to pair, more than the preview allows (1,000,000): the preview shows it as plain text" },
      { severity: "warning", file: "guides/x.mdx", line: 9, code: "markup-too-deep", message: "the page's lists nest more than 100 levels deep: the preview shows it as plain text" },
      { severity: "warning", file: "guides/x.mdx", line: 8, code: "markup-too-deep", message: "the page's emphasis nest more than 100 levels deep: the preview shows it as plain text" },
      { severity: "warning", file: "guides/x.mdx", line: 8, code: "markup-too-deep", message: "the page's block quotes nest more than 100 levels deep: the preview shows it as plain text" },
    ]);
  });
});

/** Pages the scans flagged though the parser reads them in linear time: it pairs marks per list item and per table cell. */
describe("markup scans count per list item and table cell, as the parser pairs", () => {
  const list = Array.from({ length: 600 }, (_, i) => `- [Integration ${i}](/integrations/integration-${i})`).join("\n");
  const table = ["| Field | Type | Description |", "| --- | --- | --- |", ...Array.from({ length: 300 }, (_, i) => `| \`user_field_${i}\` | [string](/types/string) | The *field* [${i}](/f/${i}). |`)].join("\n");
  const nested = Array.from({ length: 300 }, (_, i) => `1. [Step ${i}](/s/${i})\n   - [Detail](/d/${i}) and *more*`).join("\n");

  it("renders a long list of links, a long table and a nested numbered list as Markdown, and check says nothing", () => {
    for (const page of [list, table, nested]) {
      expect(renderMdx(`# Title\n\n${page}`, { filePath: "/guides/x.mdx" }).problem).toBeUndefined();
      expect(renderFindings("guides/x.mdx", `# Title\n\n${page}`, 1, () => false)).toEqual([]);
    }
    expect(renderMdx(`Intro.\n\n${list}`, { filePath: "/x.mdx" }).html).toContain('<li><a href="/integrations/integration-599">Integration 599</a></li>');
  });

  it("still counts lines the parser joins into one paragraph: items that cannot start a list there", () => {
    // `2.` cannot start a list inside a paragraph, and a marker indented 4 past the open item's
    // content continues its paragraph (CommonMark): 501 marks in one paragraph each time.
    for (const page of [`- x\n${Array.from({ length: 501 }, () => "2. [a](").join("\n")}`, `- x\n${Array.from({ length: 501 }, () => "      - [a](").join("\n")}`]) {
      expect(renderFindings("x.mdx", page, 1, () => false).map((f) => f.code)).toEqual(["markup-too-costly"]);
    }
  });
});

/** The lines a parse holds in fenced or indented code. */
function codeLines(tree: Root): Set<number> {
  const lines = new Set<number>();
  const visit = (node: { type: string; position?: { start: { line: number }; end: { line: number } }; children?: unknown[] }): void => {
    if (node.type === "code" && node.position !== undefined) for (let l = node.position.start.line; l <= node.position.end.line; l++) lines.add(l);
    for (const child of node.children ?? []) visit(child as never);
  };
  visit(tree as never);
  return lines;
}

const MARKDOWN = unified().use(remarkParse).use(remarkGfm).freeze();
const MDX = unified().use(remarkParse).use(remarkMdx).use(remarkGfm).freeze();

describe("fencedLines never takes for code a line the parser parses as markup", () => {
  it("holds for pages of fence-like lines in quotes, lists and paragraphs (both readings: MDX, and Markdown when MDX refuses)", () => {
    // With list items continued by indentation, items that cannot interrupt a paragraph (`2.`,
    // an empty `-`), setext underlines, tables and tabs (finding 41's open part: other seeds found
    // `- item` / `  ```` ` / `* * *`, where the item, and the code in it, ends at `* * *`).
    const line = fc.constantFrom(
      ...["```", "```js", FAKE, "~~~", "````", "~~~~ a`b", "> ```", "> text", ">", "- ```", "- item", "1. ```", "  ```", "    ```", "   ```", NBSP, "", "text [a](", "  text", "    text", "<div>", "</div>", "`", "  - ```", "> - ```", "* * *"],
      ...["2. ```", "-", "2. x", "     ```", "  > ```", ">   ```", "\t```", "- \t```", "===", "1.", "  - item", "    - ```", "# h", "| a |", "| - |"],
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        const text = lines.join("\n");
        const code = fencedLines(lines);
        const readings = [MARKDOWN.parse(text)];
        try {
          readings.push(MDX.parse(text));
        } catch {
          // MDX refuses the page: it is read as Markdown only.
        }
        for (const tree of readings) {
          const parsed = codeLines(tree);
          const wrong = code.flatMap((c, i) => (c && !parsed.has(i + 1) ? [i + 1] : []));
          expect({ text, wrong }).toEqual({ text, wrong: [] });
        }
      }),
      propertyParams(500),
    );
  });
});

/** Finding 41's open part: the depth scan read a fence in a list item continued by indentation as if at the top level. */
describe("fences in list items continued by indentation end with the item, as CommonMark reads them", () => {
  it("takes no line for code after the item ends", () => {
    const cases = [
      "- item\n  ```\n* * *",
      "- item\n  ```\ntext",
      "- a\n\n  ```\ntext",
      "> - a\n>   ```\n> * * *",
      "1. step\n\n   ```js\n   code\n   ```\n2. next\n   ```\nafter",
      "- item\n```x`\n   ```\n* * *",
      "text\n-\n-\n   ```\n- item\n  text",
      // Indented code on the line that ends a block quote lets a list item start after it (seeds 67 and 166).
      "> ```\n    text\n2. x\n   ```\n`",
      "> ```\n\ttext\n-\n   ```\n`",
    ];
    expect(cases.map((text) => fencedLines(text.split("\n")).flatMap((code, i) => (code ? [i + 1] : [])))).toEqual([[2], [2], [3], [2], [3, 4, 5, 7], [3], [4], [1, 4], [1, 4]]);
  });

  it("counts the emphasis after such an item's code: the page is shown as text", () => {
    const page = `- item\n  \`\`\`\n${"*a ".repeat(101)}x${" a*".repeat(101)}`;
    expect(renderMdx(page, { filePath: "/x.mdx" }).problem).toEqual({ message: "its emphasis nest more than 100 levels deep, the most the preview reads", line: 3, asText: true });
  });
});
