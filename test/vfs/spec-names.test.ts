import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { type Harness, mcpClient, startBridge } from "../bridge/harness.js";
import { runCli } from "../helpers/cli.js";
import { connect } from "../helpers/mcp.js";

/**
 * A file named as an API spec (front matter `openapi`, `asyncapi`, `openapi-schema`; docs.json's
 * navigation, `api.openapi`, a version's or a language's own spec; a link named as one) was
 * mounted in every reader's docs filesystem as written, whatever it was: a restricted page or
 * snippet, docs.json and its navigation `$ref` file, a dot-file, a file that is no spec at all
 * (adversary round 59 F1). Now a name reads as a missing spec unless the file passes the rule for
 * spec files, and a file is mounted only once it loads as an API description: the anonymous
 * reader's `ls` and `cat` are those of the site without the name (and without the file, where it
 * can go), and `check` says what it says of a missing spec.
 */

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Where docs.json names a spec, when it does. */
type DocsJsonSpec = { readonly at: "group" | "api" | "version" | "language"; readonly key: "openapi" | "asyncapi"; readonly source: string };

/** docs.json, its navigation in the shape `spec` needs (versions, languages), naming `spec` when `named`. */
function docsJson(spec: DocsJsonSpec | undefined, named: boolean): string {
  const name = (at: DocsJsonSpec["at"]) => (named && spec?.at === at ? { [spec.key]: spec.source } : {});
  const groups = [{ group: "G", ...name("group"), pages: ["index", "g/p"] }, { $ref: "nav/staff.json" }];
  const navigation =
    spec?.at === "version"
      ? { versions: [{ version: "v1", ...name("version"), groups }] }
      : spec?.at === "language"
        ? { languages: [{ language: "en", ...name("language"), groups }] }
        : { groups };
  return JSON.stringify({ name: "Leaky", ...(named && spec?.at === "api" ? { api: { [spec.key]: spec.source } } : {}), navigation });
}

/** Every file the site has but the page naming a spec and docs.json. */
const BASE: Record<string, string> = {
  "nav/staff.json": '{ "group": "Staff nav", "pages": ["internal/secret"] }\n',
  "index.mdx": "---\ntitle: Home\n---\nHome.\n",
  "internal/secret.mdx": "---\ntitle: Secret runbook\ngroups: [staff]\n---\nRESTRICTED-PAGE-MARKER rotate the keys\n",
  "snippets/staff.mdx": "---\ngroups: [staff]\n---\nRESTRICTED-SNIPPET-MARKER\n",
  ".env": "DATABASE_PASSWORD=ENV-FILE-MARKER\n",
  "inner/.hidden.yaml": "HIDDEN-YAML-MARKER: 1\n",
  "notes/data.json": '{ "note": "NOT-A-SPEC-MARKER" }\n',
};

interface Way {
  /** How the file is named. */
  readonly label: string;
  /** The page's front matter line naming it, if that is how. */
  readonly frontMatter?: string;
  /** docs.json's naming, if that is how. */
  readonly docsJson?: DocsJsonSpec;
  /** A link made to be named (`specs/api.yaml -> ../internal/secret.mdx`). */
  readonly link?: readonly [string, string];
  /** The file named, as the reader would `cat` it. */
  readonly path: string;
  /** Whether the site can do without the file (docs.json and its navigation file it cannot). */
  readonly removable: boolean;
}

