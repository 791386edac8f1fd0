import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { loadSite, reloadSite } from "../../src/vfs/load-site.js";
import { watchRepository } from "../../src/vfs/watch.js";
import { runCli } from "../helpers/cli.js";
import { connect } from "../helpers/mcp.js";

/**
 * Every kind of file the server reads, behind a link that leads outside the repository: none of
 * their bytes may reach a reader (filesystem, search, resources, instructions), and `check` names
 * each link. The outside files carry markers (OUT...) that must appear nowhere.
 */
const OUTSIDE_FILES: Record<string, string> = {
  "page.mdx": "---\ntitle: OUTPAGE title\n---\n\nOUTPAGE body\n",
  "snippet.mdx": "OUTSNIPPET text\n",
  "SKILL.md": "---\nname: outskill\ndescription: OUTSKILL description\n---\n\nOUTSKILL body\n",
  "folder/guide.mdx": "---\ntitle: OUTFOLDER guide\n---\n\nOUTFOLDER body\n",
  "spec.yaml": 'openapi: 3.0.3\ninfo: {title: OUTSPEC, version: "1"}\npaths:\n  /outspec:\n    get:\n      summary: OUTSPEC operation\n      responses: {"200": {description: OK}}\n',
  "fm.yaml": 'openapi: 3.0.3\ninfo: {title: OUTFM, version: "1"}\nservers: [{url: "https://outfm.example"}]\npaths:\n  /fm:\n    get:\n      summary: OUTFM operation\n      responses: {"200": {description: OK}}\n',
  "schema.yaml": "Secret:\n  type: object\n  description: OUTREF description\n  properties:\n    outref_field: {type: string}\n",
  "nav.json": '{"group": "OUTNAV group", "pages": ["index"]}\n',
};

const INSIDE_SPEC = `openapi: 3.0.3
info: {title: Inside, version: "1"}
paths:
  /users:
    get:
      summary: List users
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema: {$ref: "./schema.yaml#/Secret"}
`;

const REPO_FILES: Record<string, string> = {
  "docs.json": JSON.stringify({
    name: "Links",
    navigation: {
      groups: [
        { group: "Start", pages: ["index", "page", "folder/guide", "fm-page", "snippets/inside"] },
        { group: "Outside API", openapi: "api/outside.yaml" },
        { group: "Inside API", openapi: "api/inside.yaml" },
        { $ref: "navref.json" },
      ],
    },
  }),
  "index.mdx": '---\ntitle: Home\n---\nimport Outside from "/snippets/outside.mdx";\nimport Inside from "/snippets/inside.mdx";\n\n# Home\n\n<Outside />\n\n<Inside />\n',
  "snippets/inside.mdx": "Inside snippet text\n",
  "fm-page.mdx": "---\ntitle: Front matter operation\nopenapi: api/fm.yaml GET /fm\n---\n\nAbout the operation.\n",
  "api/inside.yaml": INSIDE_SPEC,
};

/** repository path -> outside file it links to */
const LINKS: Record<string, string> = {
  "page.mdx": "page.mdx",
  "snippets/outside.mdx": "snippet.mdx",
  "skills/out/SKILL.md": "SKILL.md",
  folder: "folder",
  "api/outside.yaml": "spec.yaml",
  "api/fm.yaml": "fm.yaml",
  "api/schema.yaml": "schema.yaml",
  "navref.json": "nav.json",
};

const MARKERS = ["OUTPAGE", "OUTSNIPPET", "OUTSKILL", "OUTFOLDER", "OUTSPEC", "OUTFM", "OUTREF", "outref_field", "OUTNAV"];

function write(base: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, rel)), { recursive: true });
    writeFileSync(join(base, rel), text);
  }
}

let outside: string;
let root: string;
let runtime: DocsRuntime;
const logs: string[] = [];

