import fc from "fast-check";
import type { Root } from "mdast";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import remarkMdx from "remark-mdx";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { describe, expect, it } from "vitest";
import { rawBlockLines } from "../../src/config/code-block-lines.js";
import { costlyMarkup } from "../../src/config/markup-cost.js";
import { renderFindings } from "../../src/engine/render/component-findings.js";
import { renderMarkdown, renderMdx } from "../../src/engine/render/render-mdx.js";
import { propertyParams } from "../helpers/property.js";

/**
 * A real page (a Grafana dashboard's JSON in one fenced block inside an `<Accordion>`, 80 KB:
 * 1,149,244 pairing steps counted in its code) was shown as plain text: `costlyMarkup` counted
 * fenced code as text. A page past a limit now has its code blocks found by the parser itself
 * and is counted again without them; what the parser reads as text is still counted.
 */
const LINKS = "[a](".repeat(501);
const PAIRING = "emphasis and link marks would take the parser 1,004,004 steps to pair, more than the preview allows (1,000,000)";

const panel = (i: number): string[] => [
  "    {",
  `      "id": ${i}, "type": "time_series", "grid_pos": { "h": 8, "w": 12, "x": 0, "y": ${i * 8} },`,
  `      "targets": [{ "expr": "sum(rate(gen_ai_requests_total{service_name=~\\"$service\\"}[5m]))", "legend_format": "{{gen_ai_system}}", "ref_id": "A" }],`,
  `      "field_config": { "defaults": { "unit": "short", "thresholds": { "steps": [{ "color": "green", "value": null }] } }, "overrides": [] }`,
  `    }${i === 149 ? "" : ","}`,
];
const JSON_LINES = ["{", '  "__inputs": [], "__requires": [],', '  "panels": [', ...Array.from({ length: 150 }, (_, i) => panel(i)).flat(), "  ]", "}"];
const DASHBOARD = [
  "### 3. Import the pre-built Dashboard",
  "",
  "1. Open Grafana:",
  "   - Click **Dashboards** in the primary menu",
  "   - Click **New** and select **Import** in the drop-down menu",
  "",
  '<Accordion title="Dashboard">',
  "```json",
  ...JSON_LINES,
  "```",
  "</Accordion>",
  "",
  "Your [applications](/apps) appear in the dashboard.",
].join("\n");

