import { execFileSync, spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadEvalSets } from "../../bench/eval/eval.js";
import { resolveCacheDir } from "../../src/store/cache-dir.js";
import { DocsRuntime, type IndexBuild } from "../../src/engine/runtime.js";
import { SiteCache } from "../../src/engine/site-cache.js";
import type { WritePhase } from "../../src/engine/site-cache-writer.js";
import type { Diagnostic } from "../../src/config/diagnostic.js";
import type { SiteConfig } from "../../src/config/site-config.js";
import { readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { runCli } from "../helpers/cli.js";
import { LIMITS } from "../../src/limits.js";
import { CORPORA, fixture, REPO } from "../helpers/paths.js";
import { describeShared, SHARED_PRESENT } from "../helpers/shared.js";
import { TEST_SEAL } from "../helpers/cache-seal.js";
import { type CacheSeal, sealWith } from "../../src/store/cache-key.js";

/**
 * The persistent cache of parsed pages and the search index (issue 22, `tools/site-cache.ts`):
 * a start from it answers exactly as a start without it, an edit between starts is indexed
 * alone, and a cache that is stale or damaged is said, rebuilt, and never served.
 */

const temps: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A start of `root` with a cache in `dir`: what it logged, what its build did, hits for queries. */
async function start(
  root: string,
  dir: string,
  queries: readonly string[],
  options: { code?: () => string; filters?: readonly { version?: string; language?: string }[]; prepare?: boolean; seal?: CacheSeal; readers?: readonly (readonly string[])[] } = {},
): Promise<{ logs: string[]; build: IndexBuild | undefined; synced: DocsRuntime["lastIndexSync"]; hits: unknown[]; config: SiteConfig; diagnostics: readonly Diagnostic[] }> {
  const logs: string[] = [];
  const log = (m: string): number => logs.push(m);
  const siteCache = new SiteCache({ seal: options.seal ?? TEST_SEAL, dir, root, log, ...(options.code !== undefined ? { code: options.code } : {}) });
  const runtime = await DocsRuntime.load({ root, log, siteCache, searchCache: 0 });
  const context = localContext();
  // As `serve` does: the cache then keeps the reader's prepared search state (`prepared-reader.ts`).
  if (options.prepare === true) runtime.prepareSearch(context);
  await runtime.whenIndexed();
  const hits: unknown[] = [];
  // Each reader (by its groups) besides the anonymous one of `context`.
  const readers = [context, ...(options.readers ?? []).map((groups) => localContext(readerWithGroups([...groups])))];
  for (const reader of readers) {
    for (const filter of options.filters ?? [{}]) {
      for (const query of queries) {
        const found = await runtime.search(reader, { query, ...filter });
        hits.push([query, filter, found.map((h) => [h.page.path, h.section.anchor, h.score, h.snippet, h.otherVersions.map((t) => [t.page.path, t.score])])]);
      }
    }
  }
  const build = runtime.indexBuild;
  // Searches index no page: what the start's build indexed.
  const synced = runtime.lastIndexSync;
  const { config, diagnostics } = runtime.site;
  // Closing writes the cache at once (a server writes it a moment after it is ready).
  await runtime.close();
  return { logs, build, synced, hits, config, diagnostics };
}

const siteFiles = (dir: string): string[] => (existsSync(join(dir, "sites")) ? readdirSync(join(dir, "sites")) : []);

/** A copy of the demo site with `webhooks.mdx`, every page indexed (listed in navigation or not). */
function demoCopy(): string {
  const root = temp("svc-site-");
  cpSync(fixture("demo"), root, { recursive: true });
  const docs = JSON.parse(readFileSync(join(root, "docs.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(root, "docs.json"), JSON.stringify({ ...docs, seo: { indexing: "all" } }));
  writeFileSync(join(root, "webhooks.mdx"), WEBHOOKS);
  return root;
}

/** Files of a copied site dated an hour back: older than the racy window, so a stat tells. */
function ageFiles(root: string): void {
  const then = new Date(Date.now() - 3_600_000);
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), then, then);
  }
}

/** Files and folders of a copied site dated an hour back (folders last, deepest first): a folder's
 *  stat then tells whether it changed since the cache listed it. */
function ageTree(root: string): void {
  ageFiles(root);
  const then = new Date(Date.now() - 3_600_000);
  const folders = readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(e.parentPath, e.name));
  for (const folder of [...folders.sort((a, b) => b.length - a.length), root]) utimesSync(folder, then, then);
}

const CORPUS_NAMES = SHARED_PRESENT ? readdirSync(CORPORA, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name) : [];

describeShared("a start from the cache answers exactly as one without it", () => {
  it("finds the shared corpora", () => {
    expect(CORPUS_NAMES.length).toBeGreaterThanOrEqual(5);
  });

  for (const corpus of CORPUS_NAMES) {
    it(`${corpus}: every eval question (and a few plain ones), unfiltered and per version and language: paths, anchors, scores, snippets, also-in`, async () => {
      const root = join(CORPORA, corpus);
      const dir = temp("svc-site-cache-");
      const set = loadEvalSets().find((s) => s.corpus === corpus);
      const queries = [...(set?.questions.map((q) => q.query) ?? []), "getting started", "install", "configuration options", "api key authentication", "error"];
      const runtime = await DocsRuntime.load({ root });
      const { config } = runtime.site;
      await runtime.close();
      const filters = [{}, ...config.versions.slice(0, 2).map((version) => ({ version })), ...config.languages.slice(0, 2).map((language) => ({ language }))];
      const plain = await start(root, temp("svc-no-cache-"), queries, { filters, prepare: true });
      const cold = await start(root, dir, queries, { filters, prepare: true });
      expect(cold.build?.fromCache).toBe(false);
      expect(siteFiles(dir)).toHaveLength(1);
      const warm = await start(root, dir, queries, { filters, prepare: true });
      // No page is indexed again: not even generated API pages (made anew by every load, as are
      // pages shown with one), which the index knows by their sums (`page-sum.ts`).
      // The reader's prepared state is taken when no page was indexed again and the site folds copies.
      const folds = config.versions.length > 0 || config.languages.length > 1 || [...config.navPages.values()].some((p) => p.products !== undefined);
      expect(warm.build).toEqual({ fromCache: true, added: 0, removed: 0, ...(folds ? { preparedReader: `${config.languages.length > 1 ? "l" : ""}:*` } : {}) });
      expect(warm.logs.filter((l) => l.includes("search cache"))).toEqual([]);
      expect(cold.hits).toEqual(plain.hits);
      expect(warm.hits).toEqual(cold.hits);
      // docs.json as the cache keeps it (not read again) is the configuration read from the file.
      expect(warm.config).toEqual(plain.config);
      expect(warm.diagnostics).toEqual(plain.diagnostics);
    });
  }
});

