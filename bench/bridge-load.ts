import { Agent, request } from "node:http";

/**
 * Load generator for `bench/bridge.bench.ts` and `bench/protocol.bench.ts`, run as its own
 * process so that on a 2-core machine the client's work does not share an event loop with the
 * server's. In a 2025 revision it opens one MCP session per client over keep-alive connections;
 * at 2026-07-28 there is no session, and every request carries the protocol version and the
 * client's identity in `_meta` (and the `Mcp-Method`/`Mcp-Name` headers). Then it sends tool
 * calls back to back for the given time. Prints `{ calls, errors, seconds, latencies, allCalls }`
 * as JSON on stdout (`allCalls` counts the warm-up too, for CPU time per call).
 *
 * argv: url clients seconds warmupSeconds toolName argumentsJson [bearerToken] [protocolVersion]
 */
const [url, clientsArg, secondsArg, warmupArg, toolName, argsJson, token, protocolArg] = process.argv.slice(2);
const protocol = protocolArg === undefined || protocolArg === "" ? "2025-06-18" : protocolArg;
const stateless = protocol >= "2026-07-28";
if (url === undefined || toolName === undefined || argsJson === undefined) {
  process.stderr.write("usage: bridge-load URL CLIENTS SECONDS WARMUP TOOL ARGS_JSON [TOKEN]\n");
  process.exit(2);
}
const clients = Number(clientsArg);
const seconds = Number(secondsArg);
const warmup = Number(warmupArg);
const target = new URL(url);
const agent = new Agent({ keepAlive: true, maxSockets: clients });
const base: Record<string, string> = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  ...(token !== undefined && token !== "" ? { Authorization: `Bearer ${token}` } : {}),
};

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

async function openSession(): Promise<Record<string, string>> {
  if (stateless) return { "mcp-protocol-version": protocol, "mcp-method": "tools/call", "mcp-name": toolName as string };
  const init = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: protocol, capabilities: {}, clientInfo: { name: "bench", version: "1" } } });
  const r = await post(init, {});
  if (r.status !== 200 || r.session === undefined) throw new Error(`initialize: ${r.status} ${r.text}`);
  const headers = { "mcp-session-id": r.session, "mcp-protocol-version": protocol };
  await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), headers);
  return headers;
}

const args = JSON.parse(argsJson) as Record<string, unknown>;
/** What a 2026-07-28 request carries in place of a session. */
const envelope = stateless
  ? { _meta: { "io.modelcontextprotocol/protocolVersion": protocol, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} } }
  : {};
const latencies: number[] = [];
let calls = 0;
let errors = 0;
let allCalls = 0;
const sessions = await Promise.all(Array.from({ length: clients }, () => openSession()));
const start = performance.now();
const measureFrom = start + warmup * 1000;
const end = measureFrom + seconds * 1000;
await Promise.all(
  sessions.map(async (headers) => {
    let id = 0;
    while (performance.now() < end) {
      const body = JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: toolName, arguments: args, ...envelope } });
      const t0 = performance.now();
      const r = await post(body, headers);
      const t1 = performance.now();
      allCalls++;
      if (t0 < measureFrom) continue;
      if (r.status !== 200 || r.text.includes('"isError":true') || r.text.includes('"error":{"code"')) errors++;
      calls++;
      latencies.push(t1 - t0);
    }
  }),
);
agent.destroy();
process.stdout.write(`${JSON.stringify({ calls, errors, seconds, latencies, allCalls })}\n`);
