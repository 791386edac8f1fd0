import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { reloadSite, loadSite } from "../../src/vfs/load-site.js";
import { localContext } from "../../src/vfs/request-context.js";
import { runCli } from "../helpers/cli.js";
import { writeRepo } from "./helpers.js";

/** An analytics API: one event list, one admin-only export. */
const analytics = {
  openapi: "3.0.3",
  info: { title: "Analytics", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/events": {
      get: {
        summary: "List events",
        parameters: [{ name: "cursorToken", in: "query", description: "Where the previous page ended", schema: { type: "string" } }],
        responses: { "200": { description: "The events", content: { "application/json": { schema: { type: "object", properties: { total: { type: "integer" } } } } } } },
      },
    },
    "/exports": {
      post: { summary: "Export everything", "x-svc": { metadata: { groups: ["admin"] } }, responses: { "202": { description: "Accepted" } } },
    },
  },
};

const prose = (title: string, openapi: string): string => `---\ntitle: ${title}\nopenapi: "${openapi}"\n---\n\nWhat the events are for.\n`;

/** The reference `operationReference` renders for GET /events under the default settings. */
const EVENTS_REFERENCE = [
  "",
  "---",
  "",
  "`GET /events`",
  "",
  "**Base URL:** `https://api.example.com`",
  "**Playground:** interactive, for every reader; requests are relayed by POST /_svc/api/request",
  "",
  "## Query parameters",
  "",
  "- [`cursorToken`](#cursorToken) `string`: Where the previous page ended",
  "",
  "## Responses",
  "",
  "### 200: The events",
  "",
  "`application/json`",
  "",
  "- `total` `integer`",
  "",
  "## Examples",
  "",
  "### Request",
  "",
  "```bash cURL",
  "curl --request GET \\",
  "  --url 'https://api.example.com/events?cursorToken=<string>'",
  "```",
  "",
  "```python Python",
  "import requests",
  "",
  'url = "https://api.example.com/events?cursorToken=<string>"',
  "",
  'response = requests.request("GET", url)',
  "",
  "print(response.text)",
  "```",
  "",
  "```javascript JavaScript",
  'const response = await fetch("https://api.example.com/events?cursorToken=<string>", {',
  '  method: "GET",',
  "});",
  "",
  "console.log(await response.text());",
  "```",
  "",
  "### Response",
  "",
  "```json 200",
  "{",
  '  "total": 123',
  "}",
  "```",
  "",
  "## Source",
  "",
  "Generated from `/api/analytics.openapi.json`: `jq '.[\"paths\"][\"/events\"][\"get\"]' /api/analytics.openapi.json`",
  "",
].join("\n");

