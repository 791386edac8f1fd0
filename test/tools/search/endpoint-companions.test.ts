import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { type Access, canRead, readerWithGroups } from "../../../src/vfs/access.js";
import { inlineSite } from "./inline-site.js";

/**
 * A guide's endpoint page lifted beside it (`endpoint-companions.ts`, issue 24): a question in
 * words finds the guide (`/features/map`), and the reference of the operation it is about
 * (`/api-reference/endpoint/map`), written in schema words, comes after it at 0.8 of its score.
 */
const endpoint = (title: string, operation: string, text: string) => `---\ntitle: ${title}\nopenapi: '${operation}'\n---\n${text}\n`;
const guide = (title: string, text: string) => `---\ntitle: ${title}\n---\n${text}\n`;

function ranked(index: SearchIndex, query: string, canRead: (a: Access) => boolean = () => true, filter: { version?: string; language?: string } = {}) {
  return index.search({ query, canRead, ...filter }).map((h) => [h.page.path, h.score]);
}

function indexed(files: Record<string, string>, docs?: unknown, ranking?: { companionWeight: number }): SearchIndex {
  const index = new SearchIndex(ranking === undefined ? {} : { ranking });
  index.sync(inlineSite(files, docs));
  return index;
}

const FIRECRAWL = {
  "/features/map.mdx": guide("Map", "Get every URL of a website quickly, without scraping its pages. The fastest way to list a site's links."),
  "/features/batch-scrape.mdx": guide("Batch scrape", "Scrape thousands of URLs in one job and collect the results when it finishes."),
  "/api-reference/endpoint/map.mdx": endpoint("Map", "POST /map", "Request body: url string, search string, limit integer. Response: links array of strings."),
  "/api-reference/endpoint/scrape.mdx": endpoint("Scrape", "POST /scrape", "Request body: url string, formats array. Response: markdown string."),
  "/api-reference/endpoint/batch-scrape.mdx": endpoint("Batch scrape", "POST /batch/scrape", "Request body: urls array of strings, formats array. Response: id string."),
  "/sdks/python.mdx": guide("Python SDK", "Install the SDK with pip and call its methods."),
};

describe("a guide's endpoint page", () => {
  it("comes after the guide at 0.8 of its score, where the question's words alone rank it last", () => {
    const query = "list every URL of a website quickly";
    expect(ranked(indexed(FIRECRAWL, undefined, { companionWeight: 0 }), query)).toEqual([
      ["/features/map", 0.325],
      ["/features/batch-scrape", 0.033],
      ["/api-reference/endpoint/scrape", 0.027],
      ["/api-reference/endpoint/batch-scrape", 0.026],
      ["/api-reference/endpoint/map", 0.024],
    ]);
    expect(ranked(indexed(FIRECRAWL), query)).toEqual([
      ["/features/map", 0.325],
      ["/api-reference/endpoint/map", 0.26],
      ["/features/batch-scrape", 0.033],
      ["/api-reference/endpoint/scrape", 0.027],
      ["/api-reference/endpoint/batch-scrape", 0.026],
    ]);
  });

  it("is the most specific one the guide's path names: batch-scrape, not scrape", () => {
    expect(ranked(indexed(FIRECRAWL), "thousands of URLs in one job")).toEqual([
      ["/features/batch-scrape", 0.416],
      ["/api-reference/endpoint/batch-scrape", 0.333],
      // Not lifted: `scrape` is one of the guide's words, `batch-scrape` both.
      ["/api-reference/endpoint/scrape", 0.035],
      ["/features/map", 0.034],
      ["/api-reference/endpoint/map", 0.031],
    ]);
  });

  it("keeps its own score when it ranks higher than the lift, and is listed once", () => {
    // The endpoint pages match "urls array" themselves, above 0.8 of their guides' scores.
    expect(ranked(indexed(FIRECRAWL), "batch scrape urls array")).toEqual([
      ["/api-reference/endpoint/batch-scrape", 0.653],
      ["/features/batch-scrape", 0.513],
      ["/api-reference/endpoint/scrape", 0.331],
      ["/api-reference/endpoint/map", 0.117],
      ["/features/map", 0.111],
    ]);
  });
});

