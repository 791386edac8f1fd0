/**
 * An MDX file at the path where the API reference generates a page (`api-page-taken`) wins for
 * its readers; a reader who may not read it gets the generated page, exactly as on the site
 * without the file (issue 25: the generated page was left out for every reader, so its absence
 * told anonymous readers that a restricted file stood there). Compared whole, between the two
 * sites: the filesystem (`find`, `cat`, `ls -l`, `wc -c`), search, the navigation outline.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixedWindowLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { localSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { createWebApp } from "../../src/bridge/web/web-app.js";
import { formatNavTree } from "../../src/config/docs-json/nav-format.js";
import { appResources } from "../../src/mcp/ui-extension.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { agentView } from "../../src/engine/use-cases/agent-view.js";
import { readablePageAt } from "../../src/engine/use-cases/preview-page.js";
import { openStateStore } from "../../src/store/state/sqlite-state-store.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { navigationOfSite } from "../../src/vfs/site-nav.js";
import { connect } from "../helpers/mcp.js";

// Years past, so that `ls -l` writes the year on any day the test runs (GNU ls writes the time of
// day only within six months of now: "Jun  1 10:00" turned "Jun  1  2026" on 2026-12-01).
const WHEN = new Date("2020-06-01T10:00:00Z");
const LATER = new Date("2020-07-01T10:00:00Z");
const FILES: Record<string, string> = {
  "docs.json": JSON.stringify({
    name: "Acme",
    navigation: { groups: [{ group: "Guides", pages: ["intro"] }, { group: "API", openapi: "openapi.json", pages: ["GET /events", "GET /orders"] }] },
  }),
  "openapi.json": JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Shop", version: "1" },
    servers: [{ url: "https://api.example.com" }],
    paths: {
      "/events": { get: { summary: "List events", responses: { "200": { description: "The events of the shop" } } } },
      "/orders": { get: { summary: "List orders", responses: { "200": { description: "The orders" } } } },
    },
  }),
  "intro.mdx": "---\ntitle: Intro\n---\nWelcome to the shop events.\n",
};
const TAKEN = "api-reference/list-events.mdx";
const STAFF_PAGE = "---\ntitle: Event runbook\ngroups: [staff]\n---\nDrain the event queue before a shop release.\n";

const dirs: string[] = [];
const runtimes: DocsRuntime[] = [];
async function load(files: Record<string, string>): Promise<DocsRuntime> {
  const dir = mkdtempSync(join(tmpdir(), "svc-mcp-taken-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    const when = path === TAKEN ? LATER : WHEN;
    utimesSync(join(dir, path), when, when);
  }
  const runtime = await DocsRuntime.load({ root: dir });
  runtimes.push(runtime);
  return runtime;
}

let withFile: DocsRuntime;
let without: DocsRuntime;
beforeAll(async () => {
  withFile = await load({ ...FILES, [TAKEN]: STAFF_PAGE });
  without = await load(FILES);
});
const stateDir = mkdtempSync(join(tmpdir(), "svc-mcp-taken-state-"));
const state = openStateStore(stateDir);
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.close()));
  await state.close();
  for (const d of [...dirs, stateDir]) rmSync(d, { recursive: true, force: true });
});

const SHELL = "find / -type f | sort; ls -l /api-reference; wc -c /api-reference/*; cat /api-reference/list-events.mdx | head -12";
const run = (runtime: DocsRuntime, reader: Reader, command: string) => runtime.readerState(localContext(reader)).shell.run(command);

async function searches(runtime: DocsRuntime, reader: Reader): Promise<unknown[]> {
  const client = await connect(runtime, reader);
  try {
    const out: unknown[] = [];
    for (const query of ["list events", "shop events", "event queue", "orders"]) out.push((await client.call("search_acme", { query })).structuredContent);
    return out;
  } finally {
    await client.close();
  }
}

describe("a restricted MDX file at a generated API page's path", () => {
  it("leaves a reader who may not read it the generated page: files, search and navigation as on the site without the file", async () => {
    const got = await run(withFile, ANONYMOUS, SHELL);
    expect(got).toEqual(await run(without, ANONYMOUS, SHELL));
    expect(got.stdout.split("\n").slice(0, 8)).toEqual([
      "/api-reference/list-events.mdx",
      "/api-reference/list-orders.mdx",
      "/intro.mdx",
      "/openapi.json",
      "/skill.md",
      "total 8",
      "-r--r--r-- 1 root root 797 Jun  1  2020 list-events.mdx",
      "-r--r--r-- 1 root root 785 Jun  1  2020 list-orders.mdx",
    ]);
    expect(await searches(withFile, ANONYMOUS)).toEqual(await searches(without, ANONYMOUS));
    expect(withFile.readerState(localContext(ANONYMOUS)).outline).toEqual(without.readerState(localContext(ANONYMOUS)).outline);
  });

  it("is, for its readers, the file and its page, and check still says the file takes the path", async () => {
    expect(await run(withFile, readerWithGroups(["staff"]), "cat /api-reference/list-events.mdx")).toEqual({ stdout: STAFF_PAGE, stderr: "", exitCode: 0, truncated: false });
    const staff = await connect(withFile, readerWithGroups(["staff"]));
    try {
      const hits = (await staff.call("search_acme", { query: "event queue" })).structuredContent as { results: { path: string; title: string }[] };
      expect(hits.results.map((h) => [h.path, h.title])).toEqual([
        ["/api-reference/list-events", "Event runbook"],
        ["/intro", "Intro"],
      ]);
    } finally {
      await staff.close();
    }
    expect(withFile.site.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      ["api-page-taken", TAKEN, "this file takes the path of the generated page for GET /events (openapi.json); readers who may not read the file get the generated page"],
    ]);
  });

  it("gives a reader who may not read it the generated page's agent view, never the file's sections (adversary, round 9)", async () => {
    const agent = async (runtime: DocsRuntime, reader: Reader) => {
      const context = { request: localContext(reader), runtime };
      const page = readablePageAt(context, "/api-reference/list-events");
      if (page === undefined) throw new Error("no page");
      return agentView(context, page);
    };
    for (const reader of [ANONYMOUS, readerWithGroups(["sales"])]) {
      const got = await agent(withFile, reader);
      expect(got).toEqual(await agent(without, reader));
      expect(JSON.stringify(got)).not.toContain("Drain the event queue");
    }
    expect((await agent(withFile, readerWithGroups(["staff"]))).sections.map((x) => x.text)).toEqual(["Drain the event queue before a shop release."]);
  });

  it("follows edits of the file: opened to everyone it is everyone's page; removed, the generated page is back", async () => {
    const runtime = await load({ ...FILES, [TAKEN]: STAFF_PAGE });
    const root = runtime.site.root;
    const generated = (await run(without, ANONYMOUS, "cat /api-reference/list-events.mdx")).stdout;
    writeFileSync(join(root, TAKEN), STAFF_PAGE.replace("groups: [staff]\n", ""));
    await runtime.applyChanges([TAKEN]);
    expect((await run(runtime, ANONYMOUS, "cat /api-reference/list-events.mdx")).stdout).toBe(STAFF_PAGE.replace("groups: [staff]\n", ""));
    rmSync(join(root, TAKEN));
    await runtime.applyChanges([TAKEN]);
    expect((await run(runtime, ANONYMOUS, "cat /api-reference/list-events.mdx")).stdout).toBe(generated);
    expect((await run(runtime, readerWithGroups(["staff"]), "cat /api-reference/list-events.mdx")).stdout).toBe(generated);
  });
});

/** `nav --groups ...` as the CLI prints it, for one reader. */
function navText(runtime: DocsRuntime, reader: Reader): string {
  const nav = navigationOfSite(runtime.site, { context: localContext(reader) });
  if (!nav.ok) throw new Error(`no navigation: ${nav.reason}`);
  return formatNavTree(nav.tree);
}