describe("specs named only in front matter", () => {
  let root: string;
  let runtime: DocsRuntime;
  const sh = async (command: string, groups: readonly string[] = []) => {
    const r = await runtime.readerState(localContext(readerWithGroups(groups))).shell.run(command);
    return r.stdout + r.stderr;
  };

  beforeAll(async () => {
    root = writeRepo({
      "docs.json": { name: "Events", navigation: { pages: ["index", "guides/events", "guides/relative", "guides/exports", "guides/outside"] } },
      "index.mdx": "# Home\n",
      // Written with a leading slash and no folder: the one spec file whose path ends with it.
      "guides/events.mdx": prose("Events", "/analytics.openapi.json GET /events"),
      // Relative to the page's folder.
      "guides/relative.mdx": prose("Events again", "../api/analytics.openapi.json GET /events"),
      // An operation restricted to admins, on a page everyone reads: its reference is not shown.
      "guides/exports.mdx": prose("Exports", "/api/analytics.openapi.json POST /exports"),
      // Outside the repository: never found, never read.
      "guides/outside.mdx": prose("Outside", "../../../etc/analytics.openapi.json GET /events"),
      "api/analytics.openapi.json": analytics,
    });
    runtime = await DocsRuntime.load({ root });
  });
  afterAll(() => runtime.close());

  it("are mounted in the docs filesystem like the specs docs.json names", async () => {
    expect(await sh("ls /api")).toBe("analytics.openapi.json\n");
    // Each reader's copy of the spec, as for docs.json's: the admin-only export is the admins'.
    expect(await sh("jq -r '.paths | keys[]' /api/analytics.openapi.json")).toBe("/events\n");
    expect(await sh("jq -r '.paths | keys[]' /api/analytics.openapi.json", ["admin"])).toBe("/events\n/exports\n");
    expect(runtime.site.config.specs).toEqual([{ source: "api/analytics.openapi.json", remote: false, frontMatter: true }]);
  });

  it("a page shows the author's prose, then the operation as generated pages render it; its size counts both", async () => {
    const authored = prose("Events", "/analytics.openapi.json GET /events");
    expect(await sh("cat /guides/events.mdx")).toBe(authored + EVENTS_REFERENCE);
    expect(await sh("wc -c /guides/events.mdx")).toBe(`${Buffer.byteLength(authored + EVENTS_REFERENCE)} /guides/events.mdx\n`);
    // The page-relative name finds the same file, and the page shows the same reference.
    expect(await sh("tail -n +6 /guides/relative.mdx")).toBe(`What the events are for.\n${EVENTS_REFERENCE}`);
  });

  it("search finds the page by what only its reference says", async () => {
    const hits = await runtime.search(localContext(), { query: "cursorToken previous page ended" });
    expect(hits.map((h) => h.page.path)).toEqual(["/guides/events", "/guides/relative"]);
  });

  it("an operation restricted beyond the page's readers is not shown on it; check says why, and what it could not find", async () => {
    expect(await sh("cat /guides/exports.mdx")).toBe(prose("Exports", "/api/analytics.openapi.json POST /exports"));
    expect(await sh("cat /guides/exports.mdx", ["admin"])).toBe(prose("Exports", "/api/analytics.openapi.json POST /exports"));
    const check = await runCli(["check", "--dir", root]);
    expect(check.stdout).toBe(
      [
        'guides/exports.mdx warning: front matter openapi "/api/analytics.openapi.json POST /exports" documents an operation restricted to groups that not every reader of this page is in: its reference is not shown on the page',
        'guides/outside.mdx:3 warning: front matter openapi "../../../etc/analytics.openapi.json GET /events" does not match an operation: no spec "../../../etc/analytics.openapi.json" is found in the repository (from its root, then this page\'s folder); api/analytics.openapi.json has GET /events: write "api/analytics.openapi.json GET /events"',
        "checked docs.json and 5 pages: 0 errors, 2 warnings",
        "",
      ].join("\n"),
    );
  });

  it("an edit of the spec or of such a page reloads them", async () => {
    const first = await loadSite(root);
    expect(first.configFiles.has("api/analytics.openapi.json")).toBe(true);
    const renamed = { ...analytics, paths: { "/events": { get: { ...analytics.paths["/events"].get, parameters: [{ name: "pageToken", in: "query", schema: { type: "string" } }] } } } };
    writeFileSync(join(root, "api/analytics.openapi.json"), JSON.stringify(renamed));
    const next = await reloadSite(first, ["api/analytics.openapi.json"]);
    expect(next.site.pages.get("/guides/events")?.body).toContain("- [`pageToken`](#pageToken) `string`");
    writeFileSync(join(root, "guides/events.mdx"), "---\ntitle: Events\n---\n\nNo operation any more.\n");
    const edited = await reloadSite(next, ["guides/events.mdx"]);
    expect(edited.site.pages.get("/guides/events")?.file.text).toBe("---\ntitle: Events\n---\n\nNo operation any more.\n");
    expect(edited.site.api?.pages.has("/guides/events")).toBe(false);
  });
});

