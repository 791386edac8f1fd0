import { describe, expect, it } from "vitest";
import { negationScopes } from "../../../src/engine/search/negation.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * A question often names the way it does not want, after "without" or "instead of" (issue 24,
 * tune half: baileys "without scanning a QR code", firecrawl "without scraping it", story
 * "without minting a license"): the page titled with those words is not the answer, the page
 * about the other way is, and it names the way it replaces.
 */
function ranked(files: Record<string, string>, query: string): [string, string, number][] {
  const index = new SearchIndex();
  index.sync(inlineSite(files));
  return index.search({ query, canRead: () => true }).map((h) => [h.page.path, h.section.heading, h.score]);
}

const page = (title: string, ...lines: string[]): string => ["---", `title: ${title}`, "---", "", ...lines].join("\n");

describe("negation", () => {
  it("reads the clause after without, instead of and rather than, to a punctuation mark or a clause word", () => {
    expect(
      [
        "link my bot without scanning a QR code",
        "tip an IP instead of minting a license, then claim",
        "use a token rather than a password and keep the session",
        "without one two three four five six seven",
        "no negation here",
      ].map(negationScopes),
    ).toEqual([
      { negated: " scanning a QR code ", rest: "link my bot without " },
      { negated: " minting a license ", rest: "tip an IP instead of , then claim" },
      { negated: " a password  ", rest: "use a token rather than and keep the session" },
      { negated: " one two three four five  ", rest: "without six seven" },
      { negated: "", rest: "no negation here" },
    ]);
  });

  // Before: the Scrape page came first (0.339: its title is the excluded word), the Map page second.
  it("ranks the page about the asked-for way above the page titled with the way the question excludes", () => {
    expect(
      ranked(
        {
          "/features/scrape.mdx": page("Scrape", "Scrape every URL of a website quickly and get its content as markdown."),
          "/features/map.mdx": page("Map", "Get every URL of a website: the map lists its links without scraping the pages, so it is quick."),
          "/features/crawl.mdx": page("Crawl", "Crawl a website: every page it links to is scraped in turn."),
          "/introduction.mdx": page("Introduction", "Turn a website into data an LLM can read."),
        },
        "get every URL of a website quickly without scraping it",
      ),
    ).toEqual([
      ["/features/map", "", 0.325],
      ["/features/scrape", "", 0.316],
      ["/features/crawl", "", 0.105],
      ["/introduction", "", 0.025],
    ]);
  });
});
