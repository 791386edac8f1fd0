import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mcpClient } from "../bridge/harness.js";
import { REPO } from "../helpers/paths.js";
import { makeRepo } from "../helpers/repo.js";
import { TestClient } from "../helpers/test-client.js";

const BIN = join(REPO, "bin", "svc-mcp.js");
const SPEC = {
  openapi: "3.0.3",
  info: { title: "Weather", version: "1" },
  paths: { "/forecast": { get: { summary: "Get the forecast", tags: ["Forecast"], description: "Tomorrow's weather (zephyrine).", responses: { "200": { description: "OK" } } } } },
};
const PAGE = "/api-reference/forecast/get-the-forecast";

let specServer: Server;
let specUrl: string;
let requests: number;
let repo: { dir: string; cleanup: () => void };
let stateHome: string;

beforeEach(async () => {
  requests = 0;
  specServer = createServer((_req, res) => {
    requests++;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(SPEC));
  });
  await new Promise<void>((resolve) => specServer.listen(0, "127.0.0.1", resolve));
  specUrl = `http://127.0.0.1:${(specServer.address() as AddressInfo).port}/openapi.json`;
  repo = makeRepo({
    "docs.json": JSON.stringify({ name: "Weather", navigation: { groups: [{ group: "Start", pages: ["index"] }, { group: "API", openapi: specUrl }] } }),
    "index.mdx": "---\ntitle: Home\n---\n\nThe weather docs.\n",
  });
  stateHome = mkdtempSync(join(tmpdir(), "svc-remote-state-"));
});
afterEach(async () => {
  await new Promise<void>((resolve) => specServer.close(() => resolve()));
  repo.cleanup();
  rmSync(stateHome, { recursive: true, force: true });
});

const env = (): Record<string, string> => ({ ...(process.env as Record<string, string>), XDG_STATE_HOME: stateHome });

async function searchPaths(client: Client, query: string): Promise<string[]> {
  const r = await client.callTool({ name: "search_weather", arguments: { query } });
  return (r.structuredContent as { results: { path: string }[] }).results.map((h) => h.path);
}

describe("svc-mcp serve fetches remote specs in the background", () => {
  it("stdio: serves at once, then the fetched spec's pages arrive with list_changed", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "serve", "--dir", repo.dir, "--no-watch"], env: env(), stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new TestClient({ name: "remote-test", version: "1.0.0" });
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()));
    await client.connect(transport);
    await changed;
    expect(await searchPaths(client, "zephyrine")).toEqual([PAGE]);
    await client.close();
    expect(stderr.split("\n").slice(1)).toEqual([
      'svc-mcp: serving "Weather" (1 page) over stdio; tools search_weather, query_docs_filesystem_weather, submit_feedback',
      `svc-mcp: fetching a remote API spec in the background: ${specUrl}`,
      `svc-mcp: fetched ${specUrl}: 1 API page`,
      "",
    ]);
    expect(requests).toBe(1);
  });

  it("stdio with --no-fetch-remote: nothing is fetched, the spec's entries stay unverified", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "serve", "--dir", repo.dir, "--no-watch", "--no-fetch-remote"], env: env(), stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new TestClient({ name: "remote-test", version: "1.0.0" });
    await client.connect(transport);
    expect(await searchPaths(client, "zephyrine")).toEqual([]);
    await client.close();
    expect([requests, stderr.includes("fetch")]).toEqual([0, false]);
  });

  describe("--http", () => {
    let child: ChildProcessWithoutNullStreams | undefined;
    afterEach(() => {
      child?.kill("SIGKILL");
      child = undefined;
    });

    it("listens at once, then serves the fetched spec's pages", async () => {
      child = spawn(process.execPath, [BIN, "serve", "--http", "--port", "0", "--dir", repo.dir, "--no-watch"], { env: env() });
      const lines: string[] = [];
      const fetched = new Promise<string>((resolve, reject) => {
        createInterface({ input: child!.stderr }).on("line", (l) => {
          lines.push(l);
          if (l.startsWith("svc-mcp: fetched ")) resolve(l);
        });
        child!.once("exit", (code) => reject(new Error(`exited ${code}: ${lines.join("\n")}`)));
      });
      expect(await fetched).toBe(`svc-mcp: fetched ${specUrl}: 1 API page`);
      // The fetch starts once the server listens: after every start-up line.
      expect(lines.slice(-2)).toEqual([`svc-mcp: fetching a remote API spec in the background: ${specUrl}`, `svc-mcp: fetched ${specUrl}: 1 API page`]);
      expect(lines[lines.length - 3]).toMatch(/^svc-mcp: site auth public; MCP server enabled; /);
      const mcpUrl = /^svc-mcp: MCP \(public\): +(\S+)$/.exec(lines.find((l) => l.startsWith("svc-mcp: MCP (public)")) ?? "")?.[1] ?? "";
      const c = await mcpClient(mcpUrl);
      expect(await searchPaths(c.client, "zephyrine")).toEqual([PAGE]);
      await c.close();
    });
  });
});

describe("a site naming a remote spec", () => {
  it("starts from the persistent cache once served: applying the fetched spec neither drops the cache's write nor leaves its pages unknown", async () => {
    // Past `LIMITS.load.announcedPages`, so that each start says how its index was made.
    const files: Record<string, string> = {
      "docs.json": JSON.stringify({ name: "Weather", navigation: { groups: [{ group: "Start", pages: Array.from({ length: 501 }, (_, i) => `p${i}`) }, { group: "API", openapi: specUrl }] } }),
    };
    for (let i = 0; i < 501; i++) files[`p${i}.mdx`] = `---\ntitle: Station ${i}\n---\n\nReadings of station ${i}.\n`;
    const site = makeRepo(files);
    const cacheHome = mkdtempSync(join(tmpdir(), "svc-remote-cache-"));
    try {
      const start = async (): Promise<string[]> => {
        const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "serve", "--dir", site.dir, "--no-watch"], env: { ...env(), XDG_CACHE_HOME: cacheHome }, stderr: "pipe" });
        let stderr = "";
        transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
        const client = new TestClient({ name: "remote-cache-test", version: "1.0.0" });
        const changed = new Promise<void>((resolve) => client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()));
        await client.connect(transport);
        await changed;
        expect(await searchPaths(client, "zephyrine")).toEqual([PAGE]);
        await client.close();
        return stderr
          .split("\n")
          .filter((l) => l.startsWith("svc-mcp: search ready") || l.startsWith("svc-mcp: persistent cache"))
          .map((l) => l.replace(/ in \d+\.\d s/, " in N s"));
      };
      expect(await start()).toEqual(["svc-mcp: search ready: 501 pages (501 distinct texts) indexed in N s", "svc-mcp: persistent cache written in N s: the next start reads it"]);
      // The spec's page, cached with the rest, is not in the load that starts before the fetch.
      // (Whether it writes the cache again is the write delay's business, not this test's.)
      expect((await start()).filter((l) => l.startsWith("svc-mcp: search ready"))).toEqual(["svc-mcp: search ready from the cache in N s (pages indexed again: 0; removed: 1)"]);
    } finally {
      site.cleanup();
      rmSync(cacheHome, { recursive: true, force: true });
    }
  });
});
