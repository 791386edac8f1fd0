import { afterEach, describe, expect, it, vi } from "vitest";
import { BodyAnalyzer } from "../../../src/engine/search/body-analysis.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { RepeatedSections } from "../../../src/engine/search/repeated-sections.js";
import { inlineSite } from "./inline-site.js";

/**
 * Boilerplate repeated across pages weighs little (issue 24, item 2): operation pages that all
 * end with the same shared error responses must not outrank the guides written about those
 * errors, and a long reference table's row is found as the thing it documents (item 5).
 */
function operation(name: string): string {
  return [
    "---",
    `title: ${name}`,
    "---",
    "",
    `\`POST /v2/${name.toLowerCase()}\``,
    "",
    `${name} a resource.`,
    "",
    "## Responses",
    "",
    "### 200: Success",
    "",
    "`application/json`",
    "",
    `- \`${name.toLowerCase()}Id\` \`string\``,
    "",
    "### 402: Payment required",
    "",
    "`application/json`",
    "",
    "- `error` `string`",
    "",
    "### 429: Too many requests",
    "",
    "`application/json`",
    "",
    "- `error` `string`",
  ].join("\n");
}

const CODES = ["400 | Bad Request | The body failed validation", "401 | Unauthorized | The API key is missing", "402 | Payment Required | Credits are exhausted: top up", "403 | Forbidden | The key may not do this", "404 | Not Found | No such job", "408 | Timeout | The page took too long", "409 | Conflict | The job is already running", "429 | Too Many Requests | Slow down", "500 | Internal Error | Retry later"];

const PAGES: Record<string, string> = {
  ...Object.fromEntries(["Scrape", "Crawl", "Map", "Search", "Extract", "Parse"].map((n) => [`/api/${n.toLowerCase()}.mdx`, operation(n)])),
  "/errors.mdx": ["---", "title: Errors", "---", "", "Every error response has the same shape.", "", "## Status codes", "", "| Status | Name | Cause |", "|---|---|---|", ...CODES.map((c) => `| ${c} |`)].join("\n"),
  "/billing.mdx": ["---", "title: Billing", "---", "", "Plans come with credits. When credits run out, requests fail with 402 Payment Required until you top up."].join("\n"),
};

describe("repeated sections and reference tables", () => {
  it("ranks the guides about an error above the operations that merely list it", () => {
    const index = new SearchIndex();
    index.sync(inlineSite(PAGES));
    expect(index.search({ query: "402 Payment Required", canRead: () => true }).map((h) => [h.page.path, h.section.heading, h.snippet])).toEqual([
      ["/billing", "", "Plans come with credits. When credits run out, requests fail with 402 Payment Required until you top up."],
      ["/errors", "Status codes", "402 Payment Required Credits are exhausted: top up"],
      ["/api/crawl", "402: Payment required", "application/json error string"],
      ["/api/extract", "402: Payment required", "application/json error string"],
      ["/api/map", "402: Payment required", "application/json error string"],
      ["/api/parse", "402: Payment required", "application/json error string"],
      ["/api/scrape", "402: Payment required", "application/json error string"],
      ["/api/search", "402: Payment required", "application/json error string"],
    ]);
  });

  it("weighs a section fully again once it is no longer repeated, and as a fresh index does", () => {
    const index = new SearchIndex();
    index.sync(inlineSite(PAGES));
    const few = Object.fromEntries(Object.entries(PAGES).filter(([p]) => !["/api/crawl.mdx", "/api/map.mdx", "/api/search.mdx", "/api/extract.mdx"].includes(p)));
    index.sync(inlineSite(few));
    const fresh = new SearchIndex();
    fresh.sync(inlineSite(few));
    const ranked = (i: SearchIndex) => i.search({ query: "402 Payment Required", canRead: () => true }).map((h) => [h.page.path, h.score]);
    expect(ranked(index)).toEqual(ranked(fresh));
    // An error response weighs little on its own too (`isErrorResponse`): the guides come first.
    expect(ranked(fresh).map(([p]) => p)).toEqual(["/billing", "/errors", "/api/parse", "/api/scrape"]);
  });
});

