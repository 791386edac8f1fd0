import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // A temp cache folder (XDG_CACHE_HOME) for the whole run: never the user's ~/.cache.
    globalSetup: ["test/helpers/global-setup.ts"],
    // A hang detector, never a speed check: a test must pass however busy the machine is (the
    // suite passes with two CPU hogs beside it, `npm run test:loaded`), so no test or hook has a
    // time of its own; ten minutes is far past any of them at load average 20.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Two cores: run files in parallel, but not so many that spawned processes starve.
    pool: "forks",
    maxWorkers: 2,
  },
});
