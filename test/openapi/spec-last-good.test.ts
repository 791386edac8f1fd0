import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DocsRuntime, type RuntimeChange } from "../../src/engine/runtime.js";
import { connect } from "../helpers/mcp.js";
import { tempRepo } from "../config/temp-repo.js";

// A spec, a file its `$ref`s read, and a navigation `$ref`'d file, each broken while serving
// (issue 25, F2 and F4): the last good pages, search and navigation keep serving, the error is
// said once, and fixing the file serves it again.
const SCHEMAS = { Pet: { type: "object", properties: { nickname: { type: "string", description: "What the pet answers to" } } } };
const SPEC = {
  openapi: "3.1.0",
  info: { title: "Pets", version: "1" },
  paths: {
    "/pets": { get: { summary: "List pets", tags: ["pets"], responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "./schemas.json#/Pet" } } } } } } },
  },
};
const NAV = { group: "Guides", pages: ["guides/intro"] };
const DOCS = { name: "Zoo", navigation: { groups: [{ group: "Home", pages: ["index"] }, { $ref: "./nav.json" }, { group: "API", openapi: "openapi.json" }] } };

async function served() {
  const root = tempRepo({ "docs.json": DOCS, "nav.json": NAV, "openapi.json": SPEC, "schemas.json": SCHEMAS, "index.mdx": "# Home\n", "guides/intro.mdx": "# Intro\n\nPets and their nicknames.\n" });
  const logs: string[] = [];
  const runtime = await DocsRuntime.load({ root, log: (m) => logs.push(m) });
  await runtime.watch();
  const c = await connect(runtime);
  const tools = (await c.client.listTools()).tools.map((t) => t.name);
  const fsTool = tools.find((t) => t.startsWith("query_docs_filesystem")) as string;
  const searchTool = tools.find((t) => t.startsWith("search")) as string;
  const fs = (command: string) => c.call(fsTool, { command }).then((r) => c.text(r));
  const search = async (query: string) => ((await c.call(searchTool, { query })).structuredContent as { results: { path: string }[] }).results.map((r) => r.path);
  const state = async () => ({ ls: await fs("ls /api-reference/pets"), pets: await search("list pets"), intro: await search("nicknames") });
  // Each edit waits for the reload it causes (a change event), never a sleep; `until` names that
  // reload when an earlier write's reload may still be on its way (on a busy machine the watcher
  // can report a page written just before docs.json after the edit began to wait).
  const edit = async (write: () => void, until: (change: RuntimeChange) => boolean = () => true): Promise<void> => {
    const changed = new Promise<RuntimeChange>((resolve) => {
      const off = runtime.onChange((change) => {
        if (!until(change)) return;
        off();
        resolve(change);
      });
    });
    write();
    await changed;
  };
  const close = async () => {
    await c.close();
    await runtime.close();
    rmSync(root, { recursive: true, force: true });
  };
  return { root, logs, fs, search, state, edit, close };
}

