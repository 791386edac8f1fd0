import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type * as RenderPage from "../../src/config/openapi/render-page.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { SiteCache } from "../../src/engine/site-cache.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { TEST_SEAL } from "../helpers/cache-seal.js";
import { fixture } from "../helpers/paths.js";

/**
 * A warm start knows a generated API page by what it is rendered from (`Page.renderKey`,
 * `pageInputsSum`), not by its rendered body: with nothing changed it renders no body, and after
 * an edit to one spec it renders that spec's pages alone to find the one that changed.
 */

// Which generated pages' bodies were rendered, by page path (the render itself unchanged).
const rendered = vi.hoisted(() => ({ paths: [] as string[] }));
vi.mock("../../src/config/openapi/render-page.js", async (importOriginal) => {
  const original = await importOriginal<typeof RenderPage>();
  return {
    ...original,
    operationPageParts: (...args: Parameters<typeof original.operationPageParts>) => {
      const parts = original.operationPageParts(...args);
      return { ...parts, body: () => (rendered.paths.push(args[2].pagePath), parts.body()) };
    },
  };
});

const temps: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A start of `root` with a cache in `dir` (none: `undefined`): its build, what it indexed and rendered, staff's hits. */
async function start(root: string, dir: string | undefined, queries: readonly string[]) {
  rendered.paths = [];
  const runtime = await DocsRuntime.load({ root, log: () => {}, ...(dir !== undefined ? { siteCache: new SiteCache({ seal: TEST_SEAL, dir, root, log: () => {} }) } : {}), searchCache: 0 });
  await runtime.whenIndexed();
  const build = runtime.indexBuild;
  const synced = runtime.lastIndexSync;
  const renders = [...rendered.paths].sort();
  const staff = localContext(readerWithGroups(["staff"]));
  const hits: unknown[] = [];
  for (const query of queries) hits.push((await runtime.search(staff, { query })).map((h) => [h.page.path, h.section.anchor, h.score, h.snippet]));
  await runtime.close();
  return { build, synced, renders, hits };
}

describe("generated API pages at a start from the cache", () => {
  it("are known by what they are rendered from: none rendered when nothing changed; after one spec's edit, that spec's pages alone, and the changed one indexed", async () => {
    const root = temp("svc-site-api-");
    cpSync(fixture("restricted-parts"), root, { recursive: true });
    const then = new Date(Date.now() - 3_600_000);
    for (const e of readdirSync(root, { recursive: true, withFileTypes: true })) if (e.isFile()) utimesSync(join(e.parentPath, e.name), then, then);
    const dir = temp("svc-site-cache-");
    const queries = ["purged at once", "open the vault", "list users", "partner rates"];
    const cold = await start(root, dir, queries);
    expect(cold.build).toEqual({ fromCache: false, added: 14, removed: 0 });
    const store = ["/api-reference/orders/list-orders", "/api-reference/orders/purge-orders-vault-purge-40", "/api-reference/partners/partner-rates-partner-rates-64", "/api-reference/vault/open-the-vault-vault-open-93"];
    expect(cold.renders).toEqual(expect.arrayContaining(store));
    const warm = await start(root, dir, queries);
    expect([warm.build, warm.renders]).toEqual([{ fromCache: true, added: 0, removed: 0 }, []]);
    expect(warm.hits).toEqual(cold.hits);
    const spec = join(root, "api", "store.yaml");
    writeFileSync(spec, readFileSync(spec, "utf8").replace("description: Purged", "description: Purged at once"));
    const edited = await start(root, dir, queries);
    expect(edited.build).toEqual({ fromCache: true, added: 1, removed: 1 });
    expect(edited.synced).toEqual({ added: ["/api-reference/orders/purge-orders-vault-purge-40"], removed: ["/api-reference/orders/purge-orders-vault-purge-40"] });
    // The edited spec's pages, rendered to be compared; no other spec's.
    expect(edited.renders).toEqual(store);
    expect(edited.hits).toEqual((await start(root, undefined, queries)).hits);
    // The next start knows the edited spec's pages by their new inputs: none rendered.
    const again = await start(root, dir, queries);
    expect([again.build, again.renders]).toEqual([{ fromCache: true, added: 0, removed: 0 }, []]);
  });
});
