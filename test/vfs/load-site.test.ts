import { statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { loadSite, reloadSite } from "../../src/vfs/load-site.js";
import { makeRepo } from "../helpers/repo.js";

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

/** The site, and its findings as `svc-mcp check` prints them (loading logs none of them itself). */
async function load(files: Record<string, string>) {
  const repo = makeRepo(files);
  cleanups.push(repo.cleanup);
  const logs: string[] = [];
  const loaded = await loadSite(repo.dir, (m) => logs.push(m));
  expect(logs).toEqual([]);
  return { site: loaded.site, findings: loaded.site.diagnostics.map(formatDiagnostic) };
}

describe("loadSite", () => {
  it("mounts pages at their repo-relative paths and skips ignored and dot folders", async () => {
    const { site } = await load({
      "docs.json": JSON.stringify({ name: "T", navigation: { pages: ["index", "guide/a"] } }),
      "index.mdx": "# Home\n",
      "guide/a.md": "---\ntitle: A\n---\nA\n",
      "guide/b.mdx": "B\n",
      "secret/x.mdx": "X\n",
      ".svcignore": "secret/\n",
      ".hidden/h.mdx": "H\n",
      "node_modules/pkg/readme.md": "N\n",
      "notes.txt": "not a page\n",
    });
    expect([...site.files.keys()]).toEqual(["/guide/a.md", "/guide/b.mdx", "/index.mdx"]);
    expect([...site.pages.keys()]).toEqual(["/guide/a", "/guide/b", "/index"]);
    expect(site.pages.get("/guide/a")?.title).toBe("A");
    expect(site.pages.get("/guide/b")?.title).toBe("B");
  });

  it("honours .mintignore, the predecessor's name, with gitignore semantics", async () => {
    const { site } = await load({ "a.mdx": "a", "b/c.mdx": "c", "b/keep.mdx": "k", ".mintignore": "b/*\n!b/keep.mdx\n" });
    expect([...site.files.keys()]).toEqual(["/a.mdx", "/b/keep.mdx"]);
  });

  it("reports a page with broken front matter and skips it", async () => {
    const { site, findings } = await load({ "ok.mdx": "fine", "bad.mdx": "---\ntitle: [x\n---\nbody\n" });
    expect([...site.pages.keys()]).toEqual(["/ok"]);
    expect(findings).toEqual(["bad.mdx:3 warning: skipped: invalid front matter: unexpected end of the stream within a flow collection"]);
    // Why it is skipped is a field of its own: whoever explains the missing page reads it there.
    expect(site.diagnostics).toEqual([
      {
        severity: "warning",
        file: "bad.mdx",
        line: 3,
        message: "skipped: invalid front matter: unexpected end of the stream within a flow collection",
        code: "page-skipped",
        skipped: "invalid front matter: unexpected end of the stream within a flow collection",
        // What the finding names: it reaches a stdio reader only if they may read each (adversary round 12 F1-F4).
        subjects: [{ file: "bad.mdx" }],
        // What a reader of the file who may not read the whole site is sent: the parser's words quote the new text (adversary round 57 F1).
        plain: "skipped: invalid front matter",
      },
    ]);
  });

  it("never evaluates JavaScript front matter", async () => {
    const { site, findings } = await load({ "evil.mdx": "---js\n{ title: (globalThis.pwned = 1) }\n---\nbody\n" });
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
    expect(site.pages.size).toBe(0);
    expect(findings).toEqual(['evil.mdx warning: skipped: invalid front matter: front matter language "js" is not allowed (only YAML and JSON are parsed)']);
  });

  it("prefers page.mdx over page.md and says so", async () => {
    const { site, findings } = await load({ "p.md": "md", "p.mdx": "mdx" });
    expect(site.pages.get("/p")?.file.path).toBe("/p.mdx");
    expect([...site.files.keys()]).toEqual(["/p.md", "/p.mdx"]);
    expect(findings).toEqual(["p.md warning: two files for page /p: p.mdx is the page, p.md is only readable as a file"]);
  });

  it("reads groups and public from front matter; an unreadable groups value restricts", async () => {
    const { site } = await load({
      "a.mdx": "---\ngroups: [admin, ops]\n---\n",
      "b.mdx": "---\ngroups: admin\npublic: true\n---\n",
      "c.mdx": "---\ngroups: { x: 1 }\n---\n",
    });
    expect(site.files.get("/a.mdx")?.access).toEqual({ groups: ["admin", "ops"] });
    expect(site.files.get("/b.mdx")?.access).toEqual({ groups: ["admin"], public: true });
    expect(site.files.get("/c.mdx")?.access).toEqual({ groups: ["\u0000invalid-groups"] });
  });

  it("mounts the API spec files docs.json references", async () => {
    const { site, findings } = await load({
      "docs.json": JSON.stringify({ name: "T", navigation: { groups: [{ group: "API", openapi: "api/openapi.json", pages: ["GET /x"] }] }, api: { openapi: ["missing.yaml"] } }),
      "api/openapi.json": '{"openapi":"3.1.0"}',
    });
    expect([...site.files.keys()]).toEqual(["/api/openapi.json"]);
    // The API reference loader reports spec problems where docs.json names the spec (issue 6).
    expect(findings).toEqual([
      "docs.json api.openapi: API spec missing.yaml: file not found",
      "docs.json navigation.groups[0].openapi: API spec api/openapi.json: invalid OpenAPI 3.1.0 document (2 problems, each said at the spec): no pages are generated from it",
      'api/openapi.json:1:1 (document): must have one of "paths", "components", "webhooks"',
      'api/openapi.json:1:1 (document): "info" is required',
    ]);
  });

  it("serves without docs.json: folder name as site name, every page indexed", async () => {
    const { site } = await load({ "a.mdx": "a" });
    expect(site.config.present).toBe(false);
    expect(site.config.indexing).toBe("all");
  });
});

describe("reloadSite", () => {
  it("a docs.json edit logs the problems it brought, not the ones the site already had", async () => {
    const twoRoots = { name: "T", navigation: { groups: [{ group: "G", pages: ["index"] }], pages: ["index"] } };
    const repo = makeRepo({ "docs.json": JSON.stringify(twoRoots), "index.mdx": "# Home\n" });
    cleanups.push(repo.cleanup);
    const first = await loadSite(repo.dir);
    writeFileSync(join(repo.dir, "docs.json"), JSON.stringify({ ...twoRoots, styling: { eyebrows: "full" } }));
    const logs: string[] = [];
    const second = await reloadSite(first, ["docs.json"], (m) => logs.push(m));
    expect(second.site.diagnostics.map(formatDiagnostic)).toEqual([first.site.diagnostics.map(formatDiagnostic)[0], ...logs]);
    expect(logs).toEqual(['docs.json:1:111 styling.eyebrows: must be one of "section", "breadcrumbs"; got "full"']);
  });


  it("sees an edit that keeps the size and the time (two writes within one timestamp tick), of a spec and of a page reloaded with the configuration", async () => {
    const spec = (summary: string) => `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths:\n  /users:\n    get:\n      summary: ${summary}\n      responses: {"200": {description: OK}}\n`;
    const repo = makeRepo({
      "docs.json": JSON.stringify({ navigation: { groups: [{ group: "G", pages: ["index"] }, { group: "API", openapi: "openapi.yaml" }] } }),
      "index.mdx": "# Home\n\nFirst.\n",
      "openapi.yaml": spec("List users"),
    });
    cleanups.push(repo.cleanup);
    /** Write and put the old time back: what a second write within the same tick leaves. */
    const rewrite = (rel: string, text: string) => {
      const abs = join(repo.dir, rel);
      const { atimeMs, mtimeMs } = statSync(abs);
      writeFileSync(abs, text);
      utimesSync(abs, atimeMs / 1000, mtimeMs / 1000);
    };
    const first = await loadSite(repo.dir);
    rewrite("openapi.yaml", spec("Show users"));
    const respecced = await reloadSite(first, ["openapi.yaml"]);
    expect([...respecced.site.pages.keys()]).toEqual(["/api-reference/show-users", "/index"]);
    rewrite("index.mdx", "# Home\n\nLater.\n");
    rewrite("docs.json", JSON.stringify({ navigation: { groups: [{ group: "H", pages: ["index"] }, { group: "API", openapi: "openapi.yaml" }] } }));
    const both = await reloadSite(respecced, ["docs.json", "index.mdx"]);
    expect([both.site.pages.get("/index")?.file.text, both.site.config.sections.map((x) => x.title)]).toEqual(["# Home\n\nLater.\n", ["H", "API"]]);
  });

  it("a docs.json reload loads with the options the site was loaded with (a remote spec added by the edit is fetched)", async () => {
    const repo = makeRepo({ "docs.json": JSON.stringify({ navigation: { groups: [{ group: "G", pages: ["index"] }] } }), "index.mdx": "# Home\n" });
    cleanups.push(repo.cleanup);
    const fetched: string[] = [];
    const spec = { openapi: "3.1.0", info: { title: "R", version: "1" }, paths: { "/ping": { get: { summary: "Ping", responses: { "200": { description: "OK" } } } } } };
    const first = await loadSite(repo.dir, () => {}, undefined, {
      fetchRemoteSpecs: async (url) => {
        fetched.push(url);
        return new Response(JSON.stringify(spec));
      },
    });
    writeFileSync(join(repo.dir, "docs.json"), JSON.stringify({ navigation: { groups: [{ group: "G", pages: ["index"] }, { group: "API", openapi: "https://api.example.test/openapi.json" }] } }));
    const second = await reloadSite(first, ["docs.json"]);
    expect([fetched, [...second.site.pages.keys()], second.options]).toEqual([["https://api.example.test/openapi.json"], ["/api-reference/ping", "/index"], first.options]);
  });
});
