import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DocsRuntime } from "../src/engine/runtime.js";
import { localContext } from "../src/vfs/request-context.js";
import { type ServeProcess, startServe } from "../test/helpers/serve-http.js";
import { cpuMs } from "./cpu-time.js";
import type { Traffic } from "./query-stream.js";
import { type BenchRow, type BenchSuite, percentile } from "./bench.js";

const DEMO = fileURLToPath(new URL("../fixtures/demo", import.meta.url));
const BIN = fileURLToPath(new URL("../bin/svc-mcp.js", import.meta.url));
const LOAD = fileURLToPath(new URL("./bridge-load.ts", import.meta.url));
/** Measured seconds per run (after one second of warm-up). */
const SECONDS = Number(process.env.BENCH_BRIDGE_SECONDS ?? 5);
const SEARCH = JSON.stringify({ query: "signed url expires" });
const CAT = "cat /guides/webhooks.mdx";
export const NO_LIMITS = ["ip", "search", "filesystem", "authed-search", "authed-filesystem"].flatMap((k) => ["--rate-limit", `${k}=off`]);

export interface LoadResult {
  readonly callsPerSec: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  /**
   * CPU time of the server process (all its threads) per call, in ms. On a shared machine
   * throughput follows what other processes leave us; CPU per call is the server's own cost.
   */
  readonly cpuMsPerCall: number;
}

/** Run the load generator in its own process against `url` (served by process `serverPid`, or `serverPids`), in `protocol` (default 2025-06-18, a session per client). */
export function load(url: string, clients: number, tool: string, args: string, options: { token?: string; serverPid?: number; serverPids?: readonly number[]; protocol?: string; traffic?: Traffic } = {}): Promise<LoadResult> {
  // Several processes (--workers): their CPU adds up.
  const pids = options.serverPids ?? [options.serverPid];
  const cpu = (): number => pids.reduce((sum: number, pid) => sum + cpuMs(pid), 0);
  return new Promise((resolve, reject) => {
    const cpuBefore = cpu();
    const child = spawn(process.execPath, ["--import", "tsx", LOAD, url, String(clients), String(SECONDS), "1", tool, args, options.token ?? "", options.protocol ?? "", "0", "", options.traffic ?? "repeated"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`load generator exited ${code}`));
      const r = JSON.parse(out) as { calls: number; errors: number; seconds: number; latencies: number[]; allCalls: number };
      resolve({
        callsPerSec: r.calls / r.seconds,
        p50: percentile(r.latencies, 50),
        p99: percentile(r.latencies, 99),
        errors: r.errors,
        cpuMsPerCall: (cpu() - cpuBefore) / r.allCalls,
      });
    });
  });
}

/**
 * The ceiling of this machine and load generator: a bare `node:http` server answering every
 * POST with a canned tool result of the same size (no MCP, no search). Same client, same run.
 */
