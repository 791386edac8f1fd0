import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveCache } from "../../src/store/cache-dir.js";
import { cacheKeyFile, cacheSeal, sealWith } from "../../src/store/cache-key.js";

/**
 * The key that seals every cache file (site, spec and code caches): kept in the state folder,
 * apart from the caches, so that a cache restored or copied into the cache folder fails its check
 * (docs/security.md, "A persistent cache this user did not write").
 */
const temps: string[] = [];
const temp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "svc-cache-key-"));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const BYTES = Buffer.from("a cache file's header");

describe("the cache key", () => {
  it("is made when a cache is first written (not when one is only checked): 32 bytes, 0600 in a 0700 folder, and the same key after", () => {
    const state = temp();
    const env = { XDG_STATE_HOME: state };
    const file = cacheKeyFile(env);
    expect(file).toBe(join(state, "svc-mcp", "cache-key"));
    const first = cacheSeal(env);
    if (typeof first === "string") throw new Error(first);
    // Checking a cache with no key yet: not this user's, and nothing made.
    expect(first.verify(Buffer.alloc(32), BYTES)).toBe(false);
    expect(existsSync(join(state, "svc-mcp"))).toBe(false);
    const mac = first.seal(BYTES);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(state, "svc-mcp")).mode & 0o777).toBe(0o700);
    expect(readFileSync(file).length).toBe(32);
    const again = cacheSeal(env);
    if (typeof again === "string") throw new Error(again);
    expect(again.verify(mac, BYTES)).toBe(true);
    expect(mac).toEqual(sealWith(readFileSync(file)).seal(BYTES));
    // Another user's key (another state folder) does not vouch for this one's files.
    const other = cacheSeal({ XDG_STATE_HOME: temp() });
    if (typeof other === "string") throw new Error(other);
    expect(other.verify(mac, BYTES)).toBe(false);
    expect(other.verify(other.seal(BYTES), BYTES)).toBe(true);
  });

  it("seals parts as one, and refuses a seal of other bytes, of another length, or one bit off", () => {
    const seal = sealWith(Buffer.alloc(32, 1));
    const mac = seal.seal(Buffer.from("ab"), Buffer.from("c"));
    expect(seal.verify(mac, Buffer.from("abc"))).toBe(true);
    expect(seal.verify(mac, Buffer.from("abd"))).toBe(false);
    expect(seal.verify(mac.subarray(0, 31), Buffer.from("abc"))).toBe(false);
    const off = Buffer.from(mac);
    off[5] = (off[5] as number) ^ 0x10;
    expect(seal.verify(off, Buffer.from("abc"))).toBe(false);
  });

  it("a key file that is not plainly this user's is refused, said with its path at a write: readable by others, a link, of another size", () => {
    const state = temp();
    const env = { XDG_STATE_HOME: state };
    const file = cacheKeyFile(env);
    const refused = (why: string): void => {
      const seal = cacheSeal(env);
      if (typeof seal === "string") throw new Error(seal);
      expect(seal.verify(sealWith(Buffer.alloc(32, 3)).seal(BYTES), BYTES)).toBe(false);
      expect(() => seal.seal(BYTES)).toThrow(new Error(why));
    };
    mkdirSync(join(state, "svc-mcp"), { recursive: true, mode: 0o700 });
    writeFileSync(file, Buffer.alloc(32, 3), { mode: 0o644 });
    chmodSync(file, 0o644);
    refused(`its key ${file} is not private to this user`);
    rmSync(file);
    writeFileSync(file, Buffer.alloc(31, 3), { mode: 0o600 });
    refused(`its key ${file} is not 32 bytes`);
    rmSync(file);
    const elsewhere = join(temp(), "key");
    writeFileSync(elsewhere, Buffer.alloc(32, 3), { mode: 0o600 });
    symlinkSync(elsewhere, file);
    refused(`cannot read its key ${file} (a link)`);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
  });

  it("a state folder that cannot hold the key: each write says why", () => {
    const state = temp();
    writeFileSync(join(state, "svc-mcp"), "a file where the folder goes");
    const seal = cacheSeal({ XDG_STATE_HOME: state });
    if (typeof seal === "string") throw new Error(seal);
    expect(() => seal.seal(BYTES)).toThrow(new Error(`cannot read its key ${join(state, "svc-mcp", "cache-key")} (ENOTDIR)`));
  });

  it("a key file inside the docs folder is not taken (a repository could carry one)", () => {
    const docs = temp();
    const env = { XDG_STATE_HOME: join(docs, ".state") };
    expect(cacheSeal(env, docs)).toBe(`its key ${join(docs, ".state", "svc-mcp", "cache-key")} would be inside the docs folder (set XDG_STATE_HOME or SVC_MCP_CACHE_KEY)`);
  });

  it("SVC_MCP_CACHE_KEY (a CI secret) is the key when set, whatever the state folder holds; shorter than 32 characters it is refused", () => {
    const secret = "a secret of at least thirty-two characters";
    const a = cacheSeal({ SVC_MCP_CACHE_KEY: secret, XDG_STATE_HOME: temp() });
    const b = cacheSeal({ SVC_MCP_CACHE_KEY: secret, XDG_STATE_HOME: temp() });
    if (typeof a === "string" || typeof b === "string") throw new Error("no seal");
    expect(b.verify(a.seal(BYTES), BYTES)).toBe(true);
    expect(cacheSeal({ SVC_MCP_CACHE_KEY: "short" })).toBe("SVC_MCP_CACHE_KEY is shorter than 32 characters");
  });

  it("without a key nothing is cached, and the reason is told once per process", () => {
    const warnings: string[] = [];
    const env = { XDG_CACHE_HOME: temp(), SVC_MCP_CACHE_KEY: "too short, told once" };
    expect(resolveCache(env, undefined, (m) => warnings.push(m))).toBeUndefined();
    expect(resolveCache(env, undefined, (m) => warnings.push(m))).toBeUndefined();
    expect(warnings).toEqual(["caches off: SVC_MCP_CACHE_KEY is shorter than 32 characters"]);
    const cache = resolveCache({ XDG_CACHE_HOME: env.XDG_CACHE_HOME, XDG_STATE_HOME: temp() }, undefined, (m) => warnings.push(m));
    expect(cache?.dir).toBe(join(env.XDG_CACHE_HOME, "svc-mcp"));
    expect(warnings.length).toBe(1);
  });

  it("a key file inside the cache folder seals nothing: a restored cache would bring its own key (adversary round 37 F3)", () => {
    const warnings: string[] = [];
    const base = temp();
    // XDG_STATE_HOME set to XDG_CACHE_HOME, then below the cache folder.
    expect(resolveCache({ XDG_CACHE_HOME: base, XDG_STATE_HOME: base }, undefined, (m) => warnings.push(m))).toBeUndefined();
    const below = join(base, "svc-mcp", "sites");
    expect(resolveCache({ XDG_CACHE_HOME: base, XDG_STATE_HOME: below }, undefined, (m) => warnings.push(m))).toBeUndefined();
    expect(warnings).toEqual([
      `caches off: its key ${join(base, "svc-mcp", "cache-key")} would be inside the cache folder ${join(base, "svc-mcp")} (set XDG_STATE_HOME apart from XDG_CACHE_HOME, or SVC_MCP_CACHE_KEY)`,
      `caches off: its key ${join(below, "svc-mcp", "cache-key")} would be inside the cache folder ${join(base, "svc-mcp")} (set XDG_STATE_HOME apart from XDG_CACHE_HOME, or SVC_MCP_CACHE_KEY)`,
    ]);
    // No key file was made there; a key given by the environment seals as anywhere.
    expect(existsSync(join(base, "svc-mcp", "cache-key"))).toBe(false);
    expect(resolveCache({ XDG_CACHE_HOME: base, XDG_STATE_HOME: base, SVC_MCP_CACHE_KEY: "a secret of at least thirty-two characters" }, undefined, (m) => warnings.push(m))?.dir).toBe(join(base, "svc-mcp"));
    expect(warnings.length).toBe(2);
  });
});
