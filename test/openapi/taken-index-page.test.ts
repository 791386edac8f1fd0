/**
 * Adversary round 47 F8: a `<path>/index` file takes the path of the page generated at `<path>`
 * as an exact-path file does (`api-page-taken`), and the generated page stands behind it the same
 * way: a reader who may read the file gets the file; one who may not gets the generated page,
 * exactly as on the site without the file. Before, a staff `<path>/index.mdx` withdrew a public
 * operation's page from every reader (page, folder, navigation entry, search, API facts, MCP
 * App) while the operation stayed in their spec; and a staff exact-path file beside a public
 * index gave the anonymous reader the generated page where the site without the staff file gives
 * them the index page. Each anonymous output is compared whole with the site without the staff file.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixedWindowLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { localSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { createWebApp } from "../../src/bridge/web/web-app.js";
import { formatNavTree } from "../../src/config/docs-json/nav-format.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { agentView } from "../../src/engine/use-cases/agent-view.js";
import { readablePageAt } from "../../src/engine/use-cases/preview-page.js";
import { appResources } from "../../src/mcp/ui-extension.js";
import { openStateStore } from "../../src/store/state/sqlite-state-store.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { navigationOfSite } from "../../src/vfs/site-nav.js";
import { connect } from "../helpers/mcp.js";

// Years past, so that `ls -l` writes the year on any day the test runs.
const WHEN = new Date("2020-06-01T10:00:00Z");
const STAFF = readerWithGroups(["staff"]);
const FILES: Record<string, string> = {
  "docs.json": JSON.stringify({
    name: "Acme",
    navigation: {
      versions: [
        { version: "v1", groups: [{ group: "Guides", pages: ["intro"] }, { group: "API", openapi: "openapi.json", pages: ["GET /events", "GET /orders"] }] },
        // The only operation of a version: its page's readers are the version's.
        { version: "v2", groups: [{ group: "Keys", openapi: "keys.json" }] },
      ],
    },
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
  "keys.json": JSON.stringify({ openapi: "3.0.3", info: { title: "Keys", version: "1" }, paths: { "/keys": { post: { summary: "Rotate keys", responses: { "200": { description: "Rotated" } } } } } }),
  "intro.mdx": "---\ntitle: Intro\n---\nWelcome to the shop events.\n",
};
const INDEX = "api-reference/list-events/index.mdx";
const EXACT = "api-reference/list-events.mdx";
const KEYS_INDEX = "api-reference/rotate-keys/index.mdx";
const STAFF_PAGE = "---\ntitle: Event runbook\ngroups: [staff]\n---\nDrain the event queue before a shop release.\n";
const STAFF_KEYS = "---\ntitle: Key runbook\ngroups: [staff]\n---\nRotate the vault keys at night.\n";
const PUBLIC_INDEX = "---\ntitle: Events folder\n---\nEvery event of the shop, by folder.\n";

const dirs: string[] = [];
const runtimes: DocsRuntime[] = [];
async function load(files: Record<string, string>): Promise<DocsRuntime> {
  const dir = mkdtempSync(join(tmpdir(), "svc-mcp-taken-index-"));
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

const stateDir = mkdtempSync(join(tmpdir(), "svc-mcp-taken-index-state-"));
const state = openStateStore(stateDir);
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.close()));
  await state.close();
  for (const d of [...dirs, stateDir]) rmSync(d, { recursive: true, force: true });
});

const SHELL = "find / -type f | sort; ls -l /api-reference; wc -c /api-reference/*; cat /api-reference/list-events.mdx | head -12; cat /api-reference/list-events/index.mdx";
const run = (runtime: DocsRuntime, reader: Reader, command: string) => runtime.readerState(localContext(reader)).shell.run(command);

function navText(runtime: DocsRuntime, reader: Reader): string {
  const nav = navigationOfSite(runtime.site, { context: localContext(reader) });
  if (!nav.ok) throw new Error(`no navigation: ${nav.reason}`);
  return formatNavTree(nav.tree);
}

/** The server's instructions and tools as the reader's client is told them, then its search hits. */
async function searches(runtime: DocsRuntime, reader: Reader): Promise<unknown[]> {
  const client = await connect(runtime, reader);
  try {
    const out: unknown[] = [client.client.getInstructions(), (await client.client.listTools()).tools];
    for (const query of ["list events", "shop events", "event queue", "events folder", "rotate keys", "vault keys"]) out.push((await client.call("search_acme", { query })).structuredContent);
    return out;
  } finally {
    await client.close();
  }
}

/** An anonymous browser's HTML page (`serve --http`, Accept: text/html). */
async function html(runtime: DocsRuntime, path: string): Promise<{ status: number; text: string }> {
  const app = createWebApp({ runtime, state, sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(3_600_000), projectId: "docs", publicUrl: undefined });
  const res = await app.request(path, { headers: { accept: "text/html" } });
  return { status: res.status, text: await res.text() };
}

/** Everything a reader is told of the pages at the two paths, and of the site around them. */
async function seen(runtime: DocsRuntime, reader: Reader): Promise<unknown> {
  const context = localContext(reader);
  const agent = async (path: string) => {
    const page = readablePageAt({ request: context, runtime }, path);
    return page === undefined ? undefined : agentView({ request: context, runtime }, page);
  };
  const pages = ["/intro", "/api-reference/list-events", "/api-reference/list-events/index", "/api-reference/rotate-keys"];
  return {
    shell: await run(runtime, reader, SHELL),
    nav: navText(runtime, reader),
    outline: runtime.readerState(context).outline,
    search: await searches(runtime, reader),
    facts: pages.map((p) => runtime.apiPage(p, context)),
    agent: await Promise.all(pages.map(agent)),
    apps: appResources(runtime, context).map((r) => [r.name, r.title]),
  };
}

