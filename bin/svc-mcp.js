#!/usr/bin/env node
// Entry point. In a checkout, runs the bundle in dist/ (built by `npm install`) when it is at
// least as new as every source file; otherwise registers tsx and runs the TypeScript sources as
// they are, so a checkout without a build, or with sources edited since, always runs the current
// code. An installed package has no src/ and ships the bundle as one archive,
// dist/svc-mcp-<hash>.br (scripts/bundle-archive.mjs: `npx` extracts the tarball three times per
// run, and one file extracts ~3 times faster than the ~100 chunks): the first run unpacks it into
// dist/<hash>/, later runs import from there.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import module from "node:module";
import { dirname, isAbsolute, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

// zlib, crypto and os only for the first run's unpacking: most starts find the bundle unpacked.
const require = module.createRequire(import.meta.url);
const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const sources = join(root, "src");
/** scripts/bundle-archive.mjs's ARCHIVE_FORMAT. */
const ARCHIVE_FORMAT = "svc-mcp-bundle 1";
/** When serve's code cache is written (bin/code-cache.js), at the latest. */
const CODE_CACHE_SAVE_MS = 30_000;

/** Newest modification time of the files under `dir` (0 when it does not exist). */
function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return latest;
}

/** The archive's file list, its decompressed bytes, and where the first file's bytes start. */
function readArchive(archive) {
  const data = require("node:zlib").brotliDecompressSync(readFileSync(archive));
  const first = data.indexOf(10);
  const second = data.indexOf(10, first + 1);
  if (data.subarray(0, first).toString() !== ARCHIVE_FORMAT) throw new Error(`${archive} is not a bundle this svc-mcp can read`);
  return { entries: JSON.parse(data.subarray(first + 1, second).toString()), data, offset: second + 1 };
}

/** Write the archive's files into a new folder `target`, whole or not at all (a rename). */
function unpackBundle(archive, target) {
  const { entries, data, offset: start } = readArchive(archive);
  const temp = `${target}.${process.pid}-${require("node:crypto").randomBytes(4).toString("hex")}`;
  let offset = start;
  try {
    for (const [path, bytes] of entries) {
      const file = normalize(join(temp, path));
      if (isAbsolute(path) || !file.startsWith(temp + sep)) throw new Error(`${archive} names a file outside the bundle: ${path}`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, data.subarray(offset, (offset += bytes)));
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    if (!existsSync(join(target, "cli.mjs"))) throw error;
  }
}

/** Whether every file of the archive is in `folder` with the archive's bytes. */
function holdsBundle(archive, folder) {
  const { entries, data, offset: start } = readArchive(archive);
  let offset = start;
  for (const [path, bytes] of entries) {
    const want = data.subarray(offset, (offset += bytes));
    let have;
    try {
      have = readFileSync(join(folder, path));
    } catch {
      return false;
    }
    if (!have.equals(want)) return false;
  }
  return true;
}

/**
 * The installed package's unpacked bundle: dist/<hash>/cli.mjs, unpacked now if this is the first
 * run. Only where that cannot be written (the package installed by another user, a read-only
 * mount: any error making it) does the copy go under the user's cache folder, an absolute
 * XDG_CACHE_HOME or ~/.cache, and SVC_MCP_PACKAGE_ROOT tells the bundle where its package is. A
 * copy found there is run only if it holds the archive's bytes, file for file (else it is
 * unpacked again): a cache folder can sit inside a docs repository (XDG_CACHE_HOME=$PWD/.cache in
 * CI), and code from a repository must never run as this package.
 */
function installedBundle() {
  const archive = existsSync(dist) ? readdirSync(dist).find((f) => /^svc-mcp-[0-9a-f]{16}\.br$/.test(f)) : undefined;
  if (archive === undefined) return undefined;
  const hash = archive.slice("svc-mcp-".length, -".br".length);
  const beside = join(dist, hash);
  if (existsSync(join(beside, "cli.mjs"))) return join(beside, "cli.mjs");
  try {
    unpackBundle(join(dist, archive), beside);
    return join(beside, "cli.mjs");
  } catch (besideError) {
    const xdg = process.env.XDG_CACHE_HOME;
    const cached = join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(require("node:os").homedir(), ".cache"), "svc-mcp", "bundle", hash);
    if (!holdsBundle(join(dist, archive), cached)) {
      try {
        mkdirSync(dirname(cached), { recursive: true });
        rmSync(cached, { recursive: true, force: true });
        unpackBundle(join(dist, archive), cached);
      } catch (cacheError) {
        throw new Error(`cannot unpack svc-mcp's bundle beside the package (${besideError.message}) nor under the cache folder (${cacheError.message})`);
      }
      if (!holdsBundle(join(dist, archive), cached)) throw new Error(`svc-mcp's bundle under ${cached} does not match its archive`);
    }
    process.env.SVC_MCP_PACKAGE_ROOT = root;
    return join(cached, "cli.mjs");
  }
}

