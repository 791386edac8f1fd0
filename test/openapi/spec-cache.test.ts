import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SpecLoadResult } from "../../src/config/openapi/spec-load-result.js";
import { openSpecCache, type SpecCache, type SpecCacheKey } from "../../src/config/openapi/spec-cache.js";
import { resolveCacheDir } from "../../src/store/cache-dir.js";
import { loadSite } from "../../src/vfs/load-site.js";
import type { Site } from "../../src/vfs/site.js";
import { SHARED } from "../helpers/paths.js";
import { itShared } from "../helpers/shared.js";
import { lines, usersSpec, writeRepo } from "./helpers.js";
import { TEST_SEAL } from "../helpers/cache-seal.js";
import { sealWith } from "../../src/store/cache-key.js";

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
/** A cache folder of its own, removed after the file's tests. */
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "svc-spec-cache-"));
  tempDirs.push(dir);
  return dir;
};

/** A cache that records what was asked of it. */
function recording(cache: SpecCache): { cache: SpecCache; events: string[] } {
  const events: string[] = [];
  return {
    events,
    cache: {
      get(key) {
        const hit = cache.get(key);
        events.push(`${hit === undefined ? "miss" : "hit"} ${key.source}`);
        return hit;
      },
      set(key, result) {
        events.push(`set ${key.source}`);
        cache.set(key, result);
      },
    },
  };
}

/** Everything a loaded site shows of its API pages: text, title, facts, diagnostics. */
function apiSnapshot(site: Site): unknown {
  const pages = [...site.pages.values()].filter((p) => p.generated).map((p) => [p.path, p.title, p.file.text, p.file.size, p.bodyLine, p.frontMatter]);
  const infos = [...(site.api?.pages.values() ?? [])].map((i) => ({ ...i, anchors: i.anchors }));
  return { pages, infos, diagnostics: lines(site) };
}

const entries = (dir: string): string[] => readdirSync(join(dir, "specs")).filter((f) => f.endsWith(".bin"));

