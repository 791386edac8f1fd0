import { Agent, request } from "node:http";
import { cpuMs } from "./cpu-time.js";
import { QueryStream } from "./query-stream.js";

/**
 * Load generator for `bench/bridge.bench.ts` and `bench/protocol.bench.ts`, run as its own
 * process so that on a 2-core machine the client's work does not share an event loop with the
 * server's. In a 2025 revision it opens one MCP session per client over keep-alive connections;
 * at 2026-07-28 there is no session, and every request carries the protocol version and the
 * client's identity in `_meta` (and the `Mcp-Method`/`Mcp-Name` headers). Then it sends tool
 * calls back to back.
 *
 * One revision: calls for SECONDS after WARMUP seconds; prints `{ calls, errors, seconds,
 * latencies, allCalls }` as JSON on stdout (`allCalls` counts the warm-up too, for CPU time per
 * call). Several revisions (comma-separated) with ROUNDS: the sessions of every revision are
 * opened first, each revision is warmed up for WARMUP seconds, then ROUNDS rounds run every
 * revision for SECONDS in turn (the first place rotating), so that the machine's load falls on
 * each alike; prints `{ slices: [{ protocol, calls, errors, seconds, p50, p99, cpuMs }] }`, with
 * the CPU time SERVER_PID used in each slice (its in-flight calls drained before the next).
 *
 * TRAFFIC `distinct` replaces the arguments' `query` in every call with the next question of the
 * query stream (bench/query-stream.ts: no two calls of the run alike, all clients drawing from
 * one stream); `repeated` (the default) sends the arguments as given.
 *
 * argv: url clients seconds warmupSeconds toolName argumentsJson [bearerToken] [protocolVersion[,...]] [rounds] [serverPid] [traffic]
 */
const [url, clientsArg, secondsArg, warmupArg, toolName, argsJson, token, protocolArg, roundsArg, serverPidArg, trafficArg] = process.argv.slice(2);
if (url === undefined || toolName === undefined || argsJson === undefined) {
  process.stderr.write("usage: bridge-load URL CLIENTS SECONDS WARMUP TOOL ARGS_JSON [TOKEN] [PROTOCOL[,PROTOCOL...]] [ROUNDS] [SERVER_PID] [distinct|repeated]\n");
  process.exit(2);
}
const protocols = (protocolArg === undefined || protocolArg === "" ? "2025-06-18" : protocolArg).split(",");
const clients = Number(clientsArg);
const seconds = Number(secondsArg);
const warmup = Number(warmupArg);
const rounds = Number(roundsArg ?? 0);
const serverPid = serverPidArg === undefined || serverPidArg === "" ? undefined : Number(serverPidArg);
const stream = trafficArg === "distinct" ? new QueryStream() : undefined;
const target = new URL(url);
const agent = new Agent({ keepAlive: true, maxSockets: clients * protocols.length });
const base: Record<string, string> = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  ...(token !== undefined && token !== "" ? { Authorization: `Bearer ${token}` } : {}),
};
const args = JSON.parse(argsJson) as Record<string, unknown>;
const isStateless = (protocol: string): boolean => protocol >= "2026-07-28";

function post(body: string, headers: Record<string, string>): Promise<{ status: number; session: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: "POST", agent, headers: { ...base, ...headers, "Content-Length": Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, session: res.headers["mcp-session-id"] as string | undefined, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** One client of a revision: the headers its calls carry, and the `params` envelope (2026-07-28: `_meta`). */
interface LoadClient {
  readonly protocol: string;
  readonly headers: Record<string, string>;
  readonly envelope: Record<string, unknown>;
}

async function openClient(protocol: string): Promise<LoadClient> {
  if (isStateless(protocol)) {
    const _meta = { "io.modelcontextprotocol/protocolVersion": protocol, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    return { protocol, headers: { "mcp-protocol-version": protocol, "mcp-method": "tools/call", "mcp-name": toolName as string }, envelope: { _meta } };
  }
  const init = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: protocol, capabilities: {}, clientInfo: { name: "bench", version: "1" } } });
  const r = await post(init, {});
  if (r.status !== 200 || r.session === undefined) throw new Error(`initialize: ${r.status} ${r.text}`);
  const headers = { "mcp-session-id": r.session, "mcp-protocol-version": protocol };
  await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), headers);
  return { protocol, headers, envelope: {} };
}

/** What a stretch of calls did: calls that ended after `measureFrom` are counted. */
interface Tally {
  calls: number;
  errors: number;
  allCalls: number;
  readonly latencies: number[];
}

/** Every client calls back to back until `end`; resolves when the last call in flight has ended. */
async function drive(group: readonly LoadClient[], measureFrom: number, end: number, tally: Tally): Promise<void> {
  await Promise.all(
    group.map(async (client) => {
      let id = 0;
      while (performance.now() < end) {
        const callArgs = stream === undefined ? args : { ...args, query: stream.take() };
        const body = JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: toolName, arguments: callArgs, ...client.envelope } });
        const t0 = performance.now();
        const r = await post(body, client.headers);
        const t1 = performance.now();
        tally.allCalls++;
        if (t0 < measureFrom) continue;
        if (r.status !== 200 || r.text.includes('"isError":true') || r.text.includes('"error":{"code"')) tally.errors++;
        tally.calls++;
        tally.latencies.push(t1 - t0);
      }
    }),
  );
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

const groups = new Map<string, LoadClient[]>();
for (const protocol of protocols) groups.set(protocol, await Promise.all(Array.from({ length: clients }, () => openClient(protocol))));
if (rounds <= 0) {
  const tally: Tally = { calls: 0, errors: 0, allCalls: 0, latencies: [] };
  const start = performance.now();
  await drive(groups.get(protocols[0] as string) ?? [], start + warmup * 1000, start + (warmup + seconds) * 1000, tally);
  process.stdout.write(`${JSON.stringify({ calls: tally.calls, errors: tally.errors, seconds, latencies: tally.latencies, allCalls: tally.allCalls })}\n`);
} else {
  for (const protocol of protocols) {
    const now = performance.now();
    await drive(groups.get(protocol) ?? [], now + warmup * 1000, now + warmup * 1000, { calls: 0, errors: 0, allCalls: 0, latencies: [] });
  }
  const slices: unknown[] = [];
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < protocols.length; i++) {
      const protocol = protocols[(r + i) % protocols.length] as string;
      const tally: Tally = { calls: 0, errors: 0, allCalls: 0, latencies: [] };
      const cpu0 = cpuMs(serverPid);
      const t0 = performance.now();
      await drive(groups.get(protocol) ?? [], t0, t0 + seconds * 1000, tally);
      const elapsed = (performance.now() - t0) / 1000;
      slices.push({ round: r, protocol, calls: tally.calls, errors: tally.errors, seconds: elapsed, p50: percentile(tally.latencies, 50), p99: percentile(tally.latencies, 99), cpuMs: cpuMs(serverPid) - cpu0 });
    }
  }
  process.stdout.write(`${JSON.stringify({ slices })}\n`);
}
agent.destroy();
