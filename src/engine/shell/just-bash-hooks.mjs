// Node module hooks that load just-bash's bundle files with the corrections of
// just-bash-patches.mjs, for runs of the TypeScript sources (bin/svc-mcp.js without a current
// dist/, and shell workers started from the sources, worker-boot.mjs). The CLI bundle has them
// applied at build time instead (scripts/bundle-plugins.mjs).
import { fileURLToPath } from "node:url";
import { PATCHED_FILE, patchJustBash } from "./just-bash-patches.mjs";

/** Node's `load` hook: just-bash's bundle files and the npm re2js patched, everything else as it is. */
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (!url.startsWith("file:") || !PATCHED_FILE.test(fileURLToPath(url)) || result.source === undefined) return result;
  const source = typeof result.source === "string" ? result.source : Buffer.from(result.source).toString("utf8");
  return { ...result, source: patchJustBash(source) };
}
