/**
 * Adversary round 46 F2: an operation (or channel) restricted to a group whose generated page
 * lands on the path of a public page (`x-svc.href: /guides/x`, a slug the file has, a
 * `<path>/index` file) put a navigation entry, marked as an operation of its spec, in front of
 * every reader of the file: in the API group, in the outline's sections and versions, and, the
 * file unlisted, in search (a placed page is indexed). The entry is the operation's: listed only
 * to its readers, whichever page they get at the path (`SiteApi.taken`, `listedApiPage`). Each
 * anonymous output is compared whole with the site where the same restricted parts are generated
 * at paths no file takes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixedWindowLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { localSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { createWebApp } from "../../src/bridge/web/web-app.js";
import { formatNavTree } from "../../src/config/docs-json/nav-format.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { openStateStore } from "../../src/store/state/sqlite-state-store.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { navigationOfSite } from "../../src/vfs/site-nav.js";
import { connect } from "../helpers/mcp.js";
import { writeRepo } from "./helpers.js";

const STAFF = readerWithGroups(["staff"]);
const DONE = { responses: { "200": { description: "Done" } } };
/** How docs.json lists the operations: the whole spec, or entries naming each one. */
type Form = "whole spec" | "entries";
const FORMS: readonly Form[] = ["whole spec", "entries"];
const staffOnly = (href: string | undefined): Record<string, unknown> => ({ "x-svc": { ...(href !== undefined ? { href } : {}), metadata: { groups: ["staff"] } } });

/**
 * `taken`: each restricted part's page lands on a public file's path; else on a path of its own.
 * The public files are the same in both sites.
 */
function repo(taken: boolean, form: Form = "whole spec"): Record<string, unknown> {
  return {
    "docs.json": {
      name: "Acme",
      navigation: {
        versions: [
          {
            version: "v1",
            groups: [
              { group: "Guides", pages: ["guides/intro", "guides/x"] },
              { group: "API", openapi: "openapi.json", ...(form === "entries" ? { pages: ["GET /events", "GET /guide", "GET /vault", "GET /folder"] } : {}) },
              { group: "Events", asyncapi: "events.json" },
            ],
          },
          { version: "v2", groups: [{ group: "Keys", openapi: "keys.json" }] },
        ],
      },
    },
    "openapi.json": {
      openapi: "3.0.3",
      info: { title: "Shop", version: "1" },
      paths: {
        "/events": { get: { summary: "List events", ...DONE } },
        // At a listed page's path by `href`, at an unlisted one's by its slug, at a `<path>/index` file's.
        "/guide": { get: { summary: "Read guide", ...staffOnly(taken ? "/guides/x" : "/staff/guide"), ...DONE } },
        "/vault": { get: { summary: "Open vault", ...staffOnly(taken ? undefined : "/staff/vault"), ...DONE } },
        "/folder": { get: { summary: "Fold it", ...staffOnly(taken ? "/guides/folder" : "/staff/folder"), ...DONE } },
      },
    },
    "events.json": {
      asyncapi: "3.0.0",
      info: { title: "Events", version: "1" },
      channels: {
        room: { address: "rooms/all", title: "Room events", description: "Public room" },
        staffRoom: { ...staffOnly(undefined), address: "rooms/staff", title: taken ? "Staff room" : "Staff room apart", description: "Staff room" },
      },
    },
    // The only operation of a version: the version is the staff's alone.
    "keys.json": { openapi: "3.0.3", info: { title: "Keys", version: "1" }, paths: { "/keys": { post: { summary: "Rotate keys", ...staffOnly(taken ? "/guides/y" : "/staff/keys"), ...DONE } } } },
    "guides/intro.mdx": "---\ntitle: Intro\n---\nWelcome to the shop.\n",
    "guides/x.mdx": "---\ntitle: Guide X\n---\nThe guide to the shop.\n",
    "guides/y.mdx": "---\ntitle: Guide Y\n---\nA yonder page, listed nowhere.\n",
    "guides/folder/index.mdx": "---\ntitle: Folder\n---\nA folder page, listed nowhere.\n",
    "api-reference/open-vault.mdx": "---\ntitle: Vault notes\n---\nNotes on the vault, listed nowhere.\n",
    "api-reference/staff-room.mdx": "---\ntitle: Room notes\n---\nNotes on the rooms, listed nowhere.\n",
  };
}

const roots: string[] = [];
const sites = new Map<Form, { taken: DocsRuntime; apart: DocsRuntime }>();
const stateDir = mkdtempSync(join(tmpdir(), "svc-mcp-taken-listing-state-"));
const state = openStateStore(stateDir);
beforeAll(async () => {
  for (const form of FORMS) {
    const [taken, apart] = await Promise.all(
      [true, false].map((t) => {
        const root = writeRepo(repo(t, form));
        roots.push(root);
        return DocsRuntime.load({ root });
      }),
    );
    sites.set(form, { taken: taken as DocsRuntime, apart: apart as DocsRuntime });
  }
});
afterAll(async () => {
  await Promise.all([...sites.values()].flatMap((s) => [s.taken.close(), s.apart.close()]));
  await state.close();
  for (const r of [...roots, stateDir]) rmSync(r, { recursive: true, force: true });
});

function navText(runtime: DocsRuntime, reader: Reader): string {
  const nav = navigationOfSite(runtime.site, { context: localContext(reader) });
  if (!nav.ok) throw new Error(`no navigation: ${nav.reason}`);
  return formatNavTree(nav.tree);
}

