import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { afterAll, describe, expect, it } from "vitest";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { SiteCache } from "../../src/engine/site-cache.js";
import { heldTextOf } from "../../src/vfs/held-text.js";
import { loadSite } from "../../src/vfs/load-site.js";
import type { Page } from "../../src/vfs/page.js";
import { makeRepo } from "../helpers/repo.js";
import { TEST_SEAL } from "../helpers/cache-seal.js";

/**
 * The pages a load reads (and a start from the persistent cache makes of its columns) whose text
 * is held (`HeldText`) are records of one shape with fast properties, as plain object literals
 * are (issue 22): made as literals with a getter closure of their own, each page and its file got
 * a hidden class of its own, then dictionary properties, ~1.4 KB a page where ~0.5 KB is needed,
 * most of what a warm start of a 25,000-page site's garbage collector copied, and every read of
 * a page's path or title a dictionary lookup. They still read as those literals did.
 */

// V8's own answers, as the engine sees the records (not a count of bytes, which varies).
setFlagsFromString("--allow-natives-syntax");
const sameMap = new Function("a", "b", "return %HaveSameMap(a, b)") as (a: object, b: object) => boolean;
const fast = new Function("a", "return %HasFastProperties(a)") as (a: object) => boolean;

const BODY = "\n# Settings\n\nSet `mode` to fast – or slow.\n";
const FILES: Record<string, string> = {
  "v1/a.mdx": `---\ntitle: Settings\n---\n${BODY}`,
  "v2/a.mdx": `---\ntitle: Settings\n---\n${BODY}`,
  "v1/b.mdx": "---\ntitle: Options\n---\n\nOptions – all of them.\n",
  "v1/c.md": "Plain – no front matter.\n",
};
const DOCS = { name: "Shop", navigation: { versions: ["v2", "v1"].map((version) => ({ version, groups: [{ group: "Guides", pages: Object.keys(FILES).filter((p) => p.startsWith(version)).map((p) => p.replace(/\.mdx?$/, "")) }] })) } };

const repo = makeRepo({ ...FILES, "docs.json": JSON.stringify(DOCS) });
const cacheDir = mkdtempSync(join(tmpdir(), "held-shape-"));
afterAll(() => {
  repo.cleanup();
  rmSync(cacheDir, { recursive: true, force: true });
});

/** What a page reads as: its own enumerable fields in order, its file's, and a spread of it. */
const readAs = (page: Page): unknown => ({ keys: Object.keys(page), fileKeys: Object.keys(page.file), spread: { ...page, file: { ...page.file } } });

function expectOneFastShape(pages: readonly Page[]): void {
  expect(pages.length).toBe(4);
  for (const page of pages) expect({ path: page.path, held: heldTextOf(page.file) !== undefined, fast: fast(page), fileFast: fast(page.file), sameMap: sameMap(page, pages[0] as Page), sameFileMap: sameMap(page.file, (pages[0] as Page).file) }).toEqual({ path: page.path, held: true, fast: true, fileFast: true, sameMap: true, sameFileMap: true });
}

describe("held pages", () => {
  it("read by a load are records of one shape with fast properties, read as the literals they stand for", async () => {
    const { site } = await loadSite(repo.dir);
    const pages = [...site.pages.values()];
    expectOneFastShape(pages);
    const page = site.pages.get("/v1/b") as Page;
    expect(readAs(page)).toEqual({
      keys: ["file", "path", "title", "meta", "frontMatter", "body", "bodyLine", "generated"],
      fileKeys: ["path", "text", "size", "mtime", "access"],
      spread: { file: { path: "/v1/b.mdx", text: FILES["v1/b.mdx"], size: page.file.size, mtime: page.file.mtime, access: {} }, path: "/v1/b", title: "Options", meta: page.meta, frontMatter: { title: "Options" }, body: "\nOptions – all of them.\n", bodyLine: 4, generated: false },
    });
  });

  it("made from the persistent cache's columns are too, and read as the load's", async () => {
    const log = (): void => {};
    const first = await DocsRuntime.load({ root: repo.dir, log, siteCache: new SiteCache({ seal: TEST_SEAL, dir: cacheDir, root: repo.dir, log }), searchCache: 0 });
    await first.whenIndexed();
    const loaded = [...first.site.pages.values()];
    await first.close();
    const cached = new SiteCache({ seal: TEST_SEAL, dir: cacheDir, root: repo.dir, log }).read();
    const pages = Object.keys(FILES).map((rel) => cached?.known.get(rel)?.page as Page);
    expectOneFastShape(pages);
    expect(pages.map(readAs)).toEqual(Object.keys(FILES).map((rel) => readAs(loaded.find((p) => p.file.path === `/${rel}`) as Page)));
  });
});
