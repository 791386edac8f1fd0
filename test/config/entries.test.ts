import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { defaultResolveEntry, type ResolveEntry } from "../../src/config/docs-json/entries.js";
import { listSpecReferences } from "../../src/config/docs-json/spec-references.js";
import { checkSite } from "../../src/vfs/check-site.js";
import { tempRepo } from "./temp-repo.js";

const spec = (source: string) => [{ raw: source, source, remote: false, path: "x.openapi" }];

describe("operation entries", () => {
  it("the default hook: an operation under an openapi, unmatched without one, a file otherwise", () => {
    const scope = { openapi: spec("api.yaml"), asyncapi: [], path: "p" };
    const none = { openapi: [], asyncapi: [], path: "p" };
    expect(defaultResolveEntry("GET /users", scope)).toEqual({ kind: "operation" });
    expect(defaultResolveEntry("GET /users", none)).toEqual({
      kind: "unmatched",
      hint: 'no "openapi" on this element or above it, so no API page is generated for it',
    });
    expect(defaultResolveEntry("post /users", scope)).toEqual({ kind: "file", hint: 'an API operation needs an uppercase method: "POST /users"' });
    expect(defaultResolveEntry("api.yaml get /users/{id}", scope)).toEqual({ kind: "file", hint: 'an API operation needs an uppercase method: "api.yaml GET /users/{id}"' });
    expect(defaultResolveEntry("api.yaml DELETE /users", scope)).toEqual({ kind: "operation" });
    expect(defaultResolveEntry("guides/GET started", scope)).toEqual({ kind: "file" });
    expect(defaultResolveEntry("guides/setup", scope)).toEqual({ kind: "file" });
  });

  it("check asks the hook, so the OpenAPI engine can plug real matching in", async () => {
    const root = tempRepo({
      "docs.json": { navigation: { openapi: "api.yaml", pages: ["index", "GET /users", "GET /user", "changelog"] } },
      "index.mdx": "# Home\n",
      "api.yaml": 'openapi: 3.0.3\ninfo: {title: Demo, version: "1"}\npaths:\n  /users:\n    get:\n      summary: List users\n      responses: {"200": {description: OK}}\n',
    });
    const seen: string[] = [];
    const hook: ResolveEntry = (entry, scope) => {
      seen.push(`${entry} <- ${scope.openapi.map((s) => s.source).join(",")} @ ${scope.path}`);
      if (entry === "GET /users") return { kind: "operation", title: "List users" };
      if (entry === "GET /user") return { kind: "unmatched", hint: 'api.yaml has "GET /users"' };
      if (entry === "changelog") return { kind: "operation" };
      return { kind: "file" };
    };
    const result = await checkSite(root, { resolveEntry: hook });
    // The API reference's own finding at the same entry is not repeated.
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'docs.json:7:7 navigation.pages[2]: "GET /user" matches no API operation: api.yaml has "GET /users"',
    ]);
    expect(seen).toContain("GET /users <- api.yaml @ navigation.pages[1]");
  });
});

describe("listSpecReferences", () => {
  it("lists every openapi/asyncapi with the element it sits on and what inherits it", () => {
    const doc = {
      api: { openapi: "./api.yaml" },
      navigation: {
        openapi: "root.yaml",
        tabs: [
          { tab: "A", pages: ["GET /a"] },
          {
            tab: "B",
            openapi: { source: "/b.yaml", directory: "b-api/" },
            groups: [{ group: "G", pages: ["GET /b", { group: "H", openapi: ["h1.yaml", "https://example.com/h2.json"], asyncapi: "events.yaml", pages: ["POST /h"] }] }],
          },
        ],
      },
    };
    expect(listSpecReferences(doc)).toEqual([
      {
        kind: "openapi",
        path: "navigation.openapi",
        element: "navigation",
        sources: [{ raw: "root.yaml", source: "root.yaml", remote: false, path: "navigation.openapi" }],
        inheritedBy: ["navigation.tabs[0]"],
        entries: [{ path: "navigation.tabs[0].pages[0]", entry: "GET /a" }],
      },
      {
        kind: "openapi",
        path: "navigation.tabs[1].openapi",
        element: "navigation.tabs[1]",
        sources: [{ raw: "/b.yaml", source: "b.yaml", remote: false, directory: "b-api", path: "navigation.tabs[1].openapi.source" }],
        inheritedBy: ["navigation.tabs[1].groups[0]"],
        entries: [{ path: "navigation.tabs[1].groups[0].pages[0]", entry: "GET /b" }],
      },
      {
        kind: "openapi",
        path: "navigation.tabs[1].groups[0].pages[1].openapi",
        element: "navigation.tabs[1].groups[0].pages[1]",
        sources: [
          { raw: "h1.yaml", source: "h1.yaml", remote: false, path: "navigation.tabs[1].groups[0].pages[1].openapi[0]" },
          { raw: "https://example.com/h2.json", source: "https://example.com/h2.json", remote: true, path: "navigation.tabs[1].groups[0].pages[1].openapi[1]" },
        ],
        inheritedBy: [],
        entries: [{ path: "navigation.tabs[1].groups[0].pages[1].pages[0]", entry: "POST /h" }],
      },
      {
        kind: "asyncapi",
        path: "navigation.tabs[1].groups[0].pages[1].asyncapi",
        element: "navigation.tabs[1].groups[0].pages[1]",
        sources: [{ raw: "events.yaml", source: "events.yaml", remote: false, path: "navigation.tabs[1].groups[0].pages[1].asyncapi" }],
        inheritedBy: [],
        entries: [{ path: "navigation.tabs[1].groups[0].pages[1].pages[0]", entry: "POST /h" }],
      },
      {
        kind: "openapi",
        path: "api.openapi",
        element: "api",
        sources: [{ raw: "./api.yaml", source: "api.yaml", remote: false, path: "api.openapi" }],
        inheritedBy: [],
        entries: [],
      },
    ]);
  });
});