describe("a staff <path>/index file at a public operation's generated page's path", () => {
  let taken: DocsRuntime;
  let without: DocsRuntime;
  beforeAll(async () => {
    taken = await load({ ...FILES, [INDEX]: STAFF_PAGE, [KEYS_INDEX]: STAFF_KEYS });
    without = await load(FILES);
  });

  it("leaves an anonymous reader the generated page: files, navigation, outline, search, API facts and apps as on the site without the file", async () => {
    const got = (await seen(taken, ANONYMOUS)) as { shell: { stdout: string }; nav: string };
    expect(got).toEqual(await seen(without, ANONYMOUS));
    expect(got.shell.stdout.split("\n").slice(0, 8)).toEqual([
      "/api-reference/list-events.mdx",
      "/api-reference/list-orders.mdx",
      "/api-reference/rotate-keys.mdx",
      "/intro.mdx",
      "/keys.json",
      "/openapi.json",
      "/skill.md",
      "total 12",
    ]);
    expect(got.nav.split("\n").filter((l) => l.includes("/api-reference/"))).toEqual([
      "    List events  /api-reference/list-events  [GET /events in openapi.json]",
      "    List orders  /api-reference/list-orders  [GET /orders in openapi.json]",
      "    Rotate keys  /api-reference/rotate-keys  [operation in keys.json]",
    ]);
    for (const path of ["/intro", "/api-reference/list-events", "/api-reference/rotate-keys", "/api-reference/list-events/index"]) {
      expect(await html(taken, path), path).toEqual(await html(without, path));
    }
    expect((await html(taken, "/api-reference/list-events")).status).toBe(200);
  });

  it("is the staff reader's page at the path, and the warning names the file", async () => {
    const shell = await run(taken, STAFF, "find /api-reference -type f | sort; cat /api-reference/list-events.mdx /api-reference/list-events/index.mdx");
    expect(shell.stdout).toBe(["/api-reference/list-events/index.mdx", "/api-reference/list-orders.mdx", "/api-reference/rotate-keys/index.mdx", STAFF_PAGE].join("\n"));
    expect(shell.stderr).toBe("cat: /api-reference/list-events.mdx: No such file or directory\n");
    expect(navText(taken, STAFF).split("\n").filter((l) => l.includes("/api-reference/"))).toEqual([
      "    Event runbook  /api-reference/list-events  [GET /events in openapi.json]",
      "    List orders  /api-reference/list-orders  [GET /orders in openapi.json]",
      "    Key runbook  /api-reference/rotate-keys  [operation in keys.json]",
    ]);
    expect(taken.apiPage("/api-reference/list-events", localContext(STAFF))).toBeUndefined();
    expect(taken.site.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      ["api-page-taken", INDEX, "this file takes the path of the generated page for GET /events (openapi.json); readers who may not read the file get the generated page"],
      ["api-page-taken", KEYS_INDEX, "this file takes the path of the generated page for POST /keys (keys.json); readers who may not read the file get the generated page"],
    ]);
  });
});

describe("a staff exact-path file beside a public <path>/index at a generated page's path", () => {
  it("leaves an anonymous reader the index page, as on the site without the staff file", async () => {
    const both = await load({ ...FILES, [EXACT]: STAFF_PAGE, [INDEX]: PUBLIC_INDEX });
    const publicOnly = await load({ ...FILES, [INDEX]: PUBLIC_INDEX });
    const got = (await seen(both, ANONYMOUS)) as { shell: { stdout: string } };
    expect(got).toEqual(await seen(publicOnly, ANONYMOUS));
    expect(got.shell.stdout.split("\n").slice(0, 2)).toEqual(["/api-reference/list-events/index.mdx", "/api-reference/list-orders.mdx"]);
    expect(await run(both, STAFF, "cat /api-reference/list-events.mdx")).toEqual({ stdout: STAFF_PAGE, stderr: "", exitCode: 0, truncated: false });
  });
});

describe("a staff operation, the only one of a version, whose generated page lands on a public <path>/index (adversary round 48 F5)", () => {
  const files = (href: string): Record<string, string> => ({
    ...FILES,
    "keys.json": JSON.stringify({ openapi: "3.0.3", info: { title: "Keys", version: "1" }, paths: { "/keys": { post: { summary: "Rotate keys", "x-svc": { href, metadata: { groups: ["staff"] } }, responses: { "200": { description: "Rotated" } } } } } }),
    "guides/keys/index.mdx": "---\ntitle: Keys folder\n---\nA folder page, listed nowhere.\n",
  });
  it("names the version to no anonymous reader: outline, instructions and tools as where the page lands apart", async () => {
    const taken = await load(files("/guides/keys"));
    const apart = await load(files("/staff/keys"));
    const told = async (runtime: DocsRuntime) => ({ outline: runtime.readerState(localContext(ANONYMOUS)).outline, nav: navText(runtime, ANONYMOUS), search: await searches(runtime, ANONYMOUS) });
    const got = await told(taken);
    expect(got).toEqual(await told(apart));
    expect(got.outline.versions).toEqual(["v1"]);
    expect(taken.readerState(localContext(STAFF)).outline.versions).toEqual(["v1", "v2"]);
  });
});
