// V8's compiled code of the CLI's CommonJS script (dist/cli-<hash>.cjs, scripts/serve-script.mjs),
// kept in the user's cache folder between starts of `serve` on a Node without
// `module.enableCompileCache` (Node 20): a start that takes it back skips compiling the code it
// ran last time (docs/measurements.md, "The bundle's compile on Node 20").
//
// A code cache is code: V8 runs what it holds without checking it against the source beyond its
// length (its own checksum is verified in debug builds only). So one is taken only when it is
// plainly ours: a regular file (not a link) owned by this user, readable by nobody else (0600, as
// written here; git checks files out 0644 or 0755), in a folder outside the docs folder (`--dir`,
// else the working folder), sealed by this user's cache key (an HMAC-SHA256 under the key
// src/store/cache-key.ts keeps in the state folder, apart from the caches: a cache restored into
// ~/.cache from another job, or planted there, fails it). Anything else, or a cache V8 rejects
// (another Node, other V8 flags), is ignored and written anew when the process exits: never an
// error.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import module from "node:module";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import vm from "node:vm";

/** The first bytes of a cache file; another format (a later svc-mcp's) is ignored. */
const FORMAT = Buffer.from("svc-mcp-code-cache 2\n");
const DIGEST_BYTES = 32;
/** Bytes of the cache key (src/store/cache-key.ts's CACHE_KEY_BYTES). */
const KEY_BYTES = 32;
/** A cache V8 took is written again only when the run compiled this much more: a first start that
 *  ended early (a usage error) wrote little, and a later, longer one replaces it. */
const REWRITE_GROWTH = 1.1;

/** Where `path` really is: its deepest existing folder's real path, with the rest (not made yet) after it. */
function realPath(path) {
  const rest = [];
  for (let head = resolve(path); ; head = dirname(head)) {
    try {
      return join(realpathSync(head), ...rest.reverse());
    } catch {
      if (dirname(head) === head) return resolve(path);
      rest.push(basename(head));
    }
  }
}

/** Whether `path` is `folder` or inside it, compared where both really are. */
function isInside(path, folder) {
  const rel = relative(realPath(folder), realPath(path));
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * The value of `--dir` in the arguments, if given: the last one, as the CLI reads a repeated
 * option (docs/cli.md; adversary round 36 F1: the first was checked while the last was served).
 * Up to a `--`, after which nothing is an option.
 */
function dirArgument(args) {
  let dir;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--") break;
    if (args[i] === "--dir") dir = args[++i];
    else if (args[i].startsWith("--dir=")) dir = args[i].slice("--dir=".length);
  }
  return dir;
}

/**
 * Where code caches go: `$XDG_CACHE_HOME/svc-mcp/code` (an absolute XDG_CACHE_HOME; else
 * `~/.cache`), as src/store/cache-dir.ts decides for the other caches. Undefined, so no code cache,
 * with `SVC_MCP_CACHE=off`, without a home, or when that folder is inside the docs folder
 * (XDG_CACHE_HOME=$PWD/.cache in CI): a repository could hold a planted cache.
 */
export function codeCacheDir(env, args, cwd) {
  if (env.SVC_MCP_CACHE === "off") return undefined;
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : env.HOME !== undefined && isAbsolute(env.HOME) ? join(env.HOME, ".cache") : undefined;
  if (base === undefined) return undefined;
  const dir = join(base, "svc-mcp", "code");
  // The docs folder: `--dir`, else the working folder (serve's default). Not the working folder
  // beside a `--dir`: an editor starts servers in the home folder, which holds ~/.cache.
  if (isInside(dir, resolve(cwd, dirArgument(args) ?? "."))) return undefined;
  // Nor inside any git work tree: XDG_CACHE_HOME=$PWD/.cache in a repository whose docs are one
  // of its folders is outside the docs folder, and its checkout (0600 under umask 077) could
  // carry a planted cache all the same.
  if (insideWorkTree(dir)) return undefined;
  return dir;
}

/**
 * This user's cache key, as src/store/cache-key.ts has it (read here before any TypeScript runs):
 * SVC_MCP_CACHE_KEY (32 characters or more) when set, else the key file
 * `$XDG_STATE_HOME/svc-mcp/cache-key` (default `~/.local/state/...`) when it is plainly ours (a
 * regular file of this user, readable by nobody else, 32 bytes) and not inside the docs folder.
 * Undefined: no code cache this start (the server makes the key file when it loads the site).
 */
