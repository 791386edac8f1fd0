import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORPORA } from "../test/helpers/paths.js";
import { type ServeProcess, startServe } from "../test/helpers/serve-http.js";
import type { BenchRow, BenchSuite } from "./bench.js";
import { NO_LIMITS, load, ms, stop } from "./bridge.bench.js";

const SPREE = join(CORPORA, "spree");
const SEARCH = JSON.stringify({ query: "checkout payment methods" });
const CLIENTS = 32;

/** The search tool's name on the served site, asked of the server itself (a 2026-07-28 `tools/list`, no session). */
async function searchToolName(origin: string): Promise<string> {
  const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
  const res = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } }),
  });
  const { result } = (await res.json()) as { result: { tools: { name: string }[] } };
  const name = result.tools.find((t) => t.name.startsWith("search_"))?.name;
  if (name === undefined) throw new Error("the server lists no search tool");
  return name;
}

/**
 * Search calls per second over HTTP at 32 clients on spree, in each protocol generation: a
 * 2025 session per client (2025-06-18 and 2025-11-25, one `Mcp-Session-Id` each) and
 * 2026-07-28, where every request is stateless and the SDK builds a server for it. The session
 * figure is the baseline: the stateless path must not be slower (issue 12).
 */
export const protocolSuite: BenchSuite = {
  name: "protocol",
  async run(log) {
    const stateDir = mkdtempSync(join(tmpdir(), "svc-bench-protocol-"));
    let server: ServeProcess | undefined;
    try {
      server = await startServe(["--dir", SPREE, "--state", stateDir, "--no-fetch-remote", ...NO_LIMITS]);
      const url = `${server.origin}/mcp`;
      const pid = server.child.pid;
      const tool = await searchToolName(server.origin);
      const session = await load(url, CLIENTS, tool, SEARCH, { serverPid: pid, protocol: "2025-06-18" });
      log(`spree, search x${CLIENTS}, 2025-06-18 sessions: ${ms(session)}`);
      const session1125 = await load(url, CLIENTS, tool, SEARCH, { serverPid: pid, protocol: "2025-11-25" });
      log(`spree, search x${CLIENTS}, 2025-11-25 sessions: ${ms(session1125)}`);
      const stateless = await load(url, CLIENTS, tool, SEARCH, { serverPid: pid, protocol: "2026-07-28" });
      log(`spree, search x${CLIENTS}, 2026-07-28 stateless: ${ms(stateless)}`);
      const errors = session.errors + session1125.errors + stateless.errors;
      if (errors > 0) log(`warning: ${errors} failed calls`);
      const baseline = { name: "2025-06-18 sessions", value: Math.round(session.callsPerSec) };
      const rows: BenchRow[] = [
        { area: "protocol", metric: `search calls/s, spree, ${CLIENTS} clients, 2025-11-25 sessions`, value: Math.round(session1125.callsPerSec), unit: "calls/s", baseline },
        {
          area: "protocol",
          metric: `search calls/s, spree, ${CLIENTS} clients, 2026-07-28 stateless`,
          value: Math.round(stateless.callsPerSec),
          unit: "calls/s",
          baseline,
          target: ">= sessions",
          ok: stateless.callsPerSec >= session.callsPerSec,
        },
        { area: "protocol", metric: `search server CPU per call, spree, ${CLIENTS} clients, 2026-07-28 stateless`, value: stateless.cpuMsPerCall, unit: "ms", baseline: { name: baseline.name, value: session.cpuMsPerCall } },
        { area: "protocol", metric: `search p99, spree, ${CLIENTS} clients, 2026-07-28 stateless`, value: stateless.p99, unit: "ms", baseline: { name: baseline.name, value: session.p99 } },
      ];
      return rows;
    } finally {
      if (server !== undefined) await stop(server);
      rmSync(stateDir, { recursive: true, force: true });
    }
  },
};
