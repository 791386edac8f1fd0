import { describe, expect, it } from "vitest";
import { makeSnippet, snippetSource } from "../../../src/engine/search/snippet.js";
import { splitSections, toPlainText } from "../../../src/engine/search/sections.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { Analyzer } from "../../../src/engine/search/terms.js";
import { Vocabulary } from "../../../src/engine/search/vocabulary.js";
import { inlineSite } from "./inline-site.js";

/**
 * Component markup never reaches snippets or the index as words (issue 24, item 1), however a
 * tag is written: one attribute a line (the usual Mintlify style, closed by a lone `>` that a
 * line-level Markdown pass would read as a block quote), self-closing, nested, with expressions
 * in braces. The text of attributes a reader sees on the rendered page is kept: a card's or a
 * step's `title`, a tab's label, an image's `alt`; `icon`, `href`, `cols`, `color` and the like
 * are not text.
 */
const CARDS = [
  "Start here.",
  "",
  "<CardGroup cols={2}>",
  "  <Card",
  '    title="Run your first agent"',
  '    icon="plus"',
  '    href="/zebra"',
  "  >",
  "    Create and run an agent in minutes.",
  "  </Card>",
  "  <Card",
  '    title="Deploy"',
  '    icon="rocket"',
  "    href={`/deploy/${version}`}",
  "    arrow={true}",
  "  />",
  "</CardGroup>",
  "",
  "<Steps>",
  '  <Step title="Install" icon={<Icon name="x" />}>',
  "    > Requires Node 20.",
  "    - Run `npm i <pkg>` once.",
  "  </Step>",
  "</Steps>",
  "",
  "{/* a comment",
  "   - spanning lines",
  "   > with markdown-looking lines */}",
  "",
  "<img",
  '  src="/images/a.png"',
  '  alt="The dashboard"',
  "/>",
  "Done.",
].join("\n");

describe("component markup in text", () => {
  it("keeps visible attribute text and drops the rest, for multi-line, self-closing and nested tags and expressions", () => {
    expect(splitSections(CARDS).map((s) => s.text)).toEqual([
      [
        "Start here.",
        "",
        "Run your first agent",
        "Create and run an agent in minutes.",
        "",
        "Deploy",
        "",
        "Install",
        "Requires Node 20.",
        "Run npm i <pkg> once.",
        "",
        "The dashboard",
        "Done.",
      ].join("\n"),
    ]);
    expect(toPlainText(CARDS)).toBe(splitSections(CARDS)[0]?.text);
  });

  it("indexes none of the attribute words and shows none of them in a snippet", () => {
    const filler = "Agents plan tasks and call tools to finish them. ".repeat(12);
    const index = new SearchIndex();
    index.sync(inlineSite({ "/start.mdx": `---\ntitle: Start\n---\n${filler}\n\n${CARDS}`, "/zoo.mdx": "---\ntitle: Zoo\n---\nA zebra lives here." }));
    // `zebra` is in the first page only as an href, `rocket` and `plus` only as icons.
    expect(index.search({ query: "zebra", canRead: () => true }).map((h) => h.page.path)).toEqual(["/zoo"]);
    expect(index.search({ query: "rocket plus", canRead: () => true })).toEqual([]);
    const [hit] = index.search({ query: "run your first agent", canRead: () => true });
    expect(hit?.snippet).toBe(
      "…plan tasks and call tools to finish them. Agents plan tasks and call tools to finish them. Agents plan tasks and call tools to finish them. Agents plan tasks and call tools to finish them. Agents plan tasks and call tools to finish them. Start here. Run your first agent Create and run an agent in minutes. Deploy…",
    );
  });

  it("leaves a lone < in prose alone, and does not let it swallow the next paragraph's Markdown", () => {
    expect(toPlainText("When a<b holds\n\n- listed item\n> quoted")).toBe("When a<b holds\n\nlisted item\nquoted");
  });

  it("cuts snippets from the cleaned text", () => {
    const analyzer = new Analyzer(new Vocabulary());
    const text = toPlainText(CARDS);
    expect(makeSnippet(snippetSource(text, analyzer), new Set(analyzer.termIds("deploy")))).toBe(text.replace(/\s+/g, " "));
  });
});

/**
 * Blank lines among a tag's attributes, which real sites leave (Story Protocol's cards, novu's,
 * lago's: 11 pages of the 45 external sites) and the platform builds: the tag went on being read
 * as prose after the blank line, its lone `>` as a block quote, and `<Card title="Quickstart"
 * href="/quickstart" ...` reached snippets. A stray `<` in prose still ends at a blank line when
 * the next line is prose, not more of a tag.
 */
describe("blank lines inside a tag", () => {
  it("keep the tag whole when the next line reads as more of it, and end a stray < when it does not", () => {
    const card = ["<CardGroup cols={4}>", "  <Card", '    title="Non-Commercial Social Remixing"', '    href="/concepts/flavors"', '    icon="file"', "    ", "    ", "  >", "    Free remixing with attribution.", "  </Card>", "", "  <Card", '    title="Commercial Use"', "", "    defaultOpen", "", '    href="/concepts/commercial"', "  />", "</CardGroup>"].join("\n");
    expect(toPlainText(card)).toBe("Non-Commercial Social Remixing\nFree remixing with attribution.\n\nCommercial Use");
    expect(toPlainText("Use a <b and more\n\n- item one\n- item two\n\nA paragraph.")).toBe("Use a <b and more\n\nitem one\nitem two\n\nA paragraph.");
  });

  it("leave no markup in the snippet", () => {
    const site = inlineSite({ "/overview.mdx": `---\ntitle: Overview\n---\n\nRegister terms with a flavor:\n\n${["<Card", '  title="Social Remixing"', '  href="https://example.com/flavors"', "  ", ">", "  Free remixing with attribution.", "</Card>"].join("\n")}\n` });
    const index = new SearchIndex();
    index.sync(site);
    expect(index.search({ query: "remixing attribution", canRead: () => true }).map((h) => [h.page.path, h.snippet])).toEqual([["/overview", "Register terms with a flavor: Social Remixing Free remixing with attribution."]]);
  });
});