describe("an API page's error responses", () => {
  // Two operations, each with its own error schema: not repeated, yet boilerplate all the same.
  const op = (name: string, field: string): string =>
    [`---`, `title: ${name}`, `---`, "", `${name} the jobs of a team.`, "", "## Responses", "", "### 200: Successful response", "", "`application/json`", "", `- \`${field}\` \`array\``, "", "### 429: Too many requests", "", "`application/json`", "", `- \`${field}Error\` \`string\``, "", "### 500: Server error", "", "- `error` `string`"].join("\n");
  const index = new SearchIndex();
  index.sync(
    inlineSite({
      "/api/active.mdx": op("List active crawls", "crawls"),
      "/api/usage.mdx": op("Credit usage", "remaining"),
      "/limits.mdx": ["---", "title: Limits", "---", "", "## Rate limits", "", "Each plan may send a number of requests per minute; past it, calls are refused until the minute ends."].join("\n"),
    }),
  );

  it("weigh like code, not like the headings and prose of the page", () => {
    // The exact reason phrase still finds them first here (a guide that says "requests" once is
    // all there is), at 0.2, where a heading match scored 0.524 when this was written.
    expect(index.search({ query: "too many requests", canRead: () => true }).map((h) => [h.page.path, h.section.heading, h.snippet, h.score])).toEqual([
      ["/api/active", "429: Too many requests", "application/json crawlsError string", 0.2],
      ["/api/usage", "429: Too many requests", "application/json remainingError string", 0.2],
      ["/limits", "Rate limits", "Each plan may send a number of requests per minute; past it, calls are refused until the minute ends.", 0.075],
    ]);
  });
});

describe("a page indexed before a section of it turns out to be repeated (issue 22)", () => {
  afterEach(() => vi.restoreAllMocks());
  // Four guides, each ending with the same support section: it is boilerplate from the third on,
  // so the first two were indexed with it weighed fully and are indexed again at the end.
  const guide = (name: string): string =>
    ["---", `title: ${name}`, "---", "", `How to ${name.toLowerCase()} a store.`, "", "## Support", "", "Write to the helpdesk about anything unclear."].join("\n");
  const site = inlineSite(Object.fromEntries(["Open", "Close", "Move", "Rename"].map((n) => [`/${n.toLowerCase()}.mdx`, guide(n)])));

  it("is analysed once: its analysis is kept for its indexing again, which weighs the section as the later pages'", () => {
    const analyse = vi.spyOn(BodyAnalyzer.prototype, "analyse");
    const index = new SearchIndex({ cachedResults: 0 });
    index.sync(site);
    // One analysis per body; made again for the two stale pages before (6).
    expect(analyse).toHaveBeenCalledTimes(4);
    expect(index.search({ query: "helpdesk", canRead: () => true }).map((h) => [h.page.path, h.section.heading, h.score])).toEqual([
      ["/close", "Support", 0.202],
      ["/move", "Support", 0.202],
      ["/open", "Support", 0.202],
      ["/rename", "Support", 0.202],
    ]);
  });
});

describe("copies of a page in versions (issue 22: one group per text, title and place)", () => {
  const text = Float64Array.from([11, 12]);
  it("counts a page's versions as one, and the stale pages by title, each title's in the order recorded", () => {
    const r = new RepeatedSections();
    for (const v of ["v1", "v2", "v3"]) r.record(`/${v}/a`, "A", "/a", 0, text);
    expect(r.isRepeated(0, 11)).toBe(false);
    r.record("/v1/b", "B", "/b", 0, text);
    r.record("/v4/a", "A", "/a", 0, text);
    expect(r.isRepeated(0, 11)).toBe(false);
    // A third title and place: repeated now; every other page of the text is stale.
    r.record("/v1/c", "C", "/c", 0, text);
    expect(r.isRepeated(0, 11)).toBe(true);
    expect(r.takeStale()).toEqual(["/v1/a", "/v2/a", "/v3/a", "/v4/a", "/v1/b"]);
    // Another rule's pages are counted apart.
    expect(r.isRepeated(1, 11)).toBe(false);
    // Forgetting copies changes nothing while one of their group is left; the last one does.
    for (const v of ["v1", "v2", "v3"]) r.forget(`/${v}/a`);
    expect(r.isRepeated(0, 12)).toBe(true);
    expect(r.takeStale()).toEqual([]);
    r.forget("/v4/a");
    expect(r.isRepeated(0, 12)).toBe(false);
    expect(r.takeStale()).toEqual(["/v1/b", "/v1/c"]);
  });

  it("answers the same after its state is restored, and counts the pages recorded after", () => {
    const r = new RepeatedSections();
    for (const v of ["v1", "v2"]) for (const n of ["a", "b"]) r.record(`/${v}/${n}`, n.toUpperCase(), `/${n}`, 0, text);
    const restored = new RepeatedSections();
    restored.restore(r.state());
    expect(restored.isRepeated(0, 11)).toBe(false);
    restored.record("/v1/c", "C", "/c", 0, Float64Array.from([11, 12]));
    expect(restored.isRepeated(0, 11)).toBe(true);
    expect(restored.takeStale()).toEqual(["/v1/a", "/v2/a", "/v1/b", "/v2/b"]);
  });
});
