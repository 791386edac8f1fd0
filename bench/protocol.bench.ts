import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORPORA } from "../test/helpers/paths.js";
import { type ServeProcess, startServe } from "../test/helpers/serve-http.js";
import type { BenchRow, BenchSuite } from "./bench.js";
import { type LoadResult, NO_LIMITS, load, stop } from "./bridge.bench.js";
import { mcpOverheadPerCall } from "./protocol-overhead.js";

const SPREE = join(CORPORA, "spree");
const SEARCH = JSON.stringify({ query: "checkout payment methods" });
const CLIENTS = 32;
/** Rounds per generation: each round runs every generation once, in turn (`BENCH_BRIDGE_SECONDS` each). */
const ROUNDS = Number(process.env.BENCH_PROTOCOL_ROUNDS ?? 5);
/** Calls per round of the in-process overhead figure. */
const OVERHEAD_CALLS = 2000;
const SESSIONS_0618 = "2025-06-18";
const SESSIONS_1125 = "2025-11-25";
const STATELESS = "2026-07-28";
const GENERATIONS = [SESSIONS_0618, SESSIONS_1125, STATELESS] as const;
const LABEL: Record<string, string> = { [SESSIONS_0618]: "2025-06-18 sessions", [SESSIONS_1125]: "2025-11-25 sessions", [STATELESS]: "2026-07-28 stateless" };

/** The search tool's name on the served site, asked of the server itself (a 2026-07-28 `tools/list`, no session). */
async function searchToolName(origin: string): Promise<string> {
  const _meta = { "io.modelcontextprotocol/protocolVersion": STATELESS, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
  const res = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": STATELESS, "Mcp-Method": "tools/list" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } }),
  });
  const { result } = (await res.json()) as { result: { tools: { name: string }[] } };
  const name = result.tools.find((t) => t.name.startsWith("search_"))?.name;
  if (name === undefined) throw new Error("the server lists no search tool");
  return name;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;
