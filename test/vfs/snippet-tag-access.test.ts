/**
 * The platform's older `<Snippet file>` tag resolved by one rule for a reader (`snippetTarget`),
 * on every surface that shows a page's text: the shell (`cat`, `wc -c`, `ls -l`, `rg`), search
 * over MCP, the HTML page and the preview's agent panel (adversary round 55):
 * - F2: a file at an earlier path the reader may not read is passed over, as on the site without it;
 * - F3: a tag whose files the reader may read none of goes, as an import of such a file does;
 * - F1: only Markdown is a snippet: a spec a tag names is inlined nowhere, its restricted parts
 *   reaching no reader's search;
 * - F4: a spec's descriptions are Markdown: search inlines no import or tag written in one.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FixedWindowLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { localSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { createWebApp } from "../../src/bridge/web/web-app.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { openStateStore } from "../../src/store/state/sqlite-state-store.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { connect } from "../helpers/mcp.js";

const WHEN = new Date("2026-12-06T10:00:00Z");
const STAFF = readerWithGroups(["staff"]);
const DOCS_JSON = JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["guides/tag"] }] } });
const PAGE = '---\ntitle: Tag\n---\n\n# Tag\n\nIntro words.\n\n<Snippet file="nightingale.mdx" />\n\nOutro words.\n';
const WITHOUT = "---\ntitle: Tag\n---\n\n# Tag\n\nIntro words.\n\nOutro words.\n";
const SECRET = "---\ngroups: [staff]\n---\nThe code is ZEBRAQUARK.\n";

const dirs: string[] = [];
const runtimes: DocsRuntime[] = [];
async function load(files: Record<string, string>): Promise<DocsRuntime> {
  const dir = mkdtempSync(join(tmpdir(), "svc-mcp-snippet-tags-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    utimesSync(join(dir, path), WHEN, WHEN);
  }
  const runtime = await DocsRuntime.load({ root: dir });
  runtimes.push(runtime);
  return runtime;
}
const stateDir = mkdtempSync(join(tmpdir(), "svc-mcp-snippet-tags-state-"));
const state = openStateStore(stateDir);
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.close()));
  await state.close();
  for (const d of [...dirs, stateDir]) rmSync(d, { recursive: true, force: true });
});

/** What a reader gets of `/guides/tag`: the shell's answers, search's hits over MCP, the HTML page, the agent panel. */
async function surfaces(runtime: DocsRuntime, reader: Reader, queries: readonly string[]) {
  const shell = await runtime.readerState(localContext(reader)).shell.run("cat /guides/tag.mdx; wc -c /guides/tag.mdx; ls -l /guides/tag.mdx; rg -n nightingale /");
  const client = await connect(runtime, reader);
  const search: unknown[] = [];
  try {
    for (const query of queries) search.push((await client.call("search_acme", { query })).structuredContent);
  } finally {
    await client.close();
  }
  const app = createWebApp({ runtime, state, sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(3_600_000), projectId: "docs", publicUrl: undefined });
  const page = await app.request("/guides/tag", { headers: { accept: "text/html" } });
  const agent = await app.request("/_svc/preview/agent?page=/guides/tag", { headers: { accept: "text/html" } });
  return { shell, search, html: { status: page.status, text: await page.text() }, agent: { status: agent.status, text: await agent.text() } };
}

/** Search's hits for `query` as path and snippet. */
async function hits(runtime: DocsRuntime, reader: Reader, query: string): Promise<string[][]> {
  const client = await connect(runtime, reader);
  try {
    const out = (await client.call("search_acme", { query })).structuredContent as { results: { path: string; snippet: string }[] };
    return out.results.map((r) => [r.path, r.snippet]);
  } finally {
    await client.close();
  }
}