beforeAll(async () => {
  outside = mkdtempSync(join(tmpdir(), "svc-outside-"));
  root = mkdtempSync(join(tmpdir(), "svc-links-"));
  write(outside, OUTSIDE_FILES);
  write(root, REPO_FILES);
  for (const [rel, target] of Object.entries(LINKS)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    symlinkSync(join(outside, target), join(root, rel));
  }
  runtime = await DocsRuntime.load({ root, log: (m) => logs.push(m) });
});
afterAll(async () => {
  await runtime.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const FS = "query_docs_filesystem_links";
const SEARCH = "search_links";

const CHECK = [
  'docs.json:1:75 navigation.groups[0].pages[1]: warning: page "page" not found: page.mdx is skipped (the link leads outside the repository, so it is not read)',
  'docs.json:1:82 navigation.groups[0].pages[2]: warning: page "folder/guide" not found: folder is skipped (the link leads outside the repository, so it is not read)',
  'docs.json:1:239 navigation.groups[3].$ref: cannot read "navref.json": the link leads outside the repository, so it is not read',
  "api/fm.yaml the link leads outside the repository, so it is not read",
  "api/inside.yaml:12:24 warning: unresolved $ref \"./schema.yaml#/Secret\" (at paths./users.get.responses.200.content.application/json.schema): $ref to api/schema.yaml: the link leads outside the repository, so it is not read; left as is",
  "api/outside.yaml the link leads outside the repository, so it is not read",
  "folder warning: skipped: the link leads outside the repository, so it is not read",
  // The preview shows the snippet's tag as its children: its file is not served.
  "index.mdx:9:1 warning: <Outside> comes from /snippets/outside.mdx, which the site does not serve (missing, ignored or unreadable): it shows the element's children",
  "page.mdx warning: skipped: the link leads outside the repository, so it is not read",
  "skills/out/SKILL.md warning: skipped: the link leads outside the repository, so it is not read",
  "snippets/outside.mdx warning: skipped: the link leads outside the repository, so it is not read",
  "checked docs.json (+1 $ref file) and 3 pages (+1 generated from API specs): 3 errors, 8 warnings",
  "",
].join("\n");

describe("files behind links that lead outside the repository", () => {
  it("the filesystem holds none of them, and no command finds their bytes (anonymous, and a reader in a group)", async () => {
    for (const reader of [undefined, readerWithGroups(["staff"])]) {
      const c = await connect(runtime, reader);
      const text = async (command: string) => c.text(await c.call(FS, { command }));
      expect(await text("find / -type f | sort")).toBe("/api-reference/list-users.mdx\n/api/inside.yaml\n/fm-page.mdx\n/index.mdx\n/skill.md\n/snippets/inside.mdx\n");
      expect(await text(`rg -il '${MARKERS.join("|")}' /`)).toBe("[exit code 1]");
      expect(await text("cat /api/outside.yaml /api/fm.yaml /api/schema.yaml /page.mdx /folder/guide.mdx /snippets/outside.mdx /skills/out/SKILL.md 2>&1 | grep -c 'No such file'")).toBe("7\n");
      await c.close();
    }
  });

  it("search finds none of their words", async () => {
    const c = await connect(runtime);
    const found = [];
    for (const query of MARKERS) found.push((await c.call(SEARCH, { query })).structuredContent);
    expect(found).toEqual(MARKERS.map(() => ({ results: [], provenance: { ttlMs: 60_000 } })));
    await c.close();
  });

  it("resources offer the generated skill only, and the instructions name no title from outside", async () => {
    const c = await connect(runtime);
    expect((await c.client.listResources()).resources.map((r) => r.uri)).toEqual(["docs://links/skill.md"]);
    expect(c.client.getInstructions()).toBe(
      "Documentation for Links. It covers: Start, Outside API, Inside API. Use search_links to find pages for a question, then query_docs_filesystem_links to read them (pages are files: /a/b.mdx is the page at http://localhost:3000/a/b). Cite page links in answers.",
    );
    await c.close();
  });

  it("check names every link, with a code of its own (and the server finds the same at load)", async () => {
    const run = await runCli(["check", "--dir", root]);
    expect([run.code, run.stdout, run.stderr]).toEqual([1, CHECK, ""]);
    const json = await runCli(["check", "--json", "--dir", root]);
    const codes = (JSON.parse(json.stdout) as { diagnostics: { file: string; code?: string }[] }).diagnostics.map((d) => `${d.file} ${d.code}`);
    expect(codes).toEqual([
      "docs.json page-file",
      "docs.json page-file",
      "docs.json outside-link",
      "api/fm.yaml outside-link",
      "api/inside.yaml outside-link",
      "api/outside.yaml outside-link",
      "folder outside-link",
      "index.mdx unknown-component",
      "page.mdx outside-link",
      "skills/out/SKILL.md outside-link",
      "snippets/outside.mdx outside-link",
    ]);
    expect(runtime.site.diagnostics.map(formatDiagnostic).sort()).toEqual(CHECK.split("\n").filter((l) => l.includes("the link leads outside") && !l.includes("not found")).sort());
    // Loading logs none of them itself: the CLI prints them (check) or counts them (serve, fs, search).
    expect(logs).toEqual([]);
  });
});

describe("the issue's reproduction", () => {
  it("`svc-mcp fs 'head -2 /api/passwd.json'` with api/passwd.json -> /etc/passwd prints nothing of it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-passwd-"));
    try {
      write(dir, { "docs.json": JSON.stringify({ name: "R", navigation: { groups: [{ group: "G", pages: ["index"] }, { group: "API", openapi: "api/passwd.json" }] } }), "index.mdx": "# Home\n" });
      mkdirSync(join(dir, "api"));
      symlinkSync("/etc/passwd", join(dir, "api/passwd.json"));
      const run = await runCli(["fs", "--dir", dir, "head -2 /api/passwd.json"], { env: { SVC_MCP_CACHE: "off" } });
      expect(run).toEqual({
        code: 1,
        stdout: "",
        stderr: `svc-mcp: 1 error in api/passwd.json; run \`svc-mcp check --dir ${dir}\` for details\nhead: cannot open '/api/passwd.json' for reading: No such file or directory\n`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("links that stay inside the repository", () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  const spec = (summary: string) => `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths:\n  /users:\n    get:\n      summary: ${summary}\n      responses: {"200": {description: OK}}\n`;

  it("a file link is followed (its page at the link's path), a folder link is not, a link into what .svcignore excludes is refused; edits of the real files reload what links to them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-inside-links-"));
    const out = mkdtempSync(join(tmpdir(), "svc-outside-"));
    made.push(dir, out);
    write(out, { "x.mdx": "OUTSIDE\n" });
    write(dir, {
      "docs.json": JSON.stringify({ name: "In", navigation: { groups: [{ group: "G", pages: ["setup"] }, { group: "API", openapi: "openapi.yaml" }, { $ref: "nav.json" }] } }),
      "config/nav.json": JSON.stringify({ group: "Linked nav", pages: ["guides/setup"] }),
      "guides/setup.mdx": "# Setup\n\nFirst text.\n",
      "drafts/plan.mdx": "# Plan\n",
      ".svcignore": "drafts/\n",
      "specs/v2/openapi.yaml": spec("List users"),
    });
    const links = { "setup.mdx": "guides/setup.mdx", latest: "guides", "guides/up": "..", "plan.mdx": "drafts/plan.mdx", "openapi.yaml": "specs/v2/openapi.yaml", "nav.json": "config/nav.json" };
    for (const [rel, target] of Object.entries(links)) symlinkSync(target, join(dir, rel));
    const first = await loadSite(dir);
    expect({
      files: [...first.site.files.keys()],
      setup: first.site.files.get("/setup.mdx")?.text,
      sections: first.site.config.sections.map((x) => x.title),
      log: first.site.diagnostics.map(formatDiagnostic),
      configFiles: [...first.configFiles].sort(),
      links: [...first.links],
    }).toEqual({
      files: ["/api-reference/list-users.mdx", "/guides/setup.mdx", "/openapi.yaml", "/setup.mdx"],
      setup: "# Setup\n\nFirst text.\n",
      sections: ["G", "API", "Linked nav"],
      log: [
        "guides/up warning: folder link not followed: its pages are served at their own path (./)",
        "latest warning: folder link not followed: its pages are served at their own path (guides/)",
        "plan.mdx warning: skipped: the link leads to drafts/plan.mdx, which the ignore rules exclude",
      ],
      configFiles: [".mintignore", ".svcignore", "config/nav.json", "docs.json", "nav.json", "openapi.yaml", "specs/v2/openapi.yaml"],
      links: [["guides/setup.mdx", ["setup.mdx"]]],
    });

    // An edit of the real file is an edit of the page that links to it.
    writeFileSync(join(dir, "guides/setup.mdx"), "# Setup\n\nSecond text.\n");
    const edited = await reloadSite(first, ["guides/setup.mdx"]);
    expect(edited.site.files.get("/setup.mdx")?.text).toBe("# Setup\n\nSecond text.\n");
    // And of the real spec file, a reload of the configuration.
    writeFileSync(join(dir, "specs/v2/openapi.yaml"), spec("Show users"));
    const respecced = await reloadSite(edited, ["specs/v2/openapi.yaml"]);
    expect([...respecced.site.files.keys()]).toEqual(["/api-reference/show-users.mdx", "/guides/setup.mdx", "/openapi.yaml", "/setup.mdx"]);

    // A page that becomes a link outside is withdrawn at once, not kept at its last version.
    unlinkSync(join(dir, "setup.mdx"));
    symlinkSync(join(out, "x.mdx"), join(dir, "setup.mdx"));
    const reloadLog: string[] = [];
    const withdrawn = await reloadSite(respecced, ["setup.mdx"], (m) => reloadLog.push(m));
    expect([[...withdrawn.site.files.keys()], reloadLog]).toEqual([
      ["/api-reference/show-users.mdx", "/guides/setup.mdx", "/openapi.yaml"],
      ["setup.mdx warning: skipped: the link leads outside the repository, so it is not read"],
    ]);
  });
});

describe("the watcher", () => {
  it("watches links as links: a change behind a folder link that leads outside is not reported (nothing outside is watched)", async () => {
    const out = mkdtempSync(join(tmpdir(), "svc-outside-"));
    const dir = mkdtempSync(join(tmpdir(), "svc-watch-links-"));
    write(out, { "guide.mdx": "# Guide\n" });
    write(dir, { "index.mdx": "# Home\n" });
    symlinkSync(out, join(dir, "linked"));
    const batches: string[][] = [];
    let insideReported = (): void => {};
    const inside = new Promise<void>((resolve) => (insideReported = resolve));
    const stop = await watchRepository(dir, (paths) => {
      batches.push(paths);
      if (paths.includes("index.mdx")) insideReported();
    });
    try {
      // The outside change first, then one inside: once the inside one is reported, the outside
      // one would have been too (same watcher, earlier write), had the link been followed.
      writeFileSync(join(out, "guide.mdx"), "# Guide, edited\n");
      writeFileSync(join(out, "new.mdx"), "# New\n");
      writeFileSync(join(dir, "index.mdx"), "# Home, edited\n");
      // Waited for as an event, however long a loaded machine takes to report it.
      await inside;
      // The link itself may be reported (chokidar notices links when it re-reads their folder):
      // a path the reload reads nothing under.
      const reported = batches.flat();
      expect([reported.includes("index.mdx"), reported.filter((p) => p.startsWith("linked/"))]).toEqual([true, []]);
    } finally {
      await stop();
      rmSync(dir, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  });
});
