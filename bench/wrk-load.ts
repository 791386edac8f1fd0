import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuMs, mainThreadCpuMs, reapedChildrenCpuMs } from "./cpu-time.js";
import { QueryStream, type Traffic, wrkQueryFunction } from "./query-stream.js";

/**
 * Load from wrk (Debian's `wrk`, written in C): on a 2-core machine the load generator shares
 * the cores with the server, and a Node client spends about as much CPU per call as the server
 * does on a cached search, so it caps what two workers can show. wrk costs a fraction of that.
 * In the 2025 generation one MCP session (2025-11-25) is opened first and wrk's connections all
 * send `tools/call` in it (a session may be used from several connections; with workers, any
 * worker takes it up); 2026-07-28 calls are stateless. Each request has an id of its own (wrk's
 * one thread counts them).
 */

/** Whether wrk is installed (the rows that need it are skipped, with a line saying so, if not). */
export function wrkMissing(): string | undefined {
  return spawnSync("wrk", ["--version"]).error === undefined ? undefined : "wrk is not installed (apt-get install -y wrk)";
}

export interface WrkResult {
  readonly callsPerSec: number;
  readonly p99: number;
  /** Answers other than 200 (wrk's "Non-2xx or 3xx responses"). */
  readonly errors: number;
  /** CPU of the server's processes (`serverPids`, all threads) per call in the measured run, in ms. */
  readonly cpuMsPerCall: number;
  /** The part of `cpuMsPerCall` spent on the processes' main threads (JavaScript); the rest is their other threads (GC helpers, compiler, libuv). */
  readonly mainThreadCpuMsPerCall: number;
  /** CPU of the database's processes serving it (`databasePids`) per call, in ms; NaN without. */
  readonly dbCpuMsPerCall: number;
  /** Calls sent in the warm-up before the measured run (answered or in flight at its end). */
  readonly warmUpCalls: number;
  /** Transactions the database committed or rolled back (`databaseTransactions`) per call: its round trips, a statement outside a transaction being one; NaN without. */
  readonly dbTransactionsPerCall: number;
  /** wrk's own CPU per call in the measured run, in ms: what the client takes of the cores the server shares with it. */
  readonly wrkCpuMsPerCall: number;
}

/** How long a PostgreSQL backend may keep its counts before `pg_stat_database` has them (it reports them at most once a second, and within a second of going idle). */
const STATS_FLUSH_MS = 2_000;

/** Where the query goes in the template body, replaced by the stream's question per request. */
const PLACEHOLDER = "\u0000svc-query\u0000";
/** The longest warm-up `warmUpCalls` may take (a busy machine answers a few dozen calls a second). */
const WARM_UP_MAX_MS = 120_000;

/**
 * Calls a fresh server process answers before its CPU per call settles, from the bench's
 * default: V8 compiles the search and the HTTP path as calls come, on its helper threads, for the
 * first couple of thousand distinct questions (one worker under this traffic, 400 calls a round:
 * compilation 27% of the process's CPU in the first round, 4% by the fifth, the CPU per call
 * halving meanwhile). Each worker of `--workers N` compiles its own code, so a warm-up of a fixed
 * time gives each of 2 workers half the calls one worker gets, and measures more of their
 * compilation per call: the steady state is compared by calls per worker.
 */
export const WARM_UP_CALLS_PER_WORKER = Number(process.env.BENCH_WARM_UP_CALLS ?? 3000);

/** One stream for every run: the questions of bench/eval, in a fixed order. */
const STREAM = new QueryStream();

/** The 2025 generation opens a session for wrk's connections to share; 2026-07-28 has none. */
export type WrkProtocol = "2025-11-25" | "2026-07-28";