describe("a `<Snippet file>` tag naming a file the reader may not read (adversary round 55 F3)", () => {
  it("goes from the page as an import of it does: every surface as on the site written without it", async () => {
    const withIt = await load({ "docs.json": DOCS_JSON, "guides/tag.mdx": PAGE, "_snippets/nightingale.mdx": SECRET });
    const reference = await load({ "docs.json": DOCS_JSON, "guides/tag.mdx": WITHOUT });
    const queries = ["intro words", "nightingale", "zebraquark"];
    const got = await surfaces(withIt, ANONYMOUS, queries);
    const size = Buffer.byteLength(WITHOUT);
    expect(got.shell).toEqual({ stdout: `${WITHOUT}${size} /guides/tag.mdx\n-r--r--r-- 1 root root ${size} Dec  6 10:00 /guides/tag.mdx\n`, stderr: "", exitCode: 1, truncated: false });
    expect(got).toEqual(await surfaces(reference, ANONYMOUS, queries));
    expect(await hits(withIt, ANONYMOUS, "intro words")).toEqual([["/guides/tag", "Intro words. Outro words."]]);
    // Its readers get the page as written, the snippet inlined.
    expect((await withIt.readerState(localContext(STAFF)).shell.run("cat /guides/tag.mdx")).stdout).toBe(PAGE);
    expect(await hits(withIt, STAFF, "zebraquark")).toEqual([["/guides/tag", "Intro words. The code is ZEBRAQUARK. Outro words."]]);
  });
});

describe("a `<Snippet file>` tag with a file the reader may not read at an earlier path (adversary round 55 F2)", () => {
  it.each([
    ["under /_snippets/, a public one under /snippets/", '<Snippet file="dup.mdx" />', "_snippets/dup.mdx", "snippets/dup.mdx"],
    ["the .mdx of a name without extension, a public .md beside it", '<Snippet file="d2" />', "snippets/d2.mdx", "snippets/d2.md"],
  ])("%s: the public one, on every surface, as on the site without the restricted one", async (_label, tag, restricted, open) => {
    const page = PAGE.replace('<Snippet file="nightingale.mdx" />', tag);
    const files = { "docs.json": DOCS_JSON, "guides/tag.mdx": page, [open]: "The public duppub text.\n" };
    const withIt = await load({ ...files, [restricted]: SECRET });
    const reference = await load(files);
    const queries = ["duppub", "intro words", "zebraquark"];
    const got = await surfaces(withIt, ANONYMOUS, queries);
    expect(got).toEqual(await surfaces(reference, ANONYMOUS, queries));
    expect(await hits(withIt, ANONYMOUS, "duppub")).toEqual([["/guides/tag", "Intro words. The public duppub text. Outro words."]]);
    expect(got.html.text).toContain("<p>The public duppub text.</p>");
    expect(got.shell.stdout.startsWith(page)).toBe(true);
    // A reader of the restricted one gets it, at the earlier path.
    expect(await hits(withIt, STAFF, "zebraquark")).toEqual([["/guides/tag", "Intro words. The code is ZEBRAQUARK. Outro words."]]);
  });
});

describe("a `<Snippet file>` tag naming a spec (adversary round 55 F1)", () => {
  const SPEC = [
    "openapi: 3.0.3",
    "info: {title: Y, version: '1'}",
    "paths:",
    "  /pub:",
    "    get:",
    "      summary: Pub",
    "      responses: {'200': {description: ok}}",
    "  /s:",
    "    get:",
    "      summary: Staff op",
    "      description: Rotate the master key with ROTATEKEY",
    "      x-mint: {metadata: {groups: [staff]}}",
    "      responses: {'200': {description: ok}}",
    "",
  ].join("\n");
  const docs = JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["guides/tag"] }, { group: "API", openapi: "snippets/openapi.yaml" }] } });

  it("is no snippet: no reader's search or page holds the spec's text", async () => {
    const page = PAGE.replace("nightingale.mdx", "openapi.yaml");
    const runtime = await load({ "docs.json": docs, "guides/tag.mdx": page, "snippets/openapi.yaml": SPEC });
    for (const reader of [ANONYMOUS, STAFF]) {
      expect(await hits(runtime, reader, "rotatekey master")).toEqual(reader === STAFF ? [["/api-reference/staff-op", "GET /s Rotate the master key with ROTATEKEY Playground: interactive, for every reader; requests are relayed by POST /_svc/api/request"]] : []);
      expect(await hits(runtime, reader, "intro words")).toEqual([["/guides/tag", "Intro words. Outro words."]]);
    }
    const got = await surfaces(runtime, ANONYMOUS, []);
    expect(got.html.text).not.toContain("openapi: 3.0.3");
    expect(got.html.text).toContain("<p>Intro words.</p>\n<p>Outro words.</p>");
  });
});