export async function cannedServer(body: string): Promise<{ url: string; server: Server }> {
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

/** `svc-mcp serve --http` as deployed, rate limits off and the result cache off (every search is a distinct question), in its own process. */
async function serve(stateDir: string, extra: readonly string[] = []): Promise<ServeProcess> {
  return startServe(["--dir", DEMO, "--state", stateDir, "--search-cache", "0", ...NO_LIMITS, ...extra]);
}

export async function stop(server: ServeProcess): Promise<void> {
  const exited = new Promise((r) => server.child.once("exit", r));
  server.child.kill("SIGINT");
  await exited;
}

/** A client-credentials access token from the running server. */
async function accessToken(origin: string, stateDir: string): Promise<string> {
  const created = execFileSync(process.execPath, [BIN, "credentials", "create", "--label", "bench", "--json", "--dir", DEMO, "--state", stateDir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const { clientId, clientSecret } = JSON.parse(created) as { clientId: string; clientSecret: string };
  const form = new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret });
  const res = await fetch(`${origin}/authed/mcp/oauth/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The same `cat` straight through the docs shell, 32 calls in flight, for `seconds`. */
async function inProcessCat(seconds: number): Promise<number> {
  const runtime = await DocsRuntime.load({ root: DEMO });
  const shell = runtime.readerState(localContext()).shell;
  for (let i = 0; i < 300; i++) await shell.run(CAT);
  const start = performance.now();
  let calls = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (performance.now() - start < seconds * 1000) {
        await shell.run(CAT);
        calls++;
      }
    }),
  );
  const rate = calls / ((performance.now() - start) / 1000);
  await runtime.close();
  return rate;
}

export const ms = (r: LoadResult): string =>
  `${r.callsPerSec.toFixed(0)} calls/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, server CPU ${r.cpuMsPerCall.toFixed(3)} ms/call, ${r.errors} errors`;

/**
 * Tool calls per second and latency over loopback against `svc-mcp serve --http` running in its
 * own process, load from another; every search a distinct question with the result cache off
 * (bench/query-stream.ts). Targets (issue 4): >= 1,500 search calls/s at 32 clients on 2
 * cores, p99 <= 50 ms, on /mcp and /authed/mcp; filesystem calls over HTTP within 2x of the
 * docs shell's own rate. The same figures for `--no-shell-worker` (the shell in the server's own
 * thread) are the baseline of the worker design.
 */
export const bridgeSuite: BenchSuite = {
  name: "bridge",
  async run(log) {
    const stateDir = mkdtempSync(join(tmpdir(), "svc-bench-bridge-"));
    const inlineStateDir = mkdtempSync(join(tmpdir(), "svc-bench-bridge-"));
    const rows: BenchRow[] = [];
    const names = { search: "search_nimbus_storage", filesystem: "query_docs_filesystem_nimbus_storage" };
    const fsArgs = JSON.stringify({ command: CAT });
    let server: ServeProcess | undefined;
    try {
      const canned = await cannedServer(JSON.stringify({ result: { content: [{ type: "text", text: "x".repeat(1800) }] }, jsonrpc: "2.0", id: 1 }));
      const baseline = await load(canned.url, 32, names.search, SEARCH);
      canned.server.close();
      log(`demo site; ${SECONDS}s per run; canned node:http x32: ${ms(baseline)}`);

      // The shell in a worker thread (the default of serve --http).
      server = await serve(stateDir);
      const mcp = `${server.origin}/mcp`;
      const pid = server.child.pid;
      for (const clients of [1, 8, 32]) {
        const r = await load(mcp, clients, names.search, SEARCH, { serverPid: pid, traffic: "distinct" });
        log(`search x${clients}: ${ms(r)}`);
        const last = clients === 32;
        const label = `${clients} client${clients === 1 ? "" : "s"}, distinct questions, result cache off`;
        rows.push({
          area: "bridge",
          metric: `search calls/s, ${label}`,
          value: Math.round(r.callsPerSec),
          unit: "calls/s",
          ...(last ? { baseline: { name: "node:http canned answer", value: Math.round(baseline.callsPerSec) }, target: ">= 1500", ok: r.callsPerSec >= 1500 } : {}),
        });
        rows.push({ area: "bridge", metric: `search p50, ${label}`, value: r.p50, unit: "ms" });
        rows.push({
          area: "bridge",
          metric: `search p99, ${label}`,
          value: r.p99,
          unit: "ms",
          ...(last ? { baseline: { name: "node:http canned answer", value: baseline.p99 }, target: "<= 50", ok: r.p99 <= 50 } : {}),
        });
      }
      const fs = await load(mcp, 32, names.filesystem, fsArgs, { serverPid: pid });
      log(`filesystem (cat) x32: ${ms(fs)}`);
      // After filesystem traffic: the figures a server that serves both tools has.
      const searchAfter = await load(mcp, 32, names.search, SEARCH, { serverPid: pid, traffic: "distinct" });
      log(`search x32 after filesystem traffic: ${ms(searchAfter)}`);
      const token = await accessToken(server.origin, stateDir);
      const authed = await load(`${server.origin}/authed/mcp`, 32, names.search, SEARCH, { token, serverPid: pid, traffic: "distinct" });
      log(`authed search x32 (client-credentials token, checked per call): ${ms(authed)}`);
      await stop(server);

      // Baseline: the shell in the server's own thread.
      server = await serve(inlineStateDir, ["--no-shell-worker"]);
      const inlinePid = server.child.pid;
      const fsInline = await load(`${server.origin}/mcp`, 32, names.filesystem, fsArgs, { serverPid: inlinePid });
      log(`--no-shell-worker: filesystem (cat) x32: ${ms(fsInline)}`);
      const searchAfterInline = await load(`${server.origin}/mcp`, 32, names.search, SEARCH, { serverPid: inlinePid, traffic: "distinct" });
      log(`--no-shell-worker: search x32 after filesystem traffic: ${ms(searchAfterInline)}`);
      const authedInline = await load(`${server.origin}/authed/mcp`, 32, names.search, SEARCH, {
        token: await accessToken(server.origin, inlineStateDir),
        serverPid: inlinePid,
        traffic: "distinct",
      });
      log(`--no-shell-worker: authed search x32: ${ms(authedInline)}`);
      await stop(server);
      server = undefined;

      const direct = await inProcessCat(SECONDS);
      log(`docs shell in-process, 32 concurrent: ${direct.toFixed(0)} calls/s`);

      const inThread = "--no-shell-worker";
      rows.push(
        {
          area: "bridge",
          metric: "filesystem (cat) calls/s over HTTP, 32 clients, vs the docs shell called in-process (32 in flight)",
          value: Math.round(fs.callsPerSec),
          unit: "calls/s",
          baseline: { name: "in-process", value: Math.round(direct) },
          target: ">= 0.5x in-process",
          ok: fs.callsPerSec >= 0.5 * direct,
        },
        { area: "bridge", metric: "filesystem (cat) calls/s, 32 clients, vs shell in the server thread", value: Math.round(fs.callsPerSec), unit: "calls/s", baseline: { name: inThread, value: Math.round(fsInline.callsPerSec) } },
        { area: "bridge", metric: "filesystem (cat) server CPU per call, 32 clients", value: fs.cpuMsPerCall, unit: "ms", baseline: { name: inThread, value: fsInline.cpuMsPerCall } },
        { area: "bridge", metric: "filesystem (cat) p50, 32 clients", value: fs.p50, unit: "ms", baseline: { name: inThread, value: fsInline.p50 } },
        { area: "bridge", metric: "filesystem (cat) p99, 32 clients", value: fs.p99, unit: "ms", baseline: { name: inThread, value: fsInline.p99 } },
        {
          area: "bridge",
          metric: "search calls/s after filesystem traffic, 32 clients, distinct questions, result cache off",
          value: Math.round(searchAfter.callsPerSec),
          unit: "calls/s",
          baseline: { name: inThread, value: Math.round(searchAfterInline.callsPerSec) },
          target: ">= 1500",
          ok: searchAfter.callsPerSec >= 1500,
        },
        {
          area: "bridge",
          metric: "search server CPU per call after filesystem traffic, 32 clients, distinct questions, result cache off",
          value: searchAfter.cpuMsPerCall,
          unit: "ms",
          baseline: { name: inThread, value: searchAfterInline.cpuMsPerCall },
        },
        { area: "bridge", metric: "search p99 after filesystem traffic, 32 clients, distinct questions, result cache off", value: searchAfter.p99, unit: "ms", baseline: { name: inThread, value: searchAfterInline.p99 }, target: "<= 50", ok: searchAfter.p99 <= 50 },
        {
          area: "bridge",
          metric: "authed search calls/s (bearer checked per call), 32 clients, distinct questions, result cache off",
          value: Math.round(authed.callsPerSec),
          unit: "calls/s",
          baseline: { name: inThread, value: Math.round(authedInline.callsPerSec) },
          target: ">= 1500",
          ok: authed.callsPerSec >= 1500,
        },
        { area: "bridge", metric: "authed search server CPU per call, 32 clients, distinct questions, result cache off", value: authed.cpuMsPerCall, unit: "ms", baseline: { name: inThread, value: authedInline.cpuMsPerCall } },
        { area: "bridge", metric: "authed search p99, 32 clients, distinct questions, result cache off", value: authed.p99, unit: "ms", baseline: { name: inThread, value: authedInline.p99 }, target: "<= 50", ok: authed.p99 <= 50 },
      );
      const errors = [fs, searchAfter, authed, fsInline, searchAfterInline, authedInline].reduce((n, r) => n + r.errors, 0);
      if (errors > 0) log(`warning: ${errors} failed calls`);
    } finally {
      if (server !== undefined) await stop(server);
      rmSync(stateDir, { recursive: true, force: true });
      rmSync(inlineStateDir, { recursive: true, force: true });
    }
    return rows;
  },
};
