import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempRepo } from "./temp-repo.js";

/**
 * Shapes real, working docs.json files have that the specification does not describe, each
 * written here as a small pattern (not copied from any site): `check` must not call them errors,
 * and `nav` / `search` must read them.
 */

const page = (title: string, text = `About ${title.toLowerCase()}.`): string => `---\ntitle: ${title}\n---\n\n${text}\n`;

describe("navigation shapes beyond the specification", () => {
  it("a product with a menu whose items hold dropdowns of tabs", async () => {
    const dir = tempRepo({
      "docs.json": {
        name: "Menus",
        navigation: {
          products: [
            {
              product: "Platform",
              menu: [
                { item: "Home", pages: ["index"] },
                {
                  item: "Build",
                  dropdowns: [
                    { dropdown: "Python", tabs: [{ tab: "Guides", pages: ["py/start"] }] },
                    { dropdown: "Node", tabs: [{ tab: "Guides", pages: ["node/start"] }] },
                  ],
                },
              ],
            },
          ],
        },
      },
      "index.mdx": page("Home"),
      "py/start.mdx": page("Python start"),
      "node/start.mdx": page("Node start"),
    });
    expect(await runCli(["check", "--dir", dir])).toEqual({ code: 0, stdout: "checked docs.json and 3 pages: no problems\n", stderr: "" });
    const nav = await runCli(["nav", "--dir", dir]);
    expect(nav.stdout).toBe(
      [
        "Menus",
        "root: products",
        "eyebrows: theme default",
        "drilldown: theme default",
        "",
        "product Platform",
        "  menu item Home",
        "    Home  /index",
        "  menu item Build",
        "    dropdown Python",
        "      tab Guides",
        "        Python start  /py/start",
        "    dropdown Node",
        "      tab Guides",
        "        Node start  /node/start",
        "",
      ].join("\n"),
    );
  });

  it("a menu item of a tab holds only groups, pages and links by the specification: a warning, and what it holds is read", async () => {
    const dir = tempRepo({
      "docs.json": { navigation: { tabs: [{ tab: "Docs", menu: [{ item: "Build", dropdowns: [{ dropdown: "Py", pages: ["index"] }] }] }] } },
      "index.mdx": page("Home"),
    });
    expect(await runCli(["check", "--dir", dir])).toEqual({
      code: 0,
      stdout: [
        'docs.json:9:13 navigation.tabs[0].menu[0].dropdowns: warning: a menu item holds only groups, pages and external links; "dropdowns" is read all the same',
        "checked docs.json and 1 page: 0 errors, 1 warning",
        "",
      ].join("\n"),
      stderr: "",
    });
    expect((await runCli(["nav", "--dir", dir])).stdout.split("\n").slice(5)).toEqual(["tab Docs", "  menu item Build", "    dropdown Py", "      Home  /index", ""]);
  });

  it("pages inside an array the model does not know are navigation", async () => {
    const dir = tempRepo({
      "docs.json": {
        name: "Products",
        navigation: {
          tabs: [
            {
              tab: "Docs",
              groups: [{ group: "Start", pages: ["index"] }],
              productGroups: [{ group: "Products", products: [{ product: "Cache", groups: [{ group: "Cache", pages: ["cache/intro"] }] }] }],
            },
          ],
        },
      },
      "index.mdx": page("Home"),
      "cache/intro.mdx": page("Cache intro", "Evictions happen at midnight."),
    });
    expect(await runCli(["check", "--dir", dir])).toEqual({ code: 0, stdout: "checked docs.json and 2 pages: no problems\n", stderr: "" });
    const nav = JSON.parse((await runCli(["nav", "--json", "--dir", dir])).stdout) as { pages: unknown[] };
    expect(nav.pages).toEqual([
      { page: "/index", title: "Home", file: "index.mdx", versions: null, languages: null, breadcrumbs: ["Docs", "Start"], path: "navigation.tabs[0].groups[0].pages[0]" },
      {
        page: "/cache/intro",
        title: "Cache intro",
        file: "cache/intro.mdx",
        versions: null,
        languages: null,
        breadcrumbs: ["Docs", "Products", "Cache", "Cache"],
        path: 'navigation.tabs[0].productGroups[0].products[0].groups[0].pages[0]',
      },
    ]);
    const search = JSON.parse((await runCli(["search", "evictions midnight", "--json", "--dir", dir])).stdout) as { path: string }[];
    expect(search.map((h) => h.path)).toEqual(["/cache/intro"]);
  });

  it("global anchors written on each language show on its pages only", async () => {
    const dir = tempRepo({
      "docs.json": {
        navigation: {
          global: { anchors: [{ anchor: "Status", href: "https://status.example.com" }] },
          languages: [
            { language: "en", global: { anchors: [{ anchor: "Blog", href: "https://example.com/blog" }] }, pages: ["index"] },
            { language: "fr", global: { anchors: [{ anchor: "Blogue", href: "/fr/blog" }] }, pages: ["fr/index", "fr/blog"] },
          ],
        },
      },
      "index.mdx": page("Home"),
      "fr/index.mdx": page("Accueil"),
      "fr/blog.mdx": page("Blogue"),
    });
    const all = JSON.parse((await runCli(["nav", "--json", "--dir", dir])).stdout) as { globalAnchors: unknown };
    expect(all.globalAnchors).toEqual([
      { anchor: "Status", href: "https://status.example.com", icon: null, external: true },
      { anchor: "Blog", href: "https://example.com/blog", icon: null, external: true, language: "en" },
      { anchor: "Blogue", href: "/fr/blog", icon: null, external: false, language: "fr" },
    ]);
    const fr = JSON.parse((await runCli(["nav", "--json", "--language", "fr", "--dir", dir])).stdout) as { globalAnchors: unknown };
    expect(fr.globalAnchors).toEqual([
      { anchor: "Status", href: "https://status.example.com", icon: null, external: true },
      { anchor: "Blogue", href: "/fr/blog", icon: null, external: false, language: "fr" },
    ]);
    expect((await runCli(["nav", "--dir", dir])).stdout.split("\n")[3]).toBe(
      "global anchors: Status -> https://status.example.com, Blog -> https://example.com/blog (en), Blogue -> /fr/blog (fr)",
    );
  });

  // Before: an error (exit 1), while the hosted platform deploys such a site (a real one lists an
  // `mcp` page in its navigation): a warning now, as for every path the platform accepts.
  it("a language's global anchor pointing at a reserved path is warned about", async () => {
    const dir = tempRepo({
      "docs.json": { navigation: { languages: [{ language: "en", global: { anchors: [{ anchor: "MCP", href: "/mcp" }] }, pages: ["index"] }] } },
      "index.mdx": page("Home"),
    });
    expect((await runCli(["check", "--dir", dir])).stdout).toBe(
      [
        'docs.json:10:23 navigation.languages[0].global.anchors[0].href: warning: "/mcp" is reserved for the MCP server; use another path',
        "checked docs.json and 1 page: 0 errors, 1 warning",
        "",
      ].join("\n"),
    );
  });
});

