import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * A build reads every page (its sections recorded as boilerplate candidates) before it indexes
 * any (issue 22): a page whose section a later page turns into boilerplate is indexed once, as
 * the whole site says, not once before and again at the end (12% of the pages of the bench's
 * 10,000 distinct ones were).
 */
const FOOTER = "## Support\n\nWrite to support@example.com with your order number.";

function site(pages: number) {
  const files: Record<string, string> = {};
  // The footer is on every page under its own title: boilerplate from the third page on.
  for (let i = 0; i < pages; i++) files[`/p${i}.mdx`] = `---\ntitle: Page ${i}\n---\n\nAbout widget${i} and its refund rules.\n\n${FOOTER}`;
  return inlineSite(files);
}

describe("pages read before they are indexed", () => {
  it("gives each page one unit: none indexed twice, no postings of removed units", () => {
    const index = new SearchIndex({ cachedResults: 0 });
    expect(index.sync(site(6))).toEqual({ added: 6, removed: 0 });
    const { nextPage, nextSection, dead } = index.state().index;
    // Six pages of two sections each.
    expect({ nextPage, nextSection, dead }).toEqual({ nextPage: 6, nextSection: 12, dead: 0 });
  });

  it("indexes the footer of the first pages as boilerplate too: the footer's words rank no page first", () => {
    const index = new SearchIndex({ cachedResults: 0 });
    index.sync(site(6));
    const hits = index.search({ query: "support order number", canRead: () => true });
    // Every page holds the footer alike (its words in the low-weight field): they tie, in path order.
    expect(hits.map((h) => [h.page.path, h.section.anchor])).toEqual(["/p0", "/p1", "/p2", "/p3", "/p4", "/p5"].map((p) => [p, "support"]));
    expect(new Set(hits.map((h) => h.score)).size).toBe(1);
  });
});
