import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { REPO } from "../helpers/paths.js";

/**
 * Hidden pages and search, through the SDK client: a page reachable only through hidden
 * navigation elements, or with `hidden: true` front matter, is not searchable (unless
 * `seo.indexing: "all"`, or a hidden element's `searchable: true`), and stays readable in the
 * filesystem. A page also listed in a visible place stays searchable.
 */
const DEMO = join(REPO, "fixtures/hidden-demo");
const SEARCH = "search_hidden_demo";
const FS = "query_docs_filesystem_hidden_demo";

async function open(root: string) {
  const runtime = await DocsRuntime.load({ root, baseUrl: "https://docs.example.com" });
  const mcp = await connect(runtime);
  const paths = async (args: Record<string, unknown> = {}): Promise<string[]> => {
    const r = await mcp.call(SEARCH, { query: "widget", pageSize: 50, ...args });
    return (r.structuredContent as { results: { path: string }[] }).results.map((x) => x.path).sort();
  };
  return { runtime, mcp, paths };
}

describe("hidden navigation and search", () => {
  let site: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    site = await open(DEMO);
  });
  afterAll(async () => {
    await site.mcp.close();
    await site.runtime.close();
  });

  it("searches only what readers can reach, plus hidden elements that opt in with searchable: true", async () => {
    // Left out: /guides/draft (front matter hidden), /labs/teleport (hidden menu item),
    // /internal/runbook and the API page of GET /health (hidden tab), /v1/setup (hidden version),
    // /notes/orphan (in no navigation). /guides/install is also listed in the visible v2.
    expect(await site.paths()).toEqual(["/guides/install", "/guides/snippets", "/index"]);
  });

  it("a version filter on a hidden version finds only what is also visible", async () => {
    expect(await site.paths({ version: "v1" })).toEqual(["/guides/install"]);
  });

  it("hidden pages stay readable in the filesystem", async () => {
    const r = await site.mcp.call(FS, { command: "cat /labs/teleport.mdx /guides/draft.mdx" });
    expect(site.mcp.text(r)).toBe(
      readFileSync(join(DEMO, "labs/teleport.mdx"), "utf8") + readFileSync(join(DEMO, "guides/draft.mdx"), "utf8"),
    );
  });

  it("the site's sections (generated skill, server instructions) leave hidden elements out", () => {
    expect(site.runtime.site.config.sections).toEqual([{ title: "Guides", path: "navigation.versions[0].tabs[0]", pages: ["/index", "/guides/install", "/guides/draft"] }]);
  });
});

describe('hidden pages with seo.indexing: "all"', () => {
  let dir: string;
  let site: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-mcp-hidden-"));
    cpSync(DEMO, dir, { recursive: true });
    const docs = JSON.parse(readFileSync(join(dir, "docs.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(dir, "docs.json"), JSON.stringify({ ...docs, seo: { indexing: "all" } }));
    site = await open(dir);
  });
  afterAll(async () => {
    await site.mcp.close();
    await site.runtime.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("every page is searchable, hidden or not", async () => {
    expect(await site.paths()).toEqual([
      "/api-reference/check-widget-health",
      "/guides/draft",
      "/guides/install",
      "/guides/snippets",
      "/index",
      "/internal/runbook",
      "/labs/teleport",
      "/notes/orphan",
      "/v1/setup",
    ]);
  });
});
