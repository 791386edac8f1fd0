import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import type { Site } from "../../../src/vfs/site.js";
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
      ["/features/batch-scrape", 0.455],
      // An empty openapi documents nothing: a page like any other (its path words differ).
      ["/api-reference/no-spec", 0.45],
      // Its spec is not loaded: its operation (POST /batch/scrape) is among its words (`operation-words.ts`).
      ["/api-reference/batch-scrape", 0.389],
    ]);
  });
});

describe("a query naming an endpoint's path", () => {
  // The loader's facts about API pages (`site.api.pages`); only the operation path counts here.
  const withApi = (site: Site, ops: Record<string, string>): Site =>
    ({ ...site, api: { pages: new Map(Object.entries(ops).map(([pagePath, path]) => [pagePath, { pagePath, kind: "operation", path }])) } }) as unknown as Site;
  const index = new SearchIndex();
  index.sync(
    withApi(
      inlineSite({
        "/migration.mdx": "---\ntitle: Migrating to v3\n---\nCalls to POST /v1/memories/ become POST /v3/memories/add/ and the response is an event.\n",
        "/api/add.mdx": "---\ntitle: Add memories\nopenapi: post /v3/memories/add/\n---\nAdds memories. POST /v3/memories/add/ answers with an event.\n",
        "/api/search.mdx": "---\ntitle: Search memories\nopenapi: post /v3/memories/search/\n---\nSearches memories added with /v3/memories/add/.\n",
      }),
      { "/api/add": "/v3/memories/add/", "/api/search": "/v3/memories/search/" },
    ),
  );
  const ranked = (query: string) => index.search({ query, canRead: () => true }).map((h) => [h.page.path, h.score]);

  it("ranks that endpoint's page at its full score; other endpoint pages keep their weight", () => {
    expect(ranked("POST /v3/memories/add")).toEqual([
      // Named by its path: lifted to 1.1 of its score, as a title naming the action is.
      ["/api/add", 0.342],
      ["/migration", 0.267],
      ["/api/search", 0.157],
    ]);
    expect(ranked("POST /V3/Memories/Add/.")).toEqual(ranked("POST /v3/memories/add"));
  });

  it("without a path, a query naming an endpoint's title word for word ranks it at its full score", () => {
    // "Add memories" is named by "POST v3 memories add" (an action and its resource: lifted to 1.1
    // of its score); "Search memories" is not.
    expect(ranked("POST v3 memories add")).toEqual([
      ["/api/add", 0.647],
      ["/migration", 0.509],
      ["/api/search", 0.287],
    ]);
  });

  it("without a path or the title's words, endpoint pages take the generated weight, and the guide comes first", () => {
    expect(ranked("POST v3 memories")).toEqual([
      ["/migration", 0.549],
      ["/api/add", 0.421],
      ["/api/search", 0.264],
    ]);
  });
});

describe("an endpoint title opening with a read verb", () => {
  // Firecrawl's reference titles its operations "Get Batch Scrape Errors", "List Webhooks": a
  // question names the thing read ("errors of a batch scrape") and seldom the verb.
  const index = new SearchIndex();
  index.sync(
    inlineSite({
      "/features/batch-scrape.mdx": "---\ntitle: Batch scrape\n---\nScrape many URLs in one batch job. Errors of a batch scrape are listed by the errors endpoint.\n",
      "/api/batch-scrape.mdx": "---\ntitle: Batch scrape\nopenapi: 'v1-openapi POST /batch/scrape'\n---\nStart a batch scrape job.\n\n## 500: Server error\n\nAn error string.\n",
      "/api/batch-scrape-errors.mdx": "---\ntitle: Get batch scrape errors\nopenapi: 'v1-openapi GET /batch/scrape/{id}/errors'\n---\nThe errors of a batch scrape job.\n",
      "/api/create-batch-scrape-errors.mdx": "---\ntitle: Create batch scrape errors\nopenapi: 'v1-openapi POST /batch/scrape/{id}/errors'\n---\nThe errors of a batch scrape job.\n",
    }),
  );
  const ranked = (query: string) => index.search({ query, canRead: () => true }).map((h) => [h.page.path, h.score]);

  it("is named by a query naming the rest of the title: the endpoint keeps its full score", () => {
    expect(ranked("errors of a batch scrape")).toEqual([
      ["/api/batch-scrape-errors", 0.827],
      // "Batch scrape" is named word for word too; "Create batch scrape errors" is not.
      ["/api/batch-scrape", 0.734],
      ["/features/batch-scrape", 0.713],
      ["/api/create-batch-scrape-errors", 0.702],
    ]);
  });

  it("is not named when the rest of the title is the lesser part of the question", () => {
    // "batch scrape errors" is three of this question's seven words: read or create, the two
    // endpoint pages score alike (at their weight).
    expect(ranked("why do errors of a batch scrape job repeat after every retry")).toEqual([
      ["/api/batch-scrape-errors", 0.137],
      ["/api/create-batch-scrape-errors", 0.137],
      ["/api/batch-scrape", 0.131],
      ["/features/batch-scrape", 0.13],
    ]);
  });
});