export function codeCacheKey(env, args, cwd) {
  const given = env.SVC_MCP_CACHE_KEY;
  if (given !== undefined && given !== "") {
    return given.length < KEY_BYTES ? undefined : createHash("sha256").update("svc-mcp cache key\u0000").update(given).digest();
  }
  const state = env.XDG_STATE_HOME !== undefined && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(env.HOME !== undefined && isAbsolute(env.HOME) ? env.HOME : homedir(), ".local", "state");
  const file = join(state, "svc-mcp", "cache-key");
  if (isInside(file, resolve(cwd, dirArgument(args) ?? "."))) return undefined;
  // Nor inside the cache folder (src/store/cache-dir.ts says so when it loads the site): a cache
  // restored from elsewhere would bring the key that seals it (adversary round 37 F3).
  const caches = codeCacheDir(env, args, cwd);
  if (caches !== undefined && isInside(file, dirname(caches))) return undefined;
  let fd;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.uid !== process.getuid?.() || (stat.mode & 0o077) !== 0 || stat.size !== KEY_BYTES) return undefined;
    const key = Buffer.alloc(KEY_BYTES);
    return readSync(fd, key, 0, KEY_BYTES, 0) === KEY_BYTES ? key : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Whether `path`, or a folder above it, holds a `.git` (a work tree's folder or file). */
function insideWorkTree(path) {
  for (let at = realPath(path); ; at = dirname(at)) {
    if (existsSync(join(at, ".git"))) return true;
    if (dirname(at) === at) return false;
  }
}

/**
 * The cache file for `script` on this Node: the script's name holds its content's hash
 * (scripts/serve-script.mjs), and V8's code depends on the Node version, the architecture and
 * V8's flags (node's own options and NODE_OPTIONS), so each combination has its own file rather
 * than two kinds of start rewriting one file in turn.
 */
export function codeCacheFile(dir, script, size) {
  const key = createHash("sha256")
    .update(JSON.stringify([basename(script), size, process.version, process.arch, process.execArgv, process.env.NODE_OPTIONS ?? ""]))
    .digest("hex")
    .slice(0, 32);
  return join(dir, `${key}.v8`);
}

/** The seal of `data` under `key`. */
function sealOf(key, data) {
  return createHmac("sha256", key).update(data).digest();
}

/** The cache's V8 data when `file` holds one `key` sealed, else why not ("none", "refused", "corrupt"). */
function readCache(file, key) {
  let fd;
  try {
    // O_NONBLOCK: a FIFO put where the cache should be would block the open until a writer came
    // (serve hung for ever, silently: adversary round 37 F2); opened, it is refused as no file.
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    // ELOOP: a link where the cache should be.
    return { state: error.code === "ENOENT" ? "none" : "refused" };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.uid !== process.getuid?.() || (stat.mode & 0o777) !== 0o600) return { state: "refused" };
    const bytes = readFileSync(fd);
    const head = FORMAT.length + DIGEST_BYTES;
    if (bytes.length <= head || !bytes.subarray(0, FORMAT.length).equals(FORMAT)) return { state: "corrupt" };
    const data = bytes.subarray(head);
    if (!timingSafeEqual(sealOf(key, data), bytes.subarray(FORMAT.length, head))) return { state: "corrupt" };
    return { state: "read", data };
  } catch {
    return { state: "corrupt" };
  } finally {
    closeSync(fd);
  }
}

/** Write the cache whole or not at all (a rename), readable by this user only. */
function writeCache(file, key, data) {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    writeFileSync(temp, Buffer.concat([FORMAT, sealOf(key, data), data]), { mode: 0o600, flag: "wx" });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Run the CommonJS script `script` as Node would `require` it, with its code cache from `dir`
 * sealed by `key` (`codeCacheKey`). Returns its exports; `state` says what became of the cache:
 * "accepted" (V8 took it), "none", "refused" (not plainly ours), "corrupt" (its seal failed:
 * damaged, or not this key's), "rejected" (V8 refused it).
 * `save()` writes the cache of what has been compiled by then (unless V8 took the cache and this
 * run compiled little more) and says whether it did: call it late, so that it holds the functions
 * the run compiled, not just the top level.
 */
export function runWithCodeCache(script, dir, key) {
  const source = readFileSync(script, "utf8");
  const file = codeCacheFile(dir, script, Buffer.byteLength(source));
  const cached = readCache(file, key);
  const compiled = new vm.Script(module.wrap(source), {
    filename: script,
    ...(cached.state === "read" ? { cachedData: cached.data } : {}),
    // A library's own `import()` (none on serve's path) loads as it would in a module.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const state = cached.state !== "read" ? cached.state : compiled.cachedDataRejected ? "rejected" : "accepted";
  const wrapper = compiled.runInThisContext();
  const mod = { exports: {} };
  wrapper.call(mod.exports, mod.exports, module.createRequire(script), mod, script, dirname(script));
  return {
    exports: mod.exports,
    state,
    file,
    save() {
      const data = compiled.createCachedData();
      if (state === "accepted" && data.length < cached.data.length * REWRITE_GROWTH) return false;
      writeCache(file, key, data);
      return true;
    },
  };
}
