import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Every test run gets its own cache folder: spawned `svc-mcp` processes (which inherit the
 * environment) and in-process commands given `process.env` cache parsed specs there, never in
 * the user's `~/.cache/svc-mcp`. Tests about the cache itself make their own folders.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "svc-test-cache-"));
  process.env.XDG_CACHE_HOME = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
