import { describe, expect, it } from "vitest";
import { renderFindings } from "../../src/engine/render/component-findings.js";
import { renderMarkdown, renderMdx } from "../../src/engine/render/render-mdx.js";
import { splitSections } from "../../src/engine/search/sections.js";

const html = (source: string): string => renderMdx(source, { filePath: "/guides/page.mdx" }).html;

/** MDX to HTML without running any of it: each component as static HTML, and what is refused. */
describe("renderMdx", () => {
  it("renders callouts, cards, steps, accordions, frames, fields, updates, tooltips and badges as static HTML", () => {
    expect(html("<Tip>Use **this**.</Tip>")).toBe('<div class="callout callout-tip" role="note" data-component="Tip"><div class="callout-label">Tip</div><div class="callout-body">Use <strong>this</strong>.</div></div>');
    expect(html('<CardGroup cols={3}>\n<Card title="A" href="/a">One</Card>\n</CardGroup>')).toBe(
      '<div class="card-grid cols-3" data-component="CardGroup"><a class="card" href="/a" data-component="Card"><div class="card-title">A</div><div class="card-body">One</div></a></div>',
    );
    expect(html('<Steps>\n<Step title="Go">Now</Step>\n</Steps>')).toBe(
      '<ol class="steps" data-component="Steps"><li class="step" data-component="Step"><div class="step-title">Go</div><div class="step-body">Now</div></li></ol>',
    );
    expect(html('<Accordion title="Why" defaultOpen>Because</Accordion>')).toBe(
      '<details class="accordion" data-component="Accordion" open><summary>Why</summary><div class="accordion-body">Because</div></details>',
    );
    expect(html('<Frame caption="A shot">![x](shot.png)</Frame>')).toBe('<figure class="frame" data-component="Frame"><img src="/guides/shot.png" alt="x"><figcaption>A shot</figcaption></figure>');
    expect(html('<ResponseField name="data.id" type="string" required default="x">The id.</ResponseField>')).toBe(
      '<div class="field" id="response-data-id" data-component="ResponseField"><div class="field-head"><a class="field-name" href="#response-data-id"><code>data.id</code></a><span class="field-type">string</span><span class="field-required">required</span><span class="field-default">default: x</span></div><div class="field-body">The id.</div></div>',
    );
    expect(html('<Update label="2024-05" description="v2">New.</Update>')).toBe(
      '<section class="update" data-component="Update"><div class="update-label">2024-05<div class="update-description">v2</div></div><div class="update-body">New.</div></section>',
    );
    expect(html('A <Tooltip tip="Application programming interface">API</Tooltip> and <Badge>beta</Badge>.')).toBe(
      '<p>A <span class="tooltip" title="Application programming interface" tabindex="0" data-component="Tooltip">API</span> and <span class="badge" data-component="Badge">beta</span>.</p>',
    );
  });

  it("renders the platform's trees, columns, tiles, views, prompts, colour palettes and repository cards, none of them unknown", () => {
    expect(html('<Tree>\n  <Tree.Folder name=\"app\" defaultOpen>\n    <Tree.File name=\"page.tsx\" highlight />\n  </Tree.Folder>\n  <Tree.Folder name=\"lib\" openable={false}>\n    <Tree.File name=\"db.ts\" />\n  </Tree.Folder>\n  <Tree.File name=\"package.json\" />\n</Tree>')).toBe(
      "<div class=\"tree\" data-component=\"Tree\"><ul><li class=\"tree-folder\" data-component=\"Tree.Folder\"><details open><summary><span class=\"tree-name\">app</span></summary><ul><li class=\"tree-file tree-highlight\" data-component=\"Tree.File\"><span class=\"tree-name\">page.tsx</span></li></ul></details></li><li class=\"tree-folder\" data-component=\"Tree.Folder\"><span class=\"tree-name\">lib</span><ul><li class=\"tree-file\" data-component=\"Tree.File\"><span class=\"tree-name\">db.ts</span></li></ul></li><li class=\"tree-file\" data-component=\"Tree.File\"><span class=\"tree-name\">package.json</span></li></ul></div>",
    );
    expect(html('<FileTree>\n\n- docs/\n  - index.mdx\n- docs.json\n\n</FileTree>')).toBe(
      "<div class=\"tree\" data-component=\"FileTree\"><ul>\n<li>docs/\n<ul>\n<li>index.mdx</li>\n</ul>\n</li>\n<li>docs.json</li>\n</ul></div>",
    );
    expect(html('<Columns cols={2}>\n  <Column>\n    Left\n  </Column>\n  <Column>\n    Right\n  </Column>\n</Columns>')).toBe(
      "<div class=\"card-grid cols-2\" data-component=\"Columns\"><div class=\"column\" data-component=\"Column\"><p>Left</p></div><div class=\"column\" data-component=\"Column\"><p>Right</p></div></div>",
    );
    expect(html('<Tile href=\"/components/tiles\" title=\"Tiles\" description=\"Pictures that link\">\n  ![x](tile.png)\n</Tile>')).toBe(
      "<a class=\"card tile\" href=\"/components/tiles\" data-component=\"Tile\"><div class=\"tile-preview\"><p><img src=\"/guides/tile.png\" alt=\"x\"></p></div><div class=\"card-title\">Tiles</div><div class=\"card-body\">Pictures that link</div></a>",
    );
    expect(html('<View title=\"Python\" icon=\"python\">\nRun `pip install x`.\n</View>')).toBe(
      "<section class=\"view\" data-component=\"View\"><div class=\"view-title\">Python</div><p>Run <code>pip install x</code>.</p></section>",
    );
    expect(html('<Prompt description=\"Write docs\" actions={[\"copy\"]}>\nYou are a technical writer.\n</Prompt>')).toBe(
      "<div class=\"prompt\" data-component=\"Prompt\"><div class=\"prompt-description\">Write docs</div><div class=\"prompt-body\"><p>You are a technical writer.</p></div></div>",
    );
    expect(html('<Color variant=\"compact\">\n  <Color.Row title=\"Primary\">\n    <Color.Item name=\"blue-500\" value=\"#3B82F6\" />\n    <Color.Item name=\"text\" value={{ light: \"#111\", dark: \"#fff\" }} />\n  </Color.Row>\n</Color>')).toBe(
      "<div class=\"colors\" data-component=\"Color\"><div class=\"color-row\" data-component=\"Color.Row\"><div class=\"color-row-title\">Primary</div><div class=\"color-item\" data-component=\"Color.Item\"><span class=\"color-name\">blue-500</span><code class=\"color-value\">#3B82F6</code></div><div class=\"color-item\" data-component=\"Color.Item\"><span class=\"color-name\">text</span></div></div></div>",
    );
    expect(html('<GitHub.Repo repo=\"mintlify/docs\" />\n\n<GitHub.Repo repo=\"javascript:alert(1)\" />')).toBe(
      "<a class=\"card github-repo\" href=\"https://github.com/mintlify/docs\" data-component=\"GitHub.Repo\" rel=\"noreferrer\"><div class=\"card-title\">mintlify/docs</div></a>\n<div class=\"card github-repo\" data-component=\"GitHub.Repo\">javascript:alert(1)</div>",
    );
    expect(html("So <Latex>x^2 + y</Latex> holds.")).toBe('<p>So <code class="latex" title="TeX: the preview shows the formula&#x27;s source" data-component="Latex">x^2 + y</code> holds.</p>');
    const source = '<Latex>x</Latex>\n\n<Tree>\n<Tree.File name="a.ts" />\n</Tree>\n\n<FileTree>\n\n- x\n\n</FileTree>\n\n<Tile title="t">\n</Tile>\n\n<View title="v">\n</View>\n\n<Prompt>\np\n</Prompt>\n\n<Color>\n<Color.Row>\n<Color.Item name="c" />\n</Color.Row>\n</Color>\n\n<Columns>\n<Column>\nc\n</Column>\n</Columns>\n\n<GitHub.Repo repo="a/b" />';
    expect(renderMdx(source, { filePath: "/guides/page.mdx" }).unknown).toEqual([]);
    expect(renderFindings("guides/page.mdx", source, 1, () => false)).toEqual([]);
  });

  it("writes tabs and code groups with their buttons, the first panel shown", () => {
    expect(html('<Tabs>\n<Tab title="A">one</Tab>\n<Tab title="B">two</Tab>\n</Tabs>')).toBe(
      '<div class="tabs" data-tabs="" data-component="Tabs"><div class="tab-list" role="tablist"><button type="button" role="tab" class="tab" aria-selected="true" data-index="0">A</button><button type="button" role="tab" class="tab" aria-selected="false" data-index="1">B</button></div><div class="tab-panel" role="tabpanel" data-title="A" data-component="Tab" data-index="0">one</div><div class="tab-panel" role="tabpanel" data-title="B" data-component="Tab" data-index="1" hidden>two</div></div>',
    );
    expect(html("<CodeGroup>\n```js index.js\nlet a\n```\n```py\nb\n```\n</CodeGroup>")).toBe(
      '<div class="code-group" data-tabs="" data-component="CodeGroup"><div class="tab-list" role="tablist"><button type="button" role="tab" class="tab" aria-selected="true" data-index="0">index.js</button><button type="button" role="tab" class="tab" aria-selected="false" data-index="1">py</button></div><figure class="code-block" data-lang="js" data-title="index.js" data-index="0"><pre><code class="hljs language-js"><span class="hljs-keyword">let</span> a</code></pre></figure><figure class="code-block" data-lang="py" data-index="1" hidden><pre><code class="hljs language-py">b</code></pre></figure></div>',
    );
  });

  it("gives headings the ids search links to, and keeps a custom id", () => {
    const r = renderMdx("## Set `up` the [CLI](/cli)\n\n## Set up the CLI\n\n### Done {#finished}\n", { filePath: "/a.mdx" });
    expect(r.toc).toEqual([
      { depth: 2, text: "Set up the CLI", id: "set-up-the-cli" },
      { depth: 2, text: "Set up the CLI", id: "set-up-the-cli-1" },
      { depth: 3, text: "Done", id: "finished" },
    ]);
  });

  it("reads a custom id written escaped, as MDX needs it, as search does: the heading's text without it", () => {
    const body = "## Escaped \\{#esc-id\\}\n\n## Plain {#plainId}\n\n## Escaped \\{#esc-id\\}\n";
    const r = renderMdx(body, { filePath: "/a.mdx" });
    expect([r.toc, r.problem]).toEqual([
      [
        { depth: 2, text: "Escaped", id: "esc-id" },
        { depth: 2, text: "Plain", id: "plainId" },
        { depth: 2, text: "Escaped", id: "esc-id" },
      ],
      undefined,
    ]);
    expect(splitSections(body).map((s) => [s.heading, s.anchor])).toEqual([
      ["Escaped", "esc-id"],
      ["Plain", "plainId"],
      ["Escaped", "esc-id"],
    ]);
  });

  it("shows an unknown component as its children and lists it", () => {
    const r = renderMdx("<Since version=\"2\">\n\nNew in 2.\n\n</Since>\n", { filePath: "/a.mdx" });
    expect([r.html, r.unknown]).toEqual(["<p>New in 2.</p>", [{ name: "Since", line: 1, column: 1 }]]);
  });

  it("never runs code: scripts, styles and frames go, handlers and javascript: URLs are dropped, expressions shown as written", () => {
    expect(html('<script>alert(1)</script>\n\n<style>{"p{}"}</style>\n\nText')).toBe("\n\n<p>Text</p>");
    expect(html('<div onClick={() => alert(1)} className="x" style={{ color: "red" }}>hi</div>')).toBe('<div class="x">hi</div>');
    expect(html('<a href="javascript:alert(1)">a</a> [b](javascript:alert(2)) [c](https://ok.example)')).toBe('<p><a>a</a> <a>b</a> <a href="https://ok.example" rel="noreferrer">c</a></p>');
    expect(html('{alert(1)} and {"text"} and {/* a comment */}')).toBe('<p><code class="expression" title="An expression: the preview does not run code">{alert(1)}</code> and text and </p>');
    expect(html('<iframe src="https://video.example/embed/1" title="Demo"></iframe>')).toBe('<p class="embed">Embedded page (not loaded in the preview): <a href="https://video.example/embed/1" rel="noreferrer">Demo</a></p>');
    expect(html("![far](https://cdn.example/a.png)")).toBe('<p><a class="remote-media" href="https://cdn.example/a.png" rel="noreferrer">Image from elsewhere (not loaded in the preview): far</a></p>');
  });

  it("reads text MDX refuses as Markdown, and says why", () => {
    const r = renderMdx("# Title\n\nA brace { opens nothing\n", { filePath: "/a.mdx" });
    expect([r.html, r.problem?.line]).toEqual(['<h1 id="title">Title<a class="heading-anchor" href="#title" aria-hidden="true" tabindex="-1">#</a></h1>\n<p>A brace { opens nothing</p>', 3]);
  });
});

