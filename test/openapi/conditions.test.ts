import { describe, expect, it } from "vitest";
import { generated, lines, load, usersSpec } from "./helpers.js";

/** The operation object of a spec built by \`usersSpec\`, for a test to change. */
function opOf(spec: Record<string, unknown>, path: string, method: string): Record<string, unknown> {
  const op = (spec.paths as Record<string, Record<string, Record<string, unknown>> | undefined>)[path]?.[method];
  if (op === undefined) throw new Error(`no ${method} ${path}`);
  return op;
}

/** One case per OpenAPI row of the spec's "Configuration conditions and their outcomes". */
describe("OpenAPI configuration conditions", () => {
  const nav = (pages: unknown[], openapi: unknown = "openapi.json") => ({ navigation: { groups: [{ group: "API", openapi, pages }] } });

  it("a missing spec is an error naming the file and where docs.json names it; the site keeps serving", async () => {
    const site = await load({ "docs.json": nav(["intro", "GET /users"], "missing.json"), "intro.mdx": "# Intro" });
    expect(lines(site)).toEqual(["docs.json navigation.groups[0].openapi: API spec missing.json: file not found"]);
    expect(generated(site)).toEqual([]);
    expect(site.pages.has("/intro")).toBe(true);
  });

  it("an invalid spec is an error with the JSON location of the problem", async () => {
    const site = await load({ "docs.json": nav(["GET /users"]), "openapi.json": { openapi: "3.0.3", paths: {} } });
    expect(lines(site)).toEqual([
      "docs.json navigation.groups[0].openapi: API spec openapi.json: invalid OpenAPI 3.0.3 document (1 problem, each said at the spec): no pages are generated from it",
      'openapi.json:1:1 (document): "info" is required',
    ]);
    expect(generated(site)).toEqual([]);
  });

  it("a named schema the version's schema refuses (3.0's type null) is a warning, read as written, and its operations are served", async () => {
    const spec = usersSpec();
    (opOf(spec, "/users", "get").responses as Record<string, unknown>)["200"] = {
      description: "OK",
      content: { "application/json": { schema: { $ref: "#/components/schemas/User" } } },
    };
    spec.components = {
      schemas: {
        User: { type: "object", properties: { name: { type: "string", description: "Full name." }, nick: { type: "null", description: "Never set." } } },
        Odd: 5,
        Loose: { properties: "x" },
      },
    };
    const site = await load({ "docs.json": nav(["GET /users"]), "openapi.json": spec });
    expect(lines(site)).toEqual([
      'openapi.json:91:13 warning: components.schemas.User.properties.nick.type: must be one of "array", "boolean", "integer", "number", "object", "string" (not valid OpenAPI 3.0.3); read as written',
      "openapi.json:96:7 warning: components.schemas.Odd: must be object (not valid OpenAPI 3.0.3); read as written",
      "openapi.json:98:9 warning: components.schemas.Loose.properties: must be object (not valid OpenAPI 3.0.3); read as written",
    ]);
    expect(generated(site)).toEqual(["/api-reference/users/list-users"]);
    const text = site.pages.get("/api-reference/users/list-users")?.file.text ?? "";
    expect([text.includes("Full name."), text.includes("Never set.")]).toEqual([true, true]);
  });

  it("a path parameter written required: false is read as required with a warning, and its operation is served", async () => {
    // Issue 24: fishaudio's generated spec writes `{user_id}` with `required: false` and a
    // default; the operation was skipped and its page showed only its front matter.
    const spec = usersSpec();
    opOf(spec, "/users/{id}", "get").parameters = [{ name: "id", in: "path", required: false, description: "User id or self.", schema: { type: "string", default: "self" } }];
    const site = await load({ "docs.json": nav(["GET /users/{id}"]), "openapi.json": spec });
    expect(lines(site)).toEqual(["openapi.json:47:13 warning: paths./users/{id}.get.parameters.0.required: a path parameter must be required (not valid OpenAPI 3.0.3); read as required"]);
    expect(generated(site)).toEqual(["/api-reference/users/get-user"]);
    expect(site.pages.get("/api-reference/users/get-user")?.file.text.includes("User id or self.")).toBe(true);
  });

  it("an unparsable spec is an error at its line", async () => {
    const site = await load({ "docs.json": nav(["GET /users"], "openapi.yaml"), "openapi.yaml": "openapi: 3.0.3\ninfo: [unclosed\n" });
    expect(lines(site)).toEqual([expect.stringMatching(/^openapi\.yaml:3 API spec openapi\.yaml: cannot parse: /)]);
  });

  it("Swagger 2.0 is refused with a message to convert it to OpenAPI 3", async () => {
    const site = await load({ "docs.json": nav(["GET /users"]), "openapi.json": { swagger: "2.0", info: { title: "x", version: "1" }, paths: {} } });
    expect(lines(site)).toEqual([
      'docs.json navigation.groups[0].openapi: API spec openapi.json: Swagger 2.0 is not supported: convert it to OpenAPI 3 (for example with swagger2openapi, or "Convert to OpenAPI 3" in editor.swagger.io)',
    ]);
  });

  it("front matter with a path differing from the spec (singular vs plural) matches no operation", async () => {
    const site = await load({
      "docs.json": nav(["user"]),
      "openapi.json": usersSpec(),
      "user.mdx": "---\nopenapi: GET /user\n---\n",
    });
    expect(lines(site)).toContain('user.mdx:2 warning: front matter openapi "GET /user" does not match an operation: openapi.json has no GET /user (did you mean "GET /users"?)');
    expect(site.api?.pages.has("/user")).toBe(false);
  });

  it("a trailing-slash difference still matches, both ways", async () => {
    const site = await load({ "docs.json": nav(["GET /users/", "GET /pets"]), "openapi.json": usersSpec() });
    expect(lines(site)).toEqual([]);
    expect(generated(site)).toEqual(["/api-reference/pets/list-pets", "/api-reference/users/list-users"]);
  });

  it("with several specs, an omitted or misspelt file name does not match, with a hint naming the spec that has it", async () => {
    const site = await load({
      "docs.json": {
        navigation: {
          groups: [
            { group: "API", openapi: ["openapi.json", "other.json"], pages: ["GET /users", "opnapi.json GET /users", "openapi.json GET /users"] },
          ],
        },
      },
      "openapi.json": usersSpec(),
      "other.json": { openapi: "3.1.0", info: { title: "Other", version: "1" }, paths: {} },
    });
    expect(lines(site)).toEqual([
      'docs.json navigation.groups[0].pages[0]: "GET /users" matches no operation (several specs apply here (openapi.json, other.json), so the reference must name one as "<spec file> <METHOD> <path>"; openapi.json has it: write "openapi.json GET /users"), and as a page path no file GET /users.mdx exists',
      'docs.json navigation.groups[0].pages[1]: "opnapi.json GET /users" matches no operation (no spec "opnapi.json" is referenced in docs.json; openapi.json has GET /users: write "openapi.json GET /users"), and as a page path no file opnapi.json GET /users.mdx exists',
    ]);
    expect(generated(site)).toEqual(["/api-reference/users/list-users"]);
  });

  it("a lowercase method does not match (case-sensitive), and check says why", async () => {
    const site = await load({ "docs.json": nav(["get /users"]), "openapi.json": usersSpec() });
    expect(lines(site)).toEqual([
      'docs.json navigation.groups[0].pages[0]: "get /users" matches no operation (operation matching is case-sensitive: the method must be upper case ("GET /users")), and as a page path no file get /users.mdx exists',
    ]);
    expect(generated(site)).toEqual([]);
  });

  it("an element with operation entries and no openapi of its own or above generates nothing, and says so", async () => {
    const site = await load({
      "docs.json": { navigation: { groups: [{ group: "API", pages: ["GET /users"] }, { group: "Ref", openapi: "openapi.json", pages: ["GET /pets"] }] } },
      "openapi.json": usersSpec(),
    });
    expect(lines(site)).toEqual(['docs.json navigation.groups[0].pages[0]: "GET /users" is an operation entry, but no "openapi" is set on this element or above it: no page is generated']);
    expect(generated(site)).toEqual(["/api-reference/pets/list-pets"]);
  });

  it("an inherited openapi (from a tab, or api.openapi) is used by child groups", async () => {
    const site = await load({
      "docs.json": { api: { openapi: "openapi.json" }, navigation: { tabs: [{ tab: "API", groups: [{ group: "Users", pages: ["GET /users/{id}"] }] }] } },
      "openapi.json": usersSpec(),
    });
    expect(lines(site)).toEqual([]);
    expect(generated(site)).toEqual(["/api-reference/users/get-user"]);
    expect(site.config.navPages.get("/api-reference/users/get-user")).toEqual({ breadcrumbs: ["API", "Users"] });
  });

  it("x-hidden operations get a page but no place in generated navigation", async () => {
    const spec = usersSpec();
    opOf(spec, "/users", "post")["x-hidden"] = true;
    const site = await load({ "docs.json": nav([]), "openapi.json": spec });
    expect(lines(site)).toEqual([]);
    expect(site.api?.plan.nav.map((n) => n.pagePath)).toEqual(["/api-reference/users/list-users", "/api-reference/users/get-user", "/api-reference/pets/list-pets"]);
    expect(site.pages.get("/api-reference/users/create-user")?.meta.noindex).toBe(true);
    expect(site.config.navPages.has("/api-reference/users/create-user")).toBe(false);
  });

  it("an operation whose x-mint metadata says hidden is hidden as x-hidden hides it (before: in the sidebar and nav)", async () => {
    const spec = usersSpec();
    opOf(spec, "/users", "post")["x-mint"] = { metadata: { hidden: true } };
    // `hidden: false` keeps the operation in navigation.
    opOf(spec, "/users/{id}", "get")["x-mint"] = { metadata: { hidden: false } };
    const site = await load({ "docs.json": nav([]), "openapi.json": spec });
    expect(lines(site)).toEqual([]);
    expect(site.api?.plan.nav.map((n) => n.pagePath)).toEqual(["/api-reference/users/list-users", "/api-reference/users/get-user", "/api-reference/pets/list-pets"]);
    expect(site.pages.get("/api-reference/users/create-user")?.meta.hidden).toBe(true);
    expect(site.pages.get("/api-reference/users/create-user")?.meta.noindex).toBe(true);
    expect(site.config.navPages.has("/api-reference/users/create-user")).toBe(false);
    expect(site.config.navPages.has("/api-reference/users/get-user")).toBe(true);
  });

  it("operations with validation errors are skipped with a warning; the others are generated", async () => {
    const spec = usersSpec();
    delete opOf(spec, "/users", "post").responses;
    const site = await load({ "docs.json": nav([]), "openapi.json": spec });
    expect(lines(site)).toEqual(['openapi.json:25:7 paths./users.post: warning: POST /users skipped: invalid operation ((operation): "responses" is required)']);
    expect(generated(site)).toEqual(["/api-reference/pets/list-pets", "/api-reference/users/get-user", "/api-reference/users/list-users"]);
  });

  it("when any operation of a spec is referenced explicitly, only referenced operations appear (children included)", async () => {
    const site = await load({
      "docs.json": { navigation: { groups: [{ group: "API", openapi: "openapi.json", pages: ["intro", { group: "Pets", pages: ["GET /pets"] }] }] } },
      "openapi.json": usersSpec(),
      "intro.mdx": "# Intro",
    });
    expect(lines(site)).toEqual([]);
    expect(generated(site)).toEqual(["/api-reference/pets/list-pets"]);
    expect(site.api?.plan.nav).toEqual([{ element: "navigation.groups[0].pages[1]", entry: "navigation.groups[0].pages[1].pages[0]", pagePath: "/api-reference/pets/list-pets", spec: "openapi.json" }]);
  });

  it("an MDX page and a navigation entry for the same operation: both pages stand, with a warning (the platform builds both)", async () => {
    const site = await load({
      "docs.json": nav(["GET /users", "users"]),
      "openapi.json": usersSpec(),
      "users.mdx": "---\nopenapi: GET /users\n---\nOur users.",
    });
    expect(lines(site)).toEqual([
      'docs.json navigation.groups[0].pages[0]: warning: GET /users (openapi.json) has two pages: the generated /api-reference/users/list-users and users.mdx (front matter openapi); remove one, or set "x-svc": {"href": ...} on the operation to point its page elsewhere',
    ]);
    expect(generated(site)).toEqual(["/api-reference/users/list-users"]);
    expect(site.pages.get("/users")?.generated).toBe(false);
  });

  it("x-svc (or x-mint) href pointing at the MDX page makes it the operation's page: no conflict, nothing generated", async () => {
    const spec = usersSpec();
    opOf(spec, "/users", "get")["x-mint"] = { href: "/users" };
    const site = await load({ "docs.json": nav(["GET /users", "users"]), "openapi.json": spec, "users.mdx": "---\nopenapi: GET /users\n---\nOur users." });
    expect(lines(site)).toEqual([]);
    expect(generated(site)).toEqual([]);
    expect(site.api?.plan.entries.get("navigation.groups[0].pages[0]")).toEqual({ kind: "api-page", pagePath: "/users", spec: "openapi.json" });
    expect(site.api?.pages.get("/users")?.generated).toBe(false);
  });

  it("x-svc href pointing elsewhere moves the generated page there", async () => {
    const spec = usersSpec();
    opOf(spec, "/users", "get")["x-svc"] = { href: "/reference/all-users" };
    const site = await load({ "docs.json": nav(["GET /users", "users"]), "openapi.json": spec, "users.mdx": "---\nopenapi: GET /users\n---\n" });
    expect(lines(site)).toEqual([]);
    expect(generated(site)).toEqual(["/reference/all-users"]);
  });

  it("an entry matching no operation is a file path: fine when the file exists, an error when not", async () => {
    const ok = await load({ "docs.json": nav(["GET /users/{id}/posts"]), "openapi.json": usersSpec(), "GET /users/{id}/posts.mdx": "# odd but real" });
    expect(lines(ok)).toEqual([]);
    expect(ok.api?.plan.entries.get("navigation.groups[0].pages[0]")).toEqual({ kind: "file", reason: "openapi.json has no GET /users/{id}/posts" });
    const missing = await load({ "docs.json": nav(["DELETE /users"]), "openapi.json": usersSpec() });
    expect(lines(missing)).toEqual([
      'docs.json navigation.groups[0].pages[0]: "DELETE /users" matches no operation (openapi.json has no DELETE /users (/users has GET, POST)), and as a page path no file DELETE /users.mdx exists',
    ]);
  });

  it("an openapi object with a directory generates every operation into that folder, grouped by tag", async () => {
    const site = await load({ "docs.json": nav(["intro"], { source: "./openapi.json", directory: "Reference/Store" }), "openapi.json": usersSpec(), "intro.mdx": "# Intro" });
    expect(lines(site)).toEqual([]);
    expect(site.api?.plan.nav).toEqual([
      { element: "navigation.groups[0]", group: "Users", pagePath: "/reference/store/users/list-users", spec: "openapi.json" },
      { element: "navigation.groups[0]", group: "Users", pagePath: "/reference/store/users/create-user", spec: "openapi.json" },
      { element: "navigation.groups[0]", group: "Users", pagePath: "/reference/store/users/get-user", spec: "openapi.json" },
      { element: "navigation.groups[0]", group: "Pets", pagePath: "/reference/store/pets/list-pets", spec: "openapi.json" },
    ]);
  });

  it("a remote spec is not fetched unless the loader is given a fetch; its entries are neither generated nor errors", async () => {
    const site = await load({ "docs.json": nav(["GET /users"], "https://api.example.com/openapi.json") });
    expect(lines(site)).toEqual([]);
    expect(site.api?.plan.unverified).toEqual(["https://api.example.com/openapi.json"]);
    expect(site.api?.plan.entries.get("navigation.groups[0].pages[0]")).toEqual({ kind: "not-generated" });
  });
});