const WEBHOOKS = "---\ntitle: Webhooks\n---\nWebhooks deliver events to your server.\n\n## Verify signatures\n\nEvery delivery carries an HMAC signature header.\n";

describe("the site cache", () => {
  it("an edit between two starts is indexed alone, and answers with the edit", async () => {
    const root = demoCopy();
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    const queries = ["hmac signature", "ed25519 signature", "webhooks"];
    const cold = await start(root, dir, queries);
    writeFileSync(join(root, "webhooks.mdx"), WEBHOOKS.replace("HMAC", "Ed25519"));
    const warm = await start(root, dir, queries);
    expect(warm.build).toEqual({ fromCache: true, added: 1, removed: 1 });
    const fresh = await start(root, temp("svc-no-cache-"), queries);
    expect(warm.hits).toEqual(fresh.hits);
    expect(JSON.stringify(warm.hits)).toContain("Every delivery carries an Ed25519 signature header.");
    expect(warm.hits).not.toEqual(cold.hits);
    // The edit is in the cache now: the next start indexes nothing.
    expect((await start(root, dir, queries)).build).toEqual({ fromCache: true, added: 0, removed: 0 });
  });

  it("pages generated from API specs, and an author's page shown with an operation, are restored too: nothing indexed again, the cache not rewritten, every reader answered as without the cache", async () => {
    const root = temp("svc-site-api-");
    cpSync(fixture("restricted-parts"), root, { recursive: true });
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    // Staff-only and partners-only operations, an admin spec, an AsyncAPI channel, a page shown with an operation.
    const queries = ["open the vault", "VAULT-OPEN-93", "partner rates", "purge cache", "user notes", "key rotated", "list users"];
    const readers = [["staff"], ["partners"]];
    const cold = await start(root, dir, queries, { readers });
    expect(cold.build).toEqual({ fromCache: false, added: 14, removed: 0 });
    const file = join(dir, "sites", siteFiles(dir)[0] as string);
    const written = statSync(file);
    const warm = await start(root, dir, queries, { readers });
    expect(warm.build).toEqual({ fromCache: true, added: 0, removed: 0 });
    expect(warm.logs).toEqual([]);
    // Nothing changed: the cache is not written again (a write replaces the file: another inode).
    expect([statSync(file).ino, statSync(file).size]).toEqual([written.ino, written.size]);
    const fresh = await start(root, temp("svc-no-cache-"), queries, { readers });
    expect(cold.hits).toEqual(fresh.hits);
    expect(warm.hits).toEqual(fresh.hits);
    // The restricted operation is found by staff only.
    const vault = '"/api-reference/vault/open-the-vault-vault-open-93"';
    expect(JSON.stringify(warm.hits.slice(0, queries.length))).not.toContain(vault);
    expect(JSON.stringify(warm.hits.slice(queries.length, 2 * queries.length))).toContain(vault);
    expect(JSON.stringify(warm.hits.slice(2 * queries.length))).not.toContain(vault);
  });

  it("a spec edited between starts: its pages answer with the edit, for every reader as without the cache", async () => {
    const root = temp("svc-site-api-");
    cpSync(fixture("restricted-parts"), root, { recursive: true });
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    const queries = ["open the vault", "VAULT-OPEN-93", "VAULT-SHUT-12", "partner rates"];
    const readers = [["staff"]];
    const cold = await start(root, dir, queries, { readers });
    const spec = join(root, "api", "store.yaml");
    writeFileSync(spec, readFileSync(spec, "utf8").replace("Open the vault VAULT-OPEN-93", "Open the vault VAULT-SHUT-12"));
    // Another operation's response too: its page keeps its path.
    writeFileSync(spec, readFileSync(spec, "utf8").replace("description: Purged", "description: Purged at once"));
    const warm = await start(root, dir, queries, { readers });
    // The cache stands: the pages of the two operations edited are indexed again, and no other
    // (the spec's other pages, other specs' pages and the MDX pages are restored as they were).
    expect(warm.build).toEqual({ fromCache: true, added: 2, removed: 2 });
    expect(warm.synced).toEqual({
      added: ["/api-reference/orders/purge-orders-vault-purge-40", "/api-reference/vault/open-the-vault-vault-shut-12"],
      removed: ["/api-reference/orders/purge-orders-vault-purge-40", "/api-reference/vault/open-the-vault-vault-open-93"],
    });
    expect(warm.logs).toEqual([]);
    expect(warm.hits).toEqual((await start(root, temp("svc-no-cache-"), queries, { readers })).hits);
    expect(warm.hits).not.toEqual(cold.hits);
    expect(JSON.stringify(cold.hits)).toContain('"/api-reference/vault/open-the-vault-vault-open-93"');
    expect(JSON.stringify(warm.hits)).toContain('"/api-reference/vault/open-the-vault-vault-shut-12"');
    expect(JSON.stringify(warm.hits)).not.toContain('"/api-reference/vault/open-the-vault-vault-open-93"');
    // The edit is in the cache now: the next start indexes nothing.
    expect((await start(root, dir, queries, { readers })).build).toEqual({ fromCache: true, added: 0, removed: 0 });
  });

  it("a spec edited while a server started from the cache watches it: the pages of the operations edited are indexed again, no other", async () => {
    const root = temp("svc-site-api-");
    cpSync(fixture("restricted-parts"), root, { recursive: true });
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    await start(root, dir, []);
    const runtime = await DocsRuntime.load({ root, log: () => {}, siteCache: new SiteCache({ seal: TEST_SEAL, dir, root, log: () => {} }), searchCache: 0 });
    try {
      await runtime.whenIndexed();
      expect(runtime.indexBuild).toEqual({ fromCache: true, added: 0, removed: 0 });
      await runtime.watch();
      const reloaded = new Promise<void>((resolve) => runtime.onChange(() => resolve()));
      const spec = join(root, "api", "store.yaml");
      writeFileSync(spec, readFileSync(spec, "utf8").replace("Open the vault VAULT-OPEN-93", "Open the vault VAULT-SHUT-12").replace("description: Purged", "description: Purged at once"));
      await reloaded;
      expect(runtime.lastIndexSync).toEqual({
        added: ["/api-reference/orders/purge-orders-vault-purge-40", "/api-reference/vault/open-the-vault-vault-shut-12"],
        removed: ["/api-reference/orders/purge-orders-vault-purge-40", "/api-reference/vault/open-the-vault-vault-open-93"],
      });
      // Answered as a start without the cache answers the edited site.
      const staff = localContext(readerWithGroups(["staff"]));
      const found = (await runtime.search(staff, { query: "VAULT-SHUT-12" })).map((h) => [h.page.path, h.score, h.snippet]);
      const fresh = await DocsRuntime.load({ root, log: () => {}, searchCache: 0 });
      await fresh.whenIndexed();
      expect(found).toEqual((await fresh.search(staff, { query: "VAULT-SHUT-12" })).map((h) => [h.page.path, h.score, h.snippet]));
      await fresh.close();
      expect(found[0]?.[0]).toBe("/api-reference/vault/open-the-vault-vault-shut-12");
    } finally {
      await runtime.close();
    }
  });

  it("texts the load holds as UTF-8 (mostly ASCII with a dash) are stored as those bytes, not as two-byte strings, and read back the same", async () => {
    const root = temp("svc-site-");
    writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Wide", navigation: { pages: ["a", "b", "c"] } }));
    const texts = ["a", "b", "c"].map((name, i) => `---\ntitle: Page ${name} — wide\n---\n\n# Page ${name}\n\n${`${name.repeat(60)}${i} — `.repeat(3000)}\n`);
    ["a", "b", "c"].forEach((name, i) => writeFileSync(join(root, `${name}.mdx`), texts[i] as string));
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    const queries = ["page", "page b"];
    const cold = await start(root, dir, queries);
    const [file] = siteFiles(dir);
    const utf8 = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
    // As strings, V8's serializer wrote them two bytes a character: over twice their UTF-8 bytes.
    expect(statSync(join(dir, "sites", file as string)).size).toBeLessThan(utf8 * 1.3);
    const warm = await start(root, dir, queries);
    expect(warm.build).toEqual({ fromCache: true, added: 0, removed: 0 });
    expect(warm.hits).toEqual(cold.hits);
    const logs: string[] = [];
    const runtime = await DocsRuntime.load({ root, log: (m) => logs.push(m), siteCache: new SiteCache({ seal: TEST_SEAL, dir, root, log: (m) => logs.push(m) }), searchCache: 0 });
    await runtime.whenIndexed();
    expect(["/a", "/b", "/c"].map((path) => runtime.site.pages.get(path)?.file.text)).toEqual(texts);
    expect(runtime.site.pages.get("/b")?.body).toBe((texts[1] as string).slice((texts[1] as string).indexOf("\n# Page b")));
    await runtime.close();
  });

  it("texts are stored as they are while the cache fits its limit with room to spare, deflated when they would not fit, and read back the same either way", async () => {
    const root = temp("svc-site-");
    writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Packed", navigation: { pages: ["a", "b"] } }));
    const texts = ["a", "b"].map((name) => `---\ntitle: Page ${name}\n---\n\n# Page ${name}\n\n${`The ${name} section repeats — `.repeat(40_000)}\n`);
    ["a", "b"].forEach((name, i) => writeFileSync(join(root, `${name}.mdx`), texts[i] as string));
    ageFiles(root);
    const utf8 = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
    const sizes: number[] = [];
    for (const maxBytes of [64 * 1024 * 1024, utf8]) {
      const dir = temp("svc-site-cache-");
      const cacheOf = (logs: string[]): SiteCache => new SiteCache({ seal: TEST_SEAL, dir, root, log: (m) => logs.push(m), maxBytes });
      const logs: string[] = [];
      const cold = await DocsRuntime.load({ root, log: (m) => logs.push(m), siteCache: cacheOf(logs), searchCache: 0 });
      await cold.whenIndexed();
      await cold.close();
      const [file] = siteFiles(dir);
      sizes.push(statSync(join(dir, "sites", file as string)).size);
      const warm = await DocsRuntime.load({ root, log: (m) => logs.push(m), siteCache: cacheOf(logs), searchCache: 0 });
      await warm.whenIndexed();
      expect(warm.indexBuild).toEqual({ fromCache: true, added: 0, removed: 0 });
      expect(["/a", "/b"].map((path) => warm.site.pages.get(path)?.file.text)).toEqual(texts);
      await warm.close();
      expect(logs.filter((m) => m.includes("search cache"))).toEqual([]);
    }
    // Undeflated, the file holds the texts' bytes; deflated (a limit of just their size, which
    // they with the index would pass), it holds far fewer than they are.
    expect(sizes[0]).toBeGreaterThan(utf8);
    expect((sizes[0] as number) - (sizes[1] as number)).toBeGreaterThan(utf8 * 0.75);
  });

  it("texts held as UTF-8 are deflated when the texts held as strings push the cache over its share, and read back the same", async () => {
    // What decides it counts every text, however held (issue 22): this limit is passed only with
    // the ASCII page counted.
    const root = temp("svc-site-");
    writeFileSync(join(root, "docs.json"), JSON.stringify({ name: "Late", navigation: { pages: ["wide", "plain"] } }));
    // Long words: few terms, so the index's arrays stay small beside the texts.
    const texts = [`---\ntitle: Wide\n---\n\n# Wide\n\n${"Thewidesectionrepeatsitselfwithlongwords — ".repeat(1_500)}\n`, `---\ntitle: Plain\n---\n\n# Plain\n\n${"Theplainsectionrepeatsitselfwithlongwords ".repeat(2_500)}\n`];
    ["wide", "plain"].forEach((name, i) => writeFileSync(join(root, `${name}.mdx`), texts[i] as string));
    ageFiles(root);
    const [wide, plain] = texts.map((t) => Buffer.byteLength(t)) as [number, number];
    const limit = 200_000;
    expect([wide < limit * 0.75, wide + plain > limit * 0.75]).toEqual([true, true]);
    const logs: string[] = [];
    const sizes: number[] = [];
    // With room to spare the texts are stored as they are; at `limit`, the wide one deflated.
    for (const maxBytes of [64 * 1024 * 1024, limit]) {
      const dir = temp("svc-site-cache-");
      const cacheOf = (): SiteCache => new SiteCache({ seal: TEST_SEAL, dir, root, log: (m) => logs.push(m), maxBytes });
      const cold = await DocsRuntime.load({ root, log: (m) => logs.push(m), siteCache: cacheOf(), searchCache: 0 });
      await cold.whenIndexed();
      await cold.close();
      const [file] = siteFiles(dir);
      sizes.push(statSync(join(dir, "sites", file as string)).size);
      const warm = await DocsRuntime.load({ root, log: (m) => logs.push(m), siteCache: cacheOf(), searchCache: 0 });
      await warm.whenIndexed();
      expect(warm.indexBuild).toEqual({ fromCache: true, added: 0, removed: 0 });
      expect(["/wide", "/plain"].map((path) => warm.site.pages.get(path)?.file.text)).toEqual(texts);
      await warm.close();
    }
    expect((sizes[0] as number) - (sizes[1] as number)).toBeGreaterThan(wide * 0.75);
    expect(logs.filter((m) => m.includes("search cache"))).toEqual([]);
  });

  it("a page edited to the same size and time just before the cache was written is read again (its text is compared)", async () => {
    const root = demoCopy();
    const page = join(root, "webhooks.mdx");
    // A whole second, a moment ago: a time that can be put back exactly.
    const now = Math.floor(Date.now() / 1000);
    utimesSync(page, now, now);
    const dir = temp("svc-site-cache-");
    const before = statSync(page);
    await start(root, dir, ["hmac"]);
    // Same size, same inode, the time put back: only the text tells.
    writeFileSync(page, WEBHOOKS.replace("HMAC", "ABCD"));
    utimesSync(page, now, now);
    expect([statSync(page).mtimeMs, statSync(page).ino, statSync(page).size]).toEqual([before.mtimeMs, before.ino, before.size]);
    const warm = await start(root, dir, ["abcd signature"]);
    expect(warm.build).toEqual({ fromCache: true, added: 1, removed: 1 });
    expect(JSON.stringify(warm.hits)).toContain("Every delivery carries an ABCD signature header.");
  });

  // With enough pages (`LIMITS.load.readAheadFrom`), the cached pages' files are stat'ed by a thread (`startStatAhead`);
  // watched, each folder's once the walk has watched it.
  for (const [filler, watch] of [
    [0, false],
    [LIMITS.load.readAheadFrom, false],
    [LIMITS.load.readAheadFrom, true],
  ] as const) it(`a page rewritten in place long after its last change, keeping size, time and inode (cp -p), is read again: its access changed with it (${filler} more pages${watch ? ", watched" : ""})`, async () => {
    const root = demoCopy();
    if (filler > 0) mkdirSync(join(root, "filler"));
    for (let i = 0; i < filler; i++) writeFileSync(join(root, "filler", `page-${i}.mdx`), `---\ntitle: Filler ${i}\n---\nFiller page ${i}.\n`);
    const page = join(root, "webhooks.mdx");
    writeFileSync(page, `---\ntitle: Webhooks\ngroups: ["staff"]\n---\nSalary table: CEO 900k.\n`);
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    const old = statSync(page);
    await start(root, dir, ["salary"]);
    // Release 2: the page is for another group of the same length, written over the file with the old date kept.
    writeFileSync(page, `---\ntitle: Webhooks\ngroups: ["board"]\n---\nSalary table: CEO 900k.\n`);
    utimesSync(page, old.atime, old.mtime);
    expect([statSync(page).mtimeMs, statSync(page).ino, statSync(page).size]).toEqual([old.mtimeMs, old.ino, old.size]);
    const staff = localContext(readerWithGroups(["staff"]));
    const logs: string[] = [];
    const runtime = await DocsRuntime.load({ root, log: (m) => logs.push(m), siteCache: new SiteCache({ seal: TEST_SEAL, dir, root, log: (m) => logs.push(m) }), searchCache: 0, watch });
    await runtime.whenIndexed();
    expect(runtime.indexBuild).toEqual({ fromCache: true, added: 1, removed: 1 });
    expect(runtime.site.pages.get("/webhooks")?.file.access).toEqual({ groups: ["board"] });
    expect((await runtime.search(staff, { query: "salary" })).map((h) => h.page.path)).toEqual([]);
    await runtime.close();
  });

  it("a page removed, or added, between starts", async () => {
    const root = demoCopy();
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    await start(root, dir, ["hmac"]);
    rmSync(join(root, "webhooks.mdx"));
    writeFileSync(join(root, "refunds.mdx"), "---\ntitle: Refunds\n---\nA refund returns the payment.\n");
    const warm = await start(root, dir, ["hmac signature", "refund payment"]);
    expect(warm.build).toEqual({ fromCache: true, added: 1, removed: 1 });
    expect(warm.hits).toEqual((await start(root, temp("svc-no-cache-"), ["hmac signature", "refund payment"])).hits);
  });

  it("folders listed by the cached start are stat'ed, not listed again: a page added to a folder, and a folder removed, between starts are found", async () => {
    const root = demoCopy();
    ageTree(root);
    const dir = temp("svc-site-cache-");
    const queries = ["hmac signature", "refund payment", "rotate the api key"];
    await start(root, dir, queries);
    writeFileSync(join(root, "guides", "refunds.mdx"), "---\ntitle: Refunds\n---\nA refund returns the payment.\n");
    rmSync(join(root, "api"), { recursive: true });
    const warm = await start(root, dir, queries);
    const fresh = await start(root, temp("svc-no-cache-"), queries);
    expect(warm.build).toEqual({ fromCache: true, added: 1, removed: 2 });
    expect(warm.hits).toEqual(fresh.hits);
    expect(JSON.stringify(warm.hits)).toContain('"/guides/refunds"');
    expect(warm.diagnostics).toEqual(fresh.diagnostics);
    // The listing of this start is the cache's now: the next start lists nothing again and finds the same.
    const again = await start(root, dir, queries);
    expect(again.build).toEqual({ fromCache: true, added: 0, removed: 0 });
    expect(again.hits).toEqual(fresh.hits);
  });

  it("a page another file of its path takes the place of (x.md beside a restricted x.mdx) answers as without the cache", async () => {
    const root = demoCopy();
    writeFileSync(join(root, "rotation.md"), "---\ntitle: Rotation\n---\nRotate the signing secret yearly.\n");
    writeFileSync(join(root, "rotation.mdx"), "---\ntitle: Rotation (staff)\ngroups: [staff]\n---\nStaff rotate the zanzibar vault.\n");
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    const queries = ["rotate signing secret", "zanzibar vault"];
    const cold = await start(root, dir, queries);
    expect(JSON.stringify(cold.hits)).toContain('"/rotation"');
    const warm = await start(root, dir, queries);
    expect(warm.build?.fromCache).toBe(true);
    expect(warm.hits).toEqual(cold.hits);
    expect(warm.hits).toEqual((await start(root, temp("svc-no-cache-"), queries)).hits);
  });

  /** A demo site started once with a cache; returns the cache file and what a start without a cache answers. */
  async function cachedDemo(): Promise<{ root: string; dir: string; file: string; plain: unknown[] }> {
    const root = demoCopy();
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    const plain = (await start(root, dir, QUERIES)).hits;
    const file = join(dir, "sites", siteFiles(dir)[0] as string);
    return { root, dir, file, plain };
  }
  const QUERIES = ["getting started", "install", "authentication"];

  const damaged: [string, (bytes: Buffer) => Buffer, string][] = [
    ["truncated", (b) => b.subarray(0, b.length - 100), "is corrupt ("],
    ["a byte flipped in the body", (b) => flip(b, b.length - 50), "is corrupt (checksum)"],
    // The body decodes, and the load goes on from it while the sums are computed (issue 22): its
    // sums fail once the load is over, and the site is loaded again without it.
    ["a byte flipped in a page's text", (b) => flip(b, b.indexOf("HMAC signature header")), "is corrupt (checksum)"],
    ["a byte flipped in the header", (b) => flip(b, 60), "is corrupt (header checksum)"],
    ["a byte flipped in the header's seal", (b) => flip(b, 20), "was not sealed by this user's cache key"],
    ["not a cache file", () => Buffer.from("hello"), "is not a cache file"],
    ["empty", () => Buffer.alloc(0), "is not a cache file"],
  ];
  for (const [what, damage, message] of damaged) {
    it(`a cache file ${what} is said, not served, and written again`, async () => {
      const { root, dir, file, plain } = await cachedDemo();
      writeFileSync(file, damage(readFileSync(file)));
      const next = await start(root, dir, QUERIES);
      expect(next.build?.fromCache).toBe(false);
      const said = next.logs.filter((l) => l.includes("search cache"));
      expect(said).toHaveLength(1);
      expect(said[0]?.startsWith(`search cache ${file} ${message}`)).toBe(true);
      expect(said[0]).toMatch(/: reading and indexing the site again$/);
      expect(next.hits).toEqual(plain);
      // Rebuilt and written again: the start after is from the cache.
      expect((await start(root, dir, QUERIES)).build?.fromCache).toBe(true);
    });
  }

  it("a cache a byte flipped in a page's text decodes, and is not given before its sums are checked: said corrupt, and removed", async () => {
    const { root, dir, file } = await cachedDemo();
    writeFileSync(file, flip(readFileSync(file), readFileSync(file).indexOf("HMAC signature header")));
    const logs: string[] = [];
    const cache = new SiteCache({ seal: TEST_SEAL, dir, root, log: (m) => logs.push(m) });
    const pending = cache.readPending();
    expect(pending).toBeDefined();
    expect(logs).toEqual([]);
    expect(pending?.verify()).toBe(false);
    expect(pending?.verify()).toBe(false);
    expect(logs).toEqual([`search cache ${file} is corrupt (checksum): reading and indexing the site again`]);
    expect(existsSync(file)).toBe(false);
    expect(cache.read()).toBeUndefined();
  });

  it("a FIFO where the cache file was does not hold the start: said not a regular file, removed, rebuilt (adversary round 35 F4)", async () => {
    const { root, dir, file, plain } = await cachedDemo();
    rmSync(file);
    execFileSync("mkfifo", ["-m", "600", file]);
    const next = await start(root, dir, QUERIES);
    expect(next.build?.fromCache).toBe(false);
    expect(next.logs.filter((l) => l.includes("search cache"))).toEqual([`search cache ${file} is not a regular file: reading and indexing the site again`]);
    expect(next.hits).toEqual(plain);
    expect(statSync(file).isFile()).toBe(true);
    expect((await start(root, dir, QUERIES)).build?.fromCache).toBe(true);
  });

  it("a cache in a folder others may write is not trusted (a checksum is no signature): said, rebuilt, and its folder made private", async () => {
    const { root, dir, file, plain } = await cachedDemo();
    chmodSync(join(dir, "sites"), 0o777);
    const next = await start(root, dir, QUERIES);
    expect(next.build?.fromCache).toBe(false);
    expect(next.logs.filter((l) => l.includes("search cache"))).toEqual([`search cache ${file} is not private to this user (another user could have written it): reading and indexing the site again`]);
    expect(next.hits).toEqual(plain);
    expect(statSync(join(dir, "sites")).mode & 0o777).toBe(0o700);
    expect((await start(root, dir, QUERIES)).build?.fromCache).toBe(true);
  });

  it("a cache folder that is inside the docs once links are followed, or named like a parent (`..cache`), is not used", () => {
    const root = temp("svc-site-");
    const link = `${root}-link`;
    symlinkSync(root, link);
    temps.push(link);
    expect(resolveCacheDir({ XDG_CACHE_HOME: join(root, "..cache") }, root)).toBeUndefined();
    expect(resolveCacheDir({ XDG_CACHE_HOME: join(link, "cachedir") }, root)).toBeUndefined();
    expect(resolveCacheDir({ XDG_CACHE_HOME: join(root, "sub") }, link)).toBeUndefined();
    expect(resolveCacheDir({ XDG_CACHE_HOME: `${root}-elsewhere` }, root)).toBe(join(`${root}-elsewhere`, "svc-mcp"));
  });

  it("another version of the code keeps a cache of its own: neither finds the other's stale, each starts from its own", async () => {
    const { root, dir, file, plain } = await cachedDemo();
    const other = await start(root, dir, QUERIES, { code: () => "another version" });
    expect([other.build?.fromCache, other.logs.filter((l) => l.includes("search cache")), other.hits]).toEqual([false, [], plain]);
    expect(siteFiles(dir).sort()).toHaveLength(2);
    expect(siteFiles(dir)).toContain(file.slice(file.lastIndexOf("/") + 1));
    expect((await start(root, dir, QUERIES)).build?.fromCache).toBe(true);
    expect((await start(root, dir, QUERIES, { code: () => "another version" })).build?.fromCache).toBe(true);
  });

  it("a cache whose header names another version of the code (a file copied or renamed) is stale", async () => {
    const { root, dir, file, plain } = await cachedDemo();
    const other = new SiteCache({ seal: TEST_SEAL, dir, root, log: () => 0, code: () => "another version" });
    writeFileSync(other.file, readFileSync(file));
    const next = await start(root, dir, QUERIES, { code: () => "another version" });
    expect(next.build?.fromCache).toBe(false);
    expect(next.logs).toContain(`search cache ${other.file} was written by another version of svc-mcp: reading and indexing the site again`);
    expect(next.hits).toEqual(plain);
  });

  it("a cache another key sealed (restored from another job, copied from another machine, or forged with its checksums right) is not read, and is rebuilt", async () => {
    const { root, dir, file, plain } = await cachedDemo();
    const forged = readFileSync(file);
    const next = await start(root, dir, QUERIES, { seal: sealWith(Buffer.alloc(32, 8)) });
    expect(next.build?.fromCache).toBe(false);
    expect(next.logs).toContain(`search cache ${file} was not sealed by this user's cache key: reading and indexing the site again`);
    expect(next.hits).toEqual(plain);
    // Its own key's file again; the other key's bytes, one byte of the seal changed, are refused too.
    writeFileSync(file, forged);
    expect((await start(root, dir, QUERIES)).build?.fromCache).toBe(true);
    const flipped = Buffer.from(forged);
    const at = flipped.indexOf("SVCSITE\n") + 8 + 8;
    flipped[at] = (flipped[at] as number) ^ 1;
    writeFileSync(file, flipped);
    const refused = await start(root, dir, QUERIES);
    expect(refused.build?.fromCache).toBe(false);
    expect(refused.logs).toContain(`search cache ${file} was not sealed by this user's cache key: reading and indexing the site again`);
  });

  it("a cache of a site whose docs.json changed is stale", async () => {
    const { root, dir, file } = await cachedDemo();
    const docs = JSON.parse(readFileSync(join(root, "docs.json"), "utf8")) as { name: string };
    writeFileSync(join(root, "docs.json"), JSON.stringify({ ...docs, name: "Renamed" }));
    const next = await start(root, dir, QUERIES);
    expect(next.build?.fromCache).toBe(false);
    expect(next.logs).toContain(`search cache ${file} is out of date (docs.json changed): reading and indexing the site again`);
  });

  it("a cache of a site whose navigation file ($ref'd from docs.json) changed is stale: the start serves the navigation as it is now", async () => {
    const root = demoCopy();
    const docs = JSON.parse(readFileSync(join(root, "docs.json"), "utf8")) as { navigation: { tabs: unknown[] } };
    writeFileSync(join(root, "tabs.json"), JSON.stringify(docs.navigation.tabs[0]));
    writeFileSync(join(root, "docs.json"), JSON.stringify({ ...docs, navigation: { ...docs.navigation, tabs: [{ $ref: "tabs.json" }, ...docs.navigation.tabs.slice(1)] } }));
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    const cold = await start(root, dir, QUERIES);
    expect(cold.config.navPages.get("/quickstart")?.breadcrumbs).toEqual(["Guides", "Get started"]);
    writeFileSync(join(root, "tabs.json"), readFileSync(join(root, "tabs.json"), "utf8").replace('"Get started"', '"Begin here"'));
    const next = await start(root, dir, QUERIES);
    expect(next.build?.fromCache).toBe(false);
    expect(next.logs).toContain(`search cache ${join(dir, "sites", siteFiles(dir)[0] as string)} is out of date (tabs.json changed): reading and indexing the site again`);
    expect(next.config.navPages.get("/quickstart")?.breadcrumbs).toEqual(["Guides", "Begin here"]);
    expect(next.config).toEqual((await start(root, temp("svc-no-cache-"), QUERIES)).config);
  });

  it("a docs.json without a name, served from the cache through a link of another name, names the site after the link, as without the cache", async () => {
    const root = demoCopy();
    const { name: _name, ...docs } = JSON.parse(readFileSync(join(root, "docs.json"), "utf8")) as { name: string };
    writeFileSync(join(root, "docs.json"), JSON.stringify(docs));
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    const link = join(temp("svc-link-"), "handbook");
    symlinkSync(root, link);
    expect((await start(root, dir, QUERIES)).config.name).toBe(basename(root));
    const linked = await start(link, dir, QUERIES);
    expect(linked.build?.fromCache).toBe(true);
    expect(linked.config.name).toBe("handbook");
    expect(linked.config).toEqual((await start(link, temp("svc-no-cache-"), QUERIES)).config);
  });

  it("is written while the server answers: a search and a shell command held behind a write in progress are answered before it ends, and its file appears whole", async () => {
    const root = demoCopy();
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    const plain = (await start(root, temp("svc-no-cache-"), QUERIES)).hits;
    const events: string[] = [];
    let reached = (): void => {};
    const atHold = new Promise<void>((resolve) => (reached = resolve));
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let steps = 0;
    // Every step gives the thread back (`writeSliceMs: 0`); the third is held until the test lets it go.
    const yieldTurn = async (phase: WritePhase): Promise<void> => {
      if (++steps !== 3) return new Promise((resolve) => setImmediate(resolve));
      events.push(`write held (${phase})`);
      reached();
      await held;
      events.push("write resumed");
    };
    const logs: string[] = [];
    const log = (m: string): number => logs.push(m);
    const runtime = await DocsRuntime.load({ root, log, siteCache: new SiteCache({ seal: TEST_SEAL, dir, root, log, writeSliceMs: 0, yieldTurn }), searchCache: 0 });
    await runtime.whenIndexed();
    await atHold;
    const context = localContext();
    const hits: unknown[] = [];
    for (const query of QUERIES) {
      const found = await runtime.search(context, { query });
      hits.push([query, {}, found.map((h) => [h.page.path, h.section.anchor, h.score, h.snippet, h.otherVersions.map((t) => [t.page.path, t.score])])]);
    }
    events.push("searched");
    const listed = await runtime.readerState(context).shell.run("ls / | head -2");
    events.push(`shell: ${listed.stdout.trim().split("\n").length} lines, exit ${listed.exitCode}`);
    // Nothing under the cache's name until the write is whole.
    expect(siteFiles(dir).filter((f) => f.endsWith(".bin"))).toEqual([]);
    release();
    expect(await runtime.whenCacheWritten()).toBe(true);
    events.push("written");
    await runtime.close();
    expect(events).toEqual(["write held (body)", "searched", "shell: 2 lines, exit 0", "write resumed", "written"]);
    expect(hits).toEqual(plain);
    expect(logs.filter((l) => l.includes("search cache"))).toEqual([]);
    const next = await start(root, dir, QUERIES);
    expect([next.build, next.hits]).toEqual([{ fromCache: true, added: 0, removed: 0 }, plain]);
  });

  // Over HTTP the port opens seconds after the build on a large site (the shell pool loads first):
  // a write begun at the build's end took the thread and memory before the port opened (issue 22).
  it("with writeCacheOnceServing the write waits its delay from serving(), not from the build's end", async () => {
    const root = demoCopy();
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    const phases: WritePhase[] = [];
    const yieldTurn = (phase: WritePhase): Promise<void> => {
      phases.push(phase);
      return new Promise((resolve) => setImmediate(resolve));
    };
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const log = (): void => {};
      const runtime = await DocsRuntime.load({ root, log, siteCache: new SiteCache({ seal: TEST_SEAL, dir, root, log, writeSliceMs: 0, yieldTurn }), searchCache: 0, writeCacheOnceServing: true });
      await runtime.whenIndexed();
      vi.advanceTimersByTime(LIMITS.cache.writeDelayMs * 10);
      expect(phases).toEqual([]);
      runtime.serving();
      vi.advanceTimersByTime(LIMITS.cache.writeDelayMs - 1);
      expect(phases).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(await runtime.whenCacheWritten()).toBe(true);
      expect([...new Set(phases)]).toEqual(["body", "checksums", "file"]);
      await runtime.close();
    } finally {
      vi.useRealTimers();
    }
    const next = await start(root, dir, QUERIES);
    expect(next.build).toEqual({ fromCache: true, added: 0, removed: 0 });
  });

  it("a reload while the cache is written drops the write: no file of a site that is no longer the one served", async () => {
    const root = demoCopy();
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    let reached = (): void => {};
    const atHold = new Promise<void>((resolve) => (reached = resolve));
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let steps = 0;
    const yieldTurn = async (): Promise<void> => {
      if (++steps !== 3) return new Promise((resolve) => setImmediate(resolve));
      reached();
      await held;
    };
    const logs: string[] = [];
    const log = (m: string): number => logs.push(m);
    const runtime = await DocsRuntime.load({ root, log, siteCache: new SiteCache({ seal: TEST_SEAL, dir, root, log, writeSliceMs: 0, yieldTurn }), searchCache: 0 });
    await runtime.whenIndexed();
    await atHold;
    writeFileSync(join(root, "webhooks.mdx"), WEBHOOKS.replace("HMAC", "Ed25519"));
    await runtime.applyChanges(["webhooks.mdx"]);
    release();
    expect(await runtime.whenCacheWritten()).toBe(false);
    await runtime.close();
    expect(siteFiles(dir)).toEqual([]);
    expect(logs.filter((l) => l.includes("search cache"))).toEqual([]);
  });

  for (const before of ["an earlier cache", "no cache"] as const) {
    it(`a process killed while it writes the cache leaves ${before === "no cache" ? "none: the next start indexes the site and writes it" : "the earlier file whole: the next start reads it and indexes only the page edited since"}`, async () => {
      const root = demoCopy();
      ageFiles(root);
      const dir = temp("svc-site-cache-");
      if (before === "an earlier cache") await start(root, dir, QUERIES);
      const earlier = siteFiles(dir);
      writeFileSync(join(root, "webhooks.mdx"), WEBHOOKS.replace("HMAC", "Ed25519"));
      const child = spawn(process.execPath, ["--import", "tsx", join(REPO, "test/helpers/site-cache-killed.ts"), root, dir], { cwd: REPO, stdio: ["ignore", "pipe", "inherit"] });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
      let partial: string[] = [];
      createInterface({ input: child.stdout }).on("line", (line) => {
        if (line !== "writing") return;
        partial = siteFiles(dir).filter((f) => f.endsWith(".tmp"));
        child.kill("SIGKILL");
      });
      expect(await exited).toBe("SIGKILL");
      // Killed with its temp file part written: the cache's own name is the earlier file, or nothing.
      expect(partial).toHaveLength(1);
      expect(siteFiles(dir).sort()).toEqual([...earlier, ...partial].sort());
      const queries = [...QUERIES, "ed25519 signature"];
      const next = await start(root, dir, queries);
      expect(next.build).toEqual(before === "no cache" ? { fromCache: false, added: 10, removed: 0 } : { fromCache: true, added: 1, removed: 1 });
      expect(next.logs.filter((l) => l.includes("search cache"))).toEqual([]);
      expect(next.hits).toEqual((await start(root, temp("svc-no-cache-"), queries)).hits);
      expect((await start(root, dir, queries)).build).toEqual({ fromCache: true, added: 0, removed: 0 });
    });
  }

  it("the cache file is mode 0600 in a 0700 folder", async () => {
    const { dir, file } = await cachedDemo();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "sites")).mode & 0o777).toBe(0o700);
  });

  it("serve, search and fs keep it in the user's cache folder ($XDG_CACHE_HOME/svc-mcp/sites), never inside the docs, and SVC_MCP_CACHE=off keeps none", async () => {
    const root = temp("svc-site-");
    cpSync(fixture("demo"), root, { recursive: true });
    const home = temp("svc-home-");
    const run = async (env: Record<string, string>): Promise<string> => {
      const out = await runCli(["search", "--dir", root, "install"], { env: { HOME: home, ...env } });
      expect(out.code).toBe(0);
      return out.stdout;
    };
    const plain = await run({ SVC_MCP_CACHE: "off" });
    expect(existsSync(join(home, ".cache"))).toBe(false);
    expect(await run({})).toBe(plain);
    expect(readdirSync(join(home, ".cache/svc-mcp/sites"))).toHaveLength(1);
    expect(await run({})).toBe(plain);
    // A cache folder inside the docs is not used: nothing is written there.
    expect(resolveCacheDir({ XDG_CACHE_HOME: join(root, ".cache") }, root)).toBeUndefined();
    expect(await run({ XDG_CACHE_HOME: join(root, ".cache") })).toBe(plain);
    expect(existsSync(join(root, ".cache"))).toBe(false);
    const inside = readdirSync(root, { recursive: true }).map(String);
    expect(inside.filter((f) => f.endsWith(".bin") || f.includes("svc-mcp"))).toEqual([]);
  });
});

