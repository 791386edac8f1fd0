import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHROMIUM } from "./browser-path.js";
import { SHARED } from "./paths.js";
import { PG_ADMIN_URL, probePostgres } from "./postgres.js";

/**
 * Every test run gets its own cache and state folders: spawned `svc-mcp` processes (which inherit
 * the environment) and in-process commands given `process.env` cache parsed specs and keep their
 * state there, never in the user's `~/.cache/svc-mcp` or `~/.local/state/svc-mcp`. Tests about the cache itself make their own folders.
 *
 * Without `../shared` the tests that read it are skipped (see shared.ts), said here once; under
 * CI=true that is an error: CI must run every test. The same for the PostgreSQL server the
 * state-store tests use (postgres.ts): its absence skips them with one line, or fails under CI.
 */
export default async function setup(): Promise<() => void> {
  if (!existsSync(join(SHARED, "corpora"))) {
    if (process.env.CI === "true") {
      throw new Error(`CI=true and the shared corpora are missing (${SHARED}): clone them beside the repository or set SVC_SHARED`);
    }
    process.stdout.write(`svc-mcp tests: ${SHARED} not found: the tests that read the shared corpora and specs are skipped (set SVC_SHARED to run them)\n`);
  }
  const pgProblem = await probePostgres(PG_ADMIN_URL);
  if (pgProblem !== undefined) {
    if (process.env.CI === "true") throw new Error(`CI=true and ${pgProblem}`);
    process.stdout.write(`svc-mcp tests: ${pgProblem}: the PostgreSQL tests are skipped\n`);
    process.env.SVC_TEST_PG_UNREACHABLE = pgProblem;
  }
  // The browser tests (test/web) drive Debian's chromium; outside CI they skip without it.
  if (!existsSync(CHROMIUM)) {
    if (process.env.CI === "true") throw new Error(`CI=true and ${CHROMIUM} is missing: .ci/run installs Debian's chromium package`);
    process.stdout.write(`svc-mcp tests: ${CHROMIUM} not found: the browser tests are skipped (apt-get install -y chromium)\n`);
  }
  const dir = mkdtempSync(join(tmpdir(), "svc-test-cache-"));
  process.env.XDG_CACHE_HOME = dir;
  // And its own state folder: a test that serves without --state (feedback, access, keys) wrote
  // them to the user's ~/.local/state/svc-mcp/<site> (adversary round 32 found one there).
  process.env.XDG_STATE_HOME = join(dir, "state");
  // One cache key for every process of the run (docs/security.md, the cache seal): tests that give
  // a server a state folder of its own would otherwise each have their own key, and find the
  // run's shared site caches sealed by another (said on stderr, which they assert whole).
  // test/store/cache-key.test.ts covers the key file.
  process.env.SVC_MCP_CACHE_KEY = "svc-mcp test run cache key, 32+ characters";
  // A server a test spawned may still be writing its persistent cache here as the run ends: retry
  // the removal, and say (never fail the run) when the folder stays.
  return () => {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    } catch (error) {
      process.stderr.write(`svc-mcp tests: could not remove the run's cache folder ${dir}: ${(error as Error).message}\n`);
    }
  };
}