describe("which operation a guide is about", () => {
  const LAGO = {
    "/guide/subscriptions/terminate-subscription.mdx": guide("Terminate a subscription", "Ending a plan early issues a closing invoice for the days used."),
    "/guide/terminate.mdx": guide("Terminate", "Ending anything early issues a closing invoice."),
    "/api-reference/subscriptions/terminate.mdx": endpoint("Terminate a subscription", "DELETE /subscriptions/{id}", "Path parameter: external_id string."),
    "/api-reference/wallets/terminate.mdx": endpoint("Terminate a wallet", "DELETE /wallets/{id}", "Path parameter: lago_id string."),
    // A guide named like a folder of operations is about the whole resource.
    "/guide/taxes.mdx": guide("Taxes", "Closing invoice amounts include the taxes of the billing entity."),
    "/api-reference/taxes/create.mdx": endpoint("Create a tax", "POST /taxes", "Request body: code string, rate number."),
    "/api-reference/customers/taxes.mdx": endpoint("List a customer's taxes", "GET /customers/{id}/taxes", "Response: taxes array."),
  };
  const index = indexed(LAGO);

  it("the one in the folder the guide's path names, of two with the same name", () => {
    expect(ranked(index, "end a plan early and issue the closing invoice")).toEqual([
      ["/guide/subscriptions/terminate-subscription", 0.351],
      // Its `terminate` is in wallets and subscriptions alike: no folder of its path tells them apart.
      ["/guide/terminate", 0.299],
      ["/api-reference/subscriptions/terminate", 0.281],
      ["/guide/taxes", 0.1],
    ]);
  });

  it("none for a tie, or for a guide named like a folder of operations", () => {
    // `/api-reference/customers/taxes` is named by the taxes guide's path, but taxes/ is the
    // resource the guide is about.
    expect(ranked(index, "closing invoice")).toEqual([
      ["/guide/terminate", 0.391],
      ["/guide/taxes", 0.37],
      ["/guide/subscriptions/terminate-subscription", 0.351],
      ["/api-reference/subscriptions/terminate", 0.281],
    ]);
  });

  it("none of another version: the v0 guide's operation is the v0 one", () => {
    const versions = indexed({
      "/guide/void.mdx": guide("Void", "Voiding a finalized bill keeps it for the records."),
      "/v0/guide/void.mdx": guide("Void", "Voiding a finalized bill keeps it for the records, in the old way."),
      "/api-reference/invoices/void.mdx": endpoint("Void", "POST /invoices/{id}/void", "Path parameter: lago_id string."),
    });
    expect(ranked(versions, "finalized bill records old way")).toEqual([
      ["/v0/guide/void", 0.359],
      ["/guide/void", 0.197],
      // 0.8 of the current guide's score, not of the v0 one's.
      ["/api-reference/invoices/void", 0.158],
    ]);
  });
});

describe("a guide in several versions", () => {
  // Spree's shape: the user guide is listed in v5.x and v6.x, the API reference in v5.x only.
  const index = indexed(
    {
      "/user/create-customer.mdx": guide("Add a customer", "Add a customer from the dashboard's customers list."),
      "/user/delete-customer.mdx": guide("Remove a customer", "Remove a customer from the dashboard's customers list."),
      "/api/customers/create-customer.mdx": endpoint("Create", "POST /customers", "Request body: email string."),
      "/api/customers/delete-customer.mdx": endpoint("Delete", "DELETE /customers/{id}", "Path parameter: id string."),
    },
    {
      name: "Acme",
      navigation: {
        versions: [
          { version: "v5", pages: ["user/create-customer", "api/customers/create-customer", "api/customers/delete-customer"] },
          { version: "v6", default: true, pages: ["user/create-customer", "user/delete-customer"] },
        ],
      },
    },
  );

  it("lifts an endpoint page of one of its versions, and a guide of none of the page's lifts nothing", () => {
    expect(ranked(index, "customer from the dashboard")).toEqual([
      ["/user/create-customer", 0.483],
      ["/user/delete-customer", 0.483],
      ["/api/customers/create-customer", 0.386],
      ["/api/customers/delete-customer", 0.112],
    ]);
    // Searched in v6, the v5 reference is out of the search's scope.
    expect(ranked(index, "customer from the dashboard", () => true, { version: "v6" })).toEqual([
      ["/user/create-customer", 0.483],
      ["/user/delete-customer", 0.483],
    ]);
  });
});