const checkoutBundle = join(dist, "cli.mjs");
let bundle;
if (existsSync(checkoutBundle) && statSync(checkoutBundle).mtimeMs >= newest(sources)) bundle = checkoutBundle;
else if (!existsSync(sources)) bundle = installedBundle();

let main;
if (bundle !== undefined) {
  // Source maps are not turned on here: Node reads every chunk's map as it loads it (~50 ms of
  // a ~0.5 s start). In a checkout, `node --enable-source-maps bin/svc-mcp.js` maps stack traces.
  // Node 22.1+ keeps V8's compiled code of the chunks on disk (under the system's temporary
  // folder, or NODE_COMPILE_CACHE): later starts skip compiling what an earlier one compiled.
  // Node 20 has no such API: there `serve` runs from the CommonJS script beside the chunks, whose
  // compiled code bin/code-cache.js keeps in the user's cache folder (a warm start of a large
  // site waits for the compile otherwise; docs/measurements.md). Other commands, short-lived,
  // keep the chunks: they load only what they run.
  const script = module.enableCompileCache === undefined && process.argv[2] === "serve" ? readdirSync(dirname(bundle)).find((f) => /^cli-[0-9a-f]{16}\.cjs$/.test(f)) : undefined;
  const { codeCacheDir, codeCacheKey, runWithCodeCache } = script === undefined ? {} : await import("./code-cache.js");
  const cacheDir = codeCacheDir?.(process.env, process.argv.slice(3), process.cwd());
  const cacheKey = cacheDir === undefined ? undefined : codeCacheKey(process.env, process.argv.slice(3), process.cwd());
  if (cacheDir !== undefined && cacheKey !== undefined) {
    const run = runWithCodeCache(join(dirname(bundle), script), cacheDir, cacheKey);
    ({ main } = run.exports);
    // Written once what a start runs is compiled: 30 s in (a long-running server's V8 later
    // drops the compiled code of functions it has not run for a while, the start's among them),
    // or at exit if sooner.
    let saved = false;
    const save = () => {
      if (saved) return;
      saved = true;
      try {
        run.save();
      } catch (error) {
        process.stderr.write(`svc-mcp: code cache not written (${error.message})\n`);
      }
    };
    setTimeout(save, CODE_CACHE_SAVE_MS).unref();
    process.once("exit", save);
  } else {
    module.enableCompileCache?.();
    ({ main } = await import(bundle));
  }
} else {
  let register;
  try {
    ({ register } = await import("tsx/esm/api"));
  } catch {
    // tsx is a development dependency: a checkout installed with --omit=dev has no way to run src/.
    process.stderr.write(`svc-mcp: ${existsSync(checkoutBundle) ? "dist/ is older than src/" : "dist/ is missing"} and tsx is not installed: run \`npm install\` (or \`npm run build\`) in ${root}\n`);
    process.exit(1);
  }
  // just-bash's awk with the corrections the bundle has (src/engine/shell/just-bash-patches.mjs).
  module.register("../src/engine/shell/just-bash-hooks.mjs", import.meta.url);
  register();
  ({ main } = await import("../src/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