describe("a spec named only by restricted pages' front matter", () => {
  const swagger = "swagger: '2.0'\ninfo: {title: Hidden, version: '1'}\npaths:\n  /hidden:\n    get: {responses: {'200': {description: OK}}}\n";
  // The last column: the load errors and the files they are reported against (on stderr, for the
  // author): a spec refused for a missing info is said at docs.json and at its own line 1.
  const variants: [string, string, string][] = [
    ["Swagger 2.0", swagger, "1 error in docs.json"],
    ["missing info", "openapi: 3.0.3\npaths:\n  /hidden:\n    get: {responses: {'200': {description: OK}}}\n", "2 errors in docs.json and 1 other file"],
  ];
  it.each(variants)("%s: readable only by readers of a page that names it", async (_what, text, errors) => {
    const root = writeRepo({
      "docs.json": { name: "Hidden", navigation: { pages: ["index", "internal/b", "internal/c"] } },
      "index.mdx": "# Home\n",
      "internal/b.mdx": '---\ntitle: B\ngroups: [staff]\nopenapi: "other/hidden.yaml GET /hidden"\n---\n',
      "internal/c.mdx": '---\ntitle: C\ngroups: [ops]\nopenapi: "other/hidden.yaml GET /hidden"\n---\n',
      "other/hidden.yaml": text,
    });
    const fs = async (groups: string) => {
      const r = await runCli(["fs", "--dir", root, ...(groups !== "" ? ["--groups", groups] : []), "cat /other/hidden.yaml; ls /"]);
      return { stdout: r.stdout, stderr: r.stderr.replace(root, "ROOT") };
    };
    const note = `svc-mcp: ${errors}; run \`svc-mcp check --dir ROOT\` for details\n`;
    const missing = { stdout: "index.mdx\nskill.md\n", stderr: `${note}cat: /other/hidden.yaml: No such file or directory\n` };
    expect(await fs("")).toEqual(missing);
    expect(await fs("sales")).toEqual(missing);
    expect(await fs("staff")).toEqual({ stdout: `${text}index.mdx\ninternal\nother\nskill.md\n`, stderr: note });
    expect(await fs("ops")).toEqual({ stdout: `${text}index.mdx\ninternal\nother\nskill.md\n`, stderr: note });
  });

  // A text that does not parse is no spec: mounted for no reader, the namers' readers too
  // (adversary round 59 F1: a restricted page or a secret named as a spec was served as written).
  it("a YAML syntax error: mounted for no reader", async () => {
    const root = writeRepo({
      "docs.json": { name: "Hidden", navigation: { pages: ["index", "internal/b"] } },
      "index.mdx": "# Home\n",
      "internal/b.mdx": '---\ntitle: B\ngroups: [staff]\nopenapi: "other/hidden.yaml GET /hidden"\n---\n',
      "other/hidden.yaml": "openapi: 3.0.3\npaths: [\n  /hidden\n",
    });
    const fs = async (groups: string) => {
      const r = await runCli(["fs", "--dir", root, ...(groups !== "" ? ["--groups", groups] : []), "cat /other/hidden.yaml; ls /"]);
      return { stdout: r.stdout, stderr: r.stderr.replace(root, "ROOT") };
    };
    const note = "svc-mcp: 1 error in other/hidden.yaml; run `svc-mcp check --dir ROOT` for details\n";
    const missing = `${note}cat: /other/hidden.yaml: No such file or directory\n`;
    expect(await fs("")).toEqual({ stdout: "index.mdx\nskill.md\n", stderr: missing });
    expect(await fs("staff")).toEqual({ stdout: "index.mdx\ninternal\nskill.md\n", stderr: missing });
  });

  it("is as open as the most open page that names it", async () => {
    const root = writeRepo({
      "docs.json": { name: "Open", navigation: { pages: ["b", "c"] } },
      "b.mdx": '---\ntitle: B\ngroups: [staff]\nopenapi: "hidden.yaml GET /hidden"\n---\n',
      "c.mdx": '---\ntitle: C\nopenapi: "hidden.yaml GET /hidden"\n---\n',
      "hidden.yaml": swagger,
    });
    expect((await runCli(["fs", "--dir", root, "cat /hidden.yaml"])).stdout).toBe(swagger);
  });
});
