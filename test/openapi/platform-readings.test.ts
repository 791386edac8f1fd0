import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { checkSite } from "../../src/vfs/check-site.js";
import { generated, lines, load, usersSpec, writeRepo } from "./helpers.js";

/**
 * What the hosted platform reads that a strict reading refused (issue 24: `svc-mcp check` must
 * report no error on a site the platform deploys). Each case is the shape of a real deployed
 * site: formbricks' tag names and scraped pages, aryn's trailing comma, sequence's translated
 * security scheme.
 */
describe("API specs as the platform reads them", () => {
  const nav = (openapi: unknown, pages: unknown[] = ["intro"]) => ({ navigation: { groups: [{ group: "API", openapi, pages }] } });

  it("a tag's ' - ' becomes two hyphens, as the platform's links to generated pages have it; ' / ' one", async () => {
    const spec = usersSpec({
      "/links": { get: { summary: "Get survey links (beta)", tags: ["Management API - Surveys - Contact Links"], responses: { "200": { description: "OK" } } } },
      "/state": { get: { summary: "Show state", tags: ["Checkout / State"], responses: { "200": { description: "OK" } } } },
      "/spaced": { get: { summary: "Two  spaces   three", tags: ["A  B"], responses: { "200": { description: "OK" } } } },
    });
    const site = await load({ "docs.json": nav("openapi.json", []), "openapi.json": spec });
    expect(lines(site)).toEqual([]);
    expect(generated(site).sort()).toEqual([
      "/api-reference/a-b/two-spaces--three",
      "/api-reference/checkout-state/show-state",
      "/api-reference/management-api--surveys--contact-links/get-survey-links-beta",
      "/api-reference/pets/list-pets",
      "/api-reference/users/create-user",
      "/api-reference/users/get-user",
      "/api-reference/users/list-users",
    ]);
  });

  it("an MDX page with the operation's front matter at the path its page would be generated at takes it: no warning, in navigation at its place, the generated page only behind it", async () => {
    const site = await load({
      "docs.json": nav({ source: "openapi.json", directory: "api-reference" }),
      "intro.mdx": "# Intro",
      "openapi.json": usersSpec(),
      "api-reference/users/get-user.mdx": "---\nopenapi: GET /users/{id}\n---\nOne user, with notes.",
    });
    expect(lines(site)).toEqual([]);
    expect(generated(site).sort()).toEqual(["/api-reference/pets/list-pets", "/api-reference/users/create-user", "/api-reference/users/list-users"]);
    const page = site.pages.get("/api-reference/users/get-user");
    expect(page?.generated).toBe(false);
    expect(site.api?.pages.get("/api-reference/users/get-user")?.generated).toBe(false);
    // Listed where the generated page would be (search indexes what navigation lists).
    expect(site.config.navPages.get("/api-reference/users/get-user")).toEqual(site.config.navPages.get("/api-reference/users/list-users"));
    expect(site.api?.plan.behind.map((p) => p.pagePath)).toEqual(["/api-reference/users/get-user"]);
  });

  it("check says nothing of such a page: it is in navigation (it said 'not in the navigation' for formbricks' 29)", async () => {
    const root = writeRepo({
      "docs.json": nav({ source: "openapi.json", directory: "api-reference" }),
      "intro.mdx": "# Intro",
      "openapi.json": usersSpec(),
      "api-reference/users/get-user.mdx": "---\nopenapi: GET /users/{id}\n---\nOne user, with notes.",
      "stray.mdx": "# Stray",
    });
    const result = await checkSite(root);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual(['stray.mdx warning: page is not in the navigation, so search leaves it out (seo.indexing "all" includes it)']);
  });

  it("a .json spec with a trailing comma is read as YAML reads it, with a warning; its operations are generated", async () => {
    const text = JSON.stringify(usersSpec(), null, 2).replace(/"Pets"\n/, '"Pets",\n');
    expect(text).toContain('"Pets",\n');
    const site = await load({ "docs.json": nav("openapi.json", []), "openapi.json": text });
    expect(lines(site)).toEqual([
      `openapi.json warning: not strict JSON (${jsonError(text)}); read as YAML, which accepts it`,
    ]);
    expect(generated(site).sort()).toEqual(["/api-reference/pets/list-pets", "/api-reference/users/create-user", "/api-reference/users/get-user", "/api-reference/users/list-users"]);
  });

  it("a .json spec that YAML cannot read either is an error in JSON's words, as before", async () => {
    const text = '{\n  "openapi": "3.0.3",\n  "paths": {\n    "a": [\n}\n';
    const site = await load({ "docs.json": nav("openapi.json", []), "openapi.json": text });
    expect(lines(site)).toEqual([`docs.json navigation.groups[0].openapi: API spec openapi.json: cannot parse: ${jsonError(text)}`]);
    expect(generated(site).sort()).toEqual([]);
  });

  it("an invalid security scheme (a translated `type`) is read as written, with a warning; the operations stand", async () => {
    const spec = {
      ...usersSpec(),
      components: { securitySchemes: { ApiKeyAuth: { type: "APIキー", in: "ヘッダー", name: "X-Access-Key" } } },
      security: [{ ApiKeyAuth: [] }],
    };
    const site = await load({ "docs.json": nav("openapi.json", []), "openapi.json": spec });
    // One line per problem the validator finds (its five branches of a scheme), as for schemas.
    expect(lines(site)).toEqual([
      'openapi.json:77:9 warning: components.securitySchemes.ApiKeyAuth.type: must be one of "apiKey" (not valid OpenAPI 3.0.3); read as written',
      'openapi.json:78:9 warning: components.securitySchemes.ApiKeyAuth.in: must be one of "header", "query", "cookie" (not valid OpenAPI 3.0.3); read as written',
      'openapi.json:77:9 warning: components.securitySchemes.ApiKeyAuth.type: must be one of "http" (not valid OpenAPI 3.0.3); read as written',
      'openapi.json:77:9 warning: components.securitySchemes.ApiKeyAuth.type: must be one of "oauth2" (not valid OpenAPI 3.0.3); read as written',
      'openapi.json:77:9 warning: components.securitySchemes.ApiKeyAuth.type: must be one of "openIdConnect" (not valid OpenAPI 3.0.3); read as written',
    ]);
    expect(generated(site).sort()).toEqual(["/api-reference/pets/list-pets", "/api-reference/users/create-user", "/api-reference/users/get-user", "/api-reference/users/list-users"]);
  });
});

/** V8's own message for the text's JSON error (it words it by version). */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message.split("\n")[0] as string;
  }
  throw new Error("the text parsed as JSON");
}
