import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { packageRoot } from "../package-root.js";
import { appendAll } from "../arrays.js";

/**
 * The esbuild bundle's fingerprint: the SHA-256 of all its chunks, written into them by
 * scripts/build.mjs. Not defined when the TypeScript sources run (tsx, vitest).
 */
declare const SVC_BUNDLE_FINGERPRINT: string | undefined;

let memo: string | undefined;

/**
 * A hash of all the code that runs, and V8's serialization format: what a cache of things the
 * code built (parsed pages, a search index) is valid for. In the bundle: the bundle's
 * fingerprint. From the sources: every file under `src/` and package.json (the version and the
 * pinned dependencies), a few tens of milliseconds once per process. Throws when the sources
 * cannot be read: then no cached state can be trusted.
 */
export function codeFingerprint(): string {
  if (memo !== undefined) return memo;
  const hash = createHash("sha256").update(`svc-mcp code\u0000v8 ${process.versions.v8}\u0000`);
  if (typeof SVC_BUNDLE_FINGERPRINT === "string") {
    memo = hash.update(`bundle ${SVC_BUNDLE_FINGERPRINT}`).digest("hex");
    return memo;
  }
  const repo = packageRoot(import.meta.url);
  const files = [join(repo, "package.json"), ...listFiles(join(repo, "src"))].sort();
  for (const file of files) hash.update(`${relative(repo, file)}\u0000`).update(readFileSync(file)).update("\u0000");
  memo = hash.digest("hex");
  return memo;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) appendAll(out, listFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}
