/**
 * Adversary round 49 F1: generated pages at both `<path>` and `<path>/index` (an operation tagged
 * `Users` summarised `Index` is at `/api-reference/users/index`, an untagged one summarised
 * `Users` at `/api-reference/users`; or an `x-svc.href` to another's `/index` path), and a
 * restricted `<path>/index.mdx` taking both paths. Both generated pages stood behind the file in
 * one list, read in order: a reader of neither file got the first, which is no page of the
 * other path, so `<path>`'s generated page was gone for them (its file, search hits, MCP App)
 * and navigation's `<path>` carried the other operation's title. Each path's generated page is
 * now found by its own path, and the other is not before it. Every output is compared whole:
 * the anonymous reader's with the site without the staff file, the staff reader's with the site
 * where the file is public (they read it there as everyone does).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatNavTree } from "../../src/config/docs-json/nav-format.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { agentView } from "../../src/engine/use-cases/agent-view.js";
import { readablePageAt } from "../../src/engine/use-cases/preview-page.js";
import { appResources } from "../../src/mcp/ui-extension.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { navigationOfSite } from "../../src/vfs/site-nav.js";
import { connect } from "../helpers/mcp.js";

// Years past, so that `ls -l` writes the year on any day the test runs.
const WHEN = new Date("2020-06-01T10:00:00Z");
const STAFF = readerWithGroups(["staff"]);
const ok = { "200": { description: "ok" } };

/** A site whose spec has the two operations (`ops`) and, when given, the file at `index`. */
function site(ops: Record<string, unknown>, index?: { path: string; text: string }): Record<string, string> {
  return {
    "docs.json": JSON.stringify({ name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["intro"] }, { group: "API", openapi: "openapi.json" }] } }),
    "openapi.json": JSON.stringify({ openapi: "3.0.3", info: { title: "Acme API", version: "1" }, paths: ops }),
    "intro.mdx": "---\ntitle: Intro\n---\nWelcome.\n",
    ...(index !== undefined ? { [index.path]: index.text } : {}),
  };
}

const dirs: string[] = [];
const runtimes: DocsRuntime[] = [];
async function load(files: Record<string, string>): Promise<DocsRuntime> {
  const dir = mkdtempSync(join(tmpdir(), "svc-mcp-index-path-pages-"));
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
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function navText(runtime: DocsRuntime, reader: Reader): string {
  const nav = navigationOfSite(runtime.site, { context: localContext(reader) });
  if (!nav.ok) throw new Error(`no navigation: ${nav.reason}`);
  return formatNavTree(nav.tree);
}

/** Everything a reader is told of the pages at the two paths (`path`, `path/index`), and of the site around them. */
async function seen(runtime: DocsRuntime, reader: Reader, path: string): Promise<Record<string, unknown>> {
  const context = localContext(reader);
  const shell = await runtime
    .readerState(context)
    .shell.run(`find / -type f | sort; ls -lR /api-reference; wc -c /api-reference/*.mdx /api-reference/*/*; du -a /api-reference; cat ${path}.mdx; cat ${path}/index.mdx`);
  const client = await connect(runtime, reader);
  const search: unknown[] = [client.client.getInstructions(), (await client.client.listTools()).tools];
  try {
    for (const query of ["users", "index", "widgets", "staff notes", "list users"]) search.push((await client.call("search_acme", { query })).structuredContent);
  } finally {
    await client.close();
  }
  const pages = [path, `${path}/index`];
  const agent = async (p: string) => {
    const page = readablePageAt({ request: context, runtime }, p);
    return page === undefined ? undefined : agentView({ request: context, runtime }, page);
  };
  return {
    shell,
    nav: navText(runtime, reader),
    outline: runtime.readerState(context).outline,
    search,
    facts: pages.map((p) => runtime.apiPage(p, context)),
    agent: await Promise.all(pages.map(agent)),
    apps: appResources(runtime, context).map((r) => [r.name, r.title, r.uri]),
  };
}

/** A value with the staff file's `groups` line taken out of every string, and its size with it
 *  (`ls -l`, `wc -c`; `du` counts blocks, the same for both). */
function withoutGroupsLine(value: unknown): unknown {
  if (typeof value === "string") return value.replaceAll("groups: [staff]\n", "").replace(new RegExp(`(^| )${STAFF_TEXT.length} `, "gm"), `$1${PUBLIC_TEXT.length} `);
  if (Array.isArray(value)) return value.map(withoutGroupsLine);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutGroupsLine(v)]));
  return value;
}

