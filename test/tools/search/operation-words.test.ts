import { describe, expect, it } from "vitest";
import { operationWords } from "../../../src/engine/search/operation-words.js";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * An endpoint page written as MDX with `openapi` front matter is about its operation's path even
 * when the spec is not there to render (a remote URL, as flipt's docs.json names): before, such a
 * page was its title and a request example, and "create a flag in a namespace" ranked it 11th
 * behind every guide mentioning namespaces.
 */
describe("operation words of an endpoint page", () => {
  it("are the method and path, or the webhook name, without the spec file or URL", () => {
    expect(operationWords("POST /api/v1/namespaces/{namespaceKey}/flags", "curl --request POST")).toBe("POST /api/v1/namespaces/{namespaceKey}/flags");
    expect(operationWords("/api-reference/v01.35.00/openapi-v01.35.00.json get /webhooks/{id}", "")).toBe("get /webhooks/{id}");
    expect(operationWords("/api-reference/webhooks-openapi.json webhook crawlPage", "")).toBe("webhook crawlPage");
    expect(operationWords("https://example.com/spec.yaml GET /users", "")).toBe("GET /users");
    expect(operationWords(undefined, "")).toBe("");
    expect(operationWords("", "")).toBe("");
    expect(operationWords("v1-openapi POST /batch/scrape", "")).toBe("POST /batch/scrape");
    expect(operationWords("/users", "")).toBe("");
  });

  it("are nothing when the page's text already has the path or name", () => {
    expect(operationWords("post /v3/memories/add/", "Adds memories. POST /v3/memories/add/ answers with an event.")).toBe("");
    expect(operationWords("spec.json webhook crawlPage", "The CrawlPage event fires per page.")).toBe("");
  });

  it("find the page by the path it documents", () => {
    const site = inlineSite({
      "/reference/create-flag.mdx": '---\ntitle: "Create Flag"\nopenapi: "POST /api/v1/namespaces/{namespaceKey}/flags"\n---\n\n<RequestExample>\n\n```bash\ncurl --request POST\n```\n\n</RequestExample>\n',
      "/reference/list-widgets.mdx": '---\ntitle: "List Widgets"\nopenapi: "/specs/quasar.json GET /widgets"\n---\n\nLists them.\n',
      "/concepts.mdx": "---\ntitle: Concepts\n---\n\nSegments group users.\n",
    });
    const index = new SearchIndex();
    index.sync(site);
    expect(index.search({ query: "namespaces", canRead: () => true }).map((h) => h.page.path)).toEqual(["/reference/create-flag"]);
    // The spec file's name is not what the page is about.
    expect(index.search({ query: "quasar", canRead: () => true }).map((h) => h.page.path)).toEqual([]);
  });
});
