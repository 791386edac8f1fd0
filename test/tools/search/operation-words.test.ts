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

/**
 * The `## Source` line an endpoint page is generated with (`Generated from /spec: jq ...`) is for
 * the shell, not for search: indexed, a question naming words of an operation's path got that
 * line as the hit (a real Korean site's "kakao alimtalk template review": four `#source` hits).
 */
describe("an endpoint page's Source line", () => {
  const source = (path: string, method: string) => `## Source\n\nGenerated from \`/api/openapi.yaml\`: \`yq '.["paths"]["${path}"]["${method}"]' /api/openapi.yaml\`\n`;
  const site = inlineSite({
    "/api-reference/delete-template.mdx": `---\ntitle: "Delete template"\nopenapi: "DELETE /projects/{projectId}/alimtalk/templates/{templateCode}"\n---\n\nDeletes a template.\n\n## Path parameters\n\n- \`templateCode\` string\n\n${source("/projects/{projectId}/alimtalk/templates/{templateCode}", "delete")}`,
    "/api-reference/list-templates.mdx": `---\ntitle: "List templates"\nopenapi: "GET /projects/{projectId}/alimtalk/templates"\n---\n\nLists templates.\n\n${source("/projects/{projectId}/alimtalk/templates", "get")}`,
    "/guides/alimtalk-review.mdx": "---\ntitle: Alimtalk template review\n---\n\nA new template is reviewed before it can be sent; review takes up to two business days.\n",
    "/notes.mdx": "---\ntitle: Notes\n---\n\n## Source\n\nGenerated from our changelog every alimtalk release.\n",
  });
  const index = new SearchIndex();
  index.sync(site);
  const hits = (query: string) => index.search({ query, canRead: () => true }).map((h) => [h.page.path, h.section.anchor, h.snippet]);

  it("is no hit, and the page is found by its own text", () => {
    expect(hits("alimtalk template review")).toEqual([
      ["/guides/alimtalk-review", "", "A new template is reviewed before it can be sent; review takes up to two business days."],
      ["/api-reference/delete-template", "", "Deletes a template."],
      ["/api-reference/list-templates", "", "Lists templates."],
      ["/notes", "source", "Generated from our changelog every alimtalk release."],
    ]);
    expect(hits("jq openapi.yaml")).toEqual([]);
  });
});

/**
 * The `## Authentication` list of an endpoint page's security schemes (names and descriptions)
 * repeats on every endpoint page of an API: left out of search, so that a question about tokens
 * finds the guide, not a page per endpoint. A page's own Authentication section is searched.
 */
describe("an endpoint page's list of security schemes", () => {
  const schemes = "## Authentication\n\n- `pat`: Bearer token (`Authorization: Bearer <token>`). A personal access token, created in your account settings.\n";
  const site = inlineSite({
    "/api-reference/list-orders.mdx": `---\ntitle: "List orders"\nopenapi: "GET /orders"\n---\n\nLists orders.\n\n${schemes}`,
    "/api-reference/get-order.mdx": `---\ntitle: "Get order"\nopenapi: "GET /orders/{id}"\n---\n\nGets an order.\n\n${schemes}`,
    "/guides/tokens.mdx": "---\ntitle: Access tokens\n---\n\nCreate a personal access token in your account settings, then send it as a bearer token.\n",
    "/guides/auth.mdx": "---\ntitle: Auth\n---\n\n## Authentication\n\n- `session`: a personal cookie from the account settings page.\n",
  });
  const index = new SearchIndex();
  index.sync(site);
  const hits = (query: string) => index.search({ query, canRead: () => true }).map((h) => [h.page.path, h.section.anchor]);

  it("is no hit; a page's own Authentication section is", () => {
    expect(hits("personal access token account settings")).toEqual([
      ["/guides/tokens", ""],
      ["/guides/auth", "authentication"],
    ]);
  });
});
