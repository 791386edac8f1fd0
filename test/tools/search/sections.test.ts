import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseFrontMatter } from "../../../src/config/frontmatter.js";
import { sectionText, splitSections, toPlainText } from "../../../src/engine/search/sections.js";
import { CORPORA } from "../../helpers/paths.js";
import { itShared } from "../../helpers/shared.js";

describe("splitSections", () => {
  it("splits at headings outside code, with parents, unique anchors, and code kept apart", () => {
    const body = [
      "import { Card } from '/snippets/card.mdx';",
      "",
      "Intro with a [link](/x) and **bold**.",
      "",
      "## Install the CLI",
      "",
      "Run this:",
      "",
      "```bash",
      "# not a heading",
      "npm i -g nimbus",
      "```",
      "",
      "### On macOS <Badge>new</Badge>",
      "",
      "- Use Homebrew.",
      "",
      "## Install the CLI",
      "",
      "<Card title=\"Second card\" href=\"/y\">Body {/* hidden */} text</Card>",
    ].join("\n");
    expect(splitSections(body)).toEqual([
      { heading: "", parents: [], anchor: "", text: "Intro with a link and bold.", prose: "Intro with a link and bold.", code: "", start: 0, end: 82 },
      {
        heading: "Install the CLI",
        parents: [],
        anchor: "install-the-cli",
        text: "Run this:\n# not a heading\nnpm i -g nimbus",
        prose: "Run this:",
        code: "# not a heading\nnpm i -g nimbus",
        start: 102,
        end: 158,
      },
      { heading: "On macOS new", parents: ["Install the CLI"], anchor: "on-macos-new", text: "Use Homebrew.", prose: "Use Homebrew.", code: "", start: 191, end: 208 },
      {
        heading: "Install the CLI",
        parents: [],
        anchor: "install-the-cli-1",
        text: "Second card Body text",
        // A card linking to another page describes that page: indexed with the code (link-cards.test.ts).
        prose: "",
        code: "Second card Body text",
        start: 228,
        end: 296,
      },
    ]);
  });

  it("closes a fence only with the same character, at least as long", () => {
    const body = "````md\n```js\n## inside\n```\n````\n## After\ntext";
    expect(splitSections(body).map((s) => [s.heading, s.code])).toEqual([
      ["", "```js\n## inside\n```"],
      ["After", ""],
    ]);
  });
});

describe("splitSections on MDX component bodies", () => {
  it("takes indented headings inside components as headings, and indented # lines elsewhere as text", () => {
    const body = [
      "<Tabs>",
      '  <Tab title="npm">',
      "    <Steps>",
      '      <Step title="Install">',
      "        ## Install with npm",
      "",
      "        ```bash",
      "        # a comment, in code",
      "        npm i nimbus",
      "        ```",
      "      </Step>",
      "    </Steps>",
      "  </Tab>",
      "</Tabs>",
      "",
      '<Card title="One line" href="/x" />',
      "",
      "    # after the components, an indented line is text",
    ].join("\n");
    expect(splitSections(body).map((s) => ({ heading: s.heading, text: s.text }))).toEqual([
      { heading: "", text: "npm\n\nInstall" },
      { heading: "Install with npm", text: "# a comment, in code\n        npm i nimbus\nOne line\n\n# after the components, an indented line is text" },
    ]);
  });
});

describe("splitSections on MDX import/export blocks", () => {
  it("leaves out multi-line import and export statements, brackets counted across lines", () => {
    const body = [
      "import {",
      "  Card,",
      "  Tip,",
      '} from "/snippets/ui.mdx";',
      "",
      "export const Pill = ({ children }) => {",
      '  const colors = { ok: "green" };',
      "",
      '  return <span className="pill">{children}</span>;',
      "};",
      "",
      'export const regions = ["us-east-1",',
      '  "eu-west-1"];',
      "",
      "## Regions",
      "",
      "Pick the region nearest to you.",
      "",
      "export default with an unclosed (paren, read as one line",
      "Still prose.",
    ].join("\n");
    const sections = splitSections(body);
    expect(sections.map((s) => ({ heading: s.heading, text: s.text }))).toEqual([{ heading: "Regions", text: "Pick the region nearest to you.\n\nStill prose." }]);
    expect(sections.map((s) => sectionText(body, s.start, s.end))).toEqual(sections.map((s) => s.text));
  });
});

describe("sectionText", () => {
  itShared("rebuilds every section's text from its offsets, on every page of the shared corpora", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : /\.mdx?$/.test(name) ? [path] : [];
      });
    let checked = 0;
    for (const corpus of readdirSync(CORPORA).filter((c) => statSync(join(CORPORA, c)).isDirectory())) {
      for (const file of files(join(CORPORA, corpus))) {
        const parsed = parseFrontMatter(readFileSync(file, "utf8"));
        if (!parsed.ok) continue;
        for (const s of splitSections(parsed.body)) {
          expect(sectionText(parsed.body, s.start, s.end), `${file} # ${s.heading}`).toBe(s.text);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("handles CRLF line endings", () => {
    const body = "Intro\r\n## A\r\nText of A.\r\n```\r\ncode\r\n```\r\n## B\r\nText of B.";
    expect(splitSections(body).map((s) => [s.heading, sectionText(body, s.start, s.end)])).toEqual([
      ["", "Intro"],
      ["A", "Text of A.\ncode"],
      ["B", "Text of B."],
    ]);
  });
});

describe("toPlainText", () => {
  it("keeps what a reader sees", () => {
    expect(
      toPlainText(
        "> Note: use `{id}` &amp; `Array<string>`\n| Name | Type |\n|---|:--|\n| id | string |\n1. First <Tooltip tip=\"x\">step</Tooltip>\n![Diagram](/a.png)",
      ),
    ).toBe("Note: use {id} & Array<string>\nName Type\nid string\nFirst step\nDiagram");
  });
});
