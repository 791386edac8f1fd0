#!/usr/bin/env node
// Entry point. Runs the bundle in dist/ (shipped in the npm package; built by `npm install` in a
// checkout) when it is at least as new as every source file; otherwise registers tsx and runs the
// TypeScript sources as they are, so a checkout without a build, or with sources edited since,
// always runs the current code. An installed package has no src/: it always runs the bundle.
import { existsSync, readdirSync, statSync } from "node:fs";
import module from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bundle = join(root, "dist", "cli.mjs");
const sources = join(root, "src");

/** Newest modification time of the files under `dir` (0 when it does not exist). */
function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return latest;
}

let main;
if (existsSync(bundle) && statSync(bundle).mtimeMs >= newest(sources)) {
  // Source maps are not turned on here: Node reads every chunk's map as it loads it (~50 ms of
  // a ~0.5 s start). In a checkout, `node --enable-source-maps bin/svc-mcp.js` maps stack traces.
  // Node 22.1+ keeps V8's compiled code of the chunks on disk (under the system's temporary
  // folder, or NODE_COMPILE_CACHE): later starts skip compiling what an earlier one compiled,
  // also after `npx` unpacked the same files again. Node 20 has no such API; it compiles each time.
  module.enableCompileCache?.();
  ({ main } = await import(bundle));
} else {
  let register;
  try {
    ({ register } = await import("tsx/esm/api"));
  } catch {
    // tsx is a development dependency: a checkout installed with --omit=dev has no way to run src/.
    process.stderr.write(`svc-mcp: ${existsSync(bundle) ? "dist/ is older than src/" : "dist/ is missing"} and tsx is not installed: run \`npm install\` (or \`npm run build\`) in ${root}\n`);
    process.exit(1);
  }
  register();
  ({ main } = await import("../src/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
