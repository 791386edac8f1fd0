// Bundle the CLI into dist/ (run by `npm install` through `prepare`). The bundle starts in
// ~0.8 s where the TypeScript sources through tsx take ~2 s (tsx transforms and resolves every
// module on a loader thread); bin/svc-mcp.js falls back to the sources whenever dist/ is missing
// or older than them, so a stale bundle never runs.
import { build } from "esbuild";

await build({
  entryPoints: ["src/cli/main.ts"],
  outfile: "dist/cli.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Dependencies stay in node_modules: native addons (better-sqlite3) and packages that locate
  // their own files (just-bash's workers) must load from where npm put them.
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
});
