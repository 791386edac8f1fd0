import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { upgradeMintJson } from "../../src/config/mint-json/upgrade-mint-json.js";
import { loadSite, reloadSite } from "../../src/vfs/load-site.js";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "./temp-repo.js";

const page = (title: string) => `---\ntitle: ${title}\n---\n\nAbout ${title}.\n`;
const HEAD = { $schema: "https://mintlify.com/docs.json", theme: "mint" };
const GREEN = { colors: { primary: "#16A34A" } };

describe("mint.json read as the docs.json it stands for", () => {
  it("tabs take the pages under their URL, the rest go to a first tab; links only elsewhere are global; a nested group is split between tabs", () => {
    const { value } = upgradeMintJson({
      name: "Acme",
      colors: { primary: "#0D9373", light: "#07C983", dark: "#0D9373", background: { dark: "#000" } },
      primaryTab: { name: "Guides" },
      tabs: [
        { name: "API Reference", url: "api-reference" },
        { name: "Webhooks", url: "api-reference/webhooks" },
        { name: "Empty", url: "nothing-here" },
      ],
      anchors: [{ name: "Community", icon: "discord", url: "https://discord.gg/acme" }],
      navigation: [
        { group: "Get Started", pages: ["introduction", "api-reference/overview"] },
        { group: "Endpoints", icon: "code", pages: ["api-reference/users", { group: "Events", pages: ["api-reference/webhooks/created", "events/intro"] }] },
      ],
      api: { baseUrl: "https://api.acme.dev", auth: { method: "bearer" }, playground: { mode: "show", disableProxy: true } },
      openapi: "openapi.yaml",
      redirects: [{ source: "/old", destination: "/introduction" }],
      topbarLinks: [{ name: "Blog", url: "https://acme.dev/blog" }],
    });
    expect(value).toEqual({
      ...HEAD,
      name: "Acme",
      colors: { primary: "#0D9373", light: "#07C983", dark: "#0D9373" },
      navigation: {
        tabs: [
          { tab: "Guides", groups: [{ group: "Get Started", pages: ["introduction"] }, { group: "Endpoints", icon: "code", pages: [{ group: "Events", pages: ["events/intro"] }] }] },
          {
            tab: "API Reference",
            groups: [
              { group: "Get Started", pages: ["api-reference/overview"] },
              { group: "Endpoints", icon: "code", pages: ["api-reference/users"] },
            ],
          },
          { tab: "Webhooks", groups: [{ group: "Endpoints", icon: "code", pages: [{ group: "Events", pages: ["api-reference/webhooks/created"] }] }] },
        ],
        global: { anchors: [{ anchor: "Community", href: "https://discord.gg/acme", icon: "discord" }] },
      },
      api: { openapi: "openapi.yaml", playground: { display: "interactive", proxy: false }, mdx: { server: "https://api.acme.dev", auth: { method: "bearer" } } },
      redirects: [{ source: "/old", destination: "/introduction" }],
    });
  });

  it("versions: each has the groups of no version and its own, without pages of a division another version names", () => {
    const { value } = upgradeMintJson({
      versions: ["v2", { name: "v1", default: false }],
      tabs: [
        { name: "Legacy API", url: "api/v1", version: "v1" },
        { name: "API", url: "api" },
      ],
      navigation: [
        { group: "Start", pages: ["index", "api/v1/old", "api/users"] },
        { group: "Only v1", version: "v1", pages: ["v1/notes"] },
        { group: "Only v2", version: "v2", pages: ["v2/notes"] },
      ],
    });
    expect(value).toEqual({
      ...HEAD,
      ...GREEN,
      navigation: {
        versions: [
          {
            version: "v2",
            tabs: [
              { tab: "Documentation", groups: [{ group: "Start", pages: ["index"] }, { group: "Only v2", pages: ["v2/notes"] }] },
              { tab: "API", groups: [{ group: "Start", pages: ["api/users"] }] },
            ],
          },
          {
            version: "v1",
            default: false,
            tabs: [
              { tab: "Documentation", groups: [{ group: "Start", pages: ["index"] }, { group: "Only v1", pages: ["v1/notes"] }] },
              { tab: "Legacy API", groups: [{ group: "Start", pages: ["api/v1/old"] }] },
              { tab: "API", groups: [{ group: "Start", pages: ["api/users"] }] },
            ],
          },
        ],
      },
    });
  });

  it("versions that each name a locale are languages; anchors with a spec take its pages' folder; SEO and the playground's words", () => {
    expect(
      upgradeMintJson({
        versions: [
          { name: "English", locale: "en", default: true },
          { name: "Français", locale: "fr" },
        ],
        navigation: [
          { group: "Start", version: "English", pages: ["en/index"] },
          { group: "Début", version: "Français", pages: ["fr/index"] },
        ],
      }).value.navigation,
    ).toEqual({
      languages: [
        { language: "en", default: true, groups: [{ group: "Start", pages: ["en/index"] }] },
        { language: "fr", groups: [{ group: "Début", pages: ["fr/index"] }] },
      ],
    });
    expect(
      upgradeMintJson({
        topAnchor: { name: "Guides", icon: "book" },
        anchors: [
          { name: "API", icon: "code", iconType: "duotone", url: "api-reference", openapi: "openapi.json", color: { from: "#111111", to: "#222222" } },
          { name: "Status", url: "https://status.x.dev" },
        ],
        navigation: [{ group: "Intro", pages: ["intro"] }],
        seo: { indexHiddenPages: true },
        metadata: { "og:site_name": "X" },
        api: { playground: { mode: "hide" }, request: { example: { languages: ["curl"] } } },
      }).value,
    ).toEqual({
      ...HEAD,
      ...GREEN,
      navigation: {
        anchors: [
          { anchor: "Guides", icon: "book", groups: [{ group: "Intro", pages: ["intro"] }] },
          { anchor: "API", openapi: { source: "openapi.json", directory: "api-reference" }, icon: { name: "code", style: "duotone" }, color: { light: "#111111", dark: "#111111" } },
          { anchor: "Status", href: "https://status.x.dev" },
        ],
      },
      api: { playground: { display: "none" }, examples: { languages: ["curl"] } },
      seo: { metatags: { "og:site_name": "X" }, indexing: "all" },
    });
  });

  it("what is not mint.json's shape is left out and said, never an exception", () => {
    // Not an object at all: docs.json's check says so of the file as written (see the repository tests).
    for (const odd of [[1, 2], null, "mint"]) expect(upgradeMintJson(odd).value.navigation).toEqual({ groups: [] });
    const wrong = upgradeMintJson({ navigation: "nope", tabs: "x", versions: 3 });
    expect(wrong.value.navigation).toBeUndefined();
    expect(wrong.problems).toEqual([
      { path: "navigation", message: 'must be an array of groups; got "nope"', code: "type" },
      { path: "tabs", message: 'must be an array; got "x"', code: "type" },
      { path: "versions", message: "must be an array; got 3", code: "type" },
    ]);
    const entries = upgradeMintJson({ navigation: [null, 3, { group: "G", pages: [4, null] }] });
    expect(entries.value.navigation).toEqual({ groups: [{ group: "G", pages: [] }] });
    expect(entries.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'navigation[0]: must be a group (an object with "group" and "pages"); got null',
      'navigation[1]: must be a group (an object with "group" and "pages"); got 3',
      "navigation[2].pages[0]: must be a page path (a string) or a group; got 4",
      "navigation[2].pages[1]: must be a page path (a string) or a group; got null",
    ]);
  });
});