const round3 = (n: number): number => Math.round(n * 1000) / 1000;
const spread = (values: readonly number[], digits = 0): string => `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;

/**
 * Search calls per second over HTTP at 32 clients on spree, in each protocol generation: a
 * 2025 session per client (2025-06-18 and 2025-11-25, one `Mcp-Session-Id` each) and
 * 2026-07-28, where every request is stateless and the SDK builds a server for it. The session
 * figures are the baseline: the stateless path must not be slower (issue 12).
 *
 * One server serves every run, and the generations take turns: each of `ROUNDS` rounds runs all
 * three, the first place rotating, so that warm-up, the search's caches and the machine's load
 * fall on each alike; the rows are medians over the rounds, and the comparison is the median of
 * each round's stateless/session ratio (two runs next to each other share the machine's state).
 * Beside it, what MCP and the bridge cost per call apart from the search (in this process, the
 * tool answering with a result computed once), the figure protocol work is judged by.
 */
export const protocolSuite: BenchSuite = {
  name: "protocol",
  async run(log) {
    const stateDir = mkdtempSync(join(tmpdir(), "svc-bench-protocol-"));
    let server: ServeProcess | undefined;
    const runs: Record<string, LoadResult[]> = Object.fromEntries(GENERATIONS.map((g) => [g, [] as LoadResult[]]));
    try {
      server = await startServe(["--dir", SPREE, "--state", stateDir, "--no-fetch-remote", ...NO_LIMITS]);
      const url = `${server.origin}/mcp`;
      const pid = server.child.pid;
      const tool = await searchToolName(server.origin);
      for (let r = 0; r < ROUNDS; r++) {
        for (let i = 0; i < GENERATIONS.length; i++) {
          const g = GENERATIONS[(r + i) % GENERATIONS.length] as string;
          const result = await load(url, CLIENTS, tool, SEARCH, { serverPid: pid, protocol: g });
          runs[g]?.push(result);
          log(`round ${r + 1}/${ROUNDS}, ${LABEL[g]}: ${result.callsPerSec.toFixed(0)} calls/s, p99 ${result.p99.toFixed(1)} ms, server CPU ${result.cpuMsPerCall.toFixed(3)} ms/call, ${result.errors} errors`);
        }
      }
    } finally {
      if (server !== undefined) await stop(server);
      rmSync(stateDir, { recursive: true, force: true });
    }
    const of = (g: string): LoadResult[] => runs[g] ?? [];
    const rate = (g: string): number[] => of(g).map((r) => r.callsPerSec);
    const cpu = (g: string): number[] => of(g).map((r) => r.cpuMsPerCall);
    const errors = GENERATIONS.reduce((n, g) => n + of(g).reduce((m, r) => m + r.errors, 0), 0);
    if (errors > 0) log(`warning: ${errors} failed calls`);
    /** Median over the rounds of stateless calls/s divided by the session's in the same round. */
    const ratio = (session: string): number => median(rate(STATELESS).map((s, i) => s / (rate(session)[i] as number)));
    for (const g of GENERATIONS) {
      log(`${LABEL[g]}: median ${median(rate(g)).toFixed(0)} calls/s (rounds ${spread(rate(g))}), ${median(cpu(g)).toFixed(3)} ms server CPU/call (${spread(cpu(g), 3)})`);
    }
    log(`stateless/sessions, median of the rounds' ratios: ${ratio(SESSIONS_0618).toFixed(3)} (2025-06-18), ${ratio(SESSIONS_1125).toFixed(3)} (2025-11-25)`);

    const overhead = await mcpOverheadPerCall(SPREE, GENERATIONS, ROUNDS, OVERHEAD_CALLS);
    for (const g of GENERATIONS) log(`MCP overhead per call (in process, canned search answer), ${LABEL[g]}: median ${median(overhead[g] ?? []).toFixed(0)} µs (rounds ${spread(overhead[g] ?? [])})`);

    const baseline = { name: LABEL[SESSIONS_1125] as string, value: Math.round(median(rate(SESSIONS_1125))) };
    const slowest = Math.min(ratio(SESSIONS_0618), ratio(SESSIONS_1125));
    const overheadOf = (g: string): number => Math.round(median(overhead[g] ?? []));
    // The target: stateless at least as fast as the slower-to-beat session revision, round by round.
    const rows: BenchRow[] = [
      { area: "protocol", metric: `search calls/s, spree, ${CLIENTS} clients, 2025-06-18 sessions (median of ${ROUNDS})`, value: Math.round(median(rate(SESSIONS_0618))), unit: "calls/s", baseline },
      {
        area: "protocol",
        metric: `search calls/s, spree, ${CLIENTS} clients, 2026-07-28 stateless (median of ${ROUNDS})`,
        value: Math.round(median(rate(STATELESS))),
        unit: "calls/s",
        baseline,
      },
      { area: "protocol", metric: "stateless/sessions calls/s, median of the rounds' ratios (lower of the two session revisions)", value: Math.round(slowest * 1000) / 1000, unit: "x", target: ">= 1", ok: slowest >= 1 },
      { area: "protocol", metric: `search server CPU per call, spree, ${CLIENTS} clients, 2026-07-28 stateless (median)`, value: round3(median(cpu(STATELESS))), unit: "ms", baseline: { name: baseline.name, value: round3(median(cpu(SESSIONS_1125))) } },
      { area: "protocol", metric: `search p99, spree, ${CLIENTS} clients, 2026-07-28 stateless (median)`, value: round1(median(of(STATELESS).map((r) => r.p99))), unit: "ms", baseline: { name: baseline.name, value: round1(median(of(SESSIONS_1125).map((r) => r.p99))) } },
      { area: "protocol", metric: "MCP overhead per tools/call apart from the search, 2025-06-18 sessions (in process, median)", value: overheadOf(SESSIONS_0618), unit: "µs", baseline: { name: baseline.name, value: overheadOf(SESSIONS_1125) } },
      { area: "protocol", metric: "MCP overhead per tools/call apart from the search, 2026-07-28 stateless (in process, median)", value: overheadOf(STATELESS), unit: "µs", baseline: { name: baseline.name, value: overheadOf(SESSIONS_1125) } },
    ];
    return rows;
  },
};
