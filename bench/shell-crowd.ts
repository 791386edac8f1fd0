import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { REPO, SHARED } from "../test/helpers/paths.js";
import { percentile } from "./bench.js";

/**
 * A crowd of runaways against one reader, over the HTTP bridge (`serve --http`, a spawned
 * process as deployed, rate limits off so only the shell pool acts): `CROWD_LANES` keep-alive
 * connections (32) from `CROWD_ADDRESSES` loopback addresses (4: 127.0.0.2-5, the client socket
 * bound to each with `localAddress`: the bridge tells callers apart by the socket's address)
 * each loop `CROWD_COMMAND` (a jq that ends at the worker's 5 s CPU limit) for `CROWD_MS` (30 s),
 * while a victim from 127.0.0.9 loops `echo hi` on one connection of its own. Prints the
 * victim's calls, p50, p95, p99 and max, the attackers' answers by exit status, and from the
 * pool's own trace (`bench/pool-trace.mjs`, preloaded into the server) where the victim's
 * slowest calls spent their time: waiting in the pool's queue or running, and what the pool did
 * meanwhile (workers ended and started, calls stopped, event-loop stalls, GC).
 *
 * Several builds side by side on one machine in one run: `CROWD_BINS=before=/tmp/b/bin/svc-mcp.js,after=bin/svc-mcp.js`
 * (default: this checkout's), each served in turn, `CROWD_ROUNDS` times (alternating), on the
 * same copy of `CROWD_SITE` (default ../shared/corpora/spree).
 *
 *   node --import tsx bench/shell-crowd.ts
 */
const SITE = process.env.CROWD_SITE ?? join(SHARED, "corpora", "spree");
const COMMAND = process.env.CROWD_COMMAND ?? 'jq -n "[limit(100000000; repeat(1))] | length"';
const VICTIM_COMMAND = process.env.CROWD_VICTIM_COMMAND ?? "echo hi";
const MS = Number(process.env.CROWD_MS ?? 30_000);
const LANES = Number(process.env.CROWD_LANES ?? 32);
const ADDRESSES = Number(process.env.CROWD_ADDRESSES ?? 4);
const ROUNDS = Number(process.env.CROWD_ROUNDS ?? 1);
const DELAY_MS = Number(process.env.CROWD_VICTIM_DELAY_MS ?? 0);
const VICTIM = "127.0.0.9";
const BINS = (process.env.CROWD_BINS ?? `this=${join(REPO, "bin", "svc-mcp.js")}`).split(",").map((pair) => {
  const [name, path] = pair.split("=");
  return { name: name ?? "", path: path ?? "" };
});
const OFF = ["ip", "search", "filesystem", "authed-search", "authed-filesystem"].flatMap((k) => ["--rate-limit", `${k}=off`]);
const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "shell-crowd", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

interface Served {
  readonly child: ChildProcess;
  readonly port: number;
  readonly trace: string;
}

