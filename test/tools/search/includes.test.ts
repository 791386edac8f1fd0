import { describe, expect, it } from "vitest";
import { expandIncludes } from "../../../src/engine/search/includes.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import type { Site } from "../../../src/vfs/site.js";
import { inlineSite } from "./inline-site.js";

const FILES: Record<string, string> = {
  "/guides/auth.mdx": [
    "---",
    "title: Authentication",
    "---",
    "import ApiKeys from '/snippets/api-keys.mdx';",
    'import Rotate from "../snippets/rotate.mdx"',
    "import { Since } from '/snippets/since.mdx';",
    "import Missing from '/snippets/missing.mdx';",
    "",
    "Every request is authenticated.",
    "",
    '<ApiKeys product="Nimbus Cloud" />',
    "",
    "<Rotate>ignored children</Rotate>",
    "",
    "<Since version=\"2.1\" /> <Missing />",
  ].join("\n"),
  "/snippets/api-keys.mdx": ["---", "title: not a page", "---", "## API keys", "", "Create a key for {product} in the zanzibar console.", "", "<Nested />", "import Nested from './nested.mdx'"].join("\n"),
  "/snippets/nested.mdx": "Keys never expire unless revoked (quokka).\n\n<Loop />\nimport Loop from '/snippets/api-keys.mdx'\n",
  "/snippets/rotate.mdx": "Rotate keys every 90 days with the wombat tool.\n",
  "/snippets/since.mdx": "export const Since = ({ version }) => <span>Since {version}</span>;\n",
  "/guides/plain.mdx": "---\ntitle: Plain\n---\nNo snippets here about zanzibar.\n",
};

const DOCS = { name: "Test", navigation: { pages: ["guides/auth", "guides/plain"] } };

function search(site: Site, index: SearchIndex, query: string): { path: string; section: string; snippet: string }[] {
  void site;
  return index.search({ query, canRead: () => true }).map((h) => ({ path: h.page.path, section: h.section.heading, snippet: h.snippet }));
}

describe("snippets imported by pages", () => {
  it("inlines default-imported MDX snippets where they are used, with props, nested, cycles cut", () => {
    const site = inlineSite(FILES, DOCS);
    const page = site.pages.get("/guides/auth");
    const expanded = page === undefined ? undefined : expandIncludes(page, (p) => site.files.get(p));
    expect(expanded?.body).toBe(
      [
        "import ApiKeys from '/snippets/api-keys.mdx';",
        'import Rotate from "../snippets/rotate.mdx"',
        "import { Since } from '/snippets/since.mdx';",
        "import Missing from '/snippets/missing.mdx';",
        "",
        "Every request is authenticated.",
        "",
        "",
        "## API keys",
        "",
        "Create a key for Nimbus Cloud in the zanzibar console.",
        "",
        "",
        "Keys never expire unless revoked (quokka).",
        "",
        "<Loop />",
        "import Loop from '/snippets/api-keys.mdx'",
        "",
        "import Nested from './nested.mdx'",
        "",
        "",
        "",
        "Rotate keys every 90 days with the wombat tool.",
        "",
        "",
        '<Since version="2.1" /> <Missing />',
      ].join("\n"),
    );
    // Every file whose tag is used counts, named imports too (their rule decides whether the tag stays).
    expect(expanded?.uses.map((f) => f.path)).toEqual(["/snippets/api-keys.mdx", "/snippets/rotate.mdx", "/snippets/since.mdx", "/snippets/nested.mdx"]);
    expect(expanded?.missing).toEqual(["/snippets/missing.mdx"]);
    const plain = site.pages.get("/guides/plain");
    expect(plain === undefined ? "no page" : expandIncludes(plain, (p) => site.files.get(p))).toBeUndefined();
  });

  it("finds a page by its snippets' text, under the snippet's heading, and never the snippet file itself", () => {
    const site = inlineSite(FILES, { ...DOCS, seo: { indexing: "all" } });
    const index = new SearchIndex();
    index.sync(site);
    expect(search(site, index, "zanzibar console")).toEqual([
      { path: "/guides/auth", section: "API keys", snippet: "Create a key for Nimbus Cloud in the zanzibar console. Keys never expire unless revoked (quokka). Rotate keys every 90 days with the wombat tool." },
      { path: "/guides/plain", section: "", snippet: "No snippets here about zanzibar." },
    ]);
    expect(search(site, index, "wombat").map((h) => h.path)).toEqual(["/guides/auth"]);
    expect(search(site, index, "quokka").map((h) => h.path)).toEqual(["/guides/auth"]);
  });

  it("re-indexes the pages that use a snippet when only the snippet changes", () => {
    const before = inlineSite(FILES, DOCS);
    const index = new SearchIndex();
    index.sync(before);
    const after = inlineSite({ ...FILES, "/snippets/rotate.mdx": "Rotate keys every 30 days with the numbat tool.\n" }, DOCS, before);
    expect(after.pages.get("/guides/auth")).toBe(before.pages.get("/guides/auth"));
    expect(index.sync(after)).toEqual({ added: 1, removed: 1 });
    expect(search(after, index, "numbat").map((h) => h.path)).toEqual(["/guides/auth"]);
    expect(search(after, index, "wombat")).toEqual([]);
    expect(index.sync(after)).toEqual({ added: 0, removed: 0 });
  });

  it("re-indexes a page when a snippet it imports appears", () => {
    const { "/snippets/rotate.mdx": _gone, ...without } = FILES;
    const before = inlineSite(without, DOCS);
    const index = new SearchIndex();
    index.sync(before);
    expect(search(before, index, "wombat")).toEqual([]);
    const after = inlineSite(FILES, DOCS, before);
    expect(index.sync(after)).toEqual({ added: 1, removed: 1 });
    expect(search(after, index, "wombat").map((h) => h.path)).toEqual(["/guides/auth"]);
  });
});