async function searches(runtime: DocsRuntime, reader: Reader): Promise<string[][]> {
  const client = await connect(runtime, reader);
  try {
    const out: string[][] = [];
    for (const query of ["guide", "vault notes", "folder page", "room notes", "yonder page"]) {
      const hits = (await client.call("search_acme", { query })).structuredContent as { results: { path: string }[] };
      out.push(hits.results.map((h) => h.path));
    }
    return out;
  } finally {
    await client.close();
  }
}

/** An anonymous browser's HTML page (`serve --http`, Accept: text/html): its sidebar is the reader's navigation. */
async function html(runtime: DocsRuntime, path: string): Promise<string> {
  const app = createWebApp({ runtime, state, sessions: localSiteSessions(new SiteSessions()), limiter: new FixedWindowLimiter(3_600_000), projectId: "docs", publicUrl: undefined });
  const res = await app.request(path, { headers: { accept: "text/html" } });
  return `${res.status}\n${await res.text()}`;
}

const SHELL = "find / -type f | sort; wc -c /openapi.json /events.json";

describe.each(FORMS)("a restricted operation or channel whose generated page lands on a public file's path (%s)", (form) => {
  const site = (): { taken: DocsRuntime; apart: DocsRuntime } => sites.get(form) as { taken: DocsRuntime; apart: DocsRuntime };
  // How `nav` marks an operation entry: its entry as written, or `operation` for a whole spec's page.
  const marked = (entry: string, spec: string): string => `[${form === "entries" ? entry : "operation"} in ${spec}]`;
  it("lists nothing of it to a reader of the file outside its groups: navigation, outline, search, files and HTML as where it lands apart", async () => {
    const { taken, apart } = site();
    const nav = navText(taken, ANONYMOUS);
    expect(nav).toBe(navText(apart, ANONYMOUS));
    expect(nav).toBe(
      [
        "Acme",
        "root: versions",
        "versions: v1 (default)",
        "eyebrows: theme default",
        "drilldown: theme default",
        "",
        "version v1  (default)",
        "  group Guides",
        "    Intro  /guides/intro",
        "    Guide X  /guides/x",
        "  group API  (openapi openapi.json)",
        `    List events  /api-reference/list-events  ${marked("GET /events", "openapi.json")}`,
        "  group Events",
        "    Room events  /api-reference/room-events  [operation]",
        "",
      ].join("\n"),
    );
    const outline = taken.readerState(localContext(ANONYMOUS)).outline;
    expect(outline).toEqual(apart.readerState(localContext(ANONYMOUS)).outline);
    expect([outline.sections, outline.versions, outline.knownVersions]).toEqual([["Guides", "API", "Events"], ["v1"], ["v1"]]);
    expect(await searches(taken, ANONYMOUS)).toEqual(await searches(apart, ANONYMOUS));
    const run = async (runtime: DocsRuntime) => runtime.readerState(localContext(ANONYMOUS)).shell.run(SHELL);
    expect(await run(taken)).toEqual(await run(apart));
    for (const path of ["/guides/intro", "/guides/x", "/api-reference/open-vault"]) expect(await html(taken, path), path).toBe(await html(apart, path));
  });

  it("lists it to its readers, at the file they get there", () => {
    const { taken } = site();
    const lines = navText(taken, STAFF).split("\n");
    expect(lines.slice(lines.indexOf("version v1  (default)"))).toEqual([
      "version v1  (default)",
      "  group Guides",
      "    Intro  /guides/intro",
      "    Guide X  /guides/x",
      "  group API  (openapi openapi.json)",
      `    List events  /api-reference/list-events  ${marked("GET /events", "openapi.json")}`,
      `    Guide X  /guides/x  ${marked("GET /guide", "openapi.json")}`,
      `    Vault notes  /api-reference/open-vault  ${marked("GET /vault", "openapi.json")}`,
      `    Folder  /guides/folder  ${marked("GET /folder", "openapi.json")}`,
      "  group Events",
      "    Room events  /api-reference/room-events  [operation]",
      "    Room notes  /api-reference/staff-room  [operation]",
      "version v2",
      "  group Keys  (openapi keys.json)",
      "    Guide Y  /guides/y  [operation in keys.json]",
      "",
    ]);
    const outline = taken.readerState(localContext(STAFF)).outline;
    expect([outline.sections, outline.versions]).toEqual([["Guides", "API", "Events", "Keys"], ["v1", "v2"]]);
  });

  it("follows an edit of the rule of the file at an operation's path: opened to everyone, the path is placed for no one", async () => {
    const root = writeRepo(repo(true, form));
    roots.push(root);
    const file = "guides/y.mdx";
    writeFileSync(join(root, file), "---\ntitle: Guide Y\ngroups: [staff]\n---\nA yonder page, listed nowhere.\n");
    const runtime = await DocsRuntime.load({ root });
    try {
      const found = async (reader: Reader): Promise<string[]> => (await searches(runtime, reader))[4] as string[];
      // Every reader of the file may read the operation: the file takes its place, and search finds it there.
      expect([await found(ANONYMOUS), await found(STAFF)]).toEqual([[], ["/guides/y"]]);
      writeFileSync(join(root, file), "---\ntitle: Guide Y\n---\nA yonder page, listed nowhere.\n");
      await runtime.applyChanges([file]);
      expect([await found(ANONYMOUS), await found(STAFF)]).toEqual([[], []]);
      expect(navText(runtime, ANONYMOUS)).toBe(navText(site().apart, ANONYMOUS));
      expect(runtime.readerState(localContext(ANONYMOUS)).outline).toEqual(site().apart.readerState(localContext(ANONYMOUS)).outline);
    } finally {
      await runtime.close();
    }
  });
});
