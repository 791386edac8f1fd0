import { execFile } from "node:child_process";
import { chmodSync, readdirSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { NPM_ENV, packAndInstall } from "../test/helpers/installed-package.js";
import { NODE22, node22Problem } from "../test/helpers/node22.js";
import { REPO } from "../test/helpers/paths.js";
import { makeRepo } from "../test/helpers/repo.js";
import { type BenchRow, type BenchSuite, percentile } from "./bench.js";
import { treeCpuMs } from "./cpu-time.js";

const RUNS = 9;
const exec = promisify(execFile);

/** What one start cost until the client had the tool list. */
interface Start {
  /** Milliseconds from spawn to the tool list. */
  readonly ms: number;
  /** CPU time of the whole process tree (npm, sh, node) until then, in milliseconds. */
  readonly cpu: number;
}

/** Spawn a stdio server, `initialize` then `tools/list`, and close. */
async function firstToolList(command: string, args: string[], env: Record<string, string>, cwd?: string): Promise<Start> {
  const t = performance.now();
  const transport = new StdioClientTransport({ command, args, env: { ...(process.env as Record<string, string>), ...env }, stderr: "ignore", ...(cwd !== undefined ? { cwd } : {}) });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const ms = performance.now() - t;
  const cpu = treeCpuMs(transport.pid ?? undefined);
  await client.close();
  if (tools.length === 0) throw new Error(`${command} listed no tools`);
  return { ms, cpu };
}

/**
 * npm's own share of `npx --package <tgz>`: a package of one file that answers `initialize` and
 * `tools/list` at once, without loading anything (what npx costs before any code of ours runs).
 */
const FLOOR_SERVER = `#!/usr/bin/env node
let buf = "";
process.stdin.on("data", (d) => {
  buf += d;
  for (let i; (i = buf.indexOf("\\n")) >= 0; buf = buf.slice(i + 1)) {
    const m = JSON.parse(buf.slice(0, i));
    const result = m.method === "initialize" ? { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "floor", version: "1.0.0" } } : m.method === "tools/list" ? { tools: [{ name: "t", inputSchema: { type: "object" } }] } : undefined;
    if (result !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }) + "\\n");
  }
});
`;

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
    const floorPackage = makeRepo({ "package.json": JSON.stringify({ name: "floor", version: "1.0.0", bin: { floor: "floor.js" } }), "floor.js": FLOOR_SERVER });
    try {
      chmodSync(join(floorPackage.dir, "floor.js"), 0o755);
      const packed = await exec("npm", ["pack", "--json", "--pack-destination", floorPackage.dir], { cwd: floorPackage.dir, env: { ...process.env, ...NPM_ENV, npm_config_cache: pkg.npmCache } });
      const floor = join(floorPackage.dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]?.filename ?? "");
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
      const env = { XDG_STATE_HOME: state.dir, XDG_CACHE_HOME: join(state.dir, "cache") };
      const npxEnv = { ...env, ...NPM_ENV, npm_config_cache: pkg.npmCache };
      const npx = ["--offline", "--yes", "--package", pkg.tarball, "svc-mcp", ...args];
      const floorNpx = ["--offline", "--yes", "--package", floor, "floor"];
      // Node 22 (tools/node22): first on PATH, it runs npm, npx's `sh` and the bins' `#!/usr/bin/env node`.
      const nodes: [string, Record<string, string>][] = [["Node 20", {}]];
      if (node22Problem("the package bench") === undefined) nodes.push(["Node 22", { PATH: `${dirname(NODE22)}:${process.env.PATH ?? ""}` }]);
      else log(`no Node 22 rows: ${node22Problem("the package bench")}`);
      const kinds = {
        installed: (path: Record<string, string>) => firstToolList(pkg.bin, args, { ...env, ...path }),
        npx: (path: Record<string, string>) => firstToolList("npx", npx, { ...npxEnv, ...path }, state.dir),
        floor: (path: Record<string, string>) => firstToolList("npx", floorNpx, { ...npxEnv, ...path }, state.dir),
      };
      const starts = new Map<string, Start[]>();
      const sources: number[] = [];
      // Warm: the file cache; npx installs each tarball into its cache once; the bundle is unpacked by its first run.
      for (const [, path] of nodes) for (const start of Object.values(kinds)) await start(path);
      for (let i = 0; i < RUNS; i++) {
        // Interleaved, so all see the same machine load.
        for (const [node, path] of nodes) {
          for (const [kind, start] of Object.entries(kinds)) {
            const key = `${kind} ${node}`;
            starts.set(key, [...(starts.get(key) ?? []), await start(path)]);
          }
        }
        sources.push((await firstToolList(process.execPath, [...FROM_SOURCES, ...args], env)).ms);
      }
      const p50 = (key: string, what: "ms" | "cpu") => percentile((starts.get(key) ?? []).map((s) => s[what]), 50);
      const install = percentile(installs, 50);
      const size = bytesUnder(pkg.prefix) / (1 << 20);
      log(`${pkg.files.length} files in the tarball; ${RUNS} runs each; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
      const tsx = { name: "checkout sources through tsx", value: percentile(sources, 50) };
      const rows: BenchRow[] = [
        { area: "package", metric: "npm install -g of the tarball into an empty prefix (offline, empty npm cache; p50 of 5)", value: install, unit: "ms", target: "<= 20000 ms", ok: install <= 20_000 },
        { area: "package", metric: "installed size (the prefix, after the first run unpacked the bundle)", value: Math.round(size * 10) / 10, unit: "MB", target: "<= 15 MB", ok: size <= 15 },
      ];
      for (const [node] of nodes) {
        const installed = p50(`installed ${node}`, "ms");
        const viaNpx = p50(`npx ${node}`, "ms");
        const floorCpu = p50(`floor ${node}`, "cpu");
        rows.push(
          { area: "package", metric: `installed \`svc-mcp serve\` (${node}): spawn to initialize + tools/list (1-page site)`, value: installed, unit: "ms", baseline: tsx, target: "<= 600 ms", ok: installed <= 600 },
          { area: "package", metric: `installed \`svc-mcp serve\` (${node}): CPU to tools/list`, value: p50(`installed ${node}`, "cpu"), unit: "ms" },
          { area: "package", metric: `\`npx --package <tarball> svc-mcp serve\` (${node}) after install: spawn to tools/list (npm's start included)`, value: viaNpx, unit: "ms", baseline: { name: "npm's floor (one-file package)", value: p50(`floor ${node}`, "ms") }, target: "<= 1000 ms", ok: viaNpx <= 1000 },
          { area: "package", metric: `\`npx --package <tarball> svc-mcp serve\` (${node}): CPU of npm, sh and node to tools/list`, value: p50(`npx ${node}`, "cpu"), unit: "ms", baseline: { name: "npm's floor (one-file package)", value: floorCpu } },
        );
      }
      return rows;
    } finally {
      pkg.cleanup();
      site.cleanup();
      state.cleanup();
      floorPackage.cleanup();
    }
  },
};