/** Headers and body of one `tools/call` (id 1) in `protocol`, ready to repeat. */
async function callTemplate(url: string, protocol: WrkProtocol, tool: string, args: string, extra: Readonly<Record<string, string>>): Promise<{ headers: Record<string, string>; body: string }> {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", ...extra };
  if (protocol === "2026-07-28") {
    const _meta = { "io.modelcontextprotocol/protocolVersion": protocol, "io.modelcontextprotocol/clientInfo": { name: "bench-wrk", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: JSON.parse(args) as unknown, _meta } });
    return { headers: { ...headers, "mcp-protocol-version": protocol, "mcp-method": "tools/call", "mcp-name": tool }, body };
  }
  const initialize = (): Promise<Response> =>
    fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: protocol, capabilities: {}, clientInfo: { name: "bench-wrk", version: "1" } } }),
    });
  // As the probe below: a kept-alive connection the server closed meanwhile fails the POST once.
  const init = await initialize().catch(initialize);
  const session = init.headers.get("mcp-session-id");
  if (init.status !== 200 || session === null) throw new Error(`initialize: ${init.status} ${await init.text()}`);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: JSON.parse(args) as unknown } });
  return { headers: { ...headers, "mcp-session-id": session, "mcp-protocol-version": protocol }, body };
}

/**
 * `connections` keep-alive connections calling `tool` with `args` for `seconds` (after a 2 s
 * warm-up, repeated until `warmUpCalls` are answered, for at most 2 minutes). `measured` is
 * awaited just before and just after the measured run (bench/loop-probe.ts reads its counts). With `traffic: "distinct"`, `args` must have a `query`, and each request asks the
 * next question of the query stream instead (bench/query-stream.ts; the warm-up's questions are
 * not asked again in the measured run).
 */
