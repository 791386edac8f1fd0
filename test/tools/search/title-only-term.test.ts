import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * A word found in a page's title and in no section has page postings and no summed section
 * postings: the section pool's arrays end before its id. Ranking read that as a NaN count, made
 * no room for the page's accumulators, and the page, the only one with the word, was not found
 * (the access property test's counterexample: a page whose only text was a snippet its reader may
 * not read).
 */
describe("a word only in a title", () => {
  it("finds the page titled with it", () => {
    const index = new SearchIndex();
    index.sync(
      inlineSite({
        // No page with a section: the section pool holds nothing, and every word is past its end.
        "p0.mdx": "---\ntitle: Setup\n---\n",
        "p1.mdx": "---\ntitle: Billing\n---\n",
        "p2.mdx": "---\ntitle: Discount\n---\n",
      }),
    );
    const hits = index.search({ query: "discounts", pageSize: 1, canRead: () => true });
    expect(hits.map((h) => [h.page.path, h.section.heading, h.score])).toEqual([["p2", "", 0.774]]);
  });
});