/** An anonymous browser's HTML page (`serve --http`, Accept: text/html). */
async function html(runtime: DocsRuntime, path: string): Promise<{ status: number; text: string }> {
  const app = createWebApp({ runtime, state, sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(3_600_000), projectId: "docs", publicUrl: undefined });
  const res = await app.request(path, { headers: { accept: "text/html" } });
  return { status: res.status, text: await res.text() };
}

describe.each(["mdx", "md"])("the navigation and HTML pages at a generated API page's path a restricted .%s file takes", (ext) => {
  it("are, for a reader who may not read the file, those of the site without it; its readers see the file's title", async () => {
    const taken = ext === "mdx" ? withFile : await load({ ...FILES, "api-reference/list-events.md": STAFF_PAGE });
    const anonymous = navText(taken, ANONYMOUS);
    expect(anonymous).toBe(navText(without, ANONYMOUS));
    expect(anonymous.split("\n").filter((l) => l.includes("/api-reference/"))).toEqual([
      "  List events  /api-reference/list-events  [GET /events in openapi.json]",
      "  List orders  /api-reference/list-orders  [GET /orders in openapi.json]",
    ]);
    expect(navText(taken, readerWithGroups(["staff"])).split("\n").filter((l) => l.includes("/api-reference/"))).toEqual([
      "  Event runbook  /api-reference/list-events  [GET /events in openapi.json]",
      "  List orders  /api-reference/list-orders  [GET /orders in openapi.json]",
    ]);
    // The sidebar and pager of another page, and the generated page itself (its API layout and playground).
    for (const path of ["/intro", "/api-reference/list-events", "/api-reference/list-orders"]) {
      const got = await html(taken, path);
      expect(got, path).toEqual(await html(without, path));
      expect(got.status, path).toBe(200);
    }
    const intro = (await html(taken, "/intro")).text;
    expect(intro).toContain('<span class="method m-get">GET</span> List events');
    expect(intro).not.toContain("Event runbook");
    const generated = (await html(taken, "/api-reference/list-events")).text;
    expect([generated.includes("playground.js"), generated.includes("Event runbook"), generated.includes("Drain the event queue")]).toEqual([true, false, false]);
    // The playground as an MCP App: the same apps, under the same titles.
    const apps = (runtime: DocsRuntime) => appResources(runtime, localContext(ANONYMOUS)).map((r) => [r.name, r.title]);
    expect(apps(taken)).toEqual(apps(without));
  });
});
