import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * Proximity can only find a pair of the question's words in a page's title or its best section
 * (issue 23): a page holding both words, one in its title and one in its body, or each in its own
 * section, is bounded without that pair's share, and ranking finishes (scans) fewer pages. The
 * results are those of scoring every page (`boundPruning: false`), at every page size.
 */
describe("pairs a page can hold", () => {
  const files: Record<string, string> = {
    "/together.mdx": "---\ntitle: Birds\n---\n\n## Cliffs\n\nThe falcon ledge is high above the sea.\n",
    "/apart.mdx": "---\ntitle: Raptors\n---\n\n## One\n\nA falcon hunts at dawn.\n\n## Two\n\nThe ledge crumbles in winter.\n",
    "/title-and-body.mdx": "---\ntitle: Falcon\n---\n\nNests sit on a ledge, far from the path.\n",
    "/far.mdx": "---\ntitle: Coast\n---\n\nThe falcon flew over the water and the town to reach a ledge.\n",
    "/ledge-only.mdx": "---\ntitle: Ledges\n---\n\nA ledge of rock and a ledge of ice.\n",
    "/falcon-only.mdx": "---\ntitle: Watching\n---\n\nA falcon, then another falcon.\n",
  };
  for (let k = 0; k < 12; k++) files[`/filler-${k}.mdx`] = `---\ntitle: Filler ${k}\n---\n\nSea and sand, town ${k} and water.\n`;
  const site = inlineSite(files);
  const pruned = new SearchIndex({ cachedResults: 0 });
  pruned.sync(site);
  const every = new SearchIndex({ cachedResults: 0, ranking: { boundPruning: false } });
  every.sync(site);
  const canRead = (): boolean => true;
  const whole = (index: SearchIndex, query: string, pageSize: number): string =>
    JSON.stringify(index.search({ query, canRead, pageSize }).map((h) => [h.page.path, h.score, h.section?.anchor, h.snippet]));

  it("ranks the pages as scoring every page does, at every page size", () => {
    // The title naming one word outranks the words side by side; the pages whose words lie apart
    // (each in its own section) come after the one holding both in one section, far apart.
    // Paths and scores as the code before this bound gave them (5acecd37): scoring every page
    // shares the proximity scan, so only numbers written here tell a pair missed by both.
    const shownHits = (query: string): [string, number][] => pruned.search({ query, canRead, pageSize: 10 }).map((h) => [h.page.path, h.score]);
    expect(shownHits("falcon ledge")).toEqual([["/title-and-body", 0.546], ["/ledge-only", 0.416], ["/together", 0.387], ["/far", 0.29], ["/falcon-only", 0.279], ["/apart", 0.259]]);
    expect(shownHits("sea falcon ledge water")).toEqual([
      ["/title-and-body", 0.358], ["/together", 0.299], ["/ledge-only", 0.273], ["/far", 0.24], ["/falcon-only", 0.183], ["/apart", 0.17],
      ["/filler-0", 0.116], ["/filler-1", 0.116], ["/filler-10", 0.116], ["/filler-11", 0.116],
    ]);
    for (const query of ["falcon ledge", "ledge falcon", "falcon ledge sea", "sea falcon ledge water"]) {
      for (const size of [1, 2, 3, 10]) expect(whole(pruned, query, size)).toBe(whole(every, query, size));
    }
  });
});