describe("renderMarkdown (API descriptions)", () => {
  it("renders links, code and lists, and drops raw HTML", () => {
    expect(renderMarkdown("Use `id` from [users](/users).\n\n- a\n\n<img src=x onerror=alert(1)>")).toBe('<p>Use <code>id</code> from <a href="/users">users</a>.</p>\n<ul>\n<li>a</li>\n</ul>');
  });
});

describe("renderFindings (check)", () => {
  it("lists components the preview does not know and where they come from; code is not read", () => {
    const body = ["import Auth from '/snippets/auth.mdx';", "import { Since } from '/snippets/since.jsx';", "export const Pill = () => null;", "", "<Auth />", "<Since />", "<Pill />", "<Pill />", "<Mystery>x</Mystery>", "<Note>ok</Note>", "`<Inline />` and", "```jsx", "<Fenced />", "```", ""].join("\n");
    expect(renderFindings("guides/a.mdx", body, 4, (p) => p === "/snippets/auth.mdx").map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      "9:1 unknown-component <Since> comes from /snippets/since.jsx, code the preview does not run: it shows the element's children",
      "10:1 unknown-component <Pill> (used 2 times) is defined in this page's code, which the preview does not run: it shows the element's children",
      "12:1 unknown-component <Mystery> is not a component the preview knows: it shows the element's children",
    ]);
  });

  it("says which `<Snippet file>` tags name no file the site serves, or a file that is not Markdown", () => {
    const body = ['<Snippet file="help.mdx" />', "<Snippet file='redis/note' />", '<Snippet file="gone.mdx" />', "<Snippet />", '<Snippet file="../x.mdx" />', '<Snippet file="openapi.yaml" />', ""].join("\n");
    const served = new Set(["/_snippets/help.mdx", "/snippets/redis/note.mdx", "/snippets/openapi.yaml"]);
    expect(renderFindings("guides/a.mdx", body, 1, (p) => served.has(p)).map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      "3:1 unknown-component <Snippet> names gone.mdx, no file the site serves under /_snippets/ or /snippets/ (missing, ignored or unreadable): nothing is shown in its place",
      '4:1 unknown-component <Snippet> names no file (`file="name.mdx"`, under /_snippets/ or /snippets/): nothing is shown in its place',
      "5:1 unknown-component <Snippet> names ../x.mdx, no file the site serves under /_snippets/ or /snippets/ (missing, ignored or unreadable): nothing is shown in its place",
      "6:1 unknown-component <Snippet> names openapi.yaml, which is not a .md or .mdx file (only Markdown is a snippet): nothing is shown in its place",
    ]);
  });
});

/**
 * TeX math as Mintlify renders it (`$...$`, `$$...$$`; Berachain's formulas): its braces are TeX
 * groups. Read as JSX expressions, `\frac{1}{(1 - \beta)}` made the whole page "not valid MDX"
 * (acorn could not parse `(1 - \beta)`), so its components showed as text with a problem the
 * platform never has. The preview shows a formula's source, as it does `<Latex>`'s.
 */
describe("TeX math", () => {
  it("is math, not expressions: shown as its source, and the page is valid MDX", () => {
    const r = renderMdx("The factor:\n\n$$\n\\frac{1}{(1 - \\beta)}\n$$\n\nand $u_{\\text{target}}$ in <Badge>beta</Badge>, for $5.\n", { filePath: "/guides/page.mdx" });
    expect([r.html, r.problem]).toEqual([
      '<p>The factor:</p>\n<pre><code class="language-math math-display">\\frac{1}{(1 - \\beta)}</code></pre>\n<p>and <code class="language-math math-inline">u_{\\text{target}}</code> in <span class="badge" data-component="Badge">beta</span>, for $5.</p>',
      undefined,
    ]);
  });
});
