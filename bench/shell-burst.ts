import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { REPO } from "../test/helpers/paths.js";

/**
 * The start of a burst of runaways against a trusted reader (docs/security.md row 169): a fresh
 * `serve --http` of `BURST_SITE` (default fixtures/demo), a reader from 127.0.0.2 whose two
 * `cat`s answered (trusted), its pool back to the workers it keeps warm; then `BURST_ADDRESSES`
 * (20) fresh loopback addresses each send one `BURST_COMMAND` (a jq that burns CPU until it is
 * stopped) at once, while the reader loops its `cat` (`BURST_WATCH_MS`, 30 s, or until every
 * runaway answered) and a newcomer (127.0.1.x) sends one.
 * Prints, per burst, the reader's first and slowest `cat`, the newcomer's, and from the pool's
 * trace (`bench/pool-trace.mjs`) how the reader's slowest call spent its time.
 *
 *   BURST_BINS=before=/tmp/b/bin/svc-mcp.js,after=bin/svc-mcp.js BURST_ROUNDS=5 node --import tsx bench/shell-burst.ts
 */
const SITE = process.env.BURST_SITE ?? join(REPO, "fixtures", "demo");
const COMMAND = process.env.BURST_COMMAND ?? 'jq -n "[limit(100000000; repeat(1))] | length"';
const READ = process.env.BURST_READ ?? "cat /quickstart.mdx";
const ADDRESSES = Number(process.env.BURST_ADDRESSES ?? 20);
const ROUNDS = Number(process.env.BURST_ROUNDS ?? 5);
const READER = "127.0.0.2";
/** How long the reader loops its `cat` from the burst's start (or until every runaway answered): the start is what row 169 is about. */
const WATCH_MS = Number(process.env.BURST_WATCH_MS ?? 30_000);
const BINS = (process.env.BURST_BINS ?? `this=${join(REPO, "bin", "svc-mcp.js")}`).split(",").map((pair) => {
  const [name, path] = pair.split("=");
  return { name: name ?? "", path: path ?? "" };
});
const OFF = ["ip", "search", "filesystem", "authed-search", "authed-filesystem"].flatMap((k) => ["--rate-limit", `${k}=off`]);
const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "shell-burst", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

async function serve(bin: string, trace: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ["--import", join(REPO, "bench", "pool-trace.mjs"), bin, "serve", "--http", "--port", "0", "--no-watch", "--dir", SITE, ...OFF], {
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
  return { child, port };
}

function call(port: number, address: string, method: string, params: Record<string, unknown>): Promise<unknown> {
  const agent = new Agent({ keepAlive: false });
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: ENVELOPE } });
  const name = typeof params.name === "string" ? { "Mcp-Name": params.name } : {};
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, localAddress: address,
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, ...name, "Content-Length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function exitCodeOf(answer: unknown): number | undefined {
  return (answer as { result?: { structuredContent?: { exitCode?: number } } }).result?.structuredContent?.exitCode;
}

async function timed(port: number, address: string, tool: string, command: string): Promise<{ ms: number; at: number; code: number | undefined }> {
  const at = Date.now();
  const t = performance.now();
  const answer = await call(port, address, "tools/call", { name: tool, arguments: { command } });
  return { ms: performance.now() - t, at, code: exitCodeOf(answer) };
}

interface TraceLine { readonly at: number; readonly t: string; readonly call?: number; readonly worker?: number; readonly caller?: string }

/** The reader's slowest call in the trace: queued to started, and the pool's starts and loads meanwhile. */
function explain(trace: TraceLine[], from: number, to: number): string {
  const q = trace.find((e) => e.t === "queued" && e.caller === `address:${READER}` && e.at >= from && e.at <= to);
  if (q === undefined) return "not in the trace";
  const s = trace.find((e) => e.t === "start" && e.call === q.call);
  const between = trace.filter((e) => e.at >= q.at && e.at <= (s?.at ?? to));
  const count = (t: string): number => between.filter((e) => e.t === t).length;
  return `queued->start ${s === undefined ? "?" : (s.at - q.at).toFixed(0)} ms on w${s?.worker}; meanwhile spawn ${count("spawn")}, loaded ${count("loaded")}, preempted ${count("preempted")}, starts ${count("start")}`;
}

async function burst(bin: string, trace: string, round: number): Promise<string> {
  const { child, port } = await serve(bin, trace);
  try {
    const list = (await call(port, READER, "tools/list", {})) as { result: { tools: { name: string }[] } };
    const tool = list.result.tools.map((t) => t.name).find((n) => n.startsWith("query_docs_filesystem_")) ?? "";
    for (let k = 0; k < 2; k++) await timed(port, READER, tool, READ);
    // The pool back to what it keeps warm (its spare started for the reader's first call).
    await sleep(3_000);
    const fresh = Array.from({ length: ADDRESSES }, (_, k) => `127.0.${10 + round}.${k + 1}`);
    // Not awaited past the watch: the server is stopped under those still running (no answer).
    const runaways = fresh.map((address) => timed(port, address, tool, COMMAND).catch(() => ({ ms: NaN, at: 0, code: undefined })));
    const newcomer = timed(port, `127.0.1.${round}`, tool, READ);
    const answered: (number | undefined)[] = [];
    for (const r of runaways) void r.then((a) => (a.at > 0 ? answered.push(a.code) : 0));
    const until = performance.now() + WATCH_MS;
    const reads: { ms: number; at: number; code: number | undefined }[] = [];
    while (answered.length < runaways.length && performance.now() < until) reads.push(await timed(port, READER, tool, READ));
    const n = await newcomer;
    const codes = `${answered.length} of ${runaways.length} answered (exit ${answered.join(",")})`;
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    const lines = readFileSync(trace, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as TraceLine);
    const slow = reads.reduce((a, b) => (b.ms > a.ms ? b : a));
    const bad = reads.filter((r) => r.code !== 0).length;
    return `reader: first ${reads[0]?.ms.toFixed(0)} ms, max ${slow.ms.toFixed(0)} ms, ${reads.length} reads (${bad} not exit 0), over 1 s ${reads.filter((r) => r.ms > 1000).length}; newcomer ${n.ms.toFixed(0)} ms (exit ${n.code}); runaways ${codes}\n    reader's slowest: ${explain(lines, slow.at - 5, slow.at + slow.ms + 5)}`;
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}

const dir = mkdtempSync(join(tmpdir(), "shell-burst-"));
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const bin of BINS) {
      const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
      console.log(`${bin.name} burst ${round} (load ${load}): ${await burst(bin.path, join(dir, `trace-${bin.name}-${round}.jsonl`), round)}`);
    }
  }
} finally {
  if (process.env.BURST_KEEP === undefined) rmSync(dir, { recursive: true, force: true });
  else console.log(`traces in ${dir}`);
}
