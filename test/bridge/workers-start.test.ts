import { mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startWorkers, stopProcess, type WorkersProcess } from "../helpers/workers.js";
import { tempDir } from "./harness.js";

/**
 * How `serve --http --workers N` starts (issue 22): one worker after another, each once the one
 * before it serves and has written the site's persistent cache, so that only the first indexes
 * the site and the others start from its cache. Before, every worker loaded and indexed the
 * whole site at once, on the same cores.
 */

const temps: ReturnType<typeof tempDir>[] = [];
let server: WorkersProcess | undefined;
afterEach(async () => {
  if (server !== undefined) await stopProcess(server.child);
  server = undefined;
  for (const t of temps.splice(0)) t.cleanup();
});

/** A site of 501 pages (past `LIMITS.load.announcedPages`, so its index build and cache are said on stderr), dated an hour back. */
function manyPages(root: string): void {
  mkdirSync(root, { recursive: true });
  const pages = Array.from({ length: 501 }, (_, i) => `p${i}`);
  for (const p of pages) writeFileSync(join(root, `${p}.mdx`), `---\ntitle: Page ${p}\n---\n\nText of ${p}.\n`);
  writeFileSync(join(root, "docs.json"), JSON.stringify({ $schema: "https://mintlify.com/docs.json", theme: "mint", name: "Many", colors: { primary: "#0D9373" }, navigation: { groups: [{ group: "All", pages }] } }));
  const then = new Date(Date.now() - 3_600_000);
  for (const entry of readdirSync(root, { withFileTypes: true })) utimesSync(join(root, entry.name), then, then);
}

describe("serve --http --workers 2 starts its workers one after another", () => {
  it("the first indexes the site and writes its cache; the second starts from that cache", async () => {
    const work = tempDir("svc-mcp-workers-start-");
    temps.push(work);
    const root = join(work.dir, "site");
    manyPages(root);
    mkdirSync(join(work.dir, "state"));
    server = await startWorkers(["--dir", root, "--state", join(work.dir, "state"), "--project-id", "many", "--workers", "2"], { XDG_CACHE_HOME: join(work.dir, "cache") });
    const [first, second] = server.pids as [number, number];
    // What each worker said about its index and the cache, in order ("N s" for the seconds).
    const said = (pid: number): string[] =>
      (server as WorkersProcess).lines
        .filter((l) => l.startsWith(`svc-mcp: worker ${pid}: `) && /search ready|cache/.test(l))
        .map((l) => l.slice(`svc-mcp: worker ${pid}: `.length).replace(/\d+\.\d s/g, "N s"));
    expect({ first: said(first), second: said(second) }).toEqual({
      first: ["search ready: 501 pages (501 distinct texts) indexed in N s", "persistent cache written in N s: the next start reads it"],
      second: ["search ready from the cache in N s (pages indexed again: 0; removed: 0)"],
    });
  });
});
