import { spawn } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { DocsRuntime, type LoadStep, type RuntimeOptions } from "../../src/engine/runtime.js";
import { SiteCache } from "../../src/engine/site-cache.js";
import { connect } from "../helpers/mcp.js";
import { fixture, REPO } from "../helpers/paths.js";
import { TEST_SEAL } from "../helpers/cache-seal.js";

/**
 * Edits made while the server starts (issue 25, F5): a file changed after the load read it and
 * before the watcher took over was never served (an editor writing in place while it starts the
 * server). Each test changes files at a point of the start (`RuntimeOptions.onLoadStep`), starts
 * as `serve` does (watch, then ready), and expects the first call after ready to show the change:
 * no waiting for a reload, no timing.
 */

const temps: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
const runtimes: DocsRuntime[] = [];
afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.close();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the demo site, its files dated an hour back (older than any racy window). */
function demoCopy(): string {
  const root = temp("svc-start-");
  cpSync(fixture("demo"), root, { recursive: true });
  const then = new Date(Date.now() - 3_600_000);
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), then, then);
  }
  return root;
}

/** Start as `serve` does: load (watching), watch, wait until ready; `at` runs at `step`. */
async function serveLike(root: string, step: LoadStep, at: () => void, options: Partial<RuntimeOptions> = {}): Promise<DocsRuntime> {
  let ran = false;
  const runtime = await DocsRuntime.load({
    root,
    watch: true,
    indexLater: true,
    ...options,
    onLoadStep: (s) => {
      if (s !== step) return;
      ran = true;
      at();
    },
  });
  runtimes.push(runtime);
  expect(ran).toBe(true);
  await runtime.watch();
  await runtime.whenIndexed();
  return runtime;
}

const FS = "query_docs_filesystem_nimbus_storage";
const SEARCH = "search_nimbus_storage";

/** docs.json of the demo copy with another site name. */
function rename(root: string, name: string): void {
  const docs = JSON.parse(readFileSync(join(root, "docs.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(root, "docs.json"), JSON.stringify({ ...docs, name }));
}

describe("a change made while the server starts is served by the first call after ready", () => {
  it("a page edited in place, one added, one removed, after the load read them", async () => {
    const root = demoCopy();
    const runtime = await serveLike(root, "read", () => {
      appendFileSync(join(root, "quickstart.mdx"), "\nRACEEDITMARK\n");
      writeFileSync(join(root, "guides", "late.mdx"), "---\ntitle: Late\n---\n\nRACEEDITMARK\n");
      rmSync(join(root, "guides", "webhooks.mdx"));
    });
    const c = await connect(runtime);
    expect(c.text(await c.call(FS, { command: "rg -l RACEEDITMARK /; ls /guides" }))).toBe("/guides/late.mdx\n/quickstart.mdx\naccess-control.mdx\nlate.mdx\nuploading-files.mdx\n");
    await c.close();
  });

  it("docs.json renamed after the load read it: the tools have the new name", async () => {
    const root = demoCopy();
    const runtime = await serveLike(root, "read", () => rename(root, "Cirrus"));
    const c = await connect(runtime);
    expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual(["search_cirrus", "query_docs_filesystem_cirrus"]);
    await c.close();
  });

  it(".svcignore written after the load read the pages: what it excludes is gone", async () => {
    const root = demoCopy();
    const runtime = await serveLike(root, "read", () => writeFileSync(join(root, ".svcignore"), "guides/webhooks.mdx\n"));
    const c = await connect(runtime);
    expect(c.text(await c.call(FS, { command: "ls /guides" }))).toBe("access-control.mdx\nuploading-files.mdx\n");
    await c.close();
  });

  describe("from the persistent cache", () => {
    /** A cache of the demo copy written by a first start. */
    async function cached(root: string): Promise<string> {
      const dir = temp("svc-start-cache-");
      const first = await DocsRuntime.load({ root, siteCache: new SiteCache({ seal: TEST_SEAL, dir, root, log: () => {} }) });
      await first.whenIndexed();
      await first.close();
      return dir;
    }

    it("docs.json renamed after the cache was checked against it", async () => {
      const root = demoCopy();
      const dir = await cached(root);
      const logs: string[] = [];
      const log = (m: string): number => logs.push(m);
      const runtime = await serveLike(root, "cache-checked", () => rename(root, "Cirrus"), { siteCache: new SiteCache({ seal: TEST_SEAL, dir, root, log }), log });
      const c = await connect(runtime);
      expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual(["search_cirrus", "query_docs_filesystem_cirrus"]);
      await c.close();
      // The start did use the cache (its pages and index), and reloaded docs.json after.
      expect(runtime.indexBuild).toEqual({ fromCache: true, added: 0, removed: 0 });
      expect(logs).toEqual([]);
    });

    it("a page edited in place after the load took it from the cache", async () => {
      const root = demoCopy();
      const dir = await cached(root);
      const runtime = await serveLike(root, "read", () => appendFileSync(join(root, "quickstart.mdx"), "\nzorblaxmark\n"), { siteCache: new SiteCache({ seal: TEST_SEAL, dir, root, log: () => {} }) });
      const c = await connect(runtime);
      expect(c.text(await c.call(FS, { command: "rg -l zorblaxmark /" }))).toBe("/quickstart.mdx\n");
      expect((await c.call(SEARCH, { query: "zorblaxmark" })).structuredContent).toMatchObject({ results: [{ path: "/quickstart" }] });
      await c.close();
    });
  });
});

describe("a live docs.json that cannot be read", () => {
  it("is told to a connected client as an MCP log message, and the last good configuration keeps serving", async () => {
    const root = demoCopy();
    const logs: string[] = [];
    const runtime = await serveLike(root, "read", () => {}, { log: (m) => logs.push(m) });
    const c = await connect(runtime);
    const messages: unknown[] = [];
    const told = new Promise<void>((resolve) =>
      c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        messages.push(n.params);
        resolve();
      }),
    );
    writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Nimbus Storage" }));
    await told;
    expect(messages).toEqual([{ level: "error", logger: "svc-mcp", data: 'docs.json:1:1 "navigation" is required' }]);
    expect(logs).toEqual(['docs.json:1:1 "navigation" is required']);
    expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual([SEARCH, FS]);
    await c.close();
  });
});

describe("a start that stops", () => {
  it("leaves no watch holding the process: serve exits 2 on an ignore file it cannot read, its input still open", async () => {
    const root = demoCopy();
    rmSync(join(root, ".svcignore"));
    mkdirSync(join(root, ".svcignore"));
    const child = spawn(process.execPath, [join(REPO, "bin", "svc-mcp.js"), "serve", "--dir", root, "--no-fetch-remote"], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, SVC_MCP_CACHE: "off" } });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.stdin.end();
    expect({ code, stderr }).toEqual({ code: 2, stderr: "svc-mcp: cannot read .svcignore: is a folder, not a file; the files it excludes would be served, so nothing is (make it readable, or remove it)\n" });
  });
});
