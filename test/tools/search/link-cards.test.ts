import { describe, expect, it } from "vitest";
import { splitSections } from "../../../src/engine/search/sections.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * A card linking to another page of the site describes that page, in the words a question uses
 * ("Create flowcharts, sequence diagrams, and more" on an overview's `Mermaid diagrams` card): on
 * the page holding it, its text is indexed with the code (weight 0.5), not as prose, and is
 * still read in the section's text and snippets. Before, the overview listing every component
 * ranked above the component's own page for "draw a flowchart diagram in a page" (issue 24, tune
 * half: mintlify, crewAI's MCP overview cards, stagehand's `Next steps`).
 */
const OVERVIEW = [
  "---",
  "title: Components",
  "---",
  "Components you can use in any page.",
  "",
  "## Visualize",
  "",
  "<CardGroup cols={2}>",
  "<Card",
  '  title="Mermaid diagrams"',
  '  icon="git-branch"',
  '  href="/components/mermaid"',
  ">",
  "  Draw flowcharts, sequence diagrams, and more in a page.",
  "</Card>",
  '<Card title="Charts" href="https://charts.example.com">Plot data from a page.</Card>',
  '<Card title="Icons" href="/components/icons" />',
  "</CardGroup>",
].join("\n");

describe("link cards", () => {
  it("index a card linking inside the site with the code, a card linking outside as prose, the text unchanged", () => {
    const body = OVERVIEW.split("---\n")[2] as string;
    expect(splitSections(body).map(({ heading, text, prose, code }) => ({ heading, text, prose, code }))).toEqual([
      { heading: "", text: "Components you can use in any page.", prose: "Components you can use in any page.", code: "" },
      {
        heading: "Visualize",
        text: "Mermaid diagrams\nDraw flowcharts, sequence diagrams, and more in a page.\n\nCharts Plot data from a page.\nIcons",
        prose: "Charts Plot data from a page.",
        code: "Mermaid diagrams\nDraw flowcharts, sequence diagrams, and more in a page.\n\nIcons",
      },
    ]);
  });

  it("rank the page a card names above the overview holding the card", () => {
    const index = new SearchIndex();
    index.sync(
      inlineSite({
        "/components/index.mdx": OVERVIEW,
        "/components/mermaid.mdx": "---\ntitle: Mermaid diagrams\ndescription: Diagrams written as text in a page.\n---\nWrite a flowchart or a sequence diagram in a mermaid code block.\n",
        "/components/icons.mdx": "---\ntitle: Icons\n---\nShow an icon from Lucide.\n",
      }),
    );
    const hits = index.search({ query: "draw a flowchart diagram in a page", canRead: () => true });
    expect(hits.map((h) => [h.page.path, h.score, h.snippet])).toEqual([
      ["/components/mermaid", 0.289, "Write a flowchart or a sequence diagram in a mermaid code block."],
      ["/components/index", 0.221, "Mermaid diagrams Draw flowcharts, sequence diagrams, and more in a page. Charts Plot data from a page. Icons"],
    ]);
  });
});
