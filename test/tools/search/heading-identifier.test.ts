import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * An identifier the question names (`index_not_found`) ranks first the page whose section is
 * headed by it, the page that documents it (issue 24, sixteenth round): Meilisearch's "Error
 * codes" page, 34,000 characters with a `## \`index_not_found\`` section among a hundred, ranked
 * below the short "Errors" page whose example response quotes the code, since the whole-page part
 * of the score favours a short page and neither title names the code (here: a short guide quoting
 * it in a sentence). A heading holding an
 * identifier of the query now counts as a title would in the title part
 * (`headingTitleWeight`), for queries with an identifier only (a word joined by `_` or `.`).
 */
describe("a heading naming the identifier a question asks for", () => {
  const page = (title: string, body: string): string => ["---", `title: ${title}`, "---", "", body].join("\n");
  const names = ["index_already_exists", "index_not_found", "invalid_api_key", "invalid_document_id", "missing_master_key", "payload_too_large"];
  // A long reference page: 120 codes, each with a section of its own.
  const codes = [...names, ...Array.from({ length: 114 }, (_, i) => `invalid_setting_${i + 1}`)]
    .map((code) => `## \`${code}\`\n\nReturned when the request fails for this reason: ${code.replace(/_/g, " ")}. Check the request, the document and the instance's settings, then send it again. The index keeps its documents and settings, and the task that failed is listed with its error.\n`)
    .join("\n");
  const site = inlineSite({
    "/reference/errors/overview.mdx": page(
      "Errors",
      [
        "| Status | Meaning |",
        "| --- | --- |",
        "| 400 | Bad request: a parameter is missing |",
        "| 404 | Not found: the index or document does not exist |",
        "",
        "## Error format",
        "",
        "```json",
        '{ "message": "Index `movies` not found.", "code": "index_not_found", "link": "https://example.com/errors#index_not_found" }',
        "```",
        "",
        "See the [list of codes](/reference/errors/error_codes).",
      ].join("\n"),
    ),
    "/reference/errors/error_codes.mdx": page("Error codes", `This page lists every error code.\n\n${codes}`),
    "/reference/indexes.mdx": page("Indexes", "An index holds documents. Create an index before adding documents: a search on an index that does not exist fails with `index_not_found`."),
  });
  const ranked = (index: SearchIndex): (string | number | undefined)[][] =>
    index.search({ query: "index_not_found", canRead: () => true }).map((h) => [h.page.path, h.section?.heading, h.score]);

  it("ranks the page documenting it first", () => {
    const index = new SearchIndex();
    index.sync(site);
    expect(ranked(index)).toEqual([
      ["/reference/errors/error_codes", "index_not_found", 0.763],
      ["/reference/indexes", "", 0.643],
      ["/reference/errors/overview", "", 0.432],
    ]);
  });

  it("ranked it below a short page quoting it (the code before)", () => {
    const index = new SearchIndex({ ranking: { headingTitleWeight: 0 } });
    index.sync(site);
    expect(ranked(index)).toEqual([
      ["/reference/indexes", "", 0.643],
      ["/reference/errors/error_codes", "index_not_found", 0.563],
      ["/reference/errors/overview", "", 0.432],
    ]);
  });

  it("gives a question without an identifier the same results", () => {
    const on = new SearchIndex();
    const off = new SearchIndex({ ranking: { headingTitleWeight: 0 } });
    on.sync(site);
    off.sync(site);
    const q = (index: SearchIndex): unknown => index.search({ query: "index not found error", canRead: () => true }).map((h) => [h.page.path, h.score]);
    expect(q(on)).toEqual(q(off));
  });
});
