import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/diagnostic.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { loadSite, reloadSite } from "../../src/vfs/load-site.js";
import { type Harness, startBridge } from "../bridge/harness.js";
import { runCli } from "../helpers/cli.js";
import { connect } from "../helpers/mcp.js";

/**
 * Links that stay inside the repository but lead to a file the site does not serve as it is
 * (issue 25, finding 46): a dot-file, docs.json, an ignore file, the API spec as written, a
 * restricted page behind a medium's name. Each must look exactly like a missing file to every
 * reader, everywhere its bytes could be reached (shell, resources, skills index, HTML pages, the
 * agent view, media), and `check` names each link and why.
 */
const FILES: Record<string, string> = {
  "docs.json": JSON.stringify({
    name: "Adv Docs",
    navigation: {
      groups: [
        { group: "Guides", pages: ["index", "guides/public", "guides/staff"] },
        { group: "API", openapi: "openapi.yaml", pages: ["GET /widgets", "GET /staffwidgets"] },
      ],
    },
  }),
  "index.mdx": "---\ntitle: Home\n---\nWelcome.\n",
  "guides/public.mdx": "---\ntitle: Public guide\n---\nThe public guide about widgets.\n",
  "guides/staff.mdx": '---\ntitle: Staff guide SECRETTITLE\ngroups: ["staff"]\n---\nSECRETBODY zanzibar plans.\n',
  ".env": "SECRET_ENV=DOTENVLEAK\n",
  ".svcignore": "drafts/\n",
  "openapi.yaml":
    'openapi: 3.0.3\ninfo: {title: W, version: "1"}\npaths:\n  /widgets:\n    get:\n      summary: List widgets\n      responses: {"200": {description: ok}}\n  /staffwidgets:\n    get:\n      summary: STAFFOPLEAK\n      x-svc: {metadata: {groups: [staff]}}\n      responses: {"200": {description: STAFFOPRESP}}\n',
  "images/logo.png": "\x89PNG\r\n\x1a\nfake",
  ".dot.png": "\x89PNG\r\n\x1a\nDOTPNG",
  "images/.hidden.png": "\x89PNG\r\n\x1a\nHIDDENPNG",
};

/** link -> its target, relative to the link's folder */
const LINKS: Record<string, string> = {
  "links/l1.mdx": "../.env",
  "links/l2.md": "../docs.json",
  "links/l3.mdx": "../.svcignore",
  "links/l4.md": "../openapi.yaml",
  // A page link to a page: the same bytes, so the same front matter and readers.
  "links/staff-copy.mdx": "../guides/staff.mdx",
  "skills/envskill/SKILL.md": "../../.env",
  "images/a.png": "../docs.json",
  "images/b.png": "../guides/staff.mdx",
  "images/c.png": "../.env",
  "images/g.pdf": "../openapi.yaml",
  // A medium's link to a medium is served.
  "images/alias.png": "logo.png",
};

const MARKERS = 'DOTENVLEAK|STAFFOP|drafts/|guides/staff|SECRETBODY|SECRETTITLE|zanzibar|"group":|DOTPNG|HIDDENPNG';

let root: string;
let h: Harness;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "svc-served-links-"));
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text, "latin1");
  }
  for (const [rel, target] of Object.entries(LINKS)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    symlinkSync(target, join(root, rel));
  }
  h = await startBridge({ root, authMode: "partial", mcp: "enabled", apps: true });
});
afterAll(async () => {
  await h?.close();
  rmSync(root, { recursive: true, force: true });
});

const FS = "query_docs_filesystem_adv";

