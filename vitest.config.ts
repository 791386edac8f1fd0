import { defineConfig } from "vitest/config";
// @ts-expect-error: a plain ES module without types, shared with the bundle's build.
import { PATCHED_FILE, patchJustBash } from "./src/engine/shell/just-bash-patches.mjs";

export default defineConfig({
  // The tests run just-bash's awk and the npm re2js with the corrections the CLI bundle applies (src/engine/shell/just-bash-patches.mjs).
  plugins: [
    {
      name: "just-bash-patches",
      transform(code: string, id: string) {
        return PATCHED_FILE.test(id.split("?")[0] as string) ? { code: patchJustBash(code), map: null } : undefined;
      },
    },
  ],
  test: {
    // Loaded through the plugin above rather than by Node itself.
    server: { deps: { inline: ["just-bash", "re2js"] } },
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // A temp cache folder (XDG_CACHE_HOME) for the whole run: never the user's ~/.cache.
    globalSetup: ["test/helpers/global-setup.ts"],
    // The default summary, and a line naming the cause when a run fails without a failed test.
    reporters: ["default", "./test/helpers/run-end-reporter.ts"],
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
