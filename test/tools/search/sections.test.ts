import { describe, expect, it } from "vitest";
import { splitSections, toPlainText } from "../../../src/tools/search/sections.js";

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
      { heading: "", parents: [], anchor: "", text: "Intro with a link and bold.", prose: "Intro with a link and bold.", code: "" },
      {
        heading: "Install the CLI",
        parents: [],
        anchor: "install-the-cli",
        text: "Run this:\n# not a heading\nnpm i -g nimbus",
        prose: "Run this:",
        code: "# not a heading\nnpm i -g nimbus",
      },
      { heading: "On macOS new", parents: ["Install the CLI"], anchor: "on-macos-new", text: "Use Homebrew.", prose: "Use Homebrew.", code: "" },
      {
        heading: "Install the CLI",
        parents: [],
        anchor: "install-the-cli-1",
        text: "Second card Body text",
        prose: "Second card Body text",
        code: "",
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

describe("toPlainText", () => {
  it("keeps what a reader sees", () => {
    expect(
      toPlainText(
        "> Note: use `{id}` &amp; `Array<string>`\n| Name | Type |\n|---|:--|\n| id | string |\n1. First <Tooltip tip=\"x\">step</Tooltip>\n![Diagram](/a.png)",
      ),
    ).toBe("Note: use {id} & Array<string>\nName Type\nid string\nFirst step\nDiagram");
  });
});