async function serve(bin: string, dir: string, trace: string): Promise<Served> {
  const child = spawn(process.execPath, ["--import", join(REPO, "bench", "pool-trace.mjs"), bin, "serve", "--http", "--port", "0", "--no-watch", "--dir", dir, ...OFF], {
    env: { ...process.env, SVC_POOL_TRACE: trace },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const lines: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    let url: string | undefined;
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lines.push(line);
      const m = /^svc-mcp: MCP \(public\): +http:\/\/127\.0\.0\.1:(\d+)\/mcp$/.exec(line);
      if (m !== null) url = m[1];
      if (url !== undefined && line.includes("site auth")) resolve(Number(url));
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}:\n${lines.join("\n")}`)));
  });
  return { child, port, trace };
}

/** One keep-alive connection from `address` (the socket bound to it). */
function lane(port: number, address: string): (method: string, params: Record<string, unknown>) => Promise<unknown> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return (method, params) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: ENVELOPE } });
      const name = typeof params.name === "string" ? { "Mcp-Name": params.name } : {};
      const req = request(
        {
          host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, localAddress: address,
          headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, ...name, "Content-Length": Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
            } catch (error) {
              reject(error as Error);
            }
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });
}

function exitCodeOf(answer: unknown): string {
  const r = (answer as { result?: { structuredContent?: { exitCode?: number } }; error?: { code?: number } } | undefined);
  if (r?.error !== undefined) return `error ${r.error.code}`;
  return String(r?.result?.structuredContent?.exitCode ?? "?");
}

interface TraceLine {
  readonly at: number;
  readonly t: string;
  readonly call?: number;
  readonly worker?: number;
  readonly caller?: string;
  readonly how?: string;
  readonly why?: string;
  readonly ms?: number;
}

interface Outcome {
  readonly victim: number[];
  /** When each victim call was sent (epoch ms), to find it in the trace. */
  readonly sentAt: number[];
  readonly attackers: Map<string, number>;
}

async function crowd(port: number, tool: string): Promise<Outcome> {
  const attackers = new Map<string, number>();
  const victim: number[] = [];
  const sentAt: number[] = [];
  const until = performance.now() + MS;
  const attack = Array.from({ length: LANES }, async (_, k) => {
    const over = lane(port, `127.0.0.${2 + (k % ADDRESSES)}`);
    while (performance.now() < until) {
      const answer = await over("tools/call", { name: tool, arguments: { command: COMMAND } }).catch((error: Error) => ({ error: { code: error.message } }));
      const code = exitCodeOf(answer);
      attackers.set(code, (attackers.get(code) ?? 0) + 1);
    }
  });
  const over = lane(port, VICTIM);
  // The adversary's victim started with the crowd (`CROWD_VICTIM_DELAY_MS` lets the crowd hold the pool first).
  await sleep(DELAY_MS);
  while (performance.now() < until) {
    sentAt.push(performance.timeOrigin + performance.now());
    const t = performance.now();
    const answer = await over("tools/call", { name: tool, arguments: { command: VICTIM_COMMAND } });
    victim.push(performance.now() - t);
    if (exitCodeOf(answer) !== "0") attackers.set(`victim ${exitCodeOf(answer)}`, (attackers.get(`victim ${exitCodeOf(answer)}`) ?? 0) + 1);
  }
  await Promise.all(attack);
  return { victim, sentAt, attackers };
}

const fmt = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

/** What the trace says of the run: the pool's workers and stalls, and the victim's slowest calls. */
function analyse(trace: TraceLine[], outcome: Outcome): string[] {
  const out: string[] = [];
  const callerOf = new Map<number, string>();
  const queuedAt = new Map<number, number>();
  const startAt = new Map<number, number>();
  const workerOf = new Map<number, number>();
  const endAt = new Map<number, number>();
  const spawnAt = new Map<number, number>();
  const ready: number[] = [];
  const exits = new Map<string, number>();
  for (const e of trace) {
    if (e.t === "queued" && e.call !== undefined) {
      callerOf.set(e.call, e.caller ?? "");
      queuedAt.set(e.call, e.at);
    } else if (e.t === "start" && e.call !== undefined) {
      startAt.set(e.call, e.at);
      workerOf.set(e.call, e.worker ?? 0);
    } else if (e.t === "end" && e.call !== undefined) endAt.set(e.call, e.at);
    else if (e.t === "spawn" && e.worker !== undefined) spawnAt.set(e.worker, e.at);
    else if (e.t === "loaded" && e.worker !== undefined && spawnAt.has(e.worker)) {
      ready.push(e.at - (spawnAt.get(e.worker) as number));
      spawnAt.delete(e.worker);
    } else if (e.t === "exit") exits.set(e.why ?? "", (exits.get(e.why ?? "") ?? 0) + 1);
  }
  const stalls = trace.filter((e) => e.t === "loop-stall");
  const gcs = trace.filter((e) => e.t === "gc");
  out.push(
    `  pool: workers ended ${JSON.stringify(Object.fromEntries(exits))}, started ${ready.length} (spawn to loaded p50 ${fmt(percentile(ready, 50))} ms, max ${fmt(Math.max(0, ...ready))} ms); ` +
      `main-thread stalls >20 ms: ${stalls.length} (max ${Math.max(0, ...stalls.map((s) => s.ms ?? 0))} ms); GC >=5 ms: ${gcs.length} (max ${Math.max(0, ...gcs.map((s) => s.ms ?? 0))} ms)`,
  );
  const victimCalls = [...callerOf].filter(([, c]) => c === `address:${VICTIM}`).map(([id]) => id);
  const waits = victimCalls.filter((id) => startAt.has(id)).map((id) => (startAt.get(id) as number) - (queuedAt.get(id) as number));
  const runs = victimCalls.filter((id) => endAt.has(id) && startAt.has(id)).map((id) => (endAt.get(id) as number) - (startAt.get(id) as number));
  out.push(`  victim in the pool: queue wait p50 ${fmt(percentile(waits, 50))} p95 ${fmt(percentile(waits, 95))} max ${fmt(Math.max(0, ...waits))} ms; run (start to end) p50 ${fmt(percentile(runs, 50))} p95 ${fmt(percentile(runs, 95))} max ${fmt(Math.max(0, ...runs))} ms`);
  // The slowest victim calls, each with what happened in the pool while it was out.
  const slow = outcome.victim.map((ms, k) => ({ ms, k })).sort((a, b) => b.ms - a.ms).slice(0, 3);
  for (const { ms, k } of slow) {
    const from = outcome.sentAt[k] as number;
    const to = from + ms;
    const id = victimCalls.find((c) => (queuedAt.get(c) as number) >= from && (queuedAt.get(c) as number) <= to);
    const q = id === undefined ? undefined : queuedAt.get(id);
    const s = id === undefined ? undefined : startAt.get(id);
    const en = id === undefined ? undefined : endAt.get(id);
    const between = trace.filter((e) => e.at >= from && e.at <= to);
    const counts = new Map<string, number>();
    for (const e of between) if (["exit", "spawn", "loaded", "preempted", "requeued", "start", "end"].includes(e.t)) counts.set(e.t, (counts.get(e.t) ?? 0) + 1);
    // Who held the workers when the victim's call was queued.
    const holders: string[] = [];
    if (q !== undefined) {
      for (const [call, at] of startAt) {
        if (at <= q && (endAt.get(call) ?? Infinity) > q) holders.push(`w${workerOf.get(call)}:${(callerOf.get(call) ?? "?").replace("address:", "")}`);
      }
    }
    const stalled = between.filter((e) => e.t === "loop-stall").map((e) => e.ms);
    const gc = between.filter((e) => e.t === "gc").map((e) => e.ms);
    out.push(
      `  slow victim call ${fmt(ms)} ms: http->queued ${q === undefined ? "?" : fmt(q - from)}, queued->start ${q === undefined || s === undefined ? "?" : fmt(s - q)}, start->end ${s === undefined || en === undefined ? "?" : fmt(en - s)}, end->http ${en === undefined ? "?" : fmt(to - en)} ms` +
        (id !== undefined && s !== undefined ? ` on w${workerOf.get(id)}` : "") +
        `; meanwhile ${JSON.stringify(Object.fromEntries(counts))}, loop stalls ${JSON.stringify(stalled)}, GC ${JSON.stringify(gc)}; workers held at queue: [${holders.join(" ")}]`,
    );
  }
  return out;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "shell-crowd-"));
  const site = join(dir, "site");
  cpSync(SITE, site, { recursive: true });
  const report: string[] = [`shell-crowd: ${LANES} connections from ${ADDRESSES} addresses looping ${JSON.stringify(COMMAND)} for ${MS / 1000} s; victim ${VICTIM} looping ${JSON.stringify(VICTIM_COMMAND)}; site ${SITE}`];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const bin of BINS) {
        const served = await serve(bin.path, site, join(dir, `trace-${bin.name}-${round}.jsonl`));
        try {
          const list = (await lane(served.port, VICTIM)("tools/list", {})) as { result: { tools: { name: string }[] } };
          const tool = list.result.tools.map((t) => t.name).find((n) => n.startsWith("query_docs_filesystem_")) ?? "";
          const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
          const outcome = await crowd(served.port, tool);
          served.child.kill("SIGTERM");
          await new Promise((resolve) => served.child.once("exit", resolve));
          const trace = readFileSync(served.trace, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as TraceLine);
          const v = outcome.victim;
          report.push(
            `${bin.name} round ${round} (load before ${load}): victim ${v.length} calls, p50 ${fmt(percentile(v, 50))} ms, p95 ${fmt(percentile(v, 95))} ms, p99 ${fmt(percentile(v, 99))} ms, max ${fmt(Math.max(...v))} ms; ` +
              `first ${fmt(v[0] ?? NaN)} ms, calls over 100 ms ${v.filter((ms) => ms > 100).length}, over 1 s ${v.filter((ms) => ms > 1000).length}; answers ${JSON.stringify(Object.fromEntries(outcome.attackers))}`,
            ...analyse(trace, outcome),
          );
          console.log(report.slice(-1 - 5).join("\n"));
        } finally {
          if (served.child.exitCode === null) served.child.kill("SIGKILL");
        }
      }
    }
  } finally {
    // CROWD_KEEP=1 keeps the traces (trace-<build>-<round>.jsonl) to read further.
    if (process.env.CROWD_KEEP === undefined) rmSync(dir, { recursive: true, force: true });
    else report.push(`traces kept in ${dir}`);
  }
  console.log(`\n${report.join("\n")}`);
}

await main();