describe("an include in an operation's description (adversary round 55 F4)", () => {
  it("is Markdown text, as the page shows it: search inlines nothing of it for any reader", async () => {
    const spec = {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: {
        "/a": { get: { summary: "Op import", description: "import S from '/snippets/nightingale.mdx'\n\n<S />", responses: { "200": { description: "ok" } } } },
        "/b": { get: { summary: "Op tag", description: 'See below.\n\n<Snippet file="nightingale.mdx" />', responses: { "200": { description: "ok" } } } },
      },
    };
    const runtime = await load({
      "docs.json": JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "API", openapi: "api/openapi.json" }] } }),
      "api/openapi.json": JSON.stringify(spec),
      "snippets/nightingale.mdx": SECRET,
    });
    expect(await hits(runtime, STAFF, "zebraquark")).toEqual([]);
    expect((await hits(runtime, ANONYMOUS, "nightingale")).map(([path]) => path)).toEqual(["/api-reference/op-import", "/api-reference/op-tag"]);
    expect((await hits(runtime, STAFF, "nightingale")).map(([path]) => path)).toEqual(["/api-reference/op-import", "/api-reference/op-tag"]);
  });

  it("of an author's page shown with the operation: the author's part inlines its snippets, the reference's descriptions nothing", async () => {
    const spec = {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: { "/b": { get: { summary: "Op tag", description: 'See below.\n\n<Snippet file="described.mdx" />', responses: { "200": { description: "ok" } } } } },
    };
    const runtime = await load({
      "docs.json": JSON.stringify({ name: "Acme", openapi: "api/openapi.json", navigation: { groups: [{ group: "G", pages: ["guides/op"] }] } }),
      "api/openapi.json": JSON.stringify(spec),
      "guides/op.mdx": '---\ntitle: Authored\nopenapi: GET /b\n---\n\nAuthored intro.\n\n<Snippet file="authored.mdx" />\n',
      "snippets/authored.mdx": "The authored kiwi text.\n",
      "snippets/described.mdx": "The described emu text.\n",
    });
    const relay = "Playground: interactive, for every reader; requests are relayed by POST /_svc/api/request";
    expect(await hits(runtime, ANONYMOUS, "kiwi")).toEqual([["/guides/op", `Authored intro. The authored kiwi text. GET /b See below. ${relay}`]]);
    expect(await hits(runtime, ANONYMOUS, "emu")).toEqual([]);
  });
});

describe("a `<Snippet file>` tag written as code: in a code span or a fenced code block", () => {
  const page = [
    "---",
    "title: Tag",
    "---",
    "",
    "# Tag",
    "",
    'Intro words: write `<Snippet file="nightingale.mdx" />` to reuse a snippet.',
    "",
    "```mdx",
    '<Snippet file="nightingale.mdx" />',
    "```",
    "",
    "Outro words.",
    "",
  ].join("\n");
  const queries = ["intro words", "reuse snippet", "publicquark", "zebraquark"];

  it.each([
    ["a snippet every reader may read", "The public PUBLICQUARK text.\n"],
    ["a snippet only staff may read", SECRET],
  ])("naming %s: shown as text and included nowhere, for every reader as on the site without the snippet", async (_label, snippet) => {
    const withIt = await load({ "docs.json": DOCS_JSON, "guides/tag.mdx": page, "_snippets/nightingale.mdx": snippet });
    const reference = await load({ "docs.json": DOCS_JSON, "guides/tag.mdx": page });
    for (const reader of [ANONYMOUS, STAFF]) {
      const got = await surfaces(withIt, reader, queries);
      expect(got).toEqual(await surfaces(reference, reader, queries));
      const size = Buffer.byteLength(page);
      expect(got.shell).toEqual({
        stdout: `${page}${size} /guides/tag.mdx\n-r--r--r-- 1 root root ${size} Dec  6 10:00 /guides/tag.mdx\n/guides/tag.mdx:7:Intro words: write \`<Snippet file="nightingale.mdx" />\` to reuse a snippet.\n/guides/tag.mdx:10:<Snippet file="nightingale.mdx" />\n`,
        stderr: "",
        exitCode: 0,
        truncated: false,
      });
      expect(await hits(withIt, reader, "publicquark")).toEqual([]);
      expect(await hits(withIt, reader, "zebraquark")).toEqual([]);
      expect(await hits(withIt, reader, "intro words")).toEqual([["/guides/tag", 'Intro words: write <Snippet file="nightingale.mdx" /> to reuse a snippet. <Snippet file="nightingale.mdx" /> Outro words.']]);
      expect(got.html.text).toContain('<p>Intro words: write <code>&#x3C;Snippet file="nightingale.mdx" /></code> to reuse a snippet.</p>');
      expect(got.html.text).not.toMatch(/PUBLICQUARK|ZEBRAQUARK/);
    }
  });
});
