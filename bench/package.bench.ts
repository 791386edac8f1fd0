import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { packAndInstall } from "../test/helpers/installed-package.js";
import { REPO } from "../test/helpers/paths.js";
import { makeRepo } from "../test/helpers/repo.js";
import { type BenchSuite, percentile } from "./bench.js";

const RUNS = 9;

/** Spawn a stdio server, `initialize` then `tools/list`, and close: milliseconds until the tool list. */
async function firstToolList(command: string, args: string[], env: Record<string, string>, cwd?: string): Promise<number> {
  const t = performance.now();
  const transport = new StdioClientTransport({ command, args, env: { ...(process.env as Record<string, string>), ...env }, stderr: "ignore", ...(cwd !== undefined ? { cwd } : {}) });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const ms = performance.now() - t;
  await client.close();
  if (tools.length === 0) throw new Error(`${command} listed no tools`);
  return ms;
}

/** The checkout's sources through tsx: what bin/svc-mcp.js runs when dist/ is missing or stale. */
const FROM_SOURCES = [
  "--input-type=module",
  "-e",
  `const { register } = await import("tsx/esm/api"); register(); const { main } = await import(${JSON.stringify(join(REPO, "src", "cli", "main.ts"))}); process.exitCode = await main(process.argv.slice(1));`,
];

/**
 * Start-up as a user meets it: the package from `npm pack`, installed into an empty project
 * (without optional dependencies: no compiler time), `svc-mcp serve` on a 1-page site until the
 * client has `initialize` answered and the tool list. Baseline: the checkout's TypeScript sources
 * through tsx, which is what an installed package ran before it shipped the bundle.
 */
export const packageSuite: BenchSuite = {
  name: "package",
  async run(log) {
    log("npm pack, npm install of the tarball into an empty project...");
    const pkg = await packAndInstall({ omitOptional: true });
    const site = makeRepo({
      "docs.json": JSON.stringify({ name: "Acme", navigation: { pages: ["index"] } }),
      "index.mdx": "---\ntitle: Welcome\n---\n\nAcme stores files in buckets.\n",
    });
    const state = makeRepo({});
    try {
      const args = ["serve", "--dir", site.dir, "--no-watch", "--no-fetch-remote"];
      const env = { XDG_STATE_HOME: state.dir };
      const installed: number[] = [];
      const viaNpx: number[] = [];
      const sources: number[] = [];
      await firstToolList(pkg.bin, args, env); // warm the file cache
      for (let i = 0; i < RUNS; i++) {
        // Interleaved, so all three see the same machine load.
        installed.push(await firstToolList(pkg.bin, args, env));
        // What an editor config with `npx svc-mcp serve` runs: npm's own start comes first.
        viaNpx.push(await firstToolList("npx", ["--no-install", "svc-mcp", ...args], { ...env, npm_config_update_notifier: "false" }, pkg.dir));
        sources.push(await firstToolList(process.execPath, [...FROM_SOURCES, ...args], env));
      }
      const p50 = percentile(installed, 50);
      log(`${pkg.files.length} files in the tarball; ${RUNS} runs each`);
      return [
        {
          area: "package",
          metric: "installed `svc-mcp serve`: spawn to initialize + tools/list (1-page site)",
          value: p50,
          unit: "ms",
          baseline: { name: "checkout sources through tsx", value: percentile(sources, 50) },
          target: "<= 600 ms",
          ok: p50 <= 600,
        },
        {
          area: "package",
          metric: "the same through `npx svc-mcp serve` (npm's start included)",
          value: percentile(viaNpx, 50),
          unit: "ms",
          baseline: { name: "checkout sources through tsx", value: percentile(sources, 50) },
        },
      ];
    } finally {
      pkg.cleanup();
      site.cleanup();
      state.cleanup();
    }
  },
};