const WAYS: readonly Way[] = [
  { label: "front matter openapi, a restricted page", frontMatter: "openapi: internal/secret.mdx GET /x", path: "internal/secret.mdx", removable: true },
  { label: "front matter asyncapi, a restricted snippet", frontMatter: "asyncapi: /snippets/staff.mdx chat", path: "snippets/staff.mdx", removable: true },
  { label: "front matter openapi, docs.json", frontMatter: "openapi: docs.json GET /x", path: "docs.json", removable: false },
  { label: "front matter openapi, docs.json's navigation $ref file", frontMatter: "openapi: nav/staff.json GET /x", path: "nav/staff.json", removable: false },
  { label: "front matter openapi, .env", frontMatter: "openapi: .env GET /x", path: ".env", removable: true },
  { label: "front matter openapi, a dot-file in a folder", frontMatter: "openapi: inner/.hidden.yaml GET /x", path: "inner/.hidden.yaml", removable: true },
  { label: "front matter openapi-schema, a restricted page", frontMatter: "openapi-schema: internal/secret.mdx Thing", path: "internal/secret.mdx", removable: true },
  { label: "front matter openapi, a JSON file that is no spec", frontMatter: "openapi: notes/data.json GET /x", path: "notes/data.json", removable: true },
  { label: "docs.json navigation openapi, a restricted page", docsJson: { at: "group", key: "openapi", source: "internal/secret.mdx" }, path: "internal/secret.mdx", removable: true },
  { label: "docs.json api.openapi, .env", docsJson: { at: "api", key: "openapi", source: ".env" }, path: ".env", removable: true },
  { label: "docs.json navigation openapi, a link named as a spec to a restricted page", docsJson: { at: "group", key: "openapi", source: "specs/api.yaml" }, link: ["specs/api.yaml", "../internal/secret.mdx"], path: "specs/api.yaml", removable: true },
  { label: "a version's own openapi, docs.json's navigation $ref file", docsJson: { at: "version", key: "openapi", source: "nav/staff.json" }, path: "nav/staff.json", removable: false },
  { label: "a language's own asyncapi, docs.json", docsJson: { at: "language", key: "asyncapi", source: "docs.json" }, path: "docs.json", removable: false },
  { label: "docs.json navigation openapi, a JSON file that is no spec", docsJson: { at: "group", key: "openapi", source: "notes/data.json" }, path: "notes/data.json", removable: true },
];

/** The site with the way's naming; `baseline`: the same site naming nothing, without the file where it can go. */
function siteOf(way: Way, baseline: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-spec-names-"));
  made.push(dir);
  const files: Record<string, string> = {
    ...BASE,
    "docs.json": docsJson(way.docsJson, !baseline),
    "g/p.mdx": `---\ntitle: P\n${!baseline && way.frontMatter !== undefined ? `${way.frontMatter}\n` : ""}---\nP\n`,
  };
  if (baseline && way.removable) delete files[way.path];
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  if (way.link !== undefined && !baseline) {
    mkdirSync(dirname(join(dir, way.link[0])), { recursive: true });
    symlinkSync(way.link[1], join(dir, way.link[0]));
  }
  return dir;
}

const command = (way: Way): string => `ls -aR /; cat /${way.path} 2>&1; grep -r MARKER / 2>&1`;

describe("a file named as an API spec that is no spec file (round 59 F1)", () => {
  for (const way of WAYS) {
    it(`fs, anonymous: ${way.label}: ls, cat and grep read as on the site without the name`, async () => {
      const [named, without] = [siteOf(way, false), siteOf(way, true)];
      const [got, want] = [await runCli(["fs", command(way), "--dir", named]), await runCli(["fs", command(way), "--dir", without])];
      expect(got.stdout).toBe(want.stdout);
      expect(want.stdout).toContain(`cat: /${way.path}: No such file or directory\n`);
    });
  }
});

/** Every way at once, as the adversary's site had them, served over HTTP. */
const ALL_PAGES: Record<string, string> = {
  "g/p1.mdx": "---\ntitle: P1\nopenapi: internal/secret.mdx GET /x\n---\nP1\n",
  "g/p2.mdx": "---\ntitle: P2\nasyncapi: /snippets/staff.mdx chat\n---\nP2\n",
  "g/p3.mdx": "---\ntitle: P3\nopenapi: docs.json GET /x\n---\nP3\n",
  "g/p4.mdx": "---\ntitle: P4\nopenapi: nav/staff.json GET /x\n---\nP4\n",
  "g/p5.mdx": "---\ntitle: P5\nopenapi: .env GET /x\n---\nP5\n",
  "g/p6.mdx": "---\ntitle: P6\nopenapi: inner/.hidden.yaml GET /x\n---\nP6\n",
  "g/p7.mdx": "---\ntitle: P7\nopenapi-schema: internal/secret.mdx Thing\n---\nP7\n",
  "g/p8.mdx": "---\ntitle: P8\nopenapi: notes/data.json GET /x\n---\nP8\n",
};
const ALL_DOCS_JSON = JSON.stringify({
  name: "Leaky",
  api: { openapi: ".env" },
  navigation: {
    groups: [
      { group: "G", openapi: "specs/api.yaml", pages: ["index", ...Object.keys(ALL_PAGES).map((p) => p.replace(/\.mdx$/, ""))] },
      { group: "H", openapi: "internal/secret.mdx", pages: [] },
      { $ref: "nav/staff.json" },
    ],
  },
});

