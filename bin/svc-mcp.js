#!/usr/bin/env node
// Entry point. Runs the bundle in dist/ (built by `npm install`) when it is at least as new as
// every source file; otherwise registers tsx and runs the TypeScript sources as they are, so a
// checkout without a build, or with sources edited since, always runs the current code.
import { existsSync, readdirSync, statSync } from "node:fs";
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
  process.setSourceMapsEnabled(true);
  ({ main } = await import(bundle));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../src/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
