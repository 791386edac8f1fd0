import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { customHeadingId } from "../../../src/engine/search/heading-line.js";
import { splitSections, toPlainText } from "../../../src/engine/search/sections.js";
import { inlineSite } from "./inline-site.js";

// Markdown that is not text a reader reads (issue 24, item 1), in the forms real sites write it.

/**
 * A Markdown link whose text wraps onto the next line, as prettier's `proseWrap` writes it (flipt's
 * docs: 47 such links on 29 pages). Read line by line, the brackets and the URL stayed in the text:
 * snippets showed `[Login with Github](/v1/guides/...)` and the URL's path words were indexed as
 * the page's prose, so a page linking to a guide matched the guide's words.
 */
describe("links wrapped over lines", () => {
  it("keeps the link text and drops the URL, however the text wraps", () => {
    const text = ["<Tip>", "  Read our [Login with", "  Github](/v1/guides/operation/authentication/login-with-github) guide for a", "  more in-depth walk-through.", "</Tip>"].join("\n");
    expect(toPlainText(text)).toBe("Read our Login with\nGithub guide for a\nmore in-depth walk-through.");
    expect(toPlainText("See [the\nthree\nline link](/a/b) here.")).toBe("See the\nthree\nline link here.");
    expect(toPlainText("An image ![logo\nalt](/images/logo.png) inline.")).toBe("An image logo\nalt inline.");
  });

  it("does not join brackets across a blank line (a paragraph ends there)", () => {
    expect(toPlainText("A [bracket\n\nthen](/x) after.")).toBe("A [bracket\n\nthen](/x) after.");
  });

  it("reads a link whose text holds brackets as its text: a linked image, a name in brackets", () => {
    // crewAI's 272 integration pages open with a linked video thumbnail; comfy names models so.
    expect(toPlainText("[![Watch a video demo](https://x.test/thumb.png)](https://www.youtube.com/watch?v=Yc5q)")).toBe("Watch a video demo");
    expect(toPlainText("Read the [FLUX.1 [dev] license](https://huggingface.co/flux/LICENSE.md) first.")).toBe("Read the FLUX.1 [dev] license first.");
    // Brackets that open no link stay, as before.
    expect(toPlainText("a [b] c [d](/e) f [g] ] [h](i")).toBe("a [b] c d f [g] ] [h](i");
  });

  it("indexes no word of the URL, and the snippet shows the text only", () => {
    const site = inlineSite({
      "/auth.mdx": "---\ntitle: Authentication\n---\n\nTokens sign requests.\n\nRead our [Login with\nGithub](/guides/keycloak-realm) guide for more.\n",
      "/keycloak.mdx": "---\ntitle: Keycloak\n---\n\nSet up a keycloak realm for single sign-on.\n",
    });
    const index = new SearchIndex();
    index.sync(site);
    const hits = index.search({ query: "keycloak realm", canRead: () => true });
    expect(hits.map((h) => h.page.path)).toEqual(["/keycloak"]);
    const auth = index.search({ query: "login github", canRead: () => true });
    expect(auth.map((h) => [h.page.path, h.snippet])).toEqual([["/auth", "Tokens sign requests. Read our Login with Github guide for more."]]);
  });
});

/**
 * A thematic break (`---`, `* * *`, `___`) or a setext underline is a rule a reader sees as a
 * line, not text: generated API pages open with one, and their snippets began "--- GET /brands".
 */
describe("thematic breaks", () => {
  it("are not text", () => {
    expect(toPlainText(["Intro.", "", "---", "", "`GET /brands`", "* * *", "___", "Title", "===", "- - -", "End -- not a rule."].join("\n"))).toBe("Intro.\n\nGET /brands\n\nTitle\n\nEnd -- not a rule.");
    expect(toPlainText("- a list item\n-- two dashes")).toBe("a list item\n-- two dashes");
  });
});

/**
 * CommonMark's backslash escapes, which real sites write where Markdown would read a list or
 * emphasis (Portkey: 70 headings `## 2\. Create Fallback Configs`; `wombat\_fallback`): the reader
 * sees the character, so the heading, the snippet and the indexed words hold it, not the backslash.
 * Code keeps its backslashes: there they are the code's.
 */