function flip(bytes: Buffer, at: number): Buffer {
  const out = Buffer.from(bytes);
  out[at] = (out[at] as number) ^ 0xff;
  return out;
}

describe("a large site's cache write is said on the log", () => {
  it("a start of 501 pages says when it wrote the cache, and the next start says it started from it (what bench/ready.ts reads)", async () => {
    const root = temp("svc-site-many-");
    const pages = Array.from({ length: 501 }, (_, i) => `p${i}`);
    for (const p of pages) writeFileSync(join(root, `${p}.mdx`), `---\ntitle: Page ${p}\n---\n\nText of ${p}.\n`);
    writeFileSync(join(root, "docs.json"), JSON.stringify({ $schema: "https://mintlify.com/docs.json", theme: "mint", name: "Many", colors: { primary: "#0D9373" }, navigation: { groups: [{ group: "All", pages }] } }));
    ageFiles(root);
    const dir = temp("svc-site-cache-");
    const cold = await start(root, dir, []);
    const warm = await start(root, dir, []);
    const said = (logs: string[]): string[] => logs.filter((l) => /cache/.test(l)).map((l) => l.replace(/\d+\.\d s/, "N s"));
    expect({ cold: said(cold.logs), warm: said(warm.logs) }).toEqual({
      cold: ["persistent cache written in N s: the next start reads it"],
      warm: ["search ready from the cache in N s (pages indexed again: 0; removed: 0)"],
    });
  });

  it("a site of 501 pages generated from a spec: `search` says so at its first start, and that it started from the cache at the next (its pages are not indexed again)", async () => {
    const root = temp("svc-site-spec-");
    const paths = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`/widgets/w${i}`, { get: { operationId: `getWidget${i}`, summary: `Widget ${i} lookup`, description: `Looks up the widget number ${i} in the warehouse.`, responses: { "200": { description: "The widget" } } } }]));
    writeFileSync(join(root, "api.json"), JSON.stringify({ openapi: "3.0.3", info: { title: "Widgets", version: "1" }, paths }));
    writeFileSync(join(root, "docs.json"), JSON.stringify({ $schema: "https://mintlify.com/docs.json", theme: "mint", name: "Widgets", colors: { primary: "#0D9373" }, navigation: { groups: [{ group: "API", openapi: "api.json" }] } }));
    ageFiles(root);
    const home = temp("svc-home-");
    const run = async (): Promise<{ stdout: string; stderr: string[] }> => {
      const out = await runCli(["search", "--dir", root, "widget 17 lookup"], { env: { HOME: home } });
      expect(out.code).toBe(0);
      return { stdout: out.stdout, stderr: out.stderr.split("\n").map((l) => l.replace(/\d+\.\d s/, "N s")) };
    };
    const cold = await run();
    const warm = await run();
    expect({ cold: cold.stderr, warm: warm.stderr }).toEqual({
      cold: ["svc-mcp: search ready: 501 pages (501 distinct texts) indexed in N s", "svc-mcp: persistent cache written in N s: the next start reads it", ""],
      warm: ["svc-mcp: search ready from the cache in N s (pages indexed again: 0; removed: 0)", ""],
    });
    expect(warm.stdout).toBe(cold.stdout);
    expect(warm.stdout).toContain("Widget 17 lookup");
  });
});