describe("a broken configuration input keeps the last good state while serving", () => {
  it("a spec truncated, then deleted while docs.json names it, then put back", async () => {
    const s = await served();
    try {
      const good = await s.state();
      expect(good).toEqual({ ls: "list-pets.mdx\n", pets: ["/api-reference/pets/list-pets", "/guides/intro"], intro: ["/guides/intro", "/api-reference/pets/list-pets"] });
      const text = readFileSync(join(s.root, "openapi.json"), "utf8");
      await s.edit(() => writeFileSync(join(s.root, "openapi.json"), text.slice(0, 30)));
      expect(await s.state()).toEqual(good);
      await s.edit(() => rmSync(join(s.root, "openapi.json")));
      expect(await s.state()).toEqual(good);
      await s.edit(() => writeFileSync(join(s.root, "openapi.json"), text.replace("List pets", "List all pets")));
      expect((await s.state()).ls).toEqual("list-all-pets.mdx\n");
      expect(s.logs.filter((l) => l.includes("openapi.json"))).toEqual([
        "docs.json navigation.groups[2].openapi: API spec openapi.json: cannot parse: Unterminated string in JSON at position 30 (keeping the last good version)",
        "docs.json navigation.groups[2].openapi: API spec openapi.json: file not found (keeping the last good version)",
      ]);
    } finally {
      await s.close();
    }
  });

  it("a file the spec's $refs read, truncated: its fields stay on the page until it is fixed", async () => {
    const s = await served();
    try {
      const page = () => s.fs("grep -c nickname /api-reference/pets/list-pets.mdx");
      const before = await page();
      await s.edit(() => writeFileSync(join(s.root, "schemas.json"), '{"Pet": {"type": "obj'));
      expect({ page: await page(), logs: s.logs.filter((l) => l.includes("schemas.json")) }).toEqual({
        page: before,
        logs: [`docs.json navigation.groups[2].openapi: API spec openapi.json: $ref'd file schemas.json: cannot parse: Unterminated string in JSON at position 21 (keeping the last good version)`],
      });
    } finally {
      await s.close();
    }
  });

  it("a navigation $ref'd file corrupted, then deleted: the group and its pages stay, said once each", async () => {
    const s = await served();
    try {
      const good = await s.state();
      await s.edit(() => writeFileSync(join(s.root, "nav.json"), "\u0000\u0000{"));
      expect(await s.state()).toEqual(good);
      await s.edit(() => rmSync(join(s.root, "nav.json")));
      expect(await s.state()).toEqual(good);
      expect(s.logs.filter((l) => l.includes("last good configuration"))).toEqual([
        "docs.json $ref'd file nav.json: invalid JSON: unexpected \"\\u0000\" (expected a value); still serving the last good configuration (Zoo) until it is fixed",
        "docs.json $ref'd file nav.json: file not found; still serving the last good configuration (Zoo) until it is fixed",
      ]);
    } finally {
      await s.close();
    }
  });

  it("a $ref an edit adds to a file not there costs that element only, the rest of the edit applies; once it reads, it is kept when it breaks", async () => {
    const s = await served();
    try {
      writeFileSync(join(s.root, "guides/extra.mdx"), "# Extra\n\nHedgehogs.\n");
      writeFileSync(join(s.root, "later.mdx"), "# Later\n");
      const groups = [...DOCS.navigation.groups, { group: "More", pages: ["guides/extra"] }, { $ref: "./more.json" }];
      await s.edit(
        () => writeFileSync(join(s.root, "docs.json"), JSON.stringify({ ...DOCS, navigation: { groups } })),
        (change) => change.site.config.navPages.has("/guides/extra") && change.site.pages.has("/guides/extra"),
      );
      const edited = { ls: await s.fs("ls /guides"), extra: await s.search("hedgehogs") };
      await s.edit(
        () => writeFileSync(join(s.root, "more.json"), JSON.stringify({ group: "Later", pages: ["later"] })),
        (change) => change.site.config.navPages.has("/later") && change.site.pages.has("/later"),
      );
      await s.edit(
        () => writeFileSync(join(s.root, "more.json"), "{"),
        (change) => JSON.stringify(change.diagnostics).includes("invalid JSON"),
      );
      expect({ edited, extra: await s.search("hedgehogs"), logs: s.logs.filter((l) => l.includes("more.json")) }).toEqual({
        edited: { ls: "extra.mdx\nintro.mdx\n", extra: ["/guides/extra"] },
        extra: ["/guides/extra"],
        logs: [
          'docs.json:1:187 navigation.groups[4].$ref: cannot read "more.json": file not found',
          "more.json:1:2 invalid JSON: unexpected end of file (expected a property name in double quotes)",
          "docs.json $ref'd file more.json: invalid JSON: unexpected end of file (expected a property name in double quotes); still serving the last good configuration (Zoo) until it is fixed",
        ],
      });
    } finally {
      await s.close();
    }
  });
});