describe("parsed-spec cache", () => {
  itShared("spree: loads from a cold cache and then from the warm one read exactly as without a cache", async () => {
    const root = join(SHARED, "corpora/spree");
    const dir = tempDir();
    const plain = apiSnapshot((await loadSite(root)).site);
    const cold = recording(openSpecCache(dir, TEST_SEAL));
    const first = apiSnapshot((await loadSite(root, () => {}, undefined, { specCache: cold.cache })).site);
    const warm = recording(openSpecCache(dir, TEST_SEAL));
    const second = apiSnapshot((await loadSite(root, () => {}, undefined, { specCache: warm.cache })).site);
    const specs = ["api-reference/store.yaml", "api-reference/storefront.yaml", "api-reference/platform.yaml", "api-reference/admin.yaml"];
    expect(cold.events).toEqual(specs.flatMap((s) => [`miss ${s}`, `set ${s}`]));
    expect(warm.events).toEqual(specs.map((s) => `hit ${s}`));
    expect(first).toEqual(plain);
    expect(second).toEqual(plain);
  });

  it("entries are files of mode 0600 in a 0700 folder, one per spec text", async () => {
    const dir = tempDir();
    const root = writeRepo({ "docs.json": { navigation: { groups: [{ group: "API", openapi: "openapi.json" }] } }, "openapi.json": usersSpec() });
    await loadSite(root, () => {}, undefined, { specCache: openSpecCache(dir, TEST_SEAL) });
    const [entry] = entries(dir);
    expect(entries(dir).length).toBe(1);
    expect(statSync(join(dir, "specs")).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "specs", entry as string)).mode & 0o777).toBe(0o600);
    // A changed spec is another entry; the old one stays until evicted (another branch may use it).
    writeFileSync(join(root, "openapi.json"), JSON.stringify(usersSpec({ "/extra": { get: { summary: "Extra", responses: { "200": { description: "OK" } } } } })));
    const { site } = await loadSite(root, () => {}, undefined, { specCache: openSpecCache(dir, TEST_SEAL) });
    expect(entries(dir).length).toBe(2);
    expect(site.pages.has("/api-reference/extra")).toBe(true);
  });

  it("a corrupt or foreign entry is ignored and replaced; the load is what it would be without a cache", async () => {
    const dir = tempDir();
    const root = writeRepo({ "docs.json": { navigation: { groups: [{ group: "API", openapi: "openapi.json" }] } }, "openapi.json": usersSpec() });
    const expected = apiSnapshot((await loadSite(root)).site);
    await loadSite(root, () => {}, undefined, { specCache: openSpecCache(dir, TEST_SEAL) });
    const file = join(dir, "specs", entries(dir)[0] as string);
    const good = readFileSync(file);
    for (const bad of [Buffer.from("not a v8 value"), good.subarray(0, good.length >> 1), Buffer.alloc(0)]) {
      writeFileSync(file, bad);
      const r = recording(openSpecCache(dir, TEST_SEAL));
      const { site } = await loadSite(root, () => {}, undefined, { specCache: r.cache });
      expect([r.events, apiSnapshot(site)]).toEqual([["miss openapi.json", "set openapi.json"], expected]);
      expect(readFileSync(file).equals(good)).toBe(true);
    }
    // An entry under another spec's name (a hash collision, a copied file) is not used.
    const other = writeRepo({ "docs.json": { navigation: { groups: [{ group: "API", openapi: "openapi.json" }] } }, "openapi.json": usersSpec({ "/x": { get: { summary: "X", responses: { "200": { description: "OK" } } } } }) });
    const otherDir = tempDir();
    await loadSite(other, () => {}, undefined, { specCache: openSpecCache(otherDir, TEST_SEAL) });
    writeFileSync(file, readFileSync(join(otherDir, "specs", entries(otherDir)[0] as string)));
    const r = recording(openSpecCache(dir, TEST_SEAL));
    expect(apiSnapshot((await loadSite(root, () => {}, undefined, { specCache: r.cache })).site)).toEqual(expected);
    expect(r.events).toEqual(["miss openapi.json", "set openapi.json"]);
  });

  it("an entry another key sealed (a cache restored from another job, or a forged entry) is not used; this key's is", async () => {
    const dir = tempDir();
    const spec = usersSpec();
    const root = writeRepo({ "docs.json": { navigation: { groups: [{ group: "API", openapi: "openapi.json" }] } }, "openapi.json": spec });
    const expected = apiSnapshot((await loadSite(root)).site);
    const forger = sealWith(Buffer.alloc(32, 9));
    await loadSite(root, () => {}, undefined, { specCache: openSpecCache(dir, forger) });
    const r = recording(openSpecCache(dir, TEST_SEAL));
    expect(apiSnapshot((await loadSite(root, () => {}, undefined, { specCache: r.cache })).site)).toEqual(expected);
    expect(r.events).toEqual(["miss openapi.json", "set openapi.json"]);
    const again = recording(openSpecCache(dir, TEST_SEAL));
    await loadSite(root, () => {}, undefined, { specCache: again.cache });
    expect(again.events).toEqual(["hit openapi.json"]);
  });

  it("a spec whose $refs read another file is not cached (that file may change while the spec does not)", async () => {
    const dir = tempDir();
    const spec = usersSpec({ "/shared": { get: { summary: "Shared", responses: { "200": { $ref: "./common.json#/ok" } } } } });
    const root = writeRepo({ "docs.json": { navigation: { groups: [{ group: "API", openapi: "openapi.json" }] } }, "openapi.json": spec, "common.json": { ok: { description: "Fine" } } });
    const r = recording(openSpecCache(dir, TEST_SEAL));
    const { site } = await loadSite(root, () => {}, undefined, { specCache: r.cache });
    expect(r.events).toEqual(["miss openapi.json"]);
    expect(site.pages.get("/api-reference/shared")?.file.text).toContain("### 200: Fine");
  });

  it("a folder it cannot write is one warning; loading goes on without the cache", async () => {
    const dir = tempDir();
    // A file where the folder should be: unwritable for every user, root included.
    writeFileSync(join(dir, "specs"), "");
    const warnings: string[] = [];
    const cache = openSpecCache(dir, TEST_SEAL, { warn: (m) => warnings.push(m) });
    const root = writeRepo({
      "docs.json": { navigation: { groups: [{ group: "A", openapi: "a.json" }, { group: "B", openapi: "b.json" }] } },
      "a.json": usersSpec(),
      "b.json": usersSpec({ "/b": { get: { summary: "B", responses: { "200": { description: "OK" } } } } }),
    });
    const { site } = await loadSite(root, () => {}, undefined, { specCache: cache });
    expect(site.pages.has("/api-reference/b")).toBe(true);
    expect(warnings).toEqual([`spec cache ${join(dir, "specs")} is not writable (EEXIST): specs are parsed on every load`]);
  });

  it("past its budget, the least recently used entries go first", () => {
    const dir = tempDir();
    const result = (n: number): SpecLoadResult => ({ ok: false, message: "x".repeat(n) });
    const key = (i: number): SpecCacheKey => ({ text: `spec ${i}`, source: `s${i}.yaml`, remote: false });
    const cache = openSpecCache(dir, TEST_SEAL, { maxBytes: 10_000 });
    for (let i = 0; i < 3; i++) {
      cache.set(key(i), result(3_000));
      // mtimes one second apart, oldest first (the clock of the file system is coarse).
      for (const f of entries(dir)) utimesSync(join(dir, "specs", f), statSync(join(dir, "specs", f)).atime, new Date(Date.now() - (10 - i) * 1000));
    }
    expect(cache.get(key(0))).toEqual(result(3_000)); // used: now the most recent
    cache.set(key(3), result(3_000)); // 4 x ~3 KB > 10 KB: evict down to 8 KB
    expect([0, 1, 2, 3].map((i) => cache.get(key(i)) !== undefined)).toEqual([true, false, false, true]);
  });

  it("local and remote specs with the same text and name are separate entries", () => {
    const cache = openSpecCache(tempDir(), TEST_SEAL);
    cache.set({ text: "t", source: "a.json", remote: false }, { ok: false, message: "local" });
    expect(cache.get({ text: "t", source: "a.json", remote: true })).toBeUndefined();
    expect(cache.get({ text: "t", source: "b.json", remote: false })).toBeUndefined();
    expect(cache.get({ text: "t", source: "a.json", remote: false })).toEqual({ ok: false, message: "local" });
  });
});

describe("resolveCacheDir", () => {
  it.each([
    ["XDG_CACHE_HOME", { XDG_CACHE_HOME: "/c", HOME: "/h" }, undefined, "/c/svc-mcp"],
    ["HOME when XDG_CACHE_HOME is unset", { HOME: "/h" }, undefined, "/h/.cache/svc-mcp"],
    ["HOME when XDG_CACHE_HOME is relative (the XDG spec says to ignore it)", { XDG_CACHE_HOME: "cache", HOME: "/h" }, undefined, "/h/.cache/svc-mcp"],
    ["none without XDG_CACHE_HOME or HOME", {}, undefined, undefined],
    ["none with SVC_MCP_CACHE=off", { SVC_MCP_CACHE: "off", HOME: "/h" }, undefined, undefined],
    ["none when it would be inside the docs repository", { XDG_CACHE_HOME: "/docs/.cache" }, "/docs", undefined],
    ["a sibling folder of the docs is fine", { XDG_CACHE_HOME: "/docs-cache" }, "/docs", "/docs-cache/svc-mcp"],
  ])("%s", (_name, env, root, expected) => {
    expect(resolveCacheDir(env, root)).toBe(expected);
  });
});
