import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { loadDocsJson } from "../../src/config/load-docs-json.js";
import { tempRepo } from "./temp-repo.js";

const page = (title: string) => `---\ntitle: ${title}\n---\n\n# ${title}\n`;

describe("loadDocsJson", () => {
  it("resolves $refs relative to the file holding them and lists every file read, also a missing one", async () => {
    const root = tempRepo({
      "docs.json": {
        name: "Refs",
        navigation: { languages: [{ $ref: "i18n/en.json" }, { $ref: "./i18n/fr.json", banner: { content: "Bonjour" } }, { $ref: "i18n/de.json" }] },
        redirects: { $ref: "config/redirects.json" },
      },
      "i18n/en.json": { language: "en", groups: [{ $ref: "../groups/start.json" }] },
      "i18n/fr.json": { language: "fr", banner: { content: "Salut" }, pages: ["fr/index"] },
      "groups/start.json": { group: "Start", pages: ["index"] },
      "config/redirects.json": [{ source: "/old", destination: "/index" }],
    });
    const r = await loadDocsJson(root);
    expect(r.files).toEqual(["docs.json", "i18n/en.json", "groups/start.json", "i18n/fr.json", "i18n/de.json", "config/redirects.json"]);
    expect(r.diagnostics.map(formatDiagnostic)).toEqual(['docs.json:15:17 navigation.languages[2].$ref: cannot read "i18n/de.json": file not found']);
    // The language whose file is missing is left out; the others serve.
    expect(r.config?.languages).toEqual(["en", "fr"]);
    expect([...(r.config?.navPages.keys() ?? [])]).toEqual(["/index", "/fr/index"]);
    expect(r.source?.value).toEqual({
      name: "Refs",
      navigation: {
        languages: [
          { language: "en", groups: [{ group: "Start", pages: ["index"] }] },
          // Sibling keys win over the referenced object's.
          { language: "fr", banner: { content: "Bonjour" }, pages: ["fr/index"] },
          { $ref: "i18n/de.json" },
        ],
      },
      redirects: [{ source: "/old", destination: "/index" }],
    });
  });

  it("a $ref holding a NUL is a finding of its own, with its position, the name escaped; nothing is read or listed for it (adversary round 58, F7)", async () => {
    const root = tempRepo({
      "docs.json": '{"name":"X","navigation":{"tabs":[{"$ref":"a.json\\u0000x"},{"tab":"B","pages":["index"]}]}}',
      "a.json": { tab: "A", pages: ["index"] },
    });
    const r = await loadDocsJson(root);
    // Before: cannot read "a.json<NUL>x": The argument 'path' must be ... without null bytes. Received '/tmp/.../a.json\x00x'
    expect(r.diagnostics.map(formatDiagnostic)).toEqual(['docs.json:1:43 navigation.tabs[0].$ref: "$ref" "a.json\\u0000x" is not a file name: it holds a NUL character']);
    expect(r.files).toEqual(["docs.json"]);
  });

  it("a problem in one element costs that element only: every problem at once, the rest read", async () => {
    const root = tempRepo({
      "docs.json": {
        navigation: {
          tabs: [
            { groups: [{ pages: ["a"] }] },
            { tab: "B", directory: "grid", hidden: "yes", pages: ["b", 7], groups: [{ group: "G", pages: ["c"] }] },
            { tab: "C", pages: ["d"] },
          ],
        },
      },
    });
    const r = await loadDocsJson(root);
    expect(r.files).toEqual(["docs.json"]);
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      'docs.json:4:7 navigation.tabs[0]: "tab" is required',
      'docs.json:6:11 navigation.tabs[0].groups[0]: "group" is required',
      'docs.json:13:7 navigation.tabs[1]: warning: holds both "pages" and "groups"; the specification allows one type of child element per level (all are read, in the order written)',
      'docs.json:15:22 navigation.tabs[1].directory: must be one of "none", "accordion", "card"; got "grid"',
      'docs.json:16:19 navigation.tabs[1].hidden: must be true or false; got "yes"',
      'docs.json:19:11 navigation.tabs[1].pages[1]: must be a string or an object; got 7',
    ]);
    // The untitled tab is left out with its pages; tab B loses its unreadable settings and entry
    // (hidden is not read as true); the rest is as written. JSON paths stay those of the file.
    expect(Object.fromEntries(r.config?.navPages ?? [])).toEqual({
      "/b": { breadcrumbs: ["B"] },
      "/c": { breadcrumbs: ["B", "G"] },
      "/d": { breadcrumbs: ["C"] },
    });
    expect(r.config?.sections.map((s) => s.path)).toEqual(["navigation.tabs[1]", "navigation.tabs[2]"]);
    expect(r.source?.value).toMatchObject({ navigation: { tabs: [{}, { directory: "grid", hidden: "yes" }, {}] } });
  });

  it("a docs.json that cannot be read as a whole gives no configuration: no navigation to read", async () => {
    for (const docsJson of [{ name: "No nav" }, { navigation: [] }, { navigation: { tabs: {} } }, "7"]) {
      const r = await loadDocsJson(tempRepo({ "docs.json": docsJson }));
      expect(r.config).toBeUndefined();
      expect(r.document).toBeUndefined();
    }
  });

  it("without docs.json or mint.json: the empty configuration, and both are still watched", async () => {
    const root = tempRepo({ "index.mdx": page("Home") });
    const r = await loadDocsJson(root);
    expect(r.diagnostics).toEqual([]);
    expect(r.files).toEqual(["docs.json", "mint.json"]);
    expect(r.config).toMatchObject({ present: false, indexing: "all", navPages: new Map() });
  });

  it("placements: a page under no version is in every version (versions undefined), same for languages", async () => {
    const root = tempRepo({
      "docs.json": {
        name: "Scopes",
        seo: { indexing: "all" },
        navigation: {
          languages: [
            {
              language: "en",
              versions: [
                { version: "v1", groups: [{ group: "Start", pages: ["shared", "v1/only"] }] },
                { version: "v2", default: true, tag: "Latest", groups: [{ group: "Start", pages: ["shared", "v2/only"] }] },
              ],
            },
            { language: "fr", groups: [{ group: "Démarrer", pages: ["fr/index", "shared"] }] },
          ],
        },
      },
    });
    const r = await loadDocsJson(root);
    expect(r.diagnostics).toEqual([]);
    const c = r.config;
    expect(c?.versions).toEqual(["v1", "v2"]);
    expect(c?.defaultVersion).toBe("v2");
    expect(c?.languages).toEqual(["en", "fr"]);
    expect(c?.indexing).toBe("all");
    expect(Object.fromEntries(c?.navPages ?? [])).toEqual({
      // In every version for search, but listed by name under v1 and v2 only (what a reader is told of).
      "/shared": { versions: undefined, languages: ["en", "fr"], versionListings: ["v1", "v2"], breadcrumbs: ["Start"] },
      "/v1/only": { versions: ["v1"], languages: ["en"], breadcrumbs: ["Start"] },
      "/v2/only": { versions: ["v2"], languages: ["en"], breadcrumbs: ["Start"] },
      "/fr/index": { versions: undefined, languages: ["fr"], breadcrumbs: ["Démarrer"] },
    });
    // Every version's sections, the default's first (one "Start" with the pages of both); the
    // default language's only (fr's "Démarrer" translates it).
    expect(c?.sections).toEqual([{ title: "Start", path: "navigation.languages[0].versions[1].groups[0]", pages: ["/shared", "/v2/only", "/v1/only"] }]);
    expect(c?.versionTags).toEqual(new Map([["v2", "Latest"]]));
    expect(c?.versionPaths).toEqual(
      new Map([
        ["v1", { segment: "v1", prefix: "/v1" }],
        ["v2", { segment: "v2", prefix: "/v2" }],
      ]),
    );
    expect((c?.document?.navigation as { languages: { language: string }[] }).languages[0]?.language).toBe("en");
  });

  it("operation entries are not pages; specs are listed once, local paths normalised", async () => {
    const root = tempRepo({
      "docs.json": {
        api: { openapi: ["./api/openapi.yaml", "https://example.com/openapi.json"] },
        navigation: {
          tabs: [
            { tab: "Guides", pages: ["index"] },
            { tab: "API", openapi: "/api/openapi.yaml", groups: [{ group: "Users", pages: ["GET /users", "api/openapi.yaml POST /users", "api/intro"] }] },
            { tab: "Store", groups: [{ group: "Endpoints", openapi: { source: "store.yaml", directory: "store-api" } }] },
          ],
        },
      },
    });
    const r = await loadDocsJson(root);
    expect(r.diagnostics).toEqual([]);
    expect([...(r.config?.navPages.keys() ?? [])]).toEqual(["/index", "/api/intro"]);
    expect(r.config?.specs).toEqual([
      { source: "api/openapi.yaml", remote: false },
      { source: "store.yaml", remote: false },
      { source: "https://example.com/openapi.json", remote: true },
    ]);
  });
});
