/**
 * A `serve --http` started from the persistent cache (docs/search.md, "Persistent cache": its
 * pages and index are the cached ones, no page read again), then a page edit that breaks the page:
 * the last good version keeps serving, as it does after a start without the cache (security rows
 * 184, 189, 197). A public page's front matter broken (YAML that does not parse), a restricted
 * page saved as UTF-16: every anonymous answer over HTTP (`/mcp` shell and search, the HTML page)
 * is what it was before the edits, and the restricted page stays restricted.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture } from "../helpers/paths.js";
import { type ServedWithLines, serveWithLines } from "../helpers/serve-lines.js";
import { FS, SEARCH, mcpClient } from "./harness.js";

/** Pages enough for the server to say when it wrote the cache and that it started from it. */
const FILLER = 501;
const dirs: string[] = [];
const servers: ServedWithLines[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** The demo site and `FILLER` pages, every file and folder dated an hour back (so the cache's stats hold). */
function site(): string {
  const root = temp("svc-cached-site-");
  cpSync(fixture("demo"), root, { recursive: true });
  mkdirSync(join(root, "filler"));
  for (let i = 0; i < FILLER; i++) writeFileSync(join(root, "filler", `p${i}.mdx`), `---\ntitle: Filler ${i}\n---\n\nFiller text ${i}.\n`);
  const then = new Date(Date.now() - 3_600_000);
  const entries = readdirSync(root, { recursive: true, withFileTypes: true }).map((e) => join(e.parentPath, e.name));
  // Folders last, deepest first: dating a file moves no folder's time, dating a folder does not either.
  for (const path of entries.sort((a, b) => b.length - a.length)) utimesSync(path, then, then);
  utimesSync(root, then, then);
  return root;
}

/** An HTML page as a browser asks for it. */
async function page(origin: string, path: string): Promise<{ status: number; html: string }> {
  const res = await fetch(`${origin}${path}`, { headers: { accept: "text/html" } });
  return { status: res.status, html: await res.text() };
}

const utf16le = (s: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, "utf16le")]);

