import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { collectGarbage } from "../../src/engine/collect-garbage.js";
import { SearchIndex } from "../../src/engine/search/search-index.js";
import { type LoadedSite, loadSite, reloadSite } from "../../src/vfs/load-site.js";
import type { Page } from "../../src/vfs/page.js";
import { writeRepo } from "./helpers.js";

/**
 * A spec edited while it is served (adversary round 44 F2): the spec is parsed again and every
 * page made again, but a page whose text comes out the same is the same page as before, so the
 * search index, the shell's snapshot and the rest do nothing again for it; only the edited
 * operation's pages are new. A kept page keeps the time its readers saw: the later version of the
 * spec did not change it.
 */

const T0 = new Date("2026-01-01T00:00:00Z");
const T1 = new Date("2026-02-01T00:00:00Z");
const BEFORE = new Date("2025-12-01T00:00:00Z");

const spec = (ship: string) => ({
  openapi: "3.1.0",
  info: { title: "Shop", version: "1" },
  paths: {
    "/orders": { get: { summary: "List orders", description: "Every order of the shop.", responses: { "200": { description: "OK", content: { "application/json": { schema: { $ref: "#/components/schemas/Order" } } } } } } },
    "/orders/{id}/ship": { post: { summary: "Ship order", description: ship, parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: { "200": { description: "OK" } } } },
    "/refunds": { get: { summary: "List refunds", description: "Every refund.", responses: { "200": { description: "OK" } } } },
  },
  components: { schemas: { Order: { type: "object", properties: { id: { type: "string", description: "The order's id." } } } } },
});

function writeSpec(root: string, ship: string, at: Date): void {
  const abs = join(root, "api/shop.json");
  writeFileSync(abs, JSON.stringify(spec(ship)));
  utimesSync(abs, at, at);
}

async function served(): Promise<{ root: string; first: LoadedSite }> {
  const root = writeRepo({
    "docs.json": { name: "Shop", navigation: { groups: [{ group: "Guides", pages: ["index", "orders-guide"] }, { group: "API", openapi: "api/shop.json" }] } },
    "index.mdx": "---\ntitle: Home\n---\n\nHi.\n",
    // An MDX page documenting an operation: the author's prose, then the operation's reference.
    "orders-guide.mdx": '---\ntitle: Orders\nopenapi: "GET /orders"\n---\n\nHow orders work.\n',
    "api/shop.json": "{}",
  });
  writeSpec(root, "Ships the order.", T0);
  // Older than the spec: the documenting page is dated by the spec (the later of the two).
  utimesSync(join(root, "orders-guide.mdx"), BEFORE, BEFORE);
  return { root, first: await loadSite(root) };
}

const page = (site: LoadedSite, path: string): Page => {
  const p = site.site.pages.get(path);
  if (p === undefined) throw new Error(`no page ${path}`);
  return p;
};