describe("the scope of the search", () => {
  const FILES = {
    "/features/map.mdx": guide("Map", "Get every URL of a website quickly."),
    "/api-reference/endpoint/map.mdx": `---\ntitle: Map\nopenapi: 'POST /map'\ngroups: [partners]\n---\nRequest body: url string.\n`,
    "/fr/features/carte.mdx": guide("Carte", "Toutes les URL d'un site, vite."),
    "/fr/features/map.mdx": guide("Map", "Toutes les URL d'un site, vite."),
  };
  const DOCS = {
    name: "Acme",
    navigation: {
      languages: [
        { language: "en", pages: ["features/map", "api-reference/endpoint/map"] },
        { language: "fr", pages: ["fr/features/carte", "fr/features/map"] },
      ],
    },
  };
  const index = indexed(FILES, DOCS);
  const partners = (a: Access) => canRead(a, readerWithGroups(["partners"]), "public");
  const anyone = (a: Access) => canRead(a, readerWithGroups([]), "public");

  it("a page the reader may not read is never lifted; one the reader may read is", () => {
    expect(ranked(index, "every URL of a website", anyone, { language: "en" })).toEqual([["/features/map", 0.391]]);
    // The guide's score differs a little: statistics are of the pages each reader may read.
    expect(ranked(index, "every URL of a website", partners, { language: "en" })).toEqual([
      ["/features/map", 0.384],
      ["/api-reference/endpoint/map", 0.307],
    ]);
  });

  it("a folder of operations the reader may not read does not stop a lift", () => {
    // Were it asked of every reader, the taxes guide lifting nothing would tell one who may not
    // read taxes/ that it exists.
    const taxes = indexed({
      "/guide/taxes.mdx": guide("Taxes", "Invoices include the taxes of the billing entity."),
      "/api-reference/taxes/create.mdx": `---\ntitle: Create a tax\nopenapi: 'POST /taxes'\ngroups: [partners]\n---\nRequest body: code string.\n`,
      "/api-reference/customers/taxes.mdx": endpoint("Customer taxes", "GET /customers/{id}/taxes", "Response: items array."),
    });
    expect(ranked(taxes, "billing entity", anyone)).toEqual([
      ["/guide/taxes", 0.36],
      ["/api-reference/customers/taxes", 0.288],
    ]);
    // A reader of taxes/ gets the guide about the taxes resource alone.
    expect(ranked(taxes, "billing entity", partners)).toEqual([["/guide/taxes", 0.36]]);
  });

  it("a guide in another language lifts no page of the first", () => {
    expect(ranked(index, "toutes les URL d'un site", partners, { language: "fr" })).toEqual([
      ["/fr/features/carte", 0.384],
      ["/fr/features/map", 0.384],
    ]);
    // Unfiltered, the English endpoint page is scored (it says "url") but not lifted by a French guide.
    expect(ranked(index, "toutes les URL d'un site", partners)).toEqual([
      ["/fr/features/carte", 0.384],
      ["/fr/features/map", 0.384],
      ["/api-reference/endpoint/map", 0.036],
    ]);
  });

  it("a page removed since is lifted no more", () => {
    const changing = indexed(FIRECRAWL);
    expect(ranked(changing, "list every URL of a website quickly").slice(0, 2)).toEqual([
      ["/features/map", 0.325],
      ["/api-reference/endpoint/map", 0.26],
    ]);
    const { "/api-reference/endpoint/map.mdx": _gone, ...rest } = FIRECRAWL;
    changing.sync(inlineSite(rest));
    expect(ranked(changing, "list every URL of a website quickly")).toEqual([
      ["/features/map", 0.318],
      ["/features/batch-scrape", 0.037],
      ["/api-reference/endpoint/batch-scrape", 0.03],
      ["/api-reference/endpoint/scrape", 0.03],
    ]);
  });
});
