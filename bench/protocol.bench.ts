import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORPORA } from "../test/helpers/paths.js";
import { type ServeProcess, startServe } from "../test/helpers/serve-http.js";
import type { BenchRow, BenchSuite } from "./bench.js";
import { type Slice, loadAlternating } from "./alternating-load.js";
import { NO_LIMITS, stop } from "./bridge.bench.js";
import { STATELESS_VIA_SDK_SERVER, mcpOverheadPerCall } from "./protocol-overhead.js";

const SPREE = join(CORPORA, "spree");
/** The call's arguments; the query stream replaces the query with a distinct question per call. */
const SEARCH = JSON.stringify({ query: "checkout payment methods" });
const CLIENTS = 32;
/** Rounds: each runs every generation for one slice, in turn (`BENCH_PROTOCOL_ROUNDS`). */
const ROUNDS = Number(process.env.BENCH_PROTOCOL_ROUNDS ?? 15);
/** Seconds per slice (`BENCH_PROTOCOL_SLICE_SECONDS`). */
const SLICE_SECONDS = Number(process.env.BENCH_PROTOCOL_SLICE_SECONDS ?? 1);
/** Rounds and calls per round of the in-process overhead figure. */
const OVERHEAD_ROUNDS = 7;
const OVERHEAD_CALLS = 2000;
const SESSIONS_0618 = "2025-06-18";
const SESSIONS_1125 = "2025-11-25";
const STATELESS = "2026-07-28";
const GENERATIONS = [SESSIONS_0618, SESSIONS_1125, STATELESS] as const;
const LABEL: Record<string, string> = { [SESSIONS_0618]: "2025-06-18 sessions", [SESSIONS_1125]: "2025-11-25 sessions", [STATELESS]: "2026-07-28 stateless", [STATELESS_VIA_SDK_SERVER]: STATELESS_VIA_SDK_SERVER };

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
 * One server, one load generator, and the generations take turns in one-second slices (15
 * rounds of three, the first place rotating), so that two generations compared are measured a
 * second apart under the same machine load, warm caches and all; the rows are medians over the
 * rounds, and the comparison is the median of each round's stateless/session ratio. On a shared
 * machine the server's CPU time per call is its own cost, where calls/s is what other processes
 * leave it. Beside it, what MCP and the bridge cost per call apart from the search (in this
 * process, the tool answering with a result computed once), the figure protocol work is judged by.
 */