describe("serve --http started from the persistent cache, then a page edit that breaks the page", () => {
  it("keeps serving the last good versions: the public page as it was, the restricted one restricted", async () => {
    const root = site();
    const cache = temp("svc-cached-cache-");
    const state = temp("svc-cached-state-");
    const args = ["--dir", root, "--state", state, "--project-id", "docs", "--no-fetch-remote"];
    const env = { XDG_CACHE_HOME: cache };

    // A first start writes the cache; the second starts from it, and watches the folder.
    const cold = await serveWithLines([...args, "--no-watch"], env);
    servers.push(cold);
    await cold.printed("svc-mcp: persistent cache written in ");
    await cold.stop();
    const server = await serveWithLines(args, env);
    servers.push(server);
    await server.printed("svc-mcp: search ready from the cache in ");
    expect(server.lines.filter((l) => l.startsWith("svc-mcp: search ready")).map((l) => l.replace(/\d+\.\d s/, "N s"))).toEqual([
      "svc-mcp: search ready from the cache in N s (pages indexed again: 0; removed: 0)",
    ]);

    const anon = await mcpClient(`${server.origin}/mcp`);
    const sh = (command: string) => anon.text(FS, { command });
    const queries = ["webhook retries NEW-TEXT-5K3", "failing storage node RUNBOOK-SECRET-8V1"];
    const answers = async () => ({
      webhooks: await sh("cat /guides/webhooks.mdx"),
      webhooksPage: await page(server.origin, "/guides/webhooks"),
      runbook: await sh("cat /internal/runbook.mdx"),
      runbookPage: (await page(server.origin, "/internal/runbook")).status,
      listing: await sh("ls / /guides /internal ; echo done"),
      searches: await Promise.all(queries.map((query) => anon.text(SEARCH, { query }))),
    });
    const good = readFileSync(join(root, "guides/webhooks.mdx"), "utf8");
    const before = await answers();
    expect({ webhooks: before.webhooks, status: before.webhooksPage.status, runbook: before.runbook, runbookPage: before.runbookPage }).toEqual({
      webhooks: good,
      status: 200,
      runbook: "cat: /internal/runbook.mdx: No such file or directory\n[exit code 1]",
      runbookPage: 404,
    });

    // The public page's front matter broken, with new text; the restricted page saved as UTF-16.
    writeFileSync(join(root, "guides/webhooks.mdx"), good.replace("---\n", "---\ntitle: [unclosed\n").concat("\nNEW-TEXT-5K3\n"));
    const runbook = join(root, "internal/runbook.mdx");
    writeFileSync(runbook, utf16le(readFileSync(runbook, "utf8").replace("## Failing storage node", "RUNBOOK-SECRET-8V1\n\n## Failing storage node")));
    // A page written after both: once its warning is printed, the reload that read the two has run.
    writeFileSync(join(root, "sentinel.mdx"), "---\ntitle: [unclosed\n---\n\nSentinel.\n");
    await server.printed("svc-mcp: sentinel.mdx:");
    const said = server.lines.filter((l) => /webhooks|runbook/.test(l)).map((l) => l.replace(/^svc-mcp: ([^:]+):.*( \(keeping the last good version\))$/, "$1$2"));
    expect(said.sort()).toEqual(["guides/webhooks.mdx (keeping the last good version)", "internal/runbook.mdx (keeping the last good version)"]);

    const after = await answers();
    expect(after).toEqual(before);
    expect([after.webhooks, after.webhooksPage.html, after.listing, ...after.searches].filter((t) => /NEW-TEXT-5K3|RUNBOOK-SECRET-8V1|runbook/i.test(t))).toEqual([]);
    await anon.close();
  });

  it("pages broken while no server ran: the start from the cache answers as a start without it (the broken pages skipped, not served from the cache)", async () => {
    const root = site();
    const cache = temp("svc-cached-cache-");
    const args = ["--dir", root, "--project-id", "docs", "--no-fetch-remote", "--no-watch"];
    const cold = await serveWithLines([...args, "--state", temp("svc-cached-state-")], { XDG_CACHE_HOME: cache });
    servers.push(cold);
    await cold.printed("svc-mcp: persistent cache written in ");
    await cold.stop();

    const good = readFileSync(join(root, "guides/webhooks.mdx"), "utf8");
    writeFileSync(join(root, "guides/webhooks.mdx"), good.replace("---\n", "---\ntitle: [unclosed\n").concat("\nNEW-TEXT-5K3\n"));
    const runbook = join(root, "internal/runbook.mdx");
    writeFileSync(runbook, utf16le(readFileSync(runbook, "utf8").replace("## Failing storage node", "RUNBOOK-SECRET-8V1\n\n## Failing storage node")));

    /** What an anonymous reader gets from a server of `root` started with `env`, and what its start said of the two pages. */
    const read = async (env: Record<string, string>) => {
      const server = await serveWithLines([...args, "--state", temp("svc-cached-state-")], env);
      servers.push(server);
      const anon = await mcpClient(`${server.origin}/mcp`);
      const sh = (command: string) => anon.text(FS, { command });
      const answers = {
        webhooks: await sh("cat /guides/webhooks.mdx"),
        webhooksPage: (await page(server.origin, "/guides/webhooks")).status,
        runbook: await sh("cat /internal/runbook.mdx"),
        listing: await sh("ls / /guides /internal ; echo done"),
        searches: await Promise.all(["webhook retries NEW-TEXT-5K3", "failing storage node RUNBOOK-SECRET-8V1"].map((query) => anon.text(SEARCH, { query }))),
        said: server.lines.filter((l) => /webhooks|runbook/.test(l)).map((l) => l.replace(root, "<ROOT>")),
      };
      await anon.close();
      await server.stop();
      return { answers, fromCache: server.lines.some((l) => l.startsWith("svc-mcp: search ready from the cache")) };
    };
    const warm = await read({ XDG_CACHE_HOME: cache });
    const uncached = await read({ SVC_MCP_CACHE: "off" });
    expect({ warm: warm.fromCache, uncached: uncached.fromCache }).toEqual({ warm: true, uncached: false });
    expect(warm.answers).toEqual(uncached.answers);
    expect({ webhooks: warm.answers.webhooks, page: warm.answers.webhooksPage, runbook: warm.answers.runbook }).toEqual({
      webhooks: "cat: /guides/webhooks.mdx: No such file or directory\n[exit code 1]",
      page: 404,
      runbook: "cat: /internal/runbook.mdx: No such file or directory\n[exit code 1]",
    });
  });
});
