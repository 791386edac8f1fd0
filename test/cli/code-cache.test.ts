import { execFile, execFileSync } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REPO } from "../helpers/paths.js";

const run = promisify(execFile);
const MODULE = pathToFileURL(join(REPO, "bin", "code-cache.js")).href;

/** bin/code-cache.js's exports (plain JavaScript, run by the bin before any TypeScript). */
interface CodeCacheModule {
  codeCacheDir(env: Record<string, string | undefined>, args: readonly string[], cwd: string): string | undefined;
  codeCacheKey(env: Record<string, string | undefined>, args: readonly string[], cwd: string): Buffer | undefined;
}

/** The cache key the runs below seal with (hex), and another user's or job's. */
const KEY = "07".repeat(32);
const OTHER_KEY = "08".repeat(32);

/** A CommonJS script big enough for V8 to cache, named as scripts/serve-script.mjs names them. */
const SCRIPT = [
  "'use strict';",
  ...Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x + ${i}; }`),
  "exports.sum = (n) => { let t = 0; for (let i = 0; i < n; i++) t += [f0, f1, f2][i % 3](i); return t; };",
  "exports.where = [typeof require, typeof module, __filename.endsWith('.cjs')];",
  // Code a run compiles only when it calls `more` (a longer run than the first).
  ...Array.from({ length: 200 }, (_, i) => `function g${i}(x) { const a = [x, ${i}]; let t = 0; for (const v of a) { if (v % 2) t += v * ${i}; else t -= v; } return t; }`),
  `exports.more = () => [${Array.from({ length: 200 }, (_, i) => `g${i}`).join(", ")}].reduce((t, g) => t + g(3), 0);`,
].join("\n");

/** Run the script in a new process through runWithCodeCache, save at the end; what it printed. */
async function start(script: string, dir: string, nodeArgs: readonly string[] = [], more = false, key = KEY): Promise<{ state: string; sum: number; where: unknown }> {
  const driver = `import { runWithCodeCache } from ${JSON.stringify(MODULE)};