describe("links to files the site does not serve as they are (finding 46)", () => {
  it("the shell holds none of them: anonymous readers find no marker, a refused link reads as a missing file", async () => {
    const c = await connect(h.runtime);
    const text = async (command: string) => c.text(await c.call(FS, { command }));
    expect(await text("find / -type f | sort")).toBe("/api-reference/list-widgets.mdx\n/guides/public.mdx\n/index.mdx\n/openapi.yaml\n/skill.md\n");
    expect(await text(`rg -il '${MARKERS}' /`)).toBe("[exit code 1]");
    expect(await text("cat /links/l1.mdx /links/l2.md /links/l3.mdx /links/l4.md /links/staff-copy.mdx /skills/envskill/SKILL.md /links/nothing.mdx 2>&1")).toBe(
      [
        "cat: /links/l1.mdx: No such file or directory",
        "cat: /links/l2.md: No such file or directory",
        "cat: /links/l3.mdx: No such file or directory",
        "cat: /links/l4.md: No such file or directory",
        "cat: /links/staff-copy.mdx: No such file or directory",
        "cat: /skills/envskill/SKILL.md: No such file or directory",
        "cat: /links/nothing.mdx: No such file or directory",
        "[exit code 1]",
      ].join("\n"),
    );
    await c.close();
  });

  it("a staff reader gets the page link to the staff page (the target's readers), and still none of the others", async () => {
    const c = await connect(h.runtime, readerWithGroups(["staff"]));
    const text = async (command: string) => c.text(await c.call(FS, { command }));
    expect(await text("find / -type f | sort")).toBe(
      "/api-reference/list-widgets.mdx\n/api-reference/staffopleak.mdx\n/guides/public.mdx\n/guides/staff.mdx\n/index.mdx\n/links/staff-copy.mdx\n/openapi.yaml\n/skill.md\n",
    );
    expect(await text("cat /links/staff-copy.mdx")).toBe('---\ntitle: Staff guide SECRETTITLE\ngroups: ["staff"]\n---\nSECRETBODY zanzibar plans.\n');
    expect(await text(`rg -il 'DOTENVLEAK|drafts/|"group":' /`)).toBe("[exit code 1]");
    await c.close();
  });

  it("resources and the skills index offer no skill behind a link to a dot-file", async () => {
    const c = await connect(h.runtime);
    expect((await c.client.listResources()).resources.map((r) => r.uri)).toEqual(["docs://adv/skill.md"]);
    await c.close();
    const index = await fetch(`${h.origin}/.well-known/agent-skills/index.json`);
    expect([index.status, JSON.stringify(await index.json()).includes("envskill")]).toEqual([200, false]);
  });

  it("HTML pages and the agent view answer for a refused link as for a page that is not there", async () => {
    const missing = async (path: string, nothing: string) => {
      const [got, none] = [await fetch(`${h.origin}${path}`), await fetch(`${h.origin}${nothing}`)];
      return [got.status, (await got.text()).replaceAll(path, "PATH"), none.status, (await none.text()).replaceAll(nothing, "PATH")];
    };
    for (const path of ["/links/l1", "/links/l2", "/links/l3", "/links/l4", "/skills/envskill/SKILL"]) {
      const [status, body, noneStatus, noneBody] = await missing(path, path.replace(/[^/]+$/, "zz-nothing"));
      expect([path, status, body]).toEqual([path, noneStatus, noneBody]);
    }
    for (const page of ["/links/l1", "/links/l2", "/links/l4"]) {
      const [status, body, noneStatus, noneBody] = await missing(`/_svc/preview/agent?page=${page}`, `/_svc/preview/agent?page=/links/zz`);
      expect([page, status, String(body).replaceAll(page, "P")]).toEqual([page, noneStatus, String(noneBody).replaceAll("/links/zz", "P")]);
    }
  });

  it("media: a link to anything but a medium, and a dot-file medium, are 404 as a missing medium is; a medium's link to a medium is served", async () => {
    const none = await fetch(`${h.origin}/images/nothing.png`);
    const noneBody = (await none.text()).replace("/images/nothing.png", "PATH");
    expect(none.status).toBe(404);
    for (const path of ["/images/a.png", "/images/b.png", "/images/c.png", "/images/g.pdf", "/.dot.png", "/images/.hidden.png", "/images/%2Ehidden.png"]) {
      const got = await fetch(`${h.origin}${path}`);
      expect([path, got.status, (await got.text()).replace(decodeURIComponent(path), "PATH")]).toEqual([path, 404, noneBody]);
    }
    const alias = await fetch(`${h.origin}/images/alias.png`);
    expect([alias.status, alias.headers.get("content-type"), Buffer.from(await alias.arrayBuffer()).toString("latin1")]).toEqual([200, "image/png", "\x89PNG\r\n\x1a\nfake"]);
  });

  it("check names each refused link and why", async () => {
    const run = await runCli(["check", "--dir", root]);
    expect([run.code, run.stdout, run.stderr]).toEqual([
      0,
      [
        "images/a.png warning: skipped: the link leads to docs.json, the site's configuration, which the site does not serve",
        "images/b.png warning: skipped: the link leads to guides/staff.mdx, which is no medium, so the preview does not serve it",
        "images/c.png warning: skipped: the link leads to .env, a dot-file or in a dot-folder, which the site does not serve",
        "images/g.pdf warning: skipped: the link leads to openapi.yaml, which is no medium, so the preview does not serve it",
        "links/l1.mdx warning: skipped: the link leads to .env, a dot-file or in a dot-folder, which the site does not serve",
        "links/l2.md warning: skipped: the link leads to docs.json, the site's configuration, which the site does not serve",
        "links/l3.mdx warning: skipped: the link leads to .svcignore, a dot-file or in a dot-folder, which the site does not serve",
        "links/l4.md warning: skipped: the link leads to openapi.yaml, which the site reads as its configuration or an API spec: served only at its own path, as each reader may read it",
        "links/staff-copy.mdx warning: page is not in the navigation, so search leaves it out (seo.indexing \"all\" includes it)",
        "skills/envskill/SKILL.md warning: skipped: the link leads to .env, a dot-file or in a dot-folder, which the site does not serve",
        "checked docs.json and 4 pages (+2 generated from API specs): 0 errors, 10 warnings",
        "",
      ].join("\n"),
      "",
    ]);
  });
});

