import { execFile } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { NPM_ENV, packAndInstall } from "../test/helpers/installed-package.js";
import { REPO } from "../test/helpers/paths.js";
import { makeRepo } from "../test/helpers/repo.js";
import { type BenchSuite, percentile } from "./bench.js";

const RUNS = 9;
const exec = promisify(execFile);

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

/** Bytes of every file under `dir`. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/**
 * The package as a user meets it: `npm install -g` of the packed tarball into an empty prefix
 * (wall time, offline, an empty npm cache each time: the package has no dependencies), its size,
 * then start-up: `svc-mcp serve` on a 1-page site until the client has `initialize` answered and
 * the tool list, from the installed bin and through `npx --package <tarball>` (npm's own start
 * comes first). Baseline: the checkout's TypeScript sources through tsx.
 */
export const packageSuite: BenchSuite = {
  name: "package",
  async run(log) {
    log("npm pack, npm install -g of the tarball into an empty prefix...");
    const pkg = await packAndInstall();
    const site = makeRepo({
      "docs.json": JSON.stringify({ name: "Acme", navigation: { pages: ["index"] } }),
      "index.mdx": "---\ntitle: Welcome\n---\n\nAcme stores files in buckets.\n",
    });
    const state = makeRepo({});
    try {
      const installs: number[] = [];
      for (let i = 0; i < 5; i++) {
        const scratch = makeRepo({});
        try {
          const t = performance.now();
          await exec("npm", ["install", "-g", "--offline", "--prefix", join(scratch.dir, "prefix"), pkg.tarball], { env: { ...process.env, ...NPM_ENV, npm_config_cache: join(scratch.dir, "cache") } });
          installs.push(performance.now() - t);
        } finally {
          scratch.cleanup();
        }
      }
      const args = ["serve", "--dir", site.dir, "--no-watch", "--no-fetch-remote"];
      const env = { XDG_STATE_HOME: state.dir };
      const npxEnv = { ...env, ...NPM_ENV, npm_config_cache: pkg.npmCache };
      const npx = ["--offline", "--yes", "--package", pkg.tarball, "svc-mcp", ...args];
      const installed: number[] = [];
      const viaNpx: number[] = [];
      const sources: number[] = [];
      await firstToolList(pkg.bin, args, env); // warm the file cache
      await firstToolList("npx", npx, npxEnv, state.dir); // npx unpacks the tarball into its cache once
      for (let i = 0; i < RUNS; i++) {
        // Interleaved, so all three see the same machine load.
        installed.push(await firstToolList(pkg.bin, args, env));
        viaNpx.push(await firstToolList("npx", npx, npxEnv, state.dir));
        sources.push(await firstToolList(process.execPath, [...FROM_SOURCES, ...args], env));
      }
      const p50 = percentile(installed, 50);
      const install = percentile(installs, 50);
      const size = bytesUnder(pkg.prefix) / (1 << 20);
      log(`${pkg.files.length} files in the tarball; ${RUNS} runs each`);
      return [
        { area: "package", metric: "npm install -g of the tarball into an empty prefix (offline, empty npm cache; p50 of 5)", value: install, unit: "ms", target: "<= 20000 ms", ok: install <= 20_000 },
        { area: "package", metric: "installed size (the prefix after npm install -g)", value: Math.round(size * 10) / 10, unit: "MB", target: "<= 15 MB", ok: size <= 15 },
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
          metric: "`npx --package <tarball> svc-mcp serve` after install: spawn to tools/list (npm's start included)",
          value: percentile(viaNpx, 50),
          unit: "ms",
          baseline: { name: "checkout sources through tsx", value: percentile(sources, 50) },
          target: "<= 1000 ms",
          ok: percentile(viaNpx, 50) <= 1000,
        },
      ];
    } finally {
      pkg.cleanup();
      site.cleanup();
      state.cleanup();
    }
  },
};
