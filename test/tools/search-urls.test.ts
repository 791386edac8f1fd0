import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { makeRepo } from "../helpers/repo.js";

/**
 * A search result's links are URLs a client can open as given: a custom heading id is written by
 * hand (`{#a"b}`), a file name may hold a space or `#`; what a URL may not hold as written is
 * percent-encoded, letters of any script stay as the browser shows them.
 */
let repo: ReturnType<typeof makeRepo>;
let mcp: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  repo = makeRepo({
    "docs.json": JSON.stringify({ name: "Links", seo: { indexing: "all" }, navigation: { pages: ["guides/first steps", "guides/c#", "zh/安装"] } }),
    "guides/first steps.mdx": "---\ntitle: First steps\n---\n\n## Quokka setup {#set<up>\"100%\"}\n\nQuokka words here.\n",
    "guides/c#.mdx": "---\ntitle: Sharp\n---\n\n## Quokka in C# \\{#c`sharp\\}\n\nMore quokka words.\n",
    "zh/安装.mdx": "---\ntitle: 安装\n---\n\n## 安装步骤 {#安装步骤}\n\nquokka 安装步骤。\n",
  });
  const runtime = await DocsRuntime.load({ root: repo.dir, baseUrl: "https://docs.example.com" });
  mcp = await connect(runtime);
});
afterAll(async () => {
  await mcp.close();
  repo.cleanup();
});

describe("search result links", () => {
  it("percent-encode what a URL's path or fragment may not hold, and keep other scripts' letters", async () => {
    const r = await mcp.call("search_links", { query: "quokka", pageSize: 10 });
    expect(r.isError).toBeFalsy();
    const urls = (r.structuredContent as { results: { path: string; url: string }[] }).results.map((x) => [x.path, x.url]).sort();
    expect(urls).toEqual([
      ["/guides/c#", "https://docs.example.com/guides/c%23#c%60sharp"],
      ["/guides/first steps", "https://docs.example.com/guides/first%20steps#set%3Cup%3E%22100%25%22"],
      ["/zh/安装", "https://docs.example.com/zh/安装#安装步骤"],
    ]);
    // A URL parser reads them as written: nothing left for it to encode, nothing read as a second fragment.
    for (const [, url] of urls.slice(0, 2)) expect(new URL(url as string).href).toBe(url);
  });
});
