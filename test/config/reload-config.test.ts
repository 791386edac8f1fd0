import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { loadSite, reloadSite } from "../../src/vfs/load-site.js";
import { tempRepo } from "./temp-repo.js";

const spec = 'openapi: 3.0.3\ninfo: {title: Demo, version: "1"}\npaths:\n  /users:\n    get:\n      summary: List users\n      responses: {"200": {description: OK}}\n';

describe("docs.json split with $ref, reloaded", () => {
  it("a $ref'd file is a config file; an edit with a problem in one element applies the rest; one that leaves nothing to read keeps the last good configuration", async () => {
    const root = tempRepo({
      "docs.json": { name: "Split", navigation: { $ref: "config/navigation.json" } },
      "config/navigation.json": { groups: [{ group: "Start", pages: ["index", "guide"] }, { group: "API", openapi: "openapi.yaml", pages: ["GET /users"] }] },
      "openapi.yaml": spec,
      "index.mdx": "# Home\n",
      "guide.mdx": "# Guide\n",
    });
    const first = await loadSite(root);
    expect([...first.configFiles].sort()).toEqual([".mintignore", ".svcignore", "config/navigation.json", "docs.json", "openapi.yaml"]);
    expect([...first.site.config.navPages.keys()]).toEqual(["/index", "/guide", "/api-reference/list-users"]);

    // One group cannot be read (no title): it is left out; the rest of the edit applies (the API
    // group is gone, a group is added, hidden).
    writeFileSync(join(root, "config/navigation.json"), JSON.stringify({ groups: [{ pages: ["index"] }, { group: "More", hidden: true, pages: ["guide"] }] }, null, 2));
    const partial = await reloadSite(first, ["config/navigation.json"]);
    expect(partial.site.diagnostics.map(formatDiagnostic)).toEqual(['config/navigation.json:3:5 navigation.groups[0]: "group" is required']);
    expect(Object.fromEntries(partial.site.config.navPages)).toEqual({ "/guide": { breadcrumbs: ["More"], hidden: true, unsearchable: true } });
    expect(partial.site.pages.has("/api-reference/list-users")).toBe(false);

    // A file that does not parse leaves no navigation to read: the last good configuration (the
    // one just applied) keeps serving.
    writeFileSync(join(root, "config/navigation.json"), '{ "groups": [ ');
    const broken = await reloadSite(partial, ["config/navigation.json"]);
    expect(broken.site.diagnostics.map(formatDiagnostic)).toEqual(['config/navigation.json:1:15 invalid JSON: unexpected end of file (expected a value)']);
    expect(broken.site.config.navPages).toEqual(partial.site.config.navPages);

    writeFileSync(join(root, "config/navigation.json"), JSON.stringify({ groups: [{ group: "Start", pages: ["guide"] }] }));
    const fixed = await reloadSite(broken, ["config/navigation.json"]);
    expect(fixed.site.diagnostics).toEqual([]);
    expect([...fixed.site.config.navPages.keys()]).toEqual(["/guide"]);
  });

  it("a missing $ref'd file is watched, so creating it reloads the configuration", async () => {
    const root = tempRepo({ "docs.json": { navigation: { languages: [{ language: "en", pages: ["index"] }, { $ref: "fr.json" }] } }, "index.mdx": "# Home\n" });
    const first = await loadSite(root);
    expect(first.configFiles.has("fr.json")).toBe(true);
    expect(first.site.diagnostics.map(formatDiagnostic)).toEqual(['docs.json:11:17 navigation.languages[1].$ref: cannot read "fr.json": file not found']);
    writeFileSync(join(root, "fr.json"), JSON.stringify({ language: "fr", pages: ["index"] }));
    const next = await reloadSite(first, ["fr.json"]);
    expect(next.site.diagnostics).toEqual([]);
    expect(next.site.config.languages).toEqual(["en", "fr"]);
  });
});

describe("docs.json deleted while serving (a checkout, an rm-then-cp deploy)", () => {
  it("is a broken docs.json, not a site without one: the last good configuration keeps serving, the tools keep their names, and it is logged once", async () => {
    const root = tempRepo({ "docs.json": { name: "Owl Docs", navigation: { groups: [{ group: "Start", pages: ["index"] }] } }, "index.mdx": "# Home\n" });
    const logs: string[] = [];
    const runtime = await DocsRuntime.load({ root, log: (m) => void logs.push(m) });
    try {
      expect(runtime.names.search).toBe("search_owl");
      rmSync(join(root, "docs.json"));
      await runtime.applyChanges(["docs.json"]);
      const missing = "docs.json docs.json is missing; still serving the last good configuration (Owl Docs); put it back, or restart to serve this folder without one";
      expect([runtime.names.search, runtime.site.config.name, [...runtime.site.config.navPages.keys()]]).toEqual(["search_owl", "Owl Docs", ["/index"]]);
      expect(logs).toEqual([missing]);
      expect(runtime.site.diagnostics.map(formatDiagnostic)).toEqual([missing]);
      // A page edit meanwhile does not log it again.
      writeFileSync(join(root, "index.mdx"), "# Home again\n");
      await runtime.applyChanges(["index.mdx"]);
      expect(logs).toEqual([missing]);
      // The new file, when it comes, is read as usual.
      writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Owl Handbook", navigation: { groups: [{ group: "Start", pages: ["index"] }] } }));
      await runtime.applyChanges(["docs.json"]);
      expect([runtime.names.search, runtime.site.diagnostics]).toEqual(["search_owl_handbook", []]);
    } finally {
      await runtime.close();
    }
  });

  it("a folder that never had a docs.json still serves without one", async () => {
    const root = tempRepo({ "index.mdx": "# Home\n" });
    const first = await loadSite(root);
    const next = await reloadSite(first, ["docs.json"]);
    expect([next.site.config.present, next.site.diagnostics]).toEqual([false, []]);
  });
});
