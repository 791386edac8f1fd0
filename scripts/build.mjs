// Bundle the CLI into dist/: run by `npm install` in a checkout (`prepare`) and by `npm pack` /
// `npm publish` (`prepack`), so the package ships a bundle and never runs TypeScript. The bundle
// starts in ~0.45 s where the sources through tsx take ~0.9 s (tsx transforms and resolves every
// module on a loader thread); bin/svc-mcp.js falls back to the sources whenever dist/ is missing
// or older than them, so a stale bundle never runs in a checkout.
import { rmSync } from "node:fs";
import { build } from "esbuild";
import { buildWeb } from "./web-build.mjs";

// `--prepare`: npm runs `prepare` after `prepack` when packing; one build is enough.
const lifecycle = process.env.npm_command;
if (process.argv.includes("--prepare") && (lifecycle === "pack" || lifecycle === "publish")) process.exit(0);

// `node scripts/build.mjs [outdir]`: tests build elsewhere to check the bundle runs.
const outdir = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? "dist";
// Chunks are content-named: clear out the previous build's.
rmSync(outdir, { recursive: true, force: true });
await build({
  // The shell worker (src/tools/shell/shell-host.ts) is started from shell-worker.mjs, next to
  // the CLI bundle and its chunks.
  entryPoints: { cli: "src/cli/main.ts", "shell-worker": "src/tools/shell/shell-worker.ts" },
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  // Each command is its own chunk (src/cli/commands/index.ts imports them when they run), so
  // `svc-mcp check` does not load the MCP SDK, Hono, SQLite and the shell: `svc-mcp schema`
  // starts in ~110 ms instead of ~390 ms, `check` ~150 ms sooner.
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Dependencies stay in node_modules: native addons (better-sqlite3) and packages that locate
  // their own files (just-bash's workers) must load from where npm put them.
  packages: "external",
  // For `node --enable-source-maps` in a checkout (stack traces name src/ files and lines). The
  // npm package ships neither the maps nor the sources (with them, the maps were 2.6 MB).
  sourcemap: "linked",
  sourcesContent: false,
  logLevel: "warning",
});
// The pages' scripts and styles, beside the CLI chunks (src/bridge/web/assets.ts finds them there).
await buildWeb(`${outdir}/web`);
