import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { NavTree } from "../../src/config/docs-json/nav-tree.js";
import { makeRepo } from "../helpers/repo.js";
import { runCli } from "../helpers/cli.js";
import { REPO } from "../helpers/paths.js";

/**
 * `hidden: true` on navigation elements and in page front matter: `svc-mcp nav` shows hidden
 * elements and pages, marked (an author reads nav to see the whole configuration), and `check`
 * validates them like any other.
 */
const DEMO = join(REPO, "fixtures/hidden-demo");
const expected = (name: string): string => readFileSync(join(DEMO, name), "utf8");

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe("svc-mcp nav with hidden elements", () => {
  it("text: hidden elements and pages are listed, marked (hidden) or (hidden, searchable)", async () => {
    expect(await runCli(["nav", "--dir", DEMO])).toEqual({ code: 0, stdout: expected("expected-nav.txt"), stderr: "" });
  });

  it("JSON: hidden: true on hidden elements, versions and pages", async () => {
    const run = await runCli(["nav", "--dir", DEMO, "--json"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(expected("expected-nav.json"));
  });

  it("pages[]: hidden when every listing is hidden or the front matter says so; searchable when a hidden element keeps it in search", async () => {
    const tree = JSON.parse((await runCli(["nav", "--dir", DEMO, "--json"])).stdout) as NavTree;
    expect(tree.pages.map((p) => [p.page, p.hidden ?? false, p.searchable ?? false])).toEqual([
      ["/index", false, false],
      // Hidden under v1, visible under v2: visible.
      ["/guides/install", false, false],
      ["/guides/draft", true, false],
      ["/guides/snippets", true, true],
      ["/labs/teleport", true, false],
      ["/internal/runbook", true, false],
      ["/v1/setup", true, false],
    ]);
  });

  it("--version selects a hidden version like any other", async () => {
    const run = await runCli(["nav", "--dir", DEMO, "--version", "v1"]);
    expect(run).toEqual({
      code: 0,
      stdout: [
        "Hidden Demo",
        "root: versions",
        "versions: v2 (default), v1 (hidden)",
        "eyebrows: theme default",
        "drilldown: theme default",
        "showing: version v1",
        "",
        "version v1  (hidden)",
        "  group Legacy",
        "    Widget setup (v1)  /v1/setup",
        "    Install widgets  /guides/install",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("hidden languages, anchors and dropdowns are marked too", async () => {
    const repo = makeRepo({
      "docs.json": JSON.stringify({
        name: "Lang",
        navigation: {
          languages: [
            { language: "en", anchors: [{ anchor: "Docs", pages: ["index"] }, { anchor: "Old", hidden: true, dropdowns: [{ dropdown: "Beta", hidden: true, searchable: true, pages: ["beta"] }] }] },
            { language: "fr", hidden: true, pages: ["fr/index"] },
          ],
        },
      }),
      "index.mdx": "# Home\n",
      "beta.mdx": "# Beta\n",
      "fr/index.mdx": "# Accueil\n",
    });
    cleanup = repo.cleanup;
    expect(await runCli(["nav", "--dir", repo.dir])).toEqual({
      code: 0,
      stdout: [
        "Lang",
        "root: languages",
        "languages: en (default), fr (hidden)",
        "eyebrows: theme default",
        "drilldown: theme default",
        "",
        "language en",
        "  anchor Docs",
        "    Home  /index",
        "  anchor Old  (hidden)",
        "    dropdown Beta  (hidden, searchable)",
        "      Beta  /beta",
        "language fr  (hidden)",
        "  Accueil  /fr/index",
        "",
      ].join("\n"),
      stderr: "",
    });
    const tree = JSON.parse((await runCli(["nav", "--dir", repo.dir, "--json"])).stdout) as NavTree;
    expect(tree.languages.map((l) => [l.language, l.hidden ?? false])).toEqual([
      ["en", false],
      ["fr", true],
    ]);
    // The hidden anchor keeps its pages out of search, whatever its dropdown says.
    expect(tree.pages.map((p) => [p.page, p.hidden ?? false, p.searchable ?? false])).toEqual([
      ["/index", false, false],
      ["/beta", true, false],
      ["/fr/index", true, false],
    ]);
  });
});

describe("svc-mcp check with hidden elements", () => {
  it("the fixture checks clean (its unlisted page aside)", async () => {
    expect(await runCli(["check", "--dir", DEMO])).toEqual({
      code: 0,
      stdout: [
        'notes/orphan.mdx warning: page is not in the navigation, so search leaves it out (seo.indexing "all" includes it)',
        "checked docs.json and 8 pages (+1 generated from API specs): 0 errors, 1 warning",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("validates what hidden elements hold: a missing page, a wrongly typed hidden", async () => {
    const repo = makeRepo({
      "docs.json": JSON.stringify(
        {
          name: "Check",
          navigation: {
            tabs: [
              { tab: "Docs", pages: ["index"] },
              { tab: "Secret", hidden: true, groups: [{ group: "G", hidden: "yes", pages: ["missing"] }] },
            ],
          },
        },
        null,
        2,
      ),
      "index.mdx": "---\nhidden: 1\n---\n# Home\n",
    });
    cleanup = repo.cleanup;
    const run = await runCli(["check", "--dir", repo.dir]);
    expect(run).toEqual({
      code: 1,
      stdout: [
        'docs.json:17:23 navigation.tabs[1].groups[0].hidden: must be true or false; got "yes"',
        'docs.json:19:15 navigation.tabs[1].groups[0].pages[0]: warning: page "missing" not found: no missing.mdx or missing.md',
        "index.mdx:2 hidden: warning: must be true or false; got 1",
        "checked docs.json and 1 page: 1 error, 2 warnings",
        "",
      ].join("\n"),
      stderr: "",
    });
  });
});
