import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // A temp cache folder (XDG_CACHE_HOME) for the whole run: never the user's ~/.cache.
    globalSetup: ["test/helpers/global-setup.ts"],
    // Spawned servers and real sockets: give slow CI machines room, but never hide a hang.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: run files in parallel, but not so many that spawned processes starve.
    pool: "forks",
    maxWorkers: 2,
  },
});