const STAFF_TEXT = "---\ntitle: Users API (internal)\ngroups: [staff]\n---\n\nStaff notes.\n";
const PUBLIC_TEXT = "---\ntitle: Users API (internal)\n---\n\nStaff notes.\n";

describe.each([
  {
    // The default slugs: `Users` / `Index` and `Users`. The index path's own page is planned first.
    how: "tag-made",
    path: "/api-reference/users",
    ops: { "/users": { get: { tags: ["Users"], summary: "Index", responses: ok } }, "/widgets": { get: { summary: "Users", responses: ok } } },
    navLines: ["    Index  /api-reference/users/index  [operation in openapi.json]", "  Users  /api-reference/users  [operation in openapi.json]"],
  },
  {
    // An `x-svc.href` to another operation's `/index` path: the other order.
    how: "href-made",
    path: "/api-reference/list-users",
    ops: { "/users": { get: { summary: "List users", responses: ok } }, "/widgets": { get: { summary: "List widgets", "x-svc": { href: "/api-reference/list-users/index" }, responses: ok } } },
    navLines: ["  List users  /api-reference/list-users  [operation in openapi.json]", "  List widgets  /api-reference/list-users/index  [operation in openapi.json]"],
  },
])("generated pages at $path and its /index, a staff index file taking both ($how)", ({ path, ops, navLines }) => {
  const file = `${path.slice(1)}/index.mdx`;

  it("leaves the anonymous reader both generated pages, each at its own path, as on the site without the file", async () => {
    const taken = await load(site(ops, { path: file, text: STAFF_TEXT }));
    const without = await load(site(ops));
    const got = (await seen(taken, ANONYMOUS, path)) as { shell: { stdout: string }; nav: string; apps: string[][] };
    expect(got).toEqual(await seen(without, ANONYMOUS, path));
    expect(got.shell.stdout.split("\n").filter((l) => l.startsWith("/api-reference") && l.endsWith(".mdx"))).toEqual([`${path}.mdx`, `${path}/index.mdx`]);
    expect(got.nav.split("\n").filter((l) => l.includes("/api-reference/"))).toEqual(navLines);
    expect(got.apps.map((a) => a[2])).toContain(`ui://acme/playground${path}`);
  });

  it("gives the staff reader the file at both paths, as everyone reads it where it is public", async () => {
    const taken = await load(site(ops, { path: file, text: STAFF_TEXT }));
    const open = await load(site(ops, { path: file, text: PUBLIC_TEXT }));
    const got = (await seen(taken, STAFF, path)) as { shell: { stdout: string } };
    const want = (await seen(open, ANONYMOUS, path)) as { shell: { stdout: string } };
    // The file's bytes differ by its `groups` line alone.
    expect(withoutGroupsLine(got)).toEqual(want);
    expect(got.shell.stdout.split("\n").filter((l) => l.startsWith("/api-reference") && l.endsWith(".mdx"))).toEqual([`${path}/index.mdx`]);
  });
});

describe("generated pages at a path and its /index, a staff file at the path alone", () => {
  it("leaves the anonymous reader the path's generated page: the index path's generated page is no file taking it", async () => {
    const ops = { "/users": { get: { tags: ["Users"], summary: "Index", responses: ok } }, "/widgets": { get: { summary: "Users", responses: ok } } };
    const taken = await load(site(ops, { path: "api-reference/users.mdx", text: STAFF_TEXT }));
    const without = await load(site(ops));
    const got = (await seen(taken, ANONYMOUS, "/api-reference/users")) as { shell: { stdout: string } };
    expect(got).toEqual(await seen(without, ANONYMOUS, "/api-reference/users"));
    expect(got.shell.stdout.split("\n").filter((l) => l.startsWith("/api-reference") && l.endsWith(".mdx"))).toEqual(["/api-reference/users.mdx", "/api-reference/users/index.mdx"]);
    expect((await seen(taken, STAFF, "/api-reference/users")).nav).toContain("Users API (internal)  /api-reference/users");
  });
});