function allSite(named: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-spec-names-all-"));
  made.push(dir);
  const files: Record<string, string> = { ...BASE, "docs.json": ALL_DOCS_JSON, ...ALL_PAGES };
  // Without the names: every page as it is, but for its naming line; docs.json names no spec.
  if (!named) {
    for (const p of Object.keys(ALL_PAGES)) files[p] = (ALL_PAGES[p] as string).replace(/^(openapi|asyncapi|openapi-schema): .*\n/m, "");
    files["docs.json"] = ALL_DOCS_JSON.replace('"api":{"openapi":".env"},', "").replace('"openapi":"specs/api.yaml",', "").replace('"openapi":"internal/secret.mdx",', "");
  }
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  if (named) {
    mkdirSync(join(dir, "specs"));
    symlinkSync("../internal/secret.mdx", join(dir, "specs/api.yaml"));
  }
  return dir;
}

const ALL_COMMAND = "ls -aR /; cat /internal/secret.mdx /snippets/staff.mdx /docs.json /nav/staff.json /.env /inner/.hidden.yaml /notes/data.json /specs/api.yaml 2>&1; grep -r MARKER / 2>&1; jq -r .name /docs.json 2>&1; wc -c /.env 2>&1";

describe("every way at once, over anonymous HTTP /mcp (round 59 F1)", () => {
  const bridges: Harness[] = [];
  afterAll(async () => {
    for (const h of bridges.splice(0)) await h.close();
  });

  it("the anonymous reader's filesystem is the site's without the names, exactly", async () => {
    const answers: string[] = [];
    for (const named of [true, false]) {
      const h = await startBridge({ root: allSite(named), authMode: "partial", mcp: "enabled" });
      bridges.push(h);
      const c = await mcpClient(h.urls.mcp);
      answers.push(await c.text("query_docs_filesystem_leaky", { command: ALL_COMMAND }));
      await c.close();
    }
    const [got, want] = answers;
    expect(got).toBe(want);
    expect(want).toBe(
      [
        "/:",
        ".",
        "..",
        "g",
        "index.mdx",
        "skill.md",
        "",
        "/g:",
        ".",
        "..",
        ...Object.keys(ALL_PAGES).map((p) => p.slice(2)),
        "cat: /internal/secret.mdx: No such file or directory",
        "cat: /snippets/staff.mdx: No such file or directory",
        "cat: /docs.json: No such file or directory",
        "cat: /nav/staff.json: No such file or directory",
        "cat: /.env: No such file or directory",
        "cat: /inner/.hidden.yaml: No such file or directory",
        "cat: /notes/data.json: No such file or directory",
        "cat: /specs/api.yaml: No such file or directory",
        "jq: error: Could not open file /docs.json: No such file or directory",
        "wc: /.env: No such file or directory",
        "[exit code 1]",
      ].join("\n"),
    );
  });

  it("check says of each what it says of a missing spec", async () => {
    const run = await runCli(["check", "--dir", allSite(true)]);
    expect([run.code, run.stdout, run.stderr]).toEqual([
      1,
      [
        // A file that is there but no spec: said so (to whole-site readers: it is at docs.json).
        'docs.json API spec notes/data.json: not an API description: no "openapi", "swagger" or "asyncapi" version field',
        "docs.json:1:34 api.openapi: API spec .env: file not found",
        "docs.json:1:89 navigation.groups[0].openapi: API spec specs/api.yaml: file not found",
        "docs.json:1:204 navigation.groups[1].openapi: API spec internal/secret.mdx: file not found",
        'g/p1.mdx:3 warning: front matter openapi "internal/secret.mdx GET /x" does not match an operation: no spec "internal/secret.mdx" is found in the repository (from its root, then this page\'s folder)',
        'g/p2.mdx:3 asyncapi: warning: front matter asyncapi "/snippets/staff.mdx chat" names no spec found in the repository ("/snippets/staff.mdx", from its root, then this page\'s folder): the page shows no channel',
        'g/p3.mdx:3 warning: front matter openapi "docs.json GET /x" does not match an operation: no spec "docs.json" is found in the repository (from its root, then this page\'s folder)',
        'g/p4.mdx:3 warning: front matter openapi "nav/staff.json GET /x" does not match an operation: no spec "nav/staff.json" is found in the repository (from its root, then this page\'s folder)',
        'g/p5.mdx:3 warning: front matter openapi ".env GET /x" does not match an operation: no spec ".env" is found in the repository (from its root, then this page\'s folder)',
        'g/p6.mdx:3 warning: front matter openapi "inner/.hidden.yaml GET /x" does not match an operation: no spec "inner/.hidden.yaml" is found in the repository (from its root, then this page\'s folder)',
        'g/p7.mdx:3 openapi-schema: warning: no spec "internal/secret.mdx" is found in the repository (from its root, then this page\'s folder): the page shows no schema',
        "checked docs.json (+1 $ref file) and 11 pages: 4 errors, 7 warnings",
        "",
      ].join("\n"),
      "",
    ]);
  });
});

