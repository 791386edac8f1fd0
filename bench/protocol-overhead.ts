import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBridge } from "../src/bridge/bridge.js";
import { parseRateLimits, type RateLimits } from "../src/bridge/middleware/rate-limit.js";
import { openStateStore } from "../src/store/state/sqlite-state-store.js";
import { searchTool } from "../src/mcp/search-tool.js";
import { defineTool } from "../src/mcp/tool.js";
import { CORE_TOOLS } from "../src/mcp/tools.js";
import { DocsRuntime } from "../src/engine/runtime.js";
import { localContext } from "../src/vfs/request-context.js";

const ARGS = { query: "checkout payment methods" };
/**
 * A generation name for 2026-07-28 served the SDK's way, by a server it builds for each request
 * (`createMcpHandler`), where the bridge answers plain tool calls directly (`DirectToolCalls`):
 * the measurement behind that choice.
 */
export const STATELESS_VIA_SDK_SERVER = "2026-07-28 via the SDK's per-request server";
const CLIENT = { name: "bench", version: "1" };
/** The Node binding `@hono/node-server` passes: the per-IP limit reads the peer address from it. */
const ENV = { incoming: { socket: { remoteAddress: "127.0.0.1" } } };

/**
 * What MCP and the bridge cost per `tools/call`, apart from the tool: the bridge in this process
 * (`bridge.fetch`, no sockets), its search tool answering with a result computed once (the
 * real result of the query on the site, so the answer has its real size), calls one after the
 * other. Per generation, in µs of this process's CPU time per call (the bench's own requests and
 * parsing included, alike in every generation), for `rounds` rounds of `calls` calls each, the
 * generations taking turns (and the first place rotating) so that warm-up, garbage collection
 * and the machine's load fall on each alike. Returns each round's figure, per generation.
 */
export async function mcpOverheadPerCall(root: string, generations: readonly string[], rounds: number, calls: number): Promise<Record<string, number[]>> {
  const stateDir = mkdtempSync(join(tmpdir(), "svc-bench-overhead-"));
  const runtime = await DocsRuntime.load({ root });
  const state = openStateStore(stateDir);
  const context = localContext();
  const answer = await searchTool.run(ARGS as never, { runtime, request: context, state: runtime.readerState(context), endpoint: "bench" });
  const canned = defineTool({ ...searchTool, run: async () => answer });
  const limits = parseRateLimits(["ip=off", "search=off"]) as RateLimits;
  const tools = [canned, ...CORE_TOOLS.filter((t) => t.key !== "search")];
  const bridge = createBridge({ runtime, state, rateLimits: limits, tools });
  const sdkBridge = createBridge({ runtime, state, rateLimits: limits, tools, directToolCalls: false });
  const tool = runtime.names.search;
  const post = async (body: unknown, headers: Record<string, string>, via = bridge): Promise<{ status: number; session: string | null; text: string }> => {
    const request = new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });
    const res = await via.fetch(request, ENV);
    return { status: res.status, session: res.headers.get("mcp-session-id"), text: await res.text() };
  };
  /** One round of one generation: µs per call. */
  const round = async (generation: string): Promise<number> => {
    const via = generation === STATELESS_VIA_SDK_SERVER ? sdkBridge : bridge;
    const protocol = generation === STATELESS_VIA_SDK_SERVER ? "2026-07-28" : generation;
    const stateless = protocol >= "2026-07-28";
    let headers: Record<string, string>;
    if (stateless) {
      headers = { "mcp-protocol-version": protocol, "mcp-method": "tools/call", "mcp-name": tool };
    } else {
      const init = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: protocol, capabilities: {}, clientInfo: CLIENT } }, {});
      if (init.session === null) throw new Error(`initialize: ${init.status} ${init.text}`);
      headers = { "mcp-session-id": init.session, "mcp-protocol-version": protocol };
      await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    }
    const envelope = stateless
      ? { _meta: { "io.modelcontextprotocol/protocolVersion": protocol, "io.modelcontextprotocol/clientInfo": CLIENT, "io.modelcontextprotocol/clientCapabilities": {} } }
      : {};
    const call = async (id: number): Promise<void> => {
      const r = await post({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: ARGS, ...envelope } }, headers, via);
      if (r.status !== 200 || !r.text.includes('"structuredContent"')) throw new Error(`tools/call (${protocol}): ${r.status} ${r.text.slice(0, 300)}`);
    };
    // Warm-up: the first calls of a generation compile its paths.
    for (let i = 0; i < Math.min(200, calls); i++) await call(i);
    // CPU time, not wall time: on a shared machine the wait for a core is not our cost.
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) await call(i);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / calls;
  };
  const out: Record<string, number[]> = Object.fromEntries(generations.map((g) => [g, [] as number[]]));
  try {
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < generations.length; i++) {
        const g = generations[(r + i) % generations.length] as string;
        out[g]?.push(await round(g));
      }
    }
    return out;
  } finally {
    await Promise.all([bridge.close(), sdkBridge.close()]);
    await runtime.close();
    await state.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}