describe("backslash escapes", () => {
  it("are the characters a reader sees, outside code", () => {
    expect(toPlainText("Set wombat\\_fallback to 1\\*2, see \\<Tag\\> and \\{x\\}, C:\\\\temp, `a\\_b` stays.")).toBe("Set wombat_fallback to 1*2, see <Tag> and {x}, C:\\temp, a\\_b stays.");
    expect(toPlainText("\\*\\*not bold\\*\\* and a\\b")).toBe("**not bold** and a\\b");
  });

  it("keep the escaped character beside markup, and a backslash at a line's end is a line break", () => {
    // Read after the markup was taken out, `\**x**` and `\`` left a backslash before the next letter.
    expect(toPlainText("Use \\**bold** here, keep \\` tick, x \\~~y~~")).toBe("Use **bold here, keep ` tick, x ~~y");
    expect(toPlainText("first line\\\nsecond line\\\r\nthird, C:\\\\\nfourth")).toBe("first line\nsecond line\nthird, C:\\\nfourth");
  });

  it("leave no backslash in a section's heading, its text or the snippet", () => {
    const body = "## 2\\. Create Fallback Configs\n\nRoute to wombat\\_fallback when the primary model fails.\n\n```sh\necho 1\\. a\\_b\n```\n";
    expect(splitSections(body).map((s) => [s.heading, s.anchor, s.text])).toEqual([["2. Create Fallback Configs", "2-create-fallback-configs", "Route to wombat_fallback when the primary model fails.\necho 1\\. a\\_b"]]);
    const site = inlineSite({ "/fallbacks.mdx": `---\ntitle: Fallbacks\n---\n\n${body}` });
    const index = new SearchIndex();
    index.sync(site);
    const hits = index.search({ query: "wombat_fallback", canRead: () => true });
    expect(hits.map((h) => [h.page.path, h.section.heading, h.snippet])).toEqual([["/fallbacks", "2. Create Fallback Configs", "Route to wombat_fallback when the primary model fails. echo 1\\. a\\_b"]]);
  });
});

/**
 * The platform's custom heading ids (`## Options {#config}`; written escaped, `\{#config\}`, where
 * MDX needs it): the heading's anchor is the id, as the page renders it, so a search result links
 * to `#config`, not to the slug of the text. The slug is counted all the same (a later `## Options`
 * is `options-1`, as the renderer has it).
 */
/**
 * Emphasis by one `*` or `_` reached snippets as written (polar's "ingest _some_ events", a new
 * site of 2026-12-05); it is paired as CommonMark pairs it, so what is no emphasis stays.
 */
describe("emphasis by one mark", () => {
  it("is read without its marks, nested or beside CJK text, and intraword underscores, products and globs stay", () => {
    expect(toPlainText("*Note:* ingest _some_ events (*all*), *one *two* three*, 日本*強調*です.")).toBe("Note: ingest some events (all), one two three, 日本強調です.");
    expect(toPlainText("snake_case_name, 2*3*4, *.mdx and *.ts, a * b * c, x_y_ z, \\*lit\\* and _open only")).toBe("snake_case_name, 2*3*4, *.mdx and *.ts, a * b * c, x_y_ z, *lit* and _open only");
    // A bare URL is a link (GFM), its marks its own.
    expect(toPlainText("see https://example.com/_next_/static and _this_ here")).toBe("see https://example.com/_next_/static and this here");
    // A mark pairs on its line only.
    expect(toPlainText("an *open\nand closed* later")).toBe("an *open\nand closed* later");
  });

  it("leaves a line of marks that never close as written", () => {
    const line = "_a ".repeat(200_000);
    expect(toPlainText(line)).toBe(line.trim());
  });
});

describe("custom heading ids", () => {
  it("are the section's anchor, casing kept, and not its text", () => {
    const body = "## Options {#config}\n\nA.\n\n### Memory & embedder config \\{#memoryEmbedderConfig\\}\n\nB.\n\n## Options\n\nC.\n\n## Set {x} here\n\nD.\n";
    expect(splitSections(body).map((s) => [s.heading, s.anchor])).toEqual([
      ["Options", "config"],
      ["Memory & embedder config", "memoryEmbedderConfig"],
      ["Options", "options-1"],
      ["Set here", "set-here"],
    ]);
  });
});

/**
 * A description scraped from an API spec holds HTML line breaks and character references (dodo:
 * "...pricing tiers.<br/><br/>Note&colon; This will use..."): the snippet of a page with no text
 * of its own is that description, as a reader sees it. Other angle brackets stay (front matter is
 * not MDX: `Array<string>` is text).
 */
describe("a description's line breaks", () => {
  it("are spaces in the snippet, and Array<string> stays", () => {
    const site = inlineSite({
      "/change-plan.mdx": "---\ntitle: Change Plan\ndescription: \"Modify a subscription's plan.<br/><br/>Note&colon; This uses the saved payment method.<BR>Returns Array<string>.\"\n---\n",
    });
    const index = new SearchIndex();
    index.sync(site);
    expect(index.search({ query: "saved payment method", canRead: () => true }).map((h) => [h.page.path, h.snippet])).toEqual([["/change-plan", "Modify a subscription's plan. Note: This uses the saved payment method. Returns Array<string>."]]);
  });
});

describe("custom heading ids, read in one pass", () => {
  it("read a heading of a million spaces before its last brace at once (a pattern re-read the run at every start)", () => {
    const spaces = " ".repeat(1_000_000);
    expect(customHeadingId(`a${spaces}x}`)).toEqual({ text: `a${spaces}x}` });
    expect(customHeadingId(`a${spaces}{#id}`)).toEqual({ text: "a", id: "id" });
    expect(customHeadingId(`a${spaces}\\{#id\\}${spaces}`)).toEqual({ text: "a", id: "id" });
    expect(customHeadingId("a {#}")).toEqual({ text: "a {#}" });
    expect(customHeadingId("a {#x\\y}")).toEqual({ text: "a {#x\\y}" });
  });
});