const r = runWithCodeCache(process.argv[1], process.argv[2], Buffer.from(process.argv[4], "hex"));
console.log(JSON.stringify({ state: r.state, sum: r.exports.sum(10), where: r.exports.where }));
if (process.argv[3] === "more") r.exports.more();
r.save();`;
  const { stdout } = await run(process.execPath, [...nodeArgs, "--input-type=module", "-e", driver, script, dir, more ? "more" : "less", key]);
  return JSON.parse(stdout) as { state: string; sum: number; where: unknown };
}

describe("bin/code-cache.js: V8's code of serve's CommonJS script kept between starts (Node 20)", () => {
  let tmp: string;
  let script: string;
  let dir: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), "svc-code-cache-"));
    script = join(tmp, "cli-0123456789abcdef.cjs");
    writeFileSync(script, SCRIPT);
    dir = join(tmp, "cache", "svc-mcp", "code");
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const only = (): string => {
    const files = readdirSync(dir);
    expect(files).toEqual([expect.stringMatching(/^[0-9a-f]{32}\.v8$/)]);
    return join(dir, files[0] as string);
  };
  const answer = (state: string): unknown => ({ state, sum: 54, where: ["function", "object", true] });

  it("the first start writes it (0600, in a 0700 folder), the next take it and leave it as it is", async () => {
    expect(await start(script, dir)).toEqual(answer("none"));
    const file = only();
    expect([statSync(file).mode & 0o777, statSync(dir).mode & 0o777]).toEqual([0o600, 0o700]);
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, 21).toString()).toBe("svc-mcp-code-cache 2\n");
    expect(await start(script, dir)).toEqual(answer("accepted"));
    expect(await start(script, dir)).toEqual(answer("accepted"));
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it("a cache V8 took is written again when a run compiled much more (the first start may have ended early), else kept", async () => {
    await start(script, dir);
    const file = only();
    const small = readFileSync(file);
    expect(await start(script, dir, [], true)).toEqual(answer("accepted"));
    const large = readFileSync(file);
    expect(large.length).toBeGreaterThan(small.length * 1.1);
    expect(await start(script, dir, [], true)).toEqual(answer("accepted"));
    expect(await start(script, dir)).toEqual(answer("accepted"));
    expect(readFileSync(file).equals(large)).toBe(true);
  });

  it("a flipped byte, a cut file or another format is corrupt: ignored, written anew, then taken", async () => {
    await start(script, dir);
    const file = only();
    const good = readFileSync(file);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 100] = (flipped[flipped.length - 100] as number) ^ 1;
    for (const bad of [flipped, good.subarray(0, good.length - 1), good.subarray(0, 40), Buffer.concat([Buffer.from("svc-mcp-code-cache 1\n"), good.subarray(21)])]) {
      writeFileSync(file, bad, { mode: 0o600 });
      expect(await start(script, dir)).toEqual(answer("corrupt"));
      expect(await start(script, dir)).toEqual(answer("accepted"));
    }
  });

  it("a cache another key sealed (restored into ~/.cache from another job, planted, or with a plain checksum) is never run: corrupt, written anew", async () => {
    await start(script, dir, [], false, OTHER_KEY);
    const file = only();
    const theirs = readFileSync(file);
    expect(await start(script, dir)).toEqual(answer("corrupt"));
    expect(await start(script, dir)).toEqual(answer("accepted"));
    expect(readFileSync(file).equals(theirs)).toBe(false);
    const { createHash } = await import("node:crypto");
    const data = theirs.subarray(21 + 32);
    writeFileSync(file, Buffer.concat([Buffer.from("svc-mcp-code-cache 2\n"), createHash("sha256").update(data).digest(), data]), { mode: 0o600 });
    expect(await start(script, dir)).toEqual(answer("corrupt"));
  });

  it("a file V8 does not take (sealed by the key, its data not V8's) is rejected, then written anew", async () => {
    await start(script, dir);
    const file = only();
    const junk = Buffer.alloc(4096, 7);
    const { createHmac } = await import("node:crypto");
    writeFileSync(file, Buffer.concat([Buffer.from("svc-mcp-code-cache 2\n"), createHmac("sha256", Buffer.from(KEY, "hex")).update(junk).digest(), junk]), { mode: 0o600 });
    expect(await start(script, dir)).toEqual(answer("rejected"));
    expect(await start(script, dir)).toEqual(answer("accepted"));
  });

  it("a cache readable by others (as git checks files out) or a link is refused, never run, and replaced by one of ours", async () => {
    await start(script, dir);
    const file = only();
    chmodSync(file, 0o644);
    expect(await start(script, dir)).toEqual(answer("refused"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await start(script, dir)).toEqual(answer("accepted"));
    const elsewhere = join(tmp, "elsewhere.v8");
    const linked = readFileSync(file);
    writeFileSync(elsewhere, linked, { mode: 0o600 });
    rmSync(file);
    symlinkSync(elsewhere, file);
    expect(await start(script, dir)).toEqual(answer("refused"));
    // The link is replaced by a file of ours; what it pointed to is left as it was.
    expect([lstatSync(file).isSymbolicLink(), statSync(file).mode & 0o777, readFileSync(elsewhere).equals(linked)]).toEqual([false, 0o600, true]);
    expect(await start(script, dir)).toEqual(answer("accepted"));
  });

  it("a FIFO where the cache should be (tar restores them) is refused at once, never waited on, and replaced by a file of ours (adversary round 37 F2)", async () => {
    await start(script, dir);
    const file = only();
    rmSync(file);
    execFileSync("mkfifo", ["-m", "600", file]);
    expect(await start(script, dir)).toEqual(answer("refused"));
    expect([lstatSync(file).isFile(), statSync(file).mode & 0o777]).toEqual([true, 0o600]);
    expect(await start(script, dir)).toEqual(answer("accepted"));
  });

  it("another script (a rebuild) or other V8 flags get a cache of their own", async () => {
    await start(script, dir);
    expect(await start(script, dir, ["--stack-size=900"])).toEqual(answer("none"));
    expect(await start(script, dir, ["--stack-size=900"])).toEqual(answer("accepted"));
    const rebuilt = join(tmp, "cli-fedcba9876543210.cjs");
    writeFileSync(rebuilt, SCRIPT);
    expect(await start(rebuilt, dir)).toEqual(answer("none"));
    expect(readdirSync(dir).length).toBe(3);
    expect(await start(script, dir)).toEqual(answer("accepted"));
  });
});

describe("where the code cache goes", () => {
  it("under the user's cache folder, never inside the docs folder (--dir, else the working folder), and nowhere with SVC_MCP_CACHE=off", async () => {
    const { codeCacheDir } = (await import(MODULE)) as CodeCacheModule;
    const home = "/home/sam";
    expect(codeCacheDir({ HOME: home }, ["--dir", "/srv/docs"], "/srv")).toBe("/home/sam/.cache/svc-mcp/code");
    // A repeated --dir is the last one, as the CLI reads it (adversary round 36 F1), in either spelling.
    expect(codeCacheDir({ HOME: home }, ["--dir", "/srv/docs", "--dir", home], "/srv")).toBeUndefined();
    expect(codeCacheDir({ HOME: home }, ["--dir=/srv/docs", `--dir=${home}`], "/srv")).toBeUndefined();
    expect(codeCacheDir({ HOME: home }, ["--dir", home, "--dir", "/srv/docs"], "/srv")).toBe("/home/sam/.cache/svc-mcp/code");
    expect(codeCacheDir({ HOME: home, XDG_CACHE_HOME: "/var/cache/sam" }, [], "/srv")).toBe("/var/cache/sam/svc-mcp/code");
    // A relative or empty XDG_CACHE_HOME is ignored, as for the other caches.
    expect(codeCacheDir({ HOME: home, XDG_CACHE_HOME: ".cache" }, [], "/srv")).toBe("/home/sam/.cache/svc-mcp/code");
    expect(codeCacheDir({ HOME: home, XDG_CACHE_HOME: "" }, [], "/srv")).toBe("/home/sam/.cache/svc-mcp/code");
    expect(codeCacheDir({ HOME: home, SVC_MCP_CACHE: "off" }, [], "/srv")).toBeUndefined();
    expect(codeCacheDir({}, [], "/srv")).toBeUndefined();
    // XDG_CACHE_HOME=$PWD/.cache in CI: a repository could carry a planted cache.
    expect(codeCacheDir({ HOME: home, XDG_CACHE_HOME: "/srv/docs/.cache" }, [], "/srv/docs")).toBeUndefined();
    expect(codeCacheDir({ HOME: home, XDG_CACHE_HOME: "/srv/docs/.cache" }, ["--dir", "/srv/docs"], "/tmp")).toBeUndefined();
    expect(codeCacheDir({ HOME: home, XDG_CACHE_HOME: "/srv/docs/.cache" }, ["--dir=docs"], "/srv")).toBeUndefined();
    expect(codeCacheDir({ HOME: "/srv/docs" }, ["--dir", "."], "/srv/docs/site")).toBe("/srv/docs/.cache/svc-mcp/code");
    // An editor starts the server in the home folder, with the docs elsewhere: ~/.cache is used.
    expect(codeCacheDir({ HOME: home }, ["--dir", "/srv/docs"], home)).toBe("/home/sam/.cache/svc-mcp/code");
    // Serving the home folder itself (no --dir) is serving what holds ~/.cache.
    expect(codeCacheDir({ HOME: home }, [], home)).toBeUndefined();
  });

  it("its key is the one the server keeps (src/store/cache-key.ts), taken only when plainly ours and outside the docs folder", async () => {
    const { codeCacheKey } = (await import(MODULE)) as CodeCacheModule;
    const { cacheKeyFile, cacheSeal, sealWith } = await import("../../src/store/cache-key.js");
    const tmp = mkdtempSync(join(tmpdir(), "svc-code-cache-key-"));
    try {
      const env = { HOME: "/home/sam", XDG_STATE_HOME: join(tmp, "state") };
      const docs = ["--dir", join(tmp, "docs")];
      expect(codeCacheKey(env, docs, "/")).toBeUndefined(); // none yet: the server makes it
      const seal = cacheSeal(env);
      if (typeof seal === "string") throw new Error(seal);
      const mac = seal.seal(Buffer.from("x")); // the server's first cache write makes the key
      const key = codeCacheKey(env, docs, "/");
      expect(key !== undefined && sealWith(key).verify(mac, Buffer.from("x"))).toBe(true);
      // The same key from SVC_MCP_CACHE_KEY on both sides; a short one is none.
      const secret = { ...env, SVC_MCP_CACHE_KEY: "a secret of at least thirty-two characters" };
      const given = cacheSeal(secret);
      const read = codeCacheKey(secret, docs, "/");
      if (typeof given === "string" || read === undefined) throw new Error("no key");
      expect(sealWith(read).verify(given.seal(Buffer.from("x")), Buffer.from("x"))).toBe(true);
      expect(codeCacheKey({ ...env, SVC_MCP_CACHE_KEY: "short" }, docs, "/")).toBeUndefined();
      // Inside the docs folder (--dir, else the working folder), readable by others, or a link: none.
      expect(codeCacheKey(env, [], join(tmp, "state"))).toBeUndefined();
      const file = cacheKeyFile(env);
      chmodSync(file, 0o640);
      expect(codeCacheKey(env, docs, "/")).toBeUndefined();
      chmodSync(file, 0o600);
      const bytes = readFileSync(file);
      rmSync(file);
      writeFileSync(join(tmp, "key"), bytes, { mode: 0o600 });
      symlinkSync(join(tmp, "key"), file);
      expect(codeCacheKey(env, docs, "/")).toBeUndefined();
      // Nor inside the cache folder (XDG_STATE_HOME set to XDG_CACHE_HOME): a restored cache brings its key.
      rmSync(file);
      writeFileSync(file, bytes, { mode: 0o600 });
      expect(codeCacheKey(env, docs, "/")).toEqual(bytes);
      expect(codeCacheKey({ ...env, XDG_CACHE_HOME: join(tmp, "state") }, docs, "/")).toBeUndefined();
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("never inside a git work tree, whatever the docs folder (a monorepo's XDG_CACHE_HOME=$PWD/.cache, its docs in a subfolder)", async () => {
    const { codeCacheDir } = (await import(MODULE)) as CodeCacheModule;
    const tmp = mkdtempSync(join(tmpdir(), "svc-code-cache-git-"));
    try {
      mkdirSync(join(tmp, "repo", ".git"), { recursive: true });
      mkdirSync(join(tmp, "repo", "docs"), { recursive: true });
      mkdirSync(join(tmp, "elsewhere"), { recursive: true });
      expect(codeCacheDir({ HOME: "/home/sam", XDG_CACHE_HOME: join(tmp, "repo", ".cache") }, ["--dir", join(tmp, "repo", "docs")], "/")).toBeUndefined();
      // A worktree's `.git` is a file.
      writeFileSync(join(tmp, "elsewhere", ".git"), "gitdir: /x\n");
      expect(codeCacheDir({ HOME: "/home/sam", XDG_CACHE_HOME: join(tmp, "elsewhere", "c") }, ["--dir", join(tmp, "repo", "docs")], "/")).toBeUndefined();
      expect(codeCacheDir({ HOME: "/home/sam", XDG_CACHE_HOME: join(tmp, "cache") }, ["--dir", join(tmp, "repo", "docs")], "/")).toBe(join(tmp, "cache", "svc-mcp", "code"));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("compared where the folders really are: a link to the docs is the docs", async () => {
    const { codeCacheDir } = (await import(MODULE)) as CodeCacheModule;
    const tmp = mkdtempSync(join(tmpdir(), "svc-code-cache-dir-"));
    try {
      mkdirSync(join(tmp, "docs", ".cache"), { recursive: true });
      symlinkSync(join(tmp, "docs", ".cache"), join(tmp, "cache-link"));
      expect(codeCacheDir({ HOME: "/home/sam", XDG_CACHE_HOME: join(tmp, "cache-link") }, ["--dir", join(tmp, "docs")], "/")).toBeUndefined();
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