describe("a repository with mint.json and no docs.json", () => {
  const repo = () =>
    tempRepo({
      "mint.json": {
        name: "Acme",
        tabs: [{ name: "API Reference", url: "api-reference" }],
        navigation: [
          { group: "Get Started", pages: ["introduction"] },
          { group: "Guides", pages: ["guides/auth", { group: "Advanced", pages: ["guides/missing"] }] },
          { group: "Endpoints", pages: ["api-reference/users"] },
        ],
      },
      "introduction.mdx": page("Introduction"),
      "guides/auth.mdx": page("Authentication"),
      "guides/orphan.mdx": page("Orphan"),
      "api-reference/users.mdx": page("Users"),
    });

  it("check reads it, says so, and points each finding at the line of mint.json that wrote it", async () => {
    const run = await runCli(["check", "--dir", repo()]);
    expect(run).toEqual({
      code: 0,
      stderr: "",
      stdout: [
        "mint.json warning: docs.json not found: mint.json, the format before docs.json, is read as the docs.json it stands for (`npx mint upgrade` writes that docs.json)",
        'mint.json:23:13 navigation[1].pages[1].pages[0]: warning: page "guides/missing" not found: no guides/missing.mdx or guides/missing.md',
        "guides/orphan.mdx warning: page is not in the navigation, so search leaves it out (seo.indexing \"all\" includes it)",
        "checked mint.json and 4 pages: 0 errors, 3 warnings",
        "",
      ].join("\n"),
    });
  });

  it("check says every part of mint.json not in its shape once, at its line, under mint.json's own key path", async () => {
    const root = tempRepo({
      "mint.json": [
        '{"name": "M", "navigation": [',
        '  {"group": "A", "pages": ["introduction", 5, null, "missing"]},',
        '  {"group": "B", "pages": "x"},',
        '  "loose",',
        '  {"pages": ["guides/auth"]}',
        ' ],',
        ' "tabs": [{"name": "T", "url": 5}, "s", {"name": 5, "url": "guides"}],',
        ' "anchors": {"x": 1},',
        ' "versions": ["v1", "v2", "v3"],',
        ' "api": {"playground": {"mode": "bogus"}}',
        "}",
      ].join("\n"),
      "introduction.mdx": page("Introduction"),
      "guides/auth.mdx": page("Authentication"),
    });
    expect(await runCli(["check", "--dir", root])).toEqual({
      code: 1,
      stderr: "",
      stdout: [
        "mint.json warning: docs.json not found: mint.json, the format before docs.json, is read as the docs.json it stands for (`npx mint upgrade` writes that docs.json)",
        "mint.json:2:44 navigation[0].pages[1]: must be a page path (a string) or a group; got 5",
        "mint.json:2:47 navigation[0].pages[2]: must be a page path (a string) or a group; got null",
        'mint.json:2:53 navigation[0].pages[3]: warning: page "missing" not found: no missing.mdx or missing.md',
        'mint.json:3:27 navigation[1].pages: must be an array; got "x"',
        'mint.json:4:3 navigation[2]: must be a group (an object with "group" and "pages"); got "loose"',
        'mint.json:5:3 navigation[3]: "group" is required',
        "mint.json:7:32 tabs[0].url: must be a string; got 5",
        'mint.json:7:36 tabs[1]: must be an object with "name" and "url"; got "s"',
        "mint.json:7:50 tabs[2].name: must be a string; got 5",
        "mint.json:8:13 anchors: must be an array; got an object",
        'mint.json:10:33 api.playground.mode: must be one of "show", "simple", "hide"; got "bogus"',
        'guides/auth.mdx warning: page is listed only in a part of docs.json that cannot be read (above), so search leaves it out (seo.indexing "all" includes it)',
        "checked mint.json and 2 pages: 10 errors, 3 warnings",
        "",
      ].join("\n"),
    });
  });

  it("a mint.json that is not an object, or whose navigation is not a list of groups, is an error, and every page stays searchable", async () => {
    for (const [mint, finding] of [
      ['[{"group": "A", "pages": ["introduction"]}]', "mint.json:1:1 the top level must be an object; got an array"],
      ['{"name": "M", "navigation": {"group": "A", "pages": ["introduction"]}}', "mint.json:1:29 navigation: must be an array of groups; got an object"],
    ] as const) {
      const root = tempRepo({ "mint.json": mint, "introduction.mdx": page("Introduction"), "guides/auth.mdx": page("Authentication") });
      const check = await runCli(["check", "--dir", root]);
      expect({ code: check.code, lines: check.stdout.split("\n").slice(1, 2) }).toEqual({ code: 1, lines: [finding] });
      const search = await runCli(["search", "authentication", "--dir", root, "--json"]);
      expect((JSON.parse(search.stdout) as { path: string }[]).map((r) => r.path)).toEqual(["/guides/auth"]);
    }
  });

  it("nav shows its tabs and groups", async () => {
    const run = await runCli(["nav", "--dir", repo()]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      [
        "Acme",
        "root: tabs",
        "eyebrows: theme default",
        "drilldown: theme default",
        "",
        "tab Documentation",
        "  group Get Started",
        "    Introduction  /introduction",
        "  group Guides",
        "    Authentication  /guides/auth",
        "    group Advanced  (collapsed)",
        "      Missing  /guides/missing  (no file)",
        "tab API Reference",
        "  group Endpoints",
        "    Users  /api-reference/users",
        "",
      ].join("\n"),
    );
  });

  it("a docs.json created while serving is read instead; one deleted with a stale mint.json beside it keeps the last good configuration", async () => {
    const root = repo();
    const first = await loadSite(root);
    expect([...first.site.config.navPages.keys()]).toEqual(["/introduction", "/guides/auth", "/guides/missing", "/api-reference/users"]);
    writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Acme 2", navigation: { groups: [{ group: "Start", pages: ["introduction"] }] } }));
    const converted = await reloadSite(first, ["docs.json"]);
    expect(converted.site.diagnostics.map(formatDiagnostic)).toEqual([]);
    expect([...converted.site.config.navPages.keys()]).toEqual(["/introduction"]);
    rmSync(join(root, "docs.json"));
    const deleted = await reloadSite(converted, ["docs.json"]);
    expect(deleted.site.config.name).toBe("Acme 2");
    expect([...deleted.site.config.navPages.keys()]).toEqual(["/introduction"]);
    expect(deleted.site.diagnostics.map(formatDiagnostic)).toEqual([
      "mint.json warning: docs.json not found: mint.json, the format before docs.json, is read as the docs.json it stands for (`npx mint upgrade` writes that docs.json)",
      "docs.json docs.json is missing; still serving the last good configuration (Acme 2); put it back, or restart to serve this folder from its mint.json",
    ]);
    // A later reload keeps it too.
    writeFileSync(join(root, "introduction.mdx"), page("Intro"));
    const later = await reloadSite(deleted, ["introduction.mdx"]);
    expect(later.site.config.name).toBe("Acme 2");
  });
});
