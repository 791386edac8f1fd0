import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { NavTree } from "../../src/config/docs-json/nav-tree.js";
import { runCli } from "../helpers/cli.js";
import { REPO, SHARED } from "../helpers/paths.js";
import { itShared } from "../helpers/shared.js";
import { tempRepo } from "./temp-repo.js";

const DEMO = join(REPO, "fixtures/nav-demo");
const expected = (name: string): string => readFileSync(join(DEMO, name), "utf8");

describe("svc-mcp nav", () => {
  it("prints the resolved tree as text", async () => {
    const run = await runCli(["nav", "--dir", DEMO]);
    expect(run).toEqual({ code: 0, stdout: expected("expected-nav.txt"), stderr: "" });
  });

  it("prints the resolved tree as JSON (titles, effective directory/expanded, drilldown, versions, breadcrumbs)", async () => {
    const run = await runCli(["nav", "--dir", DEMO, "--json"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(expected("expected-nav.json"));
  });

  it("--version keeps that version and what sits under no version", async () => {
    const run = await runCli(["nav", "--dir", DEMO, "--version", "v2"]);
    expect(run).toEqual({ code: 0, stdout: expected("expected-nav-v2.txt"), stderr: "" });
  });

  it("--language keeps that language", async () => {
    const run = await runCli(["nav", "--dir", DEMO, "--language", "fr"]);
    expect(run).toEqual({ code: 0, stdout: expected("expected-nav-fr.txt"), stderr: "" });
  });

  it("--json --version v2: pages keep every version they are in, and breadcrumbs of their place in v2", async () => {
    const run = await runCli(["nav", "--dir", DEMO, "--json", "--version", "v2"]);
    const tree = JSON.parse(run.stdout) as NavTree;
    expect(tree.filter).toEqual({ version: "v2", language: null });
    expect(tree.pages.map((p) => [p.page, p.versions, p.languages, p.breadcrumbs])).toEqual([
      ["/index", ["v1", "v2"], ["en"], ["Guides", "Start"]],
      ["/guides/overview", ["v2"], ["en"], ["Guides", "Start"]],
      ["/guides/advanced/index", ["v2"], ["en"], ["Guides", "Start", "Advanced"]],
      ["/guides/advanced/tuning", ["v2"], ["en"], ["Guides", "Start", "Advanced"]],
      ["/guides/recipes/first", ["v2"], ["en"], ["Guides", "Start", "Recipes"]],
      ["/api/intro", ["v2"], ["en"], ["API", "Users", "Endpoints"]],
      ["/fr/index", null, ["fr"], ["Démarrer"]],
      ["/changelog", null, ["fr"], ["Démarrer"]],
    ]);
  });

  it("--version and --language as people type them: any case, with or without v, a trailing .0, a unique beginning", async () => {
    // Only the exact label was taken: `--version V2`, `2` or `V2.0` was "no such version".
    for (const version of ["V2", "2", "V2.0", "v2.0", "latest"]) {
      expect(await runCli(["nav", "--dir", DEMO, "--version", version])).toEqual({ code: 0, stdout: expected("expected-nav-v2.txt"), stderr: "" });
    }
    for (const language of ["FR", "Fr", "f"]) {
      expect(await runCli(["nav", "--dir", DEMO, "--language", language])).toEqual({ code: 0, stdout: expected("expected-nav-fr.txt"), stderr: "" });
    }
    expect(await runCli(["nav", "--dir", DEMO, "--version", "V"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-mcp: --version V: more than one version begins so (v1, v2); give more of it (the site has v1, v2)\n",
    });
  });

  it("refuses an unknown version or language, naming the ones that exist", async () => {
    expect(await runCli(["nav", "--dir", DEMO, "--version", "v9"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-mcp: --version v9: no such version (the site has v1, v2)\n",
    });
    expect(await runCli(["nav", "--dir", DEMO, "--language", "de"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-mcp: --language de: no such language (the site has en, fr)\n",
    });
    expect(await runCli(["nav", "--dir", join(REPO, "fixtures/docs-json/warn-not-in-navigation"), "--version", "v1"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-mcp: --version v1: the site has no versions\n",
    });
  });

  it("an unknown language is refused naming every code each language is taken by, the second code a site writes for one among them", async () => {
    const root = tempRepo({
      "docs.json": { name: "L", navigation: { languages: [{ language: "en", pages: ["index"] }, { language: "cn", pages: ["cn/index"] }, { language: "zh", pages: ["zh/index"] }] } },
      "index.mdx": "# Home\n",
      "cn/index.mdx": "# C\n",
      "zh/index.mdx": "# Z\n",
    });
    expect(await runCli(["nav", "--dir", root, "--language", "xx"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-mcp: --language xx: no such language (the site has en, cn (also zh, zh-Hans, zh-CN))\n",
    });
  });

  it("a docs.json with an element that cannot be read shows the rest and says what is wrong on stderr", async () => {
    expect(await runCli(["nav", "--dir", join(REPO, "fixtures/docs-json/required-version")])).toEqual({
      code: 0,
      stdout: "required-version\nroot: versions\nversions: v1 (default)\neyebrows: theme default\ndrilldown: theme default\n\nversion v1  (default)\n  Index  /index\n",
      stderr:
        'docs.json:10:7 navigation.versions[1]: "version" is required\n' +
        "svc-mcp: docs.json has errors (above): what they name is shown as far as it can be read; `svc-mcp check` lists every problem\n",
    });
  });

  it("a docs.json that cannot be read prints its errors and exits 1; no docs.json is an error too", async () => {
    expect(await runCli(["nav", "--dir", join(REPO, "fixtures/docs-json/navigation-missing")])).toEqual({
      code: 1,
      stdout: "",
      stderr: 'docs.json:1:1 "navigation" is required\nsvc-mcp: docs.json cannot be read (above); `svc-mcp check` lists every problem\n',
    });
    const dir = join(REPO, "fixtures/docs-json/warn-no-docs-json");
    expect(await runCli(["nav", "--dir", dir])).toEqual({
      code: 1,
      stdout: "",
      stderr: `svc-mcp: no docs.json in ${dir}: there is no navigation to show\n`,
    });
  });

  itShared("spree: both versions, v5.x the default (set by `default: true`), v6.x tagged beta; the stale tabs ignored", async () => {
    const run = await runCli(["nav", "--json", "--dir", join(SHARED, "corpora/spree")]);
    expect(run.code).toBe(0);
    const tree = JSON.parse(run.stdout) as NavTree;
    expect(tree.versions).toEqual([
      { version: "v5.x", default: true, tag: null },
      { version: "v6.x", default: false, tag: "beta" },
    ]);
    expect(tree.defaultVersion).toBe("v5.x");
    expect([tree.root, tree.ignoredRoots]).toEqual(["versions", ["tabs"]]);
    expect(tree.items.map((n) => [n.kind, "title" in n ? n.title : "", "default" in n ? n.default : undefined])).toEqual([
      ["version", "v5.x", true],
      ["version", "v6.x", false],
    ]);
    const byPage = new Map(tree.pages.map((p) => [p.page, p]));
    // In both versions; only in v6; only in v5.
    expect(byPage.get("/developer/getting-started/quickstart")?.versions).toEqual(["v5.x", "v6.x"]);
    expect(byPage.get("/v6/developer/core-concepts/carts")?.versions).toEqual(["v6.x"]);
    expect(byPage.get("/developer/admin/admin")?.versions).toEqual(["v5.x"]);
    expect(byPage.get("/developer/getting-started/quickstart")).toMatchObject({
      title: "Installing Spree",
      file: "developer/getting-started/quickstart.mdx",
      breadcrumbs: ["Guides", "Getting Started", "Getting started"],
    });
    expect(tree.eyebrows).toBe("breadcrumbs");
  });
});