describe("costlyMarkup: code blocks as the parser finds them", () => {
  it("renders a page holding a long JSON code block as a page, and check says nothing", () => {
    const rendered = renderMdx(DASHBOARD, { filePath: "/snippets/conclusion.mdx" });
    expect(rendered.problem).toBeUndefined();
    expect(rendered.unknown).toEqual([]);
    const [head, body] = rendered.html.split('<figure class="code-block" data-lang="json">');
    expect(head).toBe(
      [
        '<h3 id="import-the-pre-built-dashboard">3. Import the pre-built Dashboard<a class="heading-anchor" href="#import-the-pre-built-dashboard" aria-hidden="true" tabindex="-1">#</a></h3>',
        "<ol>\n<li>Open Grafana:\n<ul>\n<li>Click <strong>Dashboards</strong> in the primary menu</li>\n<li>Click <strong>New</strong> and select <strong>Import</strong> in the drop-down menu</li>\n</ul>\n</li>\n</ol>",
        '<details class="accordion" data-component="Accordion"><summary>Dashboard</summary><div class="accordion-body">',
      ].join("\n"),
    );
    // The code block's text is the JSON's, every line of it.
    expect((body as string).replace(/<[^>]*>/g, "").replaceAll("&#x22;", '"')).toBe(`${JSON_LINES.join("\n")}\nYour applications appear in the dashboard.`);
    expect(body?.endsWith('</code></pre></figure></div></details>\n<p>Your <a href="/apps">applications</a> appear in the dashboard.</p>')).toBe(true);
    expect(costlyMarkup(DASHBOARD)).toBeUndefined();
    expect(renderFindings("snippets/conclusion.mdx", DASHBOARD, 1, () => false)).toEqual([]);
  });

  it("still counts what the parser reads as text, however it is written next to a fence", () => {
    const pages: Readonly<Record<string, string>> = {
      // A fence line inside a multi-line expression's string: the expression holds it.
      "a fence in an expression": `{"}\\\n\`\`\`\\\n"}\n${LINKS}`,
      "a fence in a JSX attribute": `<A b="\n\`\`\`\n" />\n\n${LINKS}`,
      "a fence in a block quote, then a line out of it": `> \`\`\`\n${LINKS}`,
      "a fence whose info string holds a backtick": `\`\`\`x\`\n${LINKS}\n\`\`\``,
      "a fence in an unclosed tag (not valid MDX)": `<A>\n\`\`\`\n${LINKS}\n\`\`\``,
    };
    const lines = [1, 5, 2, 1, 1];
    expect(Object.entries(pages).map(([shape, text]) => [shape, costlyMarkup(text)])).toEqual(Object.keys(pages).map((shape, i) => [shape, { what: PAIRING, line: lines[i] }]));
    expect(renderMarkdown(`<div title="\n\`\`\`\n">\n\n${LINKS}\n\n</div>`)).toBe(
      `<p class="markup-notice">Shown as plain text: its ${PAIRING}.</p>\n<p>&#x3C;div title="\n\`\`\`\n"></p>\n<p>${LINKS}</p>\n<p>&#x3C;/div></p>`,
    );
  });

  it("reads a fence as the parser the text goes to does: MDX, or Markdown when MDX refuses the page", () => {
    // MDX reads an indented fence after a paragraph as code (it has no indented code); Markdown
    // reads the lines as the paragraph's, and an unclosed fence as code to the end.
    const indented = `Intro.\n    \`\`\`\n${LINKS}\n    \`\`\``;
    expect([costlyMarkup(indented), costlyMarkup(indented, "markdown")]).toEqual([undefined, { what: PAIRING, line: 1 }]);
    expect(renderMdx(indented, { filePath: "/x.mdx" })).toEqual({ html: `<p>Intro.</p>\n<figure class="code-block"><pre><code class="hljs">${LINKS}</code></pre></figure>`, toc: [], unknown: [] });
    expect(costlyMarkup(`\`\`\`\n${LINKS}`, "markdown")).toBeUndefined();
    // A page whose blocks would be slow to parse (more than 3,000 pipes; more than 625 items
    // nested 3 deep) is counted with its code.
    expect([costlyMarkup(`\`\`\`\n${LINKS}\n\`\`\`\n\n${"- - - x\n".repeat(625)}`), costlyMarkup(`\`\`\`\n${LINKS}\n\`\`\`\n\n${"- - - x\n".repeat(626)}`)]).toEqual([undefined, { what: PAIRING, line: 1 }]);
    expect([costlyMarkup(`\`\`\`\n${LINKS}\n\`\`\`\n\n${"| a |\n".repeat(1_500)}`), costlyMarkup(`\`\`\`\n${LINKS}\n\`\`\`\n\n${"| a |\n".repeat(1_501)}`)]).toEqual([undefined, { what: PAIRING, line: 1 }]);
    // MDX refuses the page (a tag closed outside its emphasis), but not its blocks: it is read
    // as Markdown, whose paragraph holds the links, and is shown as text.
    const refused = `a *<b>*</b>\n    \`\`\`\n${LINKS}\n    \`\`\``;
    expect(costlyMarkup(refused)).toBeUndefined();
    expect(renderMdx(refused, { filePath: "/x.mdx" })).toEqual({
      html: `<p>a *&#x3C;b>*&#x3C;/b>\n\`\`\`\n${LINKS}\n\`\`\`</p>`,
      toc: [],
      unknown: [],
      problem: { message: "its emphasis and link marks would take the parser 1,008,016 steps to pair, more than the preview allows (1,000,000)", line: 1, asText: true },
    });
  });
});

const FULL = {
  mdx: unified().use(remarkParse).use(remarkMdx).use(remarkGfm).use(remarkMath).freeze(),
  markdown: unified().use(remarkParse).use(remarkGfm).freeze(),
} as const;

/** The lines a full parse holds in code, math and raw HTML blocks; `undefined` when it refuses the text. */
function fullRawLines(text: string, reading: "mdx" | "markdown"): Set<number> | undefined {
  let tree: Root;
  try {
    tree = FULL[reading].parse(text);
  } catch {
    return undefined;
  }
  const lines = new Set<number>();
  const visit = (node: { type: string; position?: { start: { line: number }; end: { line: number } }; children?: unknown[] }): void => {
    if (["code", "math", "html"].includes(node.type) && node.position !== undefined && node.type !== "paragraph") {
      for (let l = node.position.start.line; l <= node.position.end.line; l++) lines.add(l);
    } else if (node.type !== "paragraph" && node.type !== "heading" && node.type !== "tableCell") for (const child of node.children ?? []) visit(child as never);
  };
  visit(tree as never);
  return lines;
}

describe("rawBlockLines finds the blocks the full parse finds", () => {
  it("holds for pages of fence-like lines, expressions, tags, quotes, lists and math", () => {
    const line = fc.constantFrom(
      ...["```", "```js", "```x`", "~~~", "````", "> ```", "> text", "- ```", "1. ```", "  ```", "    ```", "", "text [a](", "*a* `b` [c](d)", "<div>", "</div>", "<A>", "</A>"],
      ...['<A b="', '" />', '{"}\\', '```\\', '"}', "a {x}", "{", "}", "$$", "$$ x", "| a |", "| - |", "`", "a `{` b", "a <b>*</b>*", "    text", "* * *"],
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        const text = lines.join("\n");
        for (const reading of ["mdx", "markdown"] as const) {
          const full = fullRawLines(text, reading);
          if (full === undefined) continue;
          const flow = rawBlockLines(text, reading);
          expect({ text, reading, lines: flow === undefined ? undefined : [...flow].sort((a, b) => a - b) }).toEqual({ text, reading, lines: [...full].sort((a, b) => a - b) });
        }
      }),
      propertyParams(300),
    );
  });
});