describe("a spec edited while served", () => {
  it("keeps every page whose text comes out the same, makes the edited operation's again, with its new text and time", async () => {
    const { root, first } = await served();
    const before = ["/api-reference/list-orders", "/api-reference/ship-order", "/api-reference/list-refunds", "/orders-guide"].map((p) => page(first, p));
    // Read as the index reads them when it builds.
    for (const p of before) void p.body;
    expect(before.map((p) => p.file.mtime.toISOString())).toEqual([T0, T0, T0, T0].map((t) => t.toISOString()));
    writeSpec(root, "Ships the order with the carrier you choose.", T1);
    const second = await reloadSite(first, ["api/shop.json"]);
    const after = ["/api-reference/list-orders", "/api-reference/ship-order", "/api-reference/list-refunds", "/orders-guide"].map((p) => page(second, p));
    expect(after.map((p, i) => p === before[i])).toEqual([true, false, true, true]);
    expect(after[1]?.body).toContain("Ships the order with the carrier you choose.");
    expect(after.map((p) => p.file.mtime.toISOString())).toEqual([T0, T1, T0, T0].map((t) => t.toISOString()));
    // The same text as a first load of the edited repository makes, page for page.
    const fresh = await loadSite(root);
    expect(after.map((p) => p.file.text)).toEqual(["/api-reference/list-orders", "/api-reference/ship-order", "/api-reference/list-refunds", "/orders-guide"].map((p) => page(fresh, p).file.text));
  });

  it("makes again a page no one has read: telling it unchanged would render what the last load never needed", async () => {
    const { root, first } = await served();
    const unread = page(first, "/api-reference/list-refunds");
    writeSpec(root, "Ships the order today.", T1);
    const second = await reloadSite(first, ["api/shop.json"]);
    expect(page(second, "/api-reference/list-refunds") === unread).toBe(false);
    expect(page(second, "/api-reference/list-refunds").body).toBe(unread.body);
  });

  it("makes again every page an edit to a shared schema changes, and the page documenting it", async () => {
    const { root, first } = await served();
    const before = ["/api-reference/list-orders", "/api-reference/ship-order", "/orders-guide"].map((p) => page(first, p));
    for (const p of before) void p.body;
    const edited = spec("Ships the order.");
    edited.components.schemas.Order.properties.id.description = "The order's id, as the dashboard shows it.";
    writeFileSync(join(root, "api/shop.json"), JSON.stringify(edited));
    utimesSync(join(root, "api/shop.json"), T1, T1);
    const second = await reloadSite(first, ["api/shop.json"]);
    const after = ["/api-reference/list-orders", "/api-reference/ship-order", "/orders-guide"].map((p) => page(second, p));
    expect(after.map((p, i) => p === before[i])).toEqual([false, true, false]);
    expect(after[0]?.body).toContain("The order's id, as the dashboard shows it.");
    expect(after[2]?.body).toContain("The order's id, as the dashboard shows it.");
  });

  it("leaves the search index one page to do again", async () => {
    const { root, first } = await served();
    const index = new SearchIndex();
    index.sync(first.site);
    writeSpec(root, "Ships the order by zebra courier.", T1);
    const second = await reloadSite(first, ["api/shop.json"]);
    expect(index.sync(second.site)).toEqual({ added: 1, removed: 1 });
    expect(index.search({ query: "zebra courier", canRead: () => true }).map((h) => h.page.path)).toEqual(["/api-reference/ship-order"]);
  });

  it("holds no earlier version of the spec: a kept page holds its text, not what rendered it", async () => {
    // No binding of the first load stays in scope: its site holds its spec.
    let root = "";
    let site: LoadedSite;
    ({ root, first: site } = await served());
    const specs: WeakRef<object>[] = [];
    const keep = (site: LoadedSite): void => {
      const result = site.apiCache?.specs.get("api/shop.json")?.result;
      if (result?.ok !== true) throw new Error("the spec did not load");
      specs.push(new WeakRef(result.spec));
      // Every page read, as the index reads them: every page is compared at the next save.
      for (const p of site.site.pages.values()) void p.body;
    };
    keep(site);
    // Each save changes another operation: each page is kept across some saves, made anew at one.
    for (const [i, ship] of ["Ships it.", "Ships it today.", "Ships it tomorrow."].entries()) {
      if (i === 1) {
        const edited = spec(ship);
        edited.paths["/refunds"].get.description = "Every refund, newest first.";
        writeFileSync(join(root, "api/shop.json"), JSON.stringify(edited));
      } else writeSpec(root, ship, T1);
      site = await reloadSite(site, ["api/shop.json"]);
      keep(site);
    }
    // WeakRefs let go of their targets only after the job that made them.
    await new Promise((resolve) => setImmediate(resolve));
    expect(collectGarbage()).toBe(true);
    expect(specs.map((r) => r.deref() !== undefined)).toEqual([false, false, false, true]);
    expect(page(site, "/api-reference/ship-order").body).toContain("Ships it tomorrow.");
    expect(page(site, "/api-reference/list-refunds").body).toContain("Every refund.\n");
  });
});
