import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import type { Page } from "../../../src/vfs/page.js";
import { inlineSite } from "./inline-site.js";

/**
 * Whether a body imports MDX is asked once per distinct body (`body-imports.ts`), and the answer
 * kept is the text's: a page generated from a spec never inlines snippets, but its body's key may
 * be an author's page's too (equal text), and the author's page must still inline them.
 */
describe("whether a body imports MDX, asked once per body", () => {
  it("inlines an author's snippet when a generated page of the same body was asked first", () => {
    const body = 'import Note from "/snippets/note.mdx";\n\nIntro to the flow.\n\n<Note />\n';
    const s = inlineSite({ "/snippets/note.mdx": "The snippetonlyword lives in the note.", "/z/guide.mdx": `---\ntitle: Guide\n---\n\n${body}` });
    const authored = s.pages.get("/z/guide") as Page;
    // The same body (the same key: a string body is its own), generated, and first in path order.
    const generated: Page = { ...authored, path: "/a/generated", title: "Generated", generated: true, body: authored.body };
    const pages = new Map<string, Page>([["/a/generated", generated], ...s.pages]);
    const index = new SearchIndex();
    index.sync({ ...s, pages });
    const hits = index.search({ query: "snippetonlyword", canRead: () => true }).map((h) => [h.page.path, h.page.generated]);
    expect(hits).toEqual([["/z/guide", false]]);
  });
});
