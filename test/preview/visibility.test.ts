import { describe, expect, it } from "vitest";
import { blankHidden, VisibilityLines } from "../../src/config/visibility.js";
import { renderFindings } from "../../src/engine/render/component-findings.js";
import { renderMdx } from "../../src/engine/render/render-mdx.js";

const html = (source: string): string => renderMdx(source, { filePath: "/guides/page.mdx" }).html;

/** `<Visibility for="humans|agents">` (issue 24) in the people's view, and what `check` says of it. */
describe("<Visibility> in the preview", () => {
  it("renders people's content with no element of its own and leaves agents' out, in blocks, tabs, steps and sentences", () => {
    expect(html('Intro.\n\n<Visibility for="humans">\n## Screens\n\nClick **here**.\n\n```bash\nopen\n```\n</Visibility>\n\n<Visibility for="agents">\n## Script\n\nCall the API.\n</Visibility>\n')).toBe(
      '<p>Intro.</p>\n<h2 id="screens">Screens<a class="heading-anchor" href="#screens" aria-hidden="true" tabindex="-1">#</a></h2>\n<p>Click <strong>here</strong>.</p>\n<figure class="code-block" data-lang="bash"><pre><code class="hljs language-bash">open</code></pre></figure>',
    );
    expect(html('<Steps>\n<Step title="Go">\n<Visibility for="agents">run it</Visibility>\n<Visibility for="humans">click it</Visibility>\n</Step>\n</Steps>')).toBe(
      '<ol class="steps" data-component="Steps"><li class="step" data-component="Step"><div class="step-title">Go</div><div class="step-body"><p>\nclick it</p></div></li></ol>',
    );
    expect(html('<Tabs>\n  <Tab title="A">\n    <Visibility for="humans">\n      one\n    </Visibility>\n    <Visibility for="agents">\n      two\n    </Visibility>\n  </Tab>\n</Tabs>')).toBe(
      '<div class="tabs" data-tabs="" data-component="Tabs"><div class="tab-list" role="tablist"><button type="button" role="tab" class="tab" aria-selected="true" data-index="0">A</button></div><div class="tab-panel" role="tabpanel" data-title="A" data-component="Tab" data-index="0"><p>one</p></div></div>',
    );
    expect(html('See <Visibility for="humans">the picture</Visibility><Visibility for={"agents"}>the JSON</Visibility> below.')).toBe("<p>See the picture below.</p>");
    // A `for` missing or unknown: shown (to both), as `check` says.
    expect(html('<Visibility>both</Visibility> and <Visibility for="bots">both too</Visibility>')).toBe("<p>both and both too</p>");
    expect(renderMdx('<Visibility for="agents">\n## Hidden\n</Visibility>\n\n## Shown\n', { filePath: "/a.mdx" }).toc).toEqual([{ depth: 2, text: "Shown", id: "shown" }]);
  });

  it("leaves agents' content out of a page MDX refuses, read by look", () => {
    const r = renderMdx('Broken {\n\n<Visibility for="agents">\nagent words\n</Visibility>\n\nSee <Visibility for="agents">the JSON</Visibility><Visibility for="humans">the picture</Visibility>.\n', { filePath: "/a.mdx" });
    expect(r.problem?.line).toBe(1);
    // Blanked where it stood (positions kept for the notice's line); the browser folds the spaces.
    expect(r.html).toBe(`<p>Broken {</p>\n<p>See ${" ".repeat('<Visibility for="agents">the JSON</Visibility>'.length)}the picture.</p>`);
  });

  it("warns in check of a `for` missing or not humans / agents, with its place, and never calls it unknown", () => {
    const body = 'Text.\n\n<Visibility for="humans">a</Visibility>\n<Visibility>b</Visibility>\n\n  <Visibility\n    for="bots"\n  >\n  c\n  </Visibility>\n<Visibility for={who}>d</Visibility>\n\n```mdx\n<Visibility>in code</Visibility>\n```\n`<Visibility>` in a span\n';
    expect(renderFindings("guides/a.mdx", body, 5, () => false)).toEqual([
      { severity: "warning", file: "guides/a.mdx", line: 8, column: 1, code: "visibility-for", message: '<Visibility> has no `for`, not "humans" or "agents": its content is shown to both, people and agents' },
      { severity: "warning", file: "guides/a.mdx", line: 10, column: 3, code: "visibility-for", message: '<Visibility> has for="bots", not "humans" or "agents": its content is shown to both, people and agents' },
      { severity: "warning", file: "guides/a.mdx", line: 15, column: 1, code: "visibility-for", message: '<Visibility> has for={who}, not "humans" or "agents": its content is shown to both, people and agents' },
    ]);
  });
});

describe("reading <Visibility> by look", () => {
  it("drops the hidden audience's lines and inline parts, keeps the shown one's, across lines and nesting", () => {
    const lines = new VisibilityLines("humans");
    const read = ['<Visibility for="humans">', "gone", '<Visibility for="agents">', "still gone", "</Visibility>", "gone too", "</Visibility>", 'a <Visibility for="humans">x</Visibility>b', "<Visibility", '  for="humans"', ">", "multi gone", "</Visibility>", "kept"].map((l) => lines.line(l, false));
    expect(read).toEqual([null, null, null, null, null, null, null, "a b", null, null, null, null, null, "kept"]);
    expect(blankHidden('ab <Visibility for="agents">cd</Visibility> ef\n```\n<Visibility for="agents">\n```\nok', "agents")).toBe(`ab ${" ".repeat('<Visibility for="agents">cd</Visibility>'.length)} ef\n\`\`\`\n<Visibility for="agents">\n\`\`\`\nok`);
  });

  it("reads a page of unclosed tags and backtick runs in time linear in its length", () => {
    // Quadratic reading would take minutes on these (each unclosed tag read to the end of the page).
    const tags = "<Visibility for=".repeat(50_000);
    const ticks = Array.from({ length: 2_000 }, (_, i) => "`".repeat(i + 1)).join(" x ") + " Visibility";
    const counts = [tags, ticks, `${tags}\n${tags}`].map((text) => {
      expect(blankHidden(text, "agents").length).toBe(text.length);
      return renderFindings("a.mdx", text, 1, () => false).filter((d) => d.code === "visibility-for").length;
    });
    // An unclosed tag is read 2,000 characters far at most, the tags in that stretch with it.
    expect(counts).toEqual([400, 0, 800]);
  });
});