describe("snippets with an empty front matter block", () => {
  it("inline their text without the block's two `---` lines (found by the adversary: `--- ---` in snippets)", () => {
    const site = inlineSite(
      {
        "/index.mdx": '---\ntitle: Home\n---\nimport S from "/snippets/s.mdx";\n\nIntro words.\n\n<S />\n',
        "/snippets/s.mdx": "---\n---\nSnippet kestrel text.\n",
      },
      { name: "FM", navigation: { pages: ["index"] } },
    );
    const index = new SearchIndex();
    index.sync(site);
    expect(search(site, index, "kestrel")).toEqual([{ path: "/index", section: "", snippet: "Intro words. Snippet kestrel text." }]);
  });
});

describe("the platform's older `<Snippet file>` tags", () => {
  const FILES_TAGS: Record<string, string> = {
    "/guides/help.mdx": [
      "---",
      "title: Help",
      "---",
      "Where to ask.",
      "",
      '<Snippet file="get-help.mdx" />',
      "",
      "<Snippet file='redis/note' product=\"Kestrel DB\">",
      "ignored children",
      "</Snippet>",
      "",
      '<Snippet file="gone.mdx" />',
      "",
      '<Snippet file="../../secret.mdx" />',
    ].join("\n"),
    "/_snippets/get-help.mdx": "---\ntitle: not a page\n---\nJoin the axolotl forum for help.\n",
    "/snippets/redis/note.mdx": "{product} needs the ioredis quokka driver.\n",
    "/secret.mdx": "Never shown.\n",
  };

  it("inline the file under /_snippets/ (else /snippets/; .mdx when the name has no extension), with props; a missing one stays a tag", () => {
    const site = inlineSite(FILES_TAGS, { name: "T", navigation: { pages: ["guides/help"] } });
    const page = site.pages.get("/guides/help");
    const expanded = page === undefined ? undefined : expandIncludes(page, (p) => site.files.get(p));
    expect(expanded?.body).toBe(
      ["Where to ask.", "", "", "Join the axolotl forum for help.", "", "", "", "Kestrel DB needs the ioredis quokka driver.", "", "", '<Snippet file="gone.mdx" />', "", '<Snippet file="../../secret.mdx" />'].join("\n"),
    );
    expect(expanded?.uses.map((f) => f.path)).toEqual(["/_snippets/get-help.mdx", "/snippets/redis/note.mdx"]);
    expect(expanded?.missing).toEqual(["/_snippets/redis/note.mdx", "/_snippets/redis/note.md", "/_snippets/gone.mdx", "/snippets/gone.mdx"]);
  });

  it("written as code (a code span, a fenced block, a fence inside a list item) stay as written; a real tag beside a span, or after an escaped backtick, is inlined", () => {
    const body = [
      "Write `<Snippet file=\"get-help.mdx\" />` to reuse it, then <Snippet file=\"get-help.mdx\" /> here.",
      "",
      "```mdx",
      '<Snippet file="get-help.mdx" />',
      "```",
      "",
      "- An item:",
      "",
      "  ~~~",
      '  <Snippet file="get-help.mdx" />',
      "  ~~~",
      "",
      "``Two `<Snippet file=\"get-help.mdx\" />` ticks``, and \\`<Snippet file=\"get-help.mdx\" />\\`.",
    ].join("\n");
    const site = inlineSite({ "/guides/code.mdx": `---\ntitle: Code\n---\n${body}`, "/_snippets/get-help.mdx": "Join the axolotl forum.\n" }, { name: "T", navigation: { pages: ["guides/code"] } });
    const page = site.pages.get("/guides/code");
    const expanded = page === undefined ? undefined : expandIncludes(page, (p) => site.files.get(p));
    expect(expanded?.body).toBe(
      [
        "Write `<Snippet file=\"get-help.mdx\" />` to reuse it, then ",
        "Join the axolotl forum.",
        " here.",
        "",
        "```mdx",
        '<Snippet file="get-help.mdx" />',
        "```",
        "",
        "- An item:",
        "",
        "  ~~~",
        '  <Snippet file="get-help.mdx" />',
        "  ~~~",
        "",
        "``Two `<Snippet file=\"get-help.mdx\" />` ticks``, and \\`",
        "Join the axolotl forum.",
        "\\`.",
      ].join("\n"),
    );
    expect(expanded?.uses.map((f) => f.path)).toEqual(["/_snippets/get-help.mdx"]);
  });

  it("find the page by its snippets' text, never the snippet files, and re-index it when a named file appears", () => {
    const { "/_snippets/get-help.mdx": _gone, ...without } = FILES_TAGS;
    const docs = { name: "T", navigation: { pages: ["guides/help"] }, seo: { indexing: "all" } };
    const before = inlineSite(without, docs);
    const index = new SearchIndex();
    index.sync(before);
    expect(search(before, index, "axolotl")).toEqual([]);
    expect(search(before, index, "quokka")).toEqual([{ path: "/guides/help", section: "", snippet: "Where to ask. Kestrel DB needs the ioredis quokka driver." }]);
    const after = inlineSite(FILES_TAGS, docs, before);
    expect(index.sync(after)).toEqual({ added: 1, removed: 1 });
    expect(search(after, index, "axolotl")).toEqual([{ path: "/guides/help", section: "", snippet: "Where to ask. Join the axolotl forum for help. Kestrel DB needs the ioredis quokka driver." }]);
  });
});
