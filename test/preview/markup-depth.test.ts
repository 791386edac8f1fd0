import { describe, expect, it, vi } from "vitest";
import { fencedLines } from "../../src/config/markup-lines.js";
import { splitSections } from "../../src/engine/search/sections.js";
import { renderFindings } from "../../src/engine/render/component-findings.js";
import { deepMarkup } from "../../src/config/markup-depth.js";
import { renderMdx } from "../../src/engine/render/render-mdx.js";

/** Each kind of nesting at 101 levels, the first past the preview's limit of 100. */
const DEEP: Readonly<Record<string, string>> = {
  "block quotes": `Intro\n\n${">".repeat(101)} quoted`,
  lists: Array.from({ length: 101 }, (_, i) => `${"  ".repeat(i)}- item`).join("\n"),
  tags: `${"<div>".repeat(101)}x${"</div>".repeat(101)}`,
  emphasis: `${"*a ".repeat(101)}x${" b*".repeat(101)}`,
  brackets: `${"[".repeat(101)}x`,
};

describe("deepMarkup: markup nested past what the preview parses", () => {
  it("finds each kind at its first line past the limit, and nothing at the limit", () => {
    const found = Object.entries(DEEP).map(([kind, text]) => [kind, deepMarkup(text)]);
    expect(found).toEqual([
      ["block quotes", { what: "block quotes", depth: 101, line: 3 }],
      ["lists", { what: "lists", depth: 101, line: 101 }],
      ["tags", { what: "tags", depth: 101, line: 1 }],
      ["emphasis", { what: "emphasis", depth: 101, line: 1 }],
      ["brackets", { what: "brackets", depth: 101, line: 1 }],
    ]);
    const atLimit = [`${">".repeat(100)} q`, `${"<div>".repeat(100)}x`, `${"*a ".repeat(100)}x${" b*".repeat(100)}`, `${"[".repeat(100)}x`];
    expect(atLimit.map((t) => deepMarkup(t))).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("finds nesting written on one line: list markers one after another, quotes and lists mixed, strong emphasis in one run", () => {
    const shapes = [`${"* ".repeat(3000)}x`, `${"1. ".repeat(3000)}x`, `${"> - ".repeat(3000)}x`, `${"- > ".repeat(3000)}x`, `${"**".repeat(3000)}x${"**".repeat(3000)}`];
    expect(shapes.map((t) => deepMarkup(t))).toEqual([
      { what: "lists", depth: 3000, line: 1 },
      { what: "lists", depth: 3000, line: 1 },
      { what: "lists", depth: 6000, line: 1 },
      { what: "lists", depth: 6000, line: 1 },
      { what: "emphasis", depth: 3000, line: 1 },
    ]);
    // A run of marks nothing closes (a masked key) is not nesting.
    expect(deepMarkup(`Your key looks like ${"*".repeat(300)}abc and ${"*".repeat(40)}.`)).toBeUndefined();
  });

  it("counts what MDX pairs, not what looks like it: code, closed tags, tags over several lines, emphasis in a row", () => {
    const many = (n: number, s: string): string => Array.from({ length: n }, () => s).join("\n");
    const page = [
      many(150, "Use `<BackButton>` and `**` in `<PageHeader>` text."),
      "```tsx",
      many(150, "<div>"),
      "```",
      many(150, '<svg viewBox="0 0 24 24">\n  <path\n    d="M5 12h14"\n  />\n</svg>'),
      many(150, "A **bold** word and [a link](/x) and snake_case_name."),
      many(150, "<br> and <img src='x'> then <Icon />"),
      many(150, "a < b and c > d"),
    ].join("\n\n");
    expect(deepMarkup(page)).toBeUndefined();
  });

  it("shows such a page as its text with the reason, at once, instead of parsing it", () => {
    const source = `# Title\n\nFirst paragraph.\n\n${"*a ".repeat(3000)}x${" b*".repeat(3000)}`;
    const rendered = renderMdx(source, { filePath: "/guides/deep.mdx" });
    expect(rendered.problem).toEqual({ message: "its emphasis nest more than 100 levels deep, the most the preview reads", line: 5, asText: true });
    expect(rendered.html).toBe(`<p># Title</p>\n<p>First paragraph.</p>\n<p>${"*a ".repeat(3000)}x${" b*".repeat(3000)}</p>`);
    expect([rendered.toc, rendered.unknown]).toEqual([[], []]);
  });
});

describe("a page of thousands of list markers on one line (`- - - ... y`; issue 25, adversary round 38 F5)", () => {
  const page = (markers: number): string => `# Deep\n\n${"- ".repeat(markers)}y\n`;

  /**
   * The work of reading a page's block structure, counted rather than timed: the runs of a
   * regular expression over what is left of a long line (over 1,000 characters; sticky and
   * global runs, which look at one place, aside). Before, the scan of fenced code re-read the
   * rest of the line once per nesting level, so N markers cost N runs of N characters each
   * (20,000 markers, 40 KB: 13 s per request; 50,000: a 503 after 30 s, on every request).
   */
  function longLineRuns(read: () => void): number {
    const exec = RegExp.prototype.exec;
    let runs = 0;
    const spy = vi.spyOn(RegExp.prototype, "exec").mockImplementation(function (this: RegExp, input: string) {
      if (!this.sticky && !this.global && input.length > 1_000) runs++;
      return exec.call(this, input);
    });
    try {
      read();
    } finally {
      spy.mockRestore();
    }
    return runs;
  }

  it("is shown as its text with the reason, and search reads the same line", () => {
    const rendered = renderMdx(page(5_000), { filePath: "/guides/deep.mdx" });
    expect(rendered.problem).toEqual({ message: "its lists nest more than 100 levels deep, the most the preview reads", line: 3, asText: true });
    expect(rendered.html).toBe(`<p># Deep</p>\n<p>${"- ".repeat(5_000)}y\n</p>`);
    // Search takes the line's first marker for a list item's, as on any page, and the rest as its words.
    expect(splitSections(page(5_000)).map((s) => [s.heading, s.anchor, s.text])).toEqual([["Deep", "deep", `${"- ".repeat(4_999)}y`]]);
  });

  it("costs the same reading at 2,000 and at 8,000 markers: past the nesting limit the line is text, not read again per level", () => {
    const runs = [2_000, 8_000].map((markers) => [
      longLineRuns(() => fencedLines(page(markers).split("\n"))),
      longLineRuns(() => renderMdx(page(markers), { filePath: "/guides/deep.mdx" })),
    ]);
    // Each of the two readings of fences (MDX, Markdown) stops 101 levels in: two runs a level, and a few for the line.
    expect(runs).toEqual([
      [412, 413],
      [412, 413],
    ]);
  });
});

describe("check: markup nested past the preview's limit", () => {
  it("warns once, at the line in the file where the depth passes the limit", () => {
    const body = `Intro\n\n${">".repeat(150)} quoted\n\nA <Unknown /> thing.`;
    expect(renderFindings("guides/deep.mdx", body, 4, () => false)).toEqual([
      { severity: "warning", file: "guides/deep.mdx", line: 6, code: "markup-too-deep", message: "the page's block quotes nest more than 100 levels deep: the preview shows it as plain text" },
      { severity: "warning", file: "guides/deep.mdx", line: 8, column: 3, code: "unknown-component", message: "<Unknown> is not a component the preview knows: it shows the element's children" },
    ]);
  });
});
