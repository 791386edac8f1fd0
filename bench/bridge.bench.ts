import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createBridge } from "../src/bridge/bridge.js";
import { listen } from "../src/bridge/http-server.js";
import { parseRateLimits, type RateLimits } from "../src/bridge/rate-limit.js";
import { openStateStore } from "../src/store/state/sqlite-state-store.js";
import { DocsRuntime } from "../src/tools/runtime.js";
import { type BenchRow, type BenchSuite, percentile } from "./bench.js";

const DEMO = fileURLToPath(new URL("../fixtures/demo", import.meta.url));
const LOAD = fileURLToPath(new URL("./bridge-load.ts", import.meta.url));
/** Measured seconds per run (after one second of warm-up). */
const SECONDS = Number(process.env.BENCH_BRIDGE_SECONDS ?? 5);
const QUERY = JSON.stringify({ query: "signed url expires" });

interface LoadResult {
  readonly callsPerSec: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

/** Run the load generator in its own process against `url`. */
function load(url: string, clients: number, tool: string, args: string, token = ""): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", LOAD, url, String(clients), String(SECONDS), "1", tool, args, token], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`load generator exited ${code}`));
      const r = JSON.parse(out) as { calls: number; errors: number; seconds: number; latencies: number[] };
      resolve({ callsPerSec: r.calls / r.seconds, p50: percentile(r.latencies, 50), p99: percentile(r.latencies, 99), errors: r.errors });
    });
  });
}

/**
 * The ceiling of this machine and load generator: a bare `node:http` server answering every
 * POST with a canned tool result of the same size (no MCP, no search). Same client, same run.
 */
async function cannedServer(body: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "application/json", "mcp-session-id": "canned" });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

/**
 * Tool calls per second and latency over loopback at 1, 8 and 32 concurrent clients (one MCP
 * session each), against the real bridge with rate limits off. Target (issue 4): >= 1,500
 * search calls/s at 32 clients on 2 cores, p99 <= 50 ms.
 */
export const bridgeSuite: BenchSuite = {
  name: "bridge",
  async run(log) {
    const stateDir = mkdtempSync(join(tmpdir(), "svc-bench-bridge-"));
    const runtime = await DocsRuntime.load({ root: DEMO });
    const state = openStateStore(stateDir);
    const limits = parseRateLimits(["ip=off", "search=off", "filesystem=off", "authed-search=off", "authed-filesystem=off"]) as RateLimits;
    const bridge = createBridge({ runtime, state, rateLimits: limits });
    const server = await listen(bridge, { host: "127.0.0.1", port: 0 });
    const rows: BenchRow[] = [];
    try {
      const names = runtime.names;
      const mcp = `${server.origin}/mcp`;
      // One real answer, canned for the baseline.
      const sample = (runtime.search({ authenticated: false, groups: new Set(), allGroups: false }, { query: "signed url expires" })).length;
      const canned = await cannedServer(JSON.stringify({ result: { content: [{ type: "text", text: "x".repeat(1800) }] }, jsonrpc: "2.0", id: 1 }));
      log(`demo site, ${sample} hits per query; ${SECONDS}s per run`);
      const baseline = await load(canned.url, 32, names.search, QUERY);
      canned.server.close();
      for (const clients of [1, 8, 32]) {
        const r = await load(mcp, clients, names.search, QUERY);
        log(`search x${clients}: ${r.callsPerSec.toFixed(0)} calls/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ${r.errors} errors`);
        const last = clients === 32;
        rows.push({
          area: "bridge",
          metric: `search calls/s, ${clients} client${clients === 1 ? "" : "s"}`,
          value: Math.round(r.callsPerSec),
          unit: "calls/s",
          ...(last ? { baseline: { name: "node:http canned answer", value: Math.round(baseline.callsPerSec) }, target: ">= 1500", ok: r.callsPerSec >= 1500 } : {}),
        });
        rows.push({ area: "bridge", metric: `search p50, ${clients} client${clients === 1 ? "" : "s"}`, value: r.p50, unit: "ms" });
        rows.push({
          area: "bridge",
          metric: `search p99, ${clients} client${clients === 1 ? "" : "s"}`,
          value: r.p99,
          unit: "ms",
          ...(last ? { baseline: { name: "node:http canned answer", value: baseline.p99 }, target: "<= 50", ok: r.p99 <= 50 } : {}),
        });
      }
      const fs = await load(mcp, 32, names.filesystem, JSON.stringify({ command: "cat /guides/webhooks.mdx" }));
      rows.push({ area: "bridge", metric: "filesystem (cat) calls/s, 32 clients", value: Math.round(fs.callsPerSec), unit: "calls/s" });
      const { info, clientSecret } = await state.createCredential("bench");
      const form = new URLSearchParams({ grant_type: "client_credentials", client_id: info.clientId, client_secret: clientSecret });
      const tokenRes = await fetch(`${server.origin}/authed/mcp/oauth/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form });
      const { access_token } = (await tokenRes.json()) as { access_token: string };
      const authed = await load(`${server.origin}/authed/mcp`, 32, names.search, QUERY, access_token);
      rows.push({ area: "bridge", metric: "authed search calls/s (bearer checked per call), 32 clients", value: Math.round(authed.callsPerSec), unit: "calls/s" });
      rows.push({ area: "bridge", metric: "authed search p99, 32 clients", value: authed.p99, unit: "ms" });
    } finally {
      await server.close();
      await state.close();
      await runtime.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
    return rows;
  },
};
