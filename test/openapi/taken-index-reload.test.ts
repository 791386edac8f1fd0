/**
 * Adversary round 48 F1, F4: a `<path>/index` file takes the path of the operation's page
 * generated at `<path>` (the generated page is left out, and its navigation entry is the
 * operation's: listed to its readers only, row 149). Added while serving, the file went in as
 * any page does and the plan stayed the one of before: the staff operation's entry was listed to
 * every reader of the index file, until a restart. Removed, the left-out page stayed out. Each
 * edit now loads the API reference again, and every output equals a fresh load of the same files.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatNavTree } from "../../src/config/docs-json/nav-format.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { navigationOfSite } from "../../src/vfs/site-nav.js";
import { writeRepo } from "./helpers.js";

const DONE = { responses: { "200": { description: "Done" } } };
const FILES: Record<string, unknown> = {
  "docs.json": { name: "Acme", navigation: { groups: [{ group: "Guides", pages: ["guides/intro"] }, { group: "API", openapi: "openapi.json" }] } },
  "openapi.json": {
    openapi: "3.0.3",
    info: { title: "Shop", version: "1" },
    paths: {
      "/events": { get: { summary: "List events", ...DONE } },
      "/folder": { get: { summary: "Fold it", "x-svc": { href: "/guides/folder", metadata: { groups: ["staff"] } }, ...DONE } },
      "/open": { get: { summary: "Open it", "x-svc": { href: "/guides/open" }, ...DONE } },
    },
  },
  "guides/intro.mdx": "---\ntitle: Intro\n---\nWelcome.\n",
};
const INDEX = "guides/folder/index.mdx";
const OPEN_INDEX = "guides/open/index.mdx";
const PAGE = "---\ntitle: Folder\n---\nA folder page, listed nowhere.\n";

function navText(runtime: DocsRuntime, reader: Reader): string {
  const nav = navigationOfSite(runtime.site, { context: localContext(reader) });
  if (!nav.ok) throw new Error(`no navigation: ${nav.reason}`);
  return formatNavTree(nav.tree);
}

const runtimes: DocsRuntime[] = [];
const roots: string[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.close()));
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
async function load(files: Record<string, unknown>): Promise<DocsRuntime> {
  const root = writeRepo(files);
  roots.push(root);
  const runtime = await DocsRuntime.load({ root });
  runtimes.push(runtime);
  return runtime;
}

/** What each reader is shown of the site: navigation, outline, files. */
async function seen(runtime: DocsRuntime): Promise<unknown> {
  const out: unknown[] = [];
  for (const reader of [ANONYMOUS, readerWithGroups(["staff"])]) {
    const state = runtime.readerState(localContext(reader));
    out.push(navText(runtime, reader), state.outline, (await state.shell.run("find / -type f | sort")).stdout);
  }
  return out;
}

describe("a <path>/index file at a generated page's path, added and removed while serving", () => {
  it("is read as a fresh load reads it, for a staff operation's page and an open one's", async () => {
    const runtime = await load(FILES);
    const root = runtime.site.root;
    const before = await seen(runtime);
    for (const file of [INDEX, OPEN_INDEX]) {
      mkdirSync(join(root, file, ".."), { recursive: true });
      writeFileSync(join(root, file), PAGE);
    }
    await runtime.applyChanges([INDEX, OPEN_INDEX]);
    const fresh = await load({ ...FILES, [INDEX]: PAGE, [OPEN_INDEX]: PAGE });
    expect(await seen(runtime)).toEqual(await seen(fresh));
    expect(navText(runtime, ANONYMOUS)).not.toContain("Fold it");
    for (const file of [INDEX, OPEN_INDEX]) rmSync(join(root, file));
    await runtime.applyChanges([INDEX, OPEN_INDEX]);
    expect(await seen(runtime)).toEqual(before);
  });
});