export const protocolSuite: BenchSuite = {
  name: "protocol",
  async run(log) {
    const stateDir = mkdtempSync(join(tmpdir(), "svc-bench-protocol-"));
    let server: ServeProcess | undefined;
    let slices: Slice[];
    try {
      // Distinct questions, result cache off: every call ranked, as agents' questions are.
      server = await startServe(["--dir", SPREE, "--state", stateDir, "--no-fetch-remote", "--search-cache", "0", ...NO_LIMITS]);
      const tool = await searchToolName(server.origin);
      slices = await loadAlternating({
        url: `${server.origin}/mcp`,
        clients: CLIENTS,
        tool,
        args: SEARCH,
        protocols: GENERATIONS,
        rounds: ROUNDS,
        sliceSeconds: SLICE_SECONDS,
        warmupSeconds: 2,
        serverPid: server.child.pid,
        traffic: "distinct",
      });
    } finally {
      if (server !== undefined) await stop(server);
      rmSync(stateDir, { recursive: true, force: true });
    }
    const of = (g: string): Slice[] => slices.filter((x) => x.protocol === g);
    const rate = (g: string): number[] => of(g).map((x) => x.calls / x.seconds);
    const cpu = (g: string): number[] => of(g).map((x) => x.cpuMs / x.calls);
    const errors = slices.reduce((n, x) => n + x.errors, 0);
    if (errors > 0) log(`warning: ${errors} failed calls`);
    /** Median over the rounds of stateless calls/s divided by the session's in the same round. */
    const ratio = (session: string): number => median(rate(STATELESS).map((s, i) => s / (rate(session)[i] as number)));
    /** Likewise for CPU time per call (session over stateless: above 1 when stateless costs less). */
    const cpuRatio = (session: string): number => median(cpu(session).map((s, i) => s / (cpu(STATELESS)[i] as number)));
    log(`${ROUNDS} rounds of ${SLICE_SECONDS}s slices, ${CLIENTS} clients each`);
    for (const g of GENERATIONS) {
      log(`${LABEL[g]}: median ${median(rate(g)).toFixed(0)} calls/s (slices ${spread(rate(g))}), ${median(cpu(g)).toFixed(3)} ms server CPU/call (${spread(cpu(g), 3)}), p99 ${median(of(g).map((x) => x.p99)).toFixed(1)} ms`);
    }
    log(`stateless/sessions calls/s, median of the rounds' ratios: ${ratio(SESSIONS_0618).toFixed(3)} (2025-06-18), ${ratio(SESSIONS_1125).toFixed(3)} (2025-11-25)`);
    log(`sessions/stateless server CPU per call, median of the rounds' ratios: ${cpuRatio(SESSIONS_0618).toFixed(3)} (2025-06-18), ${cpuRatio(SESSIONS_1125).toFixed(3)} (2025-11-25)`);

    const overhead = await mcpOverheadPerCall(SPREE, [...GENERATIONS, STATELESS_VIA_SDK_SERVER], OVERHEAD_ROUNDS, OVERHEAD_CALLS);
    for (const g of [...GENERATIONS, STATELESS_VIA_SDK_SERVER]) log(`MCP overhead per call (in process, canned search answer, CPU), ${LABEL[g]}: median ${median(overhead[g] ?? []).toFixed(0)} µs (rounds ${spread(overhead[g] ?? [])})`);

    const baseline = { name: LABEL[SESSIONS_1125] as string, value: Math.round(median(rate(SESSIONS_1125))) };
    // The target: stateless at least as fast as each session revision, round by round.
    const slowest = Math.min(ratio(SESSIONS_0618), ratio(SESSIONS_1125));
    const overheadOf = (g: string): number => Math.round(median(overhead[g] ?? []));
    const rows: BenchRow[] = [
      { area: "protocol", metric: `search calls/s, spree, ${CLIENTS} clients, distinct questions, result cache off, 2025-06-18 sessions (median of ${ROUNDS} slices)`, value: Math.round(median(rate(SESSIONS_0618))), unit: "calls/s", baseline },
      { area: "protocol", metric: `search calls/s, spree, ${CLIENTS} clients, distinct questions, result cache off, 2026-07-28 stateless (median of ${ROUNDS} slices)`, value: Math.round(median(rate(STATELESS))), unit: "calls/s", baseline },
      { area: "protocol", metric: "stateless/sessions calls/s, median of the rounds' ratios (the lower of the two session revisions)", value: round3(slowest), unit: "x", target: ">= 1", ok: slowest >= 1 },
      { area: "protocol", metric: `search server CPU per call, spree, ${CLIENTS} clients, distinct questions, result cache off, 2026-07-28 stateless (median)`, value: round3(median(cpu(STATELESS))), unit: "ms", baseline: { name: baseline.name, value: round3(median(cpu(SESSIONS_1125))) } },
      { area: "protocol", metric: `search p99, spree, ${CLIENTS} clients, distinct questions, result cache off, 2026-07-28 stateless (median)`, value: round1(median(of(STATELESS).map((x) => x.p99))), unit: "ms", baseline: { name: baseline.name, value: round1(median(of(SESSIONS_1125).map((x) => x.p99))) } },
      { area: "protocol", metric: "MCP overhead per tools/call apart from the search, 2025-06-18 sessions (in process, CPU, median)", value: overheadOf(SESSIONS_0618), unit: "µs", baseline: { name: baseline.name, value: overheadOf(SESSIONS_1125) } },
      { area: "protocol", metric: "MCP overhead per tools/call apart from the search, 2026-07-28 stateless (in process, CPU, median)", value: overheadOf(STATELESS), unit: "µs", baseline: { name: baseline.name, value: overheadOf(SESSIONS_1125) } },
      // Why plain 2026-07-28 tool calls skip the SDK's per-request server (DirectToolCalls).
      { area: "protocol", metric: "MCP overhead per tools/call, 2026-07-28 through the SDK's per-request server (in process, CPU, median)", value: overheadOf(STATELESS_VIA_SDK_SERVER), unit: "µs", baseline: { name: "answered directly", value: overheadOf(STATELESS) } },
    ];
    return rows;
  },
};