describe("check messages on real-world slips", () => {
  it("a group that would generate every operation of an unfetched remote spec says no pages are generated", async () => {
    const dir = tempRepo({
      "docs.json": { navigation: { groups: [{ group: "Start", pages: ["index"] }, { group: "REST API", openapi: "https://api.example.com/openapi.json" }] } },
      "index.mdx": page("Home"),
    });
    expect((await runCli(["check", "--dir", dir])).stdout).toBe(
      [
        "docs.json:12:20 navigation.groups[1].openapi: warning: https://api.example.com/openapi.json is not fetched, so no API pages are generated from it (--fetch-remote fetches it)",
        "checked docs.json and 1 page: 0 errors, 1 warning",
        "",
      ].join("\n"),
    );
  });

  it("a listed page skipped for its front matter is named as skipped, not missing", async () => {
    const dir = tempRepo({
      "docs.json": { navigation: { pages: ["index", "setup"] } },
      "index.mdx": page("Home"),
      "setup.mdx": "---\ntitle: Setup: the basics\n---\n\nBody\n",
    });
    expect((await runCli(["check", "--dir", dir])).stdout).toBe(
      [
        'docs.json:5:7 navigation.pages[1]: warning: page "setup" not found: setup.mdx is skipped (line 2: invalid front matter: a value holding ": " must be quoted: title: "Setup: the basics")',
        'setup.mdx:2 warning: skipped: invalid front matter: a value holding ": " must be quoted: title: "Setup: the basics"',
        "checked docs.json and 1 page: 0 errors, 2 warnings",
        "",
      ].join("\n"),
    );
  });

  it("a Markdown page without front matter is titled by its first-line heading", async () => {
    const dir = tempRepo({
      "docs.json": { navigation: { pages: ["index", "notes"] } },
      "index.md": "---\nsummary: front matter without a title\n---\n# The Gateway\n\nIt routes messages.\n",
      "notes.md": "Plain notes, no heading first.\n\n# Later heading\n",
    });
    const nav = await runCli(["nav", "--dir", dir]);
    expect(nav.stdout.split("\n").slice(-3)).toEqual(["The Gateway  /index", "Notes  /notes", ""]);
    const hits = JSON.parse((await runCli(["search", "routes messages", "--json", "--dir", dir])).stdout) as { title: string }[];
    expect(hits.map((h) => h.title)).toEqual(["The Gateway"]);
  });
});