describe("a question asking for an endpoint", () => {
  // The endpoint weight lets a guide written in the question's words come first; a question that
  // asks for the endpoint itself by the word asks for the reference.
  const index = new SearchIndex();
  index.sync(
    inlineSite({
      "/api/introduction.mdx": "---\ntitle: Reranking\n---\nEach model is one endpoint away: chat, embeddings, rerank documents and images.\n",
      "/api/rerank.mdx": "---\ntitle: Create rerank\nopenapi: 'openapi POST /v1/rerank'\n---\nThis endpoint reranks documents by relevance to a query.\n",
    }),
  );
  const ranked = (query: string) => index.search({ query, canRead: () => true }).map((h) => [h.page.path, h.score]);

  it("ranks endpoint pages at their full score", () => {
    expect(ranked("rerank documents endpoint")).toEqual([
      ["/api/rerank", 0.532],
      ["/api/introduction", 0.486],
    ]);
    expect(ranked("rerank documents endpoints")).toEqual(ranked("rerank documents endpoint"));
  });

  it("written in words, the endpoint page takes its weight and the guide comes first", () => {
    expect(ranked("rerank documents")).toEqual([
      ["/api/introduction", 0.591],
      ["/api/rerank", 0.522],
    ]);
  });
});

describe("a question naming an operation's action and resource", () => {
  // Firecrawl's Python SDK page has a section for every operation ("Cancelling a Crawl"): at full
  // weight the endpoint titled "Cancel Crawl" only tied it, and the page mentioning everything won.
  const index = new SearchIndex();
  index.sync(
    inlineSite({
      "/sdks/python.mdx":
        "---\ntitle: Python\n---\nInstall the SDK.\n\n## Crawling a website\n\nStart a crawl job and check its status.\n\n## Cancelling a crawl\n\nTo cancel a running crawl job, call cancel_crawl with its id.\n",
      "/api/crawl-delete.mdx": "---\ntitle: Cancel crawl\nopenapi: 'v1-openapi DELETE /crawl/{id}'\n---\nCancel a crawl job.\n\n## Path parameters\n\nid: the ID of the crawl job.\n",
      "/api/crawl-get.mdx": "---\ntitle: Get crawl status\nopenapi: 'v1-openapi GET /crawl/{id}'\n---\nThe status of a crawl job: running, completed or cancelled.\n",
    }),
  );
  const ranked = (query: string) => index.search({ query, canRead: () => true }).map((h) => [h.page.path, h.score]);

  it("ranks the endpoint whose title says both first, above the SDK page with a section on it", () => {
    // At full weight the endpoint scored 0.438 and the SDK page 0.442; lifted by 1.1 it comes first.
    expect(ranked("cancel a running crawl job")).toEqual([
      ["/api/crawl-delete", 0.481],
      ["/sdks/python", 0.442],
      ["/api/crawl-get", 0.372],
    ]);
  });
});
