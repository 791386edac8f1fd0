import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/tools/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * An MDX page that documents an operation through front matter `openapi` is an endpoint page as
 * much as one generated from the spec: it takes the same weight (0.85), so that the guide written
 * in the same words comes first (issue 24, item 2).
 */
describe("endpoint pages written in MDX", () => {
  const body = "Batch scrape many URLs at once in one job and poll its status.\n";
  const index = new SearchIndex();
  index.sync(
    inlineSite({
      "/features/batch-scrape.mdx": `---\ntitle: Batch scrape\n---\n${body}`,
      "/api-reference/batch-scrape.mdx": `---\ntitle: Batch scrape\nopenapi: 'v1-openapi POST /batch/scrape'\n---\n${body}`,
      "/api-reference/no-spec.mdx": `---\ntitle: Batch scrape\nopenapi: ''\n---\n${body}`,
    }),
  );

  it("rank below the guide with the same words, at 0.85 of its score", () => {
    const hits = index.search({ query: "scrape many URLs in one job", canRead: () => true });
    expect(hits.map((h) => [h.page.path, h.score])).toEqual([
      ["/features/batch-scrape", 0.456],
      // An empty openapi documents nothing: a page like any other (its path words differ).
      ["/api-reference/no-spec", 0.452],
      ["/api-reference/batch-scrape", 0.387],
    ]);
  });
});