describe("a spec edited into what is no spec while serving (round 59 F1)", () => {
  it("keeps its last good pages and the bytes they were made from (never the text now) until it is a spec again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-spec-names-live-"));
    made.push(dir);
    const spec = 'openapi: 3.0.3\ninfo: {title: W, version: "1"}\npaths:\n  /widgets:\n    get:\n      summary: List widgets\n      responses: {"200": {description: ok}}\n';
    const files: Record<string, string> = {
      "docs.json": JSON.stringify({ name: "Live", navigation: { groups: [{ group: "G", pages: ["index"] }, { group: "API", openapi: "api/openapi.yaml" }] } }),
      "index.mdx": "---\ntitle: Home\n---\nHome.\n",
      "api/openapi.yaml": spec,
      "internal/secret.mdx": "---\ntitle: Secret\ngroups: [staff]\n---\nRESTRICTED-PAGE-MARKER\n",
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    const runtime = await DocsRuntime.load({ root: dir });
    const ask = async (): Promise<string> => {
      const c = await connect(runtime);
      const out = c.text(await c.call("query_docs_filesystem_live", { command: "find / -type f | sort; head -c 14 /api/openapi.yaml 2>&1" }));
      await c.close();
      return out;
    };
    try {
      expect(await ask()).toBe("/api-reference/list-widgets.mdx\n/api/openapi.yaml\n/index.mdx\n/skill.md\nopenapi: 3.0.3");
      // Text that is no API description: the pages stay the last good ones, and so does the file
      // they were made from (round 57 F4); the text now is never served.
      writeFileSync(join(dir, "api/openapi.yaml"), "DATABASE_PASSWORD=SECRET-MARKER\n");
      await runtime.applyChanges(["api/openapi.yaml"]);
      expect(await ask()).toBe("/api-reference/list-widgets.mdx\n/api/openapi.yaml\n/index.mdx\n/skill.md\nopenapi: 3.0.3");
      // A link to a restricted page in its place: withdrawn, as a missing file, pages and all.
      unlinkSync(join(dir, "api/openapi.yaml"));
      symlinkSync("../internal/secret.mdx", join(dir, "api/openapi.yaml"));
      await runtime.applyChanges(["api/openapi.yaml"]);
      expect(await ask()).toBe("/index.mdx\n/skill.md\nhead: cannot open '/api/openapi.yaml' for reading: No such file or directory\n[exit code 1]");
      // A spec again: mounted again.
      unlinkSync(join(dir, "api/openapi.yaml"));
      writeFileSync(join(dir, "api/openapi.yaml"), spec);
      await runtime.applyChanges(["api/openapi.yaml"]);
      expect(await ask()).toBe("/api-reference/list-widgets.mdx\n/api/openapi.yaml\n/index.mdx\n/skill.md\nopenapi: 3.0.3");
    } finally {
      await runtime.close();
    }
  });
});
