import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";

/**
 * The commit a folder's checkout is at, as git itself says (the server reads `.git` by hand; the
 * tests check it against git). Undefined outside a checkout, or where git is not installed.
 */
export function headCommit(dir: string): string | undefined {
  try {
    return execFileSync("git", ["-C", dir, "rev-parse", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

/** A file's modification time as the server reports it (ISO 8601). */
export function fileTime(root: string, path: string): string {
  // From `mtimeMs`, as the server reads it (`stat.mtime` rounds the fraction of a millisecond).
  return new Date(statSync(join(root, path)).mtimeMs).toISOString();
}

/** The provenance of a result that read these files of `root`: its commit, their newest time, the cache hint. */
export function provenanceOf(root: string, paths: readonly string[]): Record<string, unknown> {
  const commit = headCommit(root);
  const newest = paths.map((p) => fileTime(root, p)).sort().at(-1);
  return { ...(commit !== undefined ? { commit } : {}), ...(newest !== undefined ? { lastModified: newest } : {}), ttlMs: 60_000 };
}
