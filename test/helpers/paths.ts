import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** `../shared` beside the repository (CI clones it there), or `$SVC_SHARED`. */
export const SHARED = process.env.SVC_SHARED ?? join(REPO, "..", "shared");

export const CORPORA = join(SHARED, "corpora");

/** A fixture repository bundled with the tests. */
export function fixture(name: string): string {
  return join(REPO, "fixtures", name);
}

/** Copy a folder into a fresh temp dir (tests that change files never touch the originals). */
export function copyToTemp(source: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "svc-mcp-test-"));
  cpSync(source, dir, { recursive: true });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
