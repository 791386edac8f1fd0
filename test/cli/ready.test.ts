import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";
import { TestClient } from "../helpers/test-client.js";

/**
 * Ready means ready (issue 22): the server answers nothing over stdio, and opens no port over
 * HTTP, before its search index is built; a large site's build says so on stderr, with the
 * distinct texts it indexed (copies of a page in two versions are indexed as one text).
 */

let repo: { dir: string; cleanup: () => void };
let stateDir: string;
beforeAll(() => {
  const files: Record<string, string> = {
    "docs.json": JSON.stringify({ name: "Twins", navigation: { versions: ["v1", "v2"].map((version) => ({ version, groups: [{ group: "All", pages: Array.from({ length: 300 }, (_, i) => `${version}/page-${i}`) }] })) } }),
  };
  // 300 texts, each in two versions: 600 pages, past the 500 at which a load is announced.
  for (let i = 0; i < 300; i++) {
    const text = `---\ntitle: Page ${i}\n---\n\n# Page ${i}\n\nThe falcon ${i} lands on the ledge number ${i}.\n`;
    files[`v1/page-${i}.mdx`] = text;
    files[`v2/page-${i}.mdx`] = text;
  }
  repo = makeRepo(files);
  stateDir = mkdtempSync(join(tmpdir(), "svc-ready-state-"));
});
afterAll(() => {
  repo?.cleanup();
  rmSync(stateDir, { recursive: true, force: true });
});

/** No persistent cache: these starts build the index (a cache written after one start, a timing
 *  of its own, would make the next start read it; the cache has its own tests, site-cache.test.ts). */
const env = { ...process.env, SVC_MCP_CACHE: "off" } as Record<string, string>;

/** The log lines without the build's time and the temp folder. */
const stable = (lines: readonly string[]): string[] => lines.map((l) => l.replace(repo.dir, "<repo>").replace(/indexed in \d+\.\d s/, "indexed in <t> s"));

it("over stdio, tools/list is answered after the index is built, and the first search finds the page in the default version", async () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(REPO, "bin", "svc-mcp.js"), "serve", "--no-watch", "--no-fetch-remote", "--dir", repo.dir, "--state", stateDir], env, stderr: "pipe" });
  const lines: string[] = [];
  const banner = new Promise<void>((resolve) => {
    createInterface({ input: transport.stderr as unknown as NodeJS.ReadableStream }).on("line", (line) => {
      lines.push(line);
      if (line.startsWith("svc-mcp: serving ")) resolve();
    });
  });
  const client = new TestClient({ name: "ready-test", version: "1" });
  await client.connect(transport);
  const tools = await client.listTools();
  await banner;
  const found = await client.callTool({ name: "search_twins", arguments: { query: "falcon 17 ledge", pageSize: 1 } });
  await client.close();
  expect(tools.tools.map((t) => t.name)).toEqual(["search_twins", "query_docs_filesystem_twins", "submit_feedback"]);
  const ready = stable(lines);
  expect(ready).toEqual([
    "svc-mcp: loading 600 page files from <repo>",
    "svc-mcp: search ready: 600 pages (300 distinct texts) indexed in <t> s",
    `svc-mcp: project "twins" (from the site name; set --project-id to change it); state in ${stateDir}`,
    'svc-mcp: serving "Twins" (600 pages) over stdio; tools search_twins, query_docs_filesystem_twins, submit_feedback',
  ]);
  expect((found.structuredContent as { results: { path: string }[] }).results.map((r) => r.path)).toEqual(["/v1/page-17"]);
});

it("over HTTP, the port opens after the index is built", async () => {
  const child = spawn(process.execPath, [join(REPO, "bin", "svc-mcp.js"), "serve", "--http", "--port", "0", "--no-watch", "--no-fetch-remote", "--dir", repo.dir, "--state", stateDir], { env, stdio: ["ignore", "ignore", "pipe"] });
  const lines: string[] = [];
  await new Promise<void>((resolve) => {
    createInterface({ input: child.stderr }).on("line", (line) => {
      lines.push(line);
      if (line.startsWith("svc-mcp: serving ")) resolve();
    });
  });
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  const ready = stable(lines);
  const at = (prefix: string): number => ready.findIndex((l) => l.startsWith(prefix));
  expect(ready.filter((l) => l.startsWith("svc-mcp: search ready"))).toEqual(["svc-mcp: search ready: 600 pages (300 distinct texts) indexed in <t> s"]);
  expect(at("svc-mcp: search ready")).toBeLessThan(at("svc-mcp: serving "));
});