describe("navigation entries whose page is not there (issue 24)", () => {
  // The hosted platform builds such a site, logging `"x" is referenced in the docs.json navigation
  // but the file does not exist` and listing the entry under a title made from its path: a
  // warning here too, so `check` passes. A file that is there but unreadable breaks the page: an error.
  it("a missing or ignored page file is a warning and check exits 0", async () => {
    const dir = tempRepo({
      "docs.json": { navigation: { groups: [{ group: "A", pages: ["index", "guides/missing", "drafts/plan"] }] } },
      ".mintignore": "drafts/\n",
      "index.mdx": page("Home"),
      "drafts/plan.mdx": page("Plan"),
    });
    expect(await runCli(["check", "--dir", dir])).toEqual({
      code: 0,
      stdout: [
        'docs.json:8:11 navigation.groups[0].pages[1]: warning: page "guides/missing" not found: no guides/missing.mdx or guides/missing.md',
        'docs.json:9:11 navigation.groups[0].pages[2]: warning: page "drafts/plan" not found: drafts/plan.mdx is excluded by the ignore file (.svcignore or .mintignore)',
        "checked docs.json and 1 page: 0 errors, 2 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("an entry written as an operation that generates no page stays an error", async () => {
    const dir = tempRepo({
      "docs.json": { navigation: { groups: [{ group: "A", pages: ["index", "get /users"] }] } },
      "index.mdx": page("Home"),
    });
    const run = await runCli(["check", "--dir", dir]);
    expect(run).toEqual({
      code: 1,
      stdout: [
        'docs.json:8:11 navigation.groups[0].pages[1]: "get /users" is an operation entry, but no "openapi" is set on this element or above it: no page is generated',
        "checked docs.json and 1 page: 1 error, 0 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
  });
});

describe("page entries written loosely", () => {
  it("./ and doubled slashes name the same page; .. names none", async () => {
    const dir = tempRepo({
      "docs.json": { navigation: { groups: [{ group: "A", pages: ["./index", "guides//setup"] }, { group: "B", pages: ["/index/", "../outside"] }] } },
      "index.mdx": page("Home"),
      "guides/setup.mdx": page("Setup"),
    });
    expect((await runCli(["check", "--dir", dir])).stdout).toBe(
      [
        'docs.json:14:11 navigation.groups[1].pages[0]: warning: page "/index/" is listed twice (first at navigation.groups[0].pages[0]); both listings show it, and it is placed (breadcrumbs) where it is first listed',
        'docs.json:15:11 navigation.groups[1].pages[1]: warning: page "../outside" not found: no ../outside.mdx or ../outside.md',
        "checked docs.json and 2 pages: 0 errors, 2 warnings",
        "",
      ].join("\n"),
    );
  });
});

describe("a docs.json with errors at start-up", () => {
  const pages = {
    "v1/rotate-keys.mdx": page("Rotate keys (v1)", "Rotate signing keys every month."),
    "v2/rotate-keys.mdx": page("Rotate keys (v2)", "Rotate signing keys every week."),
    "unlisted.mdx": page("Unlisted", "Rotate signing keys by hand."),
  };
  const hits = async (dir: string, ...args: string[]) =>
    (JSON.parse((await runCli(["search", "rotate signing keys", ...args, "--json", "--dir", dir])).stdout) as { path: string }[]).map((h) => h.path).sort();

  it("an element that cannot be read costs only itself: versions serve, and a page outside navigation stays out of search", async () => {
    const dir = tempRepo({
      "docs.json": {
        navigation: {
          versions: [
            { version: "v1", groups: [{ group: "Guides", directory: "grid", pages: ["v1/rotate-keys"] }] },
            { version: "v2", groups: [{ group: "Guides", pages: ["v2/rotate-keys", 42] }] },
          ],
        },
      },
      ...pages,
    });
    const check = await runCli(["check", "--dir", dir]);
    expect(check.code).toBe(1);
    expect(await hits(dir, "--version", "v2")).toEqual(["/v2/rotate-keys"]);
    expect(await hits(dir, "--version", "v1")).toEqual(["/v1/rotate-keys"]);
  });

  it("one that leaves no navigation to read still serves its pages, every one searchable", async () => {
    const dir = tempRepo({ "docs.json": { navigation: { versions: { v1: ["v1/rotate-keys"] } } }, ...pages });
    expect((await runCli(["check", "--dir", dir])).stdout.split("\n")[0]).toBe("docs.json:3:17 navigation.versions: must be an array; got an object");
    expect(await hits(dir)).toEqual(["/unlisted", "/v1/rotate-keys", "/v2/rotate-keys"]);
  });
});

describe("one unreadable element and one unknown language code", () => {
  it("cost only themselves: hidden marks, navigation-based indexing and language filters hold for the rest", async () => {
    const dir = tempRepo({
      "docs.json": {
        navigation: {
          languages: [
            { language: "en", groups: [{ group: "Keys", pages: ["en/rotate-keys"] }, { group: "Internal", hidden: true, pages: ["en/rotate-internal"] }] },
            { language: "xx", groups: [{ group: "Keys", pages: ["xx/rotate-keys"] }] },
            { language: "fr", groups: [{ group: "Clés", pages: ["fr/rotate-keys"] }, { pages: ["fr/orphan"] }] },
          ],
        },
      },
      "en/rotate-keys.mdx": page("Rotate keys", "Rotate signing keys every week."),
      "en/rotate-internal.mdx": page("Rotate keys internally", "Rotate signing keys by script."),
      "xx/rotate-keys.mdx": page("Rotate keys (xx)", "Rotate signing keys, xx."),
      "fr/rotate-keys.mdx": page("Tourner les clés", "Rotate signing keys chaque semaine."),
      "fr/orphan.mdx": page("Orpheline", "Rotate signing keys, orphan."),
      "unlisted.mdx": page("Unlisted", "Rotate signing keys by hand."),
    });
    const check = await runCli(["check", "--dir", dir]);
    expect(check.stdout).toBe(
      [
        'docs.json:23:21 navigation.languages[1].language: must be a supported language code (ar, ca, cs, cn, zh-Hant, nl, en, fi, fr, de, he, hi, hu, id, it, jp, ko, lv, no, pl, pt-BR, ro, ru, es, sv, tr, uk, uz, vi; the platform also takes zh, zh-Hans, zh-CN, zh-TW, ja, ja-JP, ua, pt, fr-CA, da); got "xx"',
        'docs.json:42:11 navigation.languages[2].groups[1]: "group" is required',
        'fr/orphan.mdx warning: page is listed only in a part of docs.json that cannot be read (above), so search leaves it out (seo.indexing "all" includes it)',
        'unlisted.mdx warning: page is not in the navigation, so search leaves it out (seo.indexing "all" includes it)',
        "checked docs.json and 6 pages: 2 errors, 2 warnings",
        "",
      ].join("\n"),
    );
    const hits = async (...args: string[]) =>
      (JSON.parse((await runCli(["search", "rotate signing keys", ...args, "--json", "--dir", dir])).stdout) as { path: string; otherLanguages?: { path: string }[] }[])
        .flatMap((h) => [h.path, ...(h.otherLanguages ?? []).map((o) => o.path)])
        .sort();
    // Unfiltered, the copies are one result with the other languages listed on it.
    expect(await hits()).toEqual(["/en/rotate-keys", "/fr/rotate-keys", "/xx/rotate-keys"]);
    expect(await hits("--language", "fr")).toEqual(["/fr/rotate-keys"]);
    expect(await hits("--language", "XX")).toEqual(["/xx/rotate-keys"]);
    const nav = await runCli(["nav", "--dir", dir]);
    expect(nav.stdout.split("\n").slice(1)).toEqual([
      "root: languages",
      "languages: en (default), xx, fr",
      "eyebrows: theme default",
      "drilldown: theme default",
      "",
      "language en",
      "  group Keys",
      "    Rotate keys  /en/rotate-keys",
      "  group Internal  (hidden)",
      "    Rotate keys internally  /en/rotate-internal",
      "language xx",
      "  group Keys",
      "    Rotate keys (xx)  /xx/rotate-keys",
      "language fr",
      "  group Clés",
      "    Tourner les clés  /fr/rotate-keys",
      "",
    ]);
  });
  it("legacy group keys: isDefaultOpen is ignored and a group without pages is shown empty, both warnings", async () => {
    const dir = tempRepo({
      "docs.json": { name: "Legacy", navigation: { groups: [{ group: "Start", isDefaultOpen: true, pages: ["index", { group: "Nested", isDefaultOpen: false, pages: ["deep"] }] }, { group: "Coming soon" }] } },
      "index.mdx": page("Home"),
      "deep.mdx": page("Deep"),
    });
    expect(await runCli(["check", "--dir", dir])).toEqual({
      code: 0,
      stdout: [
        'docs.json:7:9 navigation.groups[0].isDefaultOpen: warning: is not a docs.json key and has no effect ("expanded": true opens a nested group)',
        'docs.json:12:13 navigation.groups[0].pages[1].isDefaultOpen: warning: is not a docs.json key and has no effect ("expanded": true opens a nested group)',
        'docs.json:19:7 navigation.groups[1]: warning: has no "pages" (or "openapi" to generate them): the group is shown empty',
        "checked docs.json and 2 pages: 0 errors, 3 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
    const nav = await runCli(["nav", "--dir", dir]);
    expect(nav).toEqual({
      code: 0,
      stdout: ["Legacy", "root: groups", "eyebrows: theme default", "drilldown: theme default", "", "group Start", "  Home  /index", "  group Nested  (collapsed)", "    Deep  /deep", "group Coming soon", ""].join("\n"),
      stderr: "",
    });
    const found = await runCli(["search", "--dir", dir, "deep"]);
    expect(found.code).toBe(0);
    expect(found.stdout).toContain("/deep");
  });
});