describe("links to parts of specs, and links made while serving (finding 46)", () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  const site = (files: Record<string, string>): string => {
    const dir = mkdtempSync(join(tmpdir(), "svc-served-links-"));
    made.push(dir);
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    return dir;
  };
  const docsJson = JSON.stringify({ name: "Refs", navigation: { groups: [{ group: "G", pages: ["index"] }, { group: "API", openapi: "openapi.yaml" }] } });

  it("a page link to a file a spec's $ref reads (a staff-only operation in it) reads as a missing file", async () => {
    const dir = site({
      "docs.json": docsJson,
      "index.mdx": "# Home\n",
      "openapi.yaml": 'openapi: 3.0.3\ninfo: {title: W, version: "1"}\npaths:\n  /a:\n    $ref: "paths.yaml#/a"\n',
      "paths.yaml": 'a:\n  get:\n    summary: STAFFREF\n    x-svc: {metadata: {groups: [staff]}}\n    responses: {"200": {description: ok}}\n',
    });
    symlinkSync("paths.yaml", join(dir, "p.md"));
    const runtime = await DocsRuntime.load({ root: dir });
    try {
      const c = await connect(runtime);
      const text = async (command: string) => c.text(await c.call("query_docs_filesystem_refs", { command }));
      expect([await text("find / -type f | sort"), await text("cat /p.md /q.md 2>&1"), await text("rg -l STAFFREF /")]).toEqual([
        "/index.mdx\n/openapi.yaml\n/skill.md\n",
        "cat: /p.md: No such file or directory\ncat: /q.md: No such file or directory\n[exit code 1]",
        "[exit code 1]",
      ]);
      await c.close();
      expect(runtime.site.diagnostics.map(formatDiagnostic)).toEqual(["p.md warning: skipped: the link leads to paths.yaml, which the site reads as its configuration or an API spec: served only at its own path, as each reader may read it"]);
    } finally {
      await runtime.close();
    }
  });

  it("a page link in another folder than a page importing by a relative path is no page; in the page's folder it is, cut as the page is", async () => {
    const dir = site({
      "docs.json": JSON.stringify({ name: "Refs", navigation: { groups: [{ group: "G", pages: ["index", "guides/rel"] }] } }),
      "index.mdx": "# Home\n",
      "guides/staffsnip.mdx": '---\ntitle: Staff snippet\ngroups: ["staff"]\n---\nSTAFFSNIPBODY the secret plan\n',
      "guides/rel.mdx": '---\ntitle: Relative importer\n---\nimport StaffSnip from "./staffsnip.mdx"\n\nIntro text.\n\n<StaffSnip />\n\nOutro.\n',
    });
    mkdirSync(join(dir, "links"));
    symlinkSync("../guides/rel.mdx", join(dir, "links", "rel.mdx"));
    symlinkSync("rel.mdx", join(dir, "guides", "same.mdx"));
    const runtime = await DocsRuntime.load({ root: dir });
    try {
      const c = await connect(runtime);
      const text = async (command: string) => c.text(await c.call("query_docs_filesystem_refs", { command }));
      expect([await text("find / -type f | sort"), await text("cat /links/rel.mdx 2>&1"), await text("cat /guides/same.mdx"), await text("rg -il staffsnip /")]).toEqual([
        "/guides/rel.mdx\n/guides/same.mdx\n/index.mdx\n/skill.md\n",
        "cat: /links/rel.mdx: No such file or directory\n[exit code 1]",
        "---\ntitle: Relative importer\n---\nIntro text.\n\nOutro.\n",
        "[exit code 1]",
      ]);
      await c.close();
      expect(runtime.site.diagnostics.map(formatDiagnostic).filter((d) => d.includes("link"))).toEqual([
        "links/rel.mdx warning: skipped: the link leads to guides/rel.mdx, in another folder, whose imports by a relative path would name other files from the link's folder",
      ]);
    } finally {
      await runtime.close();
    }
  });

  it("a page that becomes a link to the spec while serving is withdrawn at once", async () => {
    const spec = 'openapi: 3.0.3\ninfo: {title: W, version: "1"}\npaths:\n  /b:\n    get:\n      summary: STAFFOP\n      x-svc: {metadata: {groups: [staff]}}\n      responses: {"200": {description: ok}}\n';
    const dir = site({ "docs.json": docsJson, "index.mdx": "# Home\n", "notes.md": "# Notes\n", "openapi.yaml": spec });
    const first = await loadSite(dir);
    expect(first.site.files.has("/notes.md")).toBe(true);
    unlinkSync(join(dir, "notes.md"));
    symlinkSync("openapi.yaml", join(dir, "notes.md"));
    const log: string[] = [];
    const next = await reloadSite(first, ["notes.md"], (m) => log.push(m));
    expect([next.site.files.has("/notes.md"), log]).toEqual([
      false,
      ["notes.md warning: skipped: the link leads to openapi.yaml, which the site reads as its configuration or an API spec: served only at its own path, as each reader may read it"],
    ]);
  });
});
