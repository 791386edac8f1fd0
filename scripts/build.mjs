// Bundle the CLI into dist/: run by `npm install` in a checkout (`prepare`) and by `npm pack` /
// `npm publish` (`prepack`), so the package ships a bundle and never runs TypeScript. The bundle
// starts in ~0.45 s where the sources through tsx take ~0.9 s (tsx transforms and resolves every
// module on a loader thread); bin/svc-mcp.js falls back to the sources whenever dist/ is missing
// or older than them, so a stale bundle never runs in a checkout.
//
// The bundle is self-contained: every library the CLI runs is in it, so the npm package declares
// no runtime dependencies (they are devDependencies, present when building) and installs in
// seconds without running anything. Only native addons stay outside: better-sqlite3 (an optional
// dependency, loaded by src/store/sqlite.ts from where npm put it) and the optional native
// modules some libraries try and do without (pg-native, zstd, lzma).
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { EXTERNAL, bundledRequires, justBashChunks, zodEnglishOnly } from "./bundle-plugins.mjs";
import { buildServeScript } from "./serve-script.mjs";
import { buildWeb } from "./web-build.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * Stands for the bundle's fingerprint while it is built; replaced by the SHA-256 of all chunks
 * once they are known (same length, so chunk names and source map columns stay right). The spec
 * cache (src/config/openapi/spec-cache.ts) keys its entries by it: code that changed anywhere in
 * the bundle never reads an entry an older build wrote.
 */
const FINGERPRINT_PLACEHOLDER = "svc-mcp-bundle-fingerprint-placeholder-".padEnd(64, "0");

/**
 * Packages whose `main` esbuild cannot bundle whole, mapped to an entry it can: jsonc-parser's
 * `main` is a UMD build that loads its parts through a `require` passed as an argument, which
 * esbuild leaves to run time (the chunk then asks Node for `./impl/format` and fails); its ES
 * module build imports them. The bundle test loads every chunk with no node_modules in reach,
 * which catches another such package.
 */
const ENTRIES = { "jsonc-parser": "jsonc-parser/lib/esm/main.js" };

const BANNER = [
  'import { createRequire as __svcCreateRequire } from "node:module";',
  'import { fileURLToPath as __svcFileURLToPath } from "node:url";',
  "const require = __svcCreateRequire(import.meta.url);",
  "const __filename = __svcFileURLToPath(import.meta.url);",
  'const __dirname = __svcFileURLToPath(new URL(".", import.meta.url));',
].join("\n");

// `--prepare`: npm runs `prepare` after `prepack` when packing; one build is enough.
const lifecycle = process.env.npm_command;
if (process.argv.includes("--prepare") && (lifecycle === "pack" || lifecycle === "publish")) process.exit(0);

// `node scripts/build.mjs [outdir]`: tests build elsewhere to check the bundle runs.
const outdir = resolve(process.argv.slice(2).find((a) => !a.startsWith("--")) ?? join(root, "dist"));
/**
 * What both builds share (the ES module chunks below, scripts/serve-script.mjs's CommonJS script):
 * they must hold the same code.
 */
const SHARED = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  alias: ENTRIES,
  define: { SVC_BUNDLE_FINGERPRINT: JSON.stringify(FINGERPRINT_PLACEHOLDER) },
  plugins: [justBashChunks(), bundledRequires(root), zodEnglishOnly()],
  // Library licence comments stay out of the chunks; the libraries' licences are listed in
  // docs/dependencies.md.
  legalComments: "none",
  // Whitespace and syntax only: the chunks shrink from 9.3 to 6.9 MB (the tarball from 2.06 to
  // 1.78 MB), which `npx --package <tgz>` unpacks three times per run (~10-15 ms of CPU each on
  // a busy 2-core machine), and the installed start is no slower. Names stay: stack traces and
  // libraries that read a function's or class's `name` see the real ones (`minifyIdentifiers`
  // with `keepNames` saved a little more unpacking but cost more at start-up, for the `__name`
  // calls). docs/measurements.md has the figures.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
};

const result = await build({
  ...SHARED,
  // The workers (the shell's: src/engine/shell/shell-host.ts; page analysis: analysis-feed.ts;
  // page renders: src/engine/render/render-pool.ts; the first load's read-ahead:
  // src/engine/page-read-ahead.ts) are started from their entries' files, next to the CLI bundle
  // and its chunks.
  entryPoints: {
    cli: "src/cli/main.ts",
    "shell-worker": "src/engine/shell/shell-worker.ts",
    "analysis-worker": "src/engine/search/analysis-worker.ts",
    "render-worker": "src/engine/render/render-worker.ts",
    "page-read-worker": "src/engine/page-read-worker.ts",
    // jq's thread for shells in the process's own thread (src/engine/shell/jq/jq-in-thread.ts).
    "jq-thread": "src/engine/shell/jq/jq-thread.mjs",
  },
  outdir,
  outExtension: { ".js": ".mjs" },
  // Each command is its own chunk (src/cli/commands/index.ts imports them when they run), so
  // `svc-mcp check` does not load the MCP SDK, Hono, SQLite and the shell: `svc-mcp schema`
  // starts in ~110 ms instead of ~390 ms, `check` ~150 ms sooner.
  splitting: true,
  format: "esm",
  // CommonJS libraries in an ES module bundle: their `require` of a Node built-in or of an
  // external package needs Node's `require` (esbuild renames modules' own `require` bindings),
  // and some read `__dirname` (yargs looks for its translations there, finds none beside the
  // bundle, and speaks English).
  banner: { js: BANNER },
  // Which chunk holds which modules and imports which: test/cli/bundle.test.ts reads it (the
  // minified chunks have no per-module comments left to read). Beside the chunks, not packed.
  metafile: true,
  // For `node --enable-source-maps` in a checkout (stack traces name src/ files and lines). The
  // npm package ships neither the maps nor the sources (with them, the maps were 2.6 MB).
  sourcemap: "linked",
  sourcesContent: false,
  write: false,
});

const chunks = result.outputFiles.filter((f) => f.path.endsWith(".mjs")).sort((a, b) => (a.path < b.path ? -1 : 1));
const fingerprint = createHash("sha256");
for (const f of chunks) fingerprint.update(`${f.path.slice(outdir.length)}\u0000`).update(f.contents);
const digest = fingerprint.digest("hex");

// Chunks are content-named: clear out the previous build's, then write this one.
rmSync(outdir, { recursive: true, force: true });
for (const f of result.outputFiles) {
  mkdirSync(dirname(f.path), { recursive: true });
  writeFileSync(f.path, f.path.endsWith(".mjs") ? f.text.split(FINGERPRINT_PLACEHOLDER).join(digest) : f.contents);
}
writeFileSync(join(outdir, "meta.json"), `${JSON.stringify(result.metafile)}\n`);
// jq compiled to WebAssembly (the npm package jq-wasm), beside the chunks, where
// src/engine/shell/jq/jq-module.ts finds it; the archive carries it (scripts/bundle-archive.mjs).
copyFileSync(createRequire(import.meta.url).resolve("jq-wasm/jq.wasm"), join(outdir, "jq.wasm"));
// The pages' scripts and styles, beside the CLI chunks (src/bridge/web/assets.ts finds them there).
await buildWeb(join(outdir, "web"));
await buildServeScript(SHARED, outdir, digest, FINGERPRINT_PLACEHOLDER);
