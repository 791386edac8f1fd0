import { describe, expect, it } from "vitest";
import { type SearchHit, SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * crewAI's shape: every page in each of several versions and languages. Unfiltered, all copies
 * of a page are one hit, even a copy whose own language's twin in its version does not match (its
 * text changed there): it used to stand alone as an extra hit among the others, and folding
 * needed the top of pages grown round after round until it held enough different ones.
 */
const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n${body}\n`;
const VERSIONS = ["v3", "v2", "v1"];
const LANGUAGES = ["en", "ko"];
const files: Record<string, string> = {};
for (const l of LANGUAGES)
  for (const v of VERSIONS) {
    // In v1, only the Korean copy still says "webhook"; the English one was reworded.
    const hooks = l === "en" && v === "v1" ? "Events are posted to your endpoint." : "Every webhook is signed and retried.";
    files[`/${l}/${v}/hooks.mdx`] = page(l === "en" ? "Hooks" : "훅", hooks);
    for (let i = 0; i < 12; i++) files[`/${l}/${v}/topic-${i}.mdx`] = page(`Topic ${i}`, `Topic ${i} mentions a webhook once among ${"many other words ".repeat(i + 1)}.`);
  }
const docs = {
  navigation: {
    languages: LANGUAGES.map((language, li) => ({
      language,
      ...(li === 0 ? { default: true } : {}),
      versions: VERSIONS.map((version, vi) => ({
        version,
        ...(vi === 0 ? { default: true } : {}),
        groups: [{ group: "Docs", pages: [`${language}/${version}/hooks`, ...Array.from({ length: 12 }, (_, i) => `${language}/${version}/topic-${i}`)] }],
      })),
    })),
  },
};
const shown = (hits: readonly SearchHit[]) => hits.map((h) => [h.page.path, h.otherVersions.length + h.moreVersions, h.otherLanguages.length + h.moreLanguages]);

describe("pages copied into versions and languages", () => {
  const index = new SearchIndex({ cachedResults: 0 });
  index.sync(inlineSite(files, docs));

  it("are one hit per page, each copy folded in, and the page holds as many pages as asked", () => {
    const hits = index.search({ query: "webhook signed", canRead: () => true, pageSize: 5 });
    expect(shown(hits)).toEqual([
      ["/en/v3/hooks", 1, 1],
      ["/en/v3/topic-0", 2, 1],
      ["/en/v3/topic-1", 2, 1],
      ["/en/v3/topic-2", 2, 1],
      ["/en/v3/topic-3", 2, 1],
    ]);
  });
});