export async function wrkLoad(
  url: string,
  connections: number,
  seconds: number,
  tool: string,
  args: string,
  options: {
    protocol?: WrkProtocol;
    serverPids?: readonly number[];
    traffic?: Traffic;
    databasePids?: () => Promise<readonly number[]>;
    databaseTransactions?: () => Promise<number>;
    warmUpCalls?: number;
    /** Sent with every request besides the protocol's own (an `authorization` for `/authed/mcp`). */
    headers?: Readonly<Record<string, string>>;
    /** Called just before and after the measured run (the probe's marks). */
    measured?: (phase: "start" | "end") => Promise<void>;
  } = {},
): Promise<WrkResult> {
  const protocol = options.protocol ?? "2025-11-25";
  const distinct = options.traffic === "distinct";
  const serverCpu = (): number => (options.serverPids ?? []).reduce((sum, pid) => sum + cpuMs(pid), 0);
  const mainCpu = (): number => (options.serverPids ?? []).reduce((sum, pid) => sum + mainThreadCpuMs(pid), 0);
  const { headers: sessionHeaders, body } = await callTemplate(url, protocol, tool, distinct ? JSON.stringify({ ...(JSON.parse(args) as object), query: PLACEHOLDER }) : args, options.headers ?? {});
  // The call must succeed before it is repeated: a tool error is also a 200.
  const probeOnce = (): Promise<Response> => fetch(url, { method: "POST", headers: sessionHeaders, body: body.replace(JSON.stringify(PLACEHOLDER), JSON.stringify("probe before the load")) });
  // A kept-alive connection the server closed while other sides ran (its keep-alive timeout) fails
  // the POST once ("other side closed"); fetch retries no POST, so the probe is sent again.
  const probe = await probeOnce().catch(probeOnce);
  const text = await probe.text();
  if (probe.status !== 200 || text.includes('"isError":true') || text.includes('"error":{')) throw new Error(`tools/call: ${probe.status} ${text.slice(0, 300)}`);
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-wrk-"));
  try {
    const script = join(dir, "post.lua");
    // Each request its own JSON-RPC id, as a client must within a session: with one id repeated
    // by 32 connections at once, a session's answers wait on each other (the same call took
    // 2.5 times the server CPU and half the rate, with rate limits counted).
    const [head, tail] = body.split('"id":1,') as [string, string];
    // Distinct questions: the query's JSON string comes from `svc_query`, call by call (the
    // warm-up run's calls and the measured run's are one count: wrk runs the script afresh each
    // time, so the measured run starts after the warm-up's questions, at `start`).
    const [beforeQuery, afterQuery] = distinct ? (tail.split(JSON.stringify(PLACEHOLDER)) as [string, string]) : [tail, ""];
    const rest = distinct ? `${JSON.stringify("," + beforeQuery)} .. svc_query(start + n - 1) .. ${JSON.stringify(afterQuery)}` : JSON.stringify("," + tail);
    const writeScript = (start: number): void =>
      writeFileSync(
        script,
        [
          ...(distinct ? [wrkQueryFunction(STREAM), `local start = ${start}`] : []),
          `wrk.method = "POST"`,
          ...Object.entries(sessionHeaders).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
          "local n = 0",
          "request = function()",
          "  n = n + 1",
          `  return wrk.format(nil, nil, nil, ${JSON.stringify(head + '"id":')} .. n .. ${rest})`,
          "end",
          "",
        ].join("\n"),
      );
    const run = (s: number, latency: boolean): string =>
      execFileSync("wrk", ["-t1", `-c${connections}`, `-d${s}s`, ...(latency ? ["--latency"] : []), "-s", script, url], { encoding: "utf8" });
    writeScript(0);
    let warmedUp = 0;
    const warmUpStart = performance.now();
    do {
      const warm = run(2, false);
      // wrk counts requests sent, some still unanswered at its end: skip past them all.
      warmedUp += Number(/(\d+) requests in/.exec(warm)?.[1] ?? 0) + connections;
      writeScript(warmedUp);
    } while (warmedUp < (options.warmUpCalls ?? 0) && performance.now() - warmUpStart < WARM_UP_MAX_MS);
    const transactions = async (): Promise<number> => {
      if (options.databaseTransactions === undefined) return Number.NaN;
      await new Promise((resolve) => setTimeout(resolve, STATS_FLUSH_MS));
      return options.databaseTransactions();
    };
    const transactionsBefore = await transactions();
    const dbBefore = new Map((await (options.databasePids?.() ?? Promise.resolve([]))).map((pid) => [pid, cpuMs(pid)]));
    await options.measured?.("start");
    const cpuBefore = serverCpu();
    const mainBefore = mainCpu();
    const wrkBefore = reapedChildrenCpuMs();
    const out = run(seconds, true);
    const wrkCpu = reapedChildrenCpuMs() - wrkBefore;
    const cpu = serverCpu() - cpuBefore;
    const main = mainCpu() - mainBefore;
    await options.measured?.("end");
    // A database process started during the run (a pool's new connection) counts from zero.
    const dbCpu = options.databasePids === undefined ? Number.NaN : (await options.databasePids()).reduce((sum, pid) => sum + cpuMs(pid) - (dbBefore.get(pid) ?? 0), 0);
    const transactionsDuring = (await transactions()) - transactionsBefore;
    const rate = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
    const p99 = /99%\s+([\d.]+)(us|ms|s)\b/.exec(out);
    if (rate === undefined || p99 === null) throw new Error(`unreadable wrk output:\n${out}`);
    const scale = p99[2] === "us" ? 0.001 : p99[2] === "s" ? 1000 : 1;
    const calls = Number(/(\d+) requests in/.exec(out)?.[1] ?? Number.NaN);
    return {
      callsPerSec: Number(rate),
      p99: Math.round(Number(p99[1]) * scale * 100) / 100,
      errors: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
      cpuMsPerCall: Math.round((cpu / calls) * 1000) / 1000,
      mainThreadCpuMsPerCall: Math.round((main / calls) * 1000) / 1000,
      dbCpuMsPerCall: Math.round((dbCpu / calls) * 1000) / 1000,
      warmUpCalls: warmedUp,
      dbTransactionsPerCall: Math.round((transactionsDuring / calls) * 1000) / 1000,
      wrkCpuMsPerCall: Math.round((wrkCpu / calls) * 1000) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
