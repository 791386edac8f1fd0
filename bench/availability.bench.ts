import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { SHARED } from "../test/helpers/paths.js";
import { startServe } from "../test/helpers/serve-http.js";
import { type Connection, connectionTo, startWorkers, stopProcess } from "../test/helpers/workers.js";
import { type BenchRow, type BenchSuite, percentile } from "./bench.js";

/**
 * Issue 25's two stalls, replayed against `serve --http` (a spawned process, as deployed) on
 * spree, while another reader (its own address) sends `ls /` and a search, one after another:
 * (a) 60 runaway commands from 3 addresses within 1.5 s, each client hanging up after 300 ms;
 * (b) 4 addresses each holding one runaway in flight (sent again as soon as it is answered);
 * (c) 6 fresh addresses (as many as the pool of a 2-core machine has workers) each sending a
 *     first runaway at once, then 6 other fresh ones as soon as those are answered, and so on
 *     (addresses never seen before every round: none is ever known as heavy);
 * (d) 6 addresses each holding one runaway in flight (the same addresses: heavy after their first);
 * (e) one address cancelling its running runaways in a loop;
 * (f) (c) over 2025 sessions, the reader's too (an adversary's finding, 2026-11-28): each fresh
 *     address opens a session (`initialize`, `notifications/initialized`) and sends its runaway in it;
 * (g) 2 addresses each holding three runaways in flight, each over a connection of its own, which
 *     `--workers N` spreads over the workers (each address's over at least two): one caller's
 *     bounds hold for the server only if its workers count its commands together;
 * (h) a stream of fresh callers from many networks (adversary F1): a wave of 8 addresses, each
 *     of a /24 never seen, each sending one runaway, every 6 s (the adversary's) without waiting for answers; the
 *     reader is new too: each `ls /` and search from an address (and network) never seen before.
 * The runaway is the issue's `jq` (it ends at the work limit, ~3 s of CPU, and its worker is kept for the next call;
 * a step the count cannot see ends at the worker thread's 5 s CPU limit instead). Rate limits
 * are off, so only the shell pool's own bounds act. Requests are plain 2026-07-28 calls (no
 * session) but in (f), told apart by address with `--trust-proxy` and X-Forwarded-For.
 * `BENCH_AVAILABILITY_ROWS=c,f` runs only those rows; `BENCH_AVAILABILITY_WORKERS=2` serves
 * with `--workers 2` (the primary hands each connection to a worker).
 */
const SPREE = join(SHARED, "corpora", "spree");
// Nested reductions, no array: `[limit(100000000; repeat(1))]` now ends at jq's element limit (issue 25).
const RUNAWAY = "jq -n 'reduce range(1000) as $i (0; reduce range(1000) as $j (.; reduce range(1000) as $k (.; .+1)))'";
const VICTIM = "198.51.100.9";
/** How long the victim is timed in each scenario: past one runaway's work limit (~3 s of CPU, so seconds more under load) and its worker's restart. */
const WINDOW_MS = Number(process.env.BENCH_AVAILABILITY_MS ?? 8_000);
/** Rows to run (all when unset). */
const ROWS = new Set((process.env.BENCH_AVAILABILITY_ROWS ?? "a,b,c,d,e,f,g,h").split(","));
/** (h)'s window: long enough for the runaways of the first waves to reach their limits (seconds of CPU, more of wall time under load) while more arrive. */
const STREAM_MS = Number(process.env.BENCH_AVAILABILITY_STREAM_MS ?? 30_000);
/** (h)'s time between two waves (the adversary's 6 s by default). */
const STREAM_EVERY_MS = Number(process.env.BENCH_AVAILABILITY_STREAM_EVERY_MS ?? 6_000);
/** Worker processes of the server (`--workers`). */
const WORKERS = Number(process.env.BENCH_AVAILABILITY_WORKERS ?? 1);
const OFF = ["ip", "search", "filesystem", "authed-search", "authed-filesystem"].flatMap((k) => ["--rate-limit", `${k}=off`]);
const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "availability-bench", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

/** Calls a tool; resolves to the parsed answer. */
type Caller = (name: string, args: Record<string, unknown>) => Promise<unknown>;

interface Tools {
  readonly search: string;
  readonly fs: string;
}

/** One 2026-07-28 request from `ip`; resolves to the parsed answer (rejects when `signal` drops it). */
async function call(origin: string, ip: string, method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
  const name: Record<string, string> = typeof params.name === "string" ? { "Mcp-Name": params.name } : {};
  const res = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-Forwarded-For": ip, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, ...name },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: ENVELOPE } }),
    ...(signal !== undefined ? { signal } : {}),
  });
  return res.json();
}

/** A 2025 session opened from `ip` (`initialize`, `notifications/initialized`): its tool calls. */
async function session(origin: string, ip: string): Promise<Caller> {
  const post = async (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${origin}/mcp`, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-Forwarded-For": ip, ...headers }, body: JSON.stringify(body) });
  const opened = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "availability-bench", version: "1" } } });
  await opened.text();
  const headers = { "Mcp-Session-Id": opened.headers.get("mcp-session-id") ?? "", "MCP-Protocol-Version": "2025-06-18" };
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).text();
  let id = 1;
  return async (name, args) => (await post({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args } }, headers)).json();
}

async function toolNames(origin: string): Promise<Tools> {
  const list = (await call(origin, VICTIM, "tools/list", {})) as { result: { tools: { name: string }[] } };
  const names = list.result.tools.map((t) => t.name);
  const find = (prefix: string): string => names.find((n) => n.startsWith(prefix)) ?? "";
  return { search: find("search_"), fs: find("query_docs_filesystem_") };
}

/** (h): a wave of 8 runaways from 8 fresh /24s every `everyMs` until `until` resolves, none awaited; the waves' requests are dropped at the end. */
async function freshStream(origin: string, tools: Tools, until: Promise<void>, everyMs = STREAM_EVERY_MS): Promise<{ sent: number }> {
  let done = false;
  void until.then(() => (done = true));
  const abort = new AbortController();
  const sent: Promise<unknown>[] = [];
  for (let wave = 0; !done; wave++) {
    for (let k = 0; k < 8; k++) {
      const ip = `10.${60 + Math.floor(wave / 25)}.${(wave % 25) * 10 + k}.1`;
      sent.push(call(origin, ip, "tools/call", { name: tools.fs, arguments: { command: RUNAWAY } }, abort.signal).catch(() => undefined));
    }
    await Promise.race([sleep(everyMs), until]);
  }
  abort.abort();
  await Promise.all(sent);
  return { sent: sent.length };
}

/** A caller that is new at every call: each from an address of a /24 never seen before. */
function newcomers(origin: string): Caller {
  let n = 0;
  return (name, args) => {
    n++;
    return call(origin, `198.${18 + Math.floor(n / 250)}.${n % 250}.9`, "tools/call", { name, arguments: args });
  };
}

/** The victim's calls until `until` resolves: `ls /`, then a search, in turn; milliseconds of each. */
async function victim(origin: string, tools: Tools, until: Promise<void>, over: Caller = (name, args) => call(origin, VICTIM, "tools/call", { name, arguments: args })): Promise<{ ls: number[]; search: number[]; failed: number }> {
  let done = false;
  void until.then(() => (done = true));
  const out = { ls: [] as number[], search: [] as number[], failed: 0 };
  while (!done) {
    let t = performance.now();
    const ls = (await over(tools.fs, { command: "ls /" })) as { result?: { isError?: boolean } };
    out.ls.push(performance.now() - t);
    if (ls.result?.isError === true) out.failed++;
    t = performance.now();
    await over(tools.search, { query: "configure payment methods" });
    out.search.push(performance.now() - t);
  }
  return out;
}

/** (a): 60 runaways from 3 addresses within 1.5 s, each request dropped 300 ms after it was sent. */
async function abandoned(origin: string, tools: Tools): Promise<void> {
  const sent: Promise<unknown>[] = [];
  for (let k = 0; k < 60; k++) {
    const abort = new AbortController();
    sent.push(call(origin, `203.0.113.${1 + (k % 3)}`, "tools/call", { name: tools.fs, arguments: { command: RUNAWAY } }, abort.signal).catch(() => undefined));
    setTimeout(() => abort.abort(), 300);
    await sleep(25);
  }
  await Promise.all(sent);
}

/** (b), (d): `addresses` addresses, each with one runaway in flight until `until` resolves. */
async function holding(origin: string, tools: Tools, until: Promise<void>, addresses = 4): Promise<{ ended: number }> {
  let done = false;
  void until.then(() => (done = true));
  /** Runaways answered at their limit (exit 124): the work done, to read the server's CPU against. */
  let ended = 0;
  await Promise.all(
    Array.from({ length: addresses }, (_, i) => i + 1).map(async (k) => {
      while (!done) {
        const answer = await call(origin, `192.0.2.${k}`, "tools/call", { name: tools.fs, arguments: { command: RUNAWAY } }).catch(() => undefined);
        if (JSON.stringify(answer ?? "").includes("[exit code 124]")) ended++;
      }
    }),
  );
  return { ended };
}

/** (c), (f): rounds of `addresses` addresses never seen before, each sending one runaway at once (in a 2025 session of its own with `sessions`), until `until` resolves. */
async function freshRounds(origin: string, tools: Tools, until: Promise<void>, addresses = 6, sessions = false): Promise<void> {
  let done = false;
  void until.then(() => (done = true));
  for (let round = 0; !done; round++) {
    await Promise.all(
      Array.from({ length: addresses }, (_, k) => `10.${(sessions ? 125 : 25) + Math.floor(round / 200)}.${round % 200}.${k + 1}`).map(async (ip) => {
        const over: Caller = sessions ? await session(origin, ip) : (name, args) => call(origin, ip, "tools/call", { name, arguments: args });
        return over(tools.fs, { command: RUNAWAY }).catch(() => undefined);
      }),
    );
  }
}

/** One 2026-07-28 request from `ip` over `over` (a connection a given worker serves); resolves to the parsed answer. */
async function callOver(over: Connection, ip: string, method: string, params: Record<string, unknown>): Promise<unknown> {
  const name: Record<string, string> = typeof params.name === "string" ? { "Mcp-Name": params.name } : {};
  const body = { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: ENVELOPE } };
  const answer = await over.post("/mcp", body, { "X-Forwarded-For": ip, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, ...name });
  return JSON.parse(answer.body) as unknown;
}

/**
 * (g): 2 addresses, each with three runaways in flight until `until` resolves, each over a
 * connection of its own: with `--workers N` the lanes' connections go to the workers in turn
 * (each address's first two to two different workers), else over the one process.
 */
async function spreadHolding(serve: Served, tools: Tools, until: Promise<void>): Promise<{ ended: number }> {
  let done = false;
  void until.then(() => (done = true));
  /** Runaways that ran to their limit (exit 124): with more of a caller's running at once, more end per window. */
  let ended = 0;
  const lanes = ["192.0.2.31", "192.0.2.31", "192.0.2.32", "192.0.2.32", "192.0.2.31", "192.0.2.32"];
  const over = serve.pids === undefined ? lanes.map(() => undefined) : await Promise.all(lanes.map((_, k) => serve.connectionTo(k % 2)));
  await Promise.all(
    lanes.map(async (ip, k) => {
      const c = over[k];
      const args = { name: tools.fs, arguments: { command: RUNAWAY } };
      while (!done) {
        const answer = await (c === undefined ? call(serve.origin, ip, "tools/call", args) : callOver(c, ip, "tools/call", args)).catch(() => undefined);
        if (JSON.stringify(answer ?? "").includes("[exit code 124]")) ended++;
      }
    }),
  );
  for (const c of over) c?.close();
  return { ended };
}

/** The server's CPU (every thread of its processes) while a row was timed: on a shared machine, what the wall times cannot say. */
function cpuRow(row: string, ms: number): BenchRow {
  return { area: "availability", metric: `CPU of the server's processes, every thread, while ${row} was timed (/proc/PID/stat)`, value: ms, unit: "ms" };
}

/** CPU time used so far by the server's processes (all their threads), from /proc (Linux). */
function serverCpuMs(serve: Served): number {
  let ticks = 0;
  for (const pid of [serve.child.pid, ...(serve.pids ?? [])]) {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

/** The server under test: one process, or a primary and its workers (`connectionTo(k)`: a connection the k-th worker serves). */
interface Served {
  readonly origin: string;
  readonly child: Parameters<typeof stopProcess>[0];
  readonly pids: readonly number[] | undefined;
  readonly connectionTo: (k: number) => Promise<Connection>;
}

async function serveUnderTest(args: readonly string[]): Promise<Served> {
  if (WORKERS <= 1) {
    const one = await startServe(args);
    return { origin: one.origin, child: one.child, pids: undefined, connectionTo: () => Promise.reject(new Error("one process")) };
  }
  const many = await startWorkers([...args, "--workers", String(WORKERS)]);
  return { origin: many.origin, child: many.child, pids: many.pids, connectionTo: (k) => connectionTo(many.origin, many.pids, many.pids[k % many.pids.length] as number) };
}

/** (e): one address cancelling its running runaways in a loop (two at a time, each dropped 300 ms after it was sent). */
async function cancelling(origin: string, tools: Tools, until: Promise<void>): Promise<void> {
  let done = false;
  void until.then(() => (done = true));
  await Promise.all(
    [0, 1].map(async () => {
      while (!done) {
        const abort = new AbortController();
        const timer = setTimeout(() => abort.abort(), 300);
        await call(origin, "192.0.2.99", "tools/call", { name: tools.fs, arguments: { command: RUNAWAY } }, abort.signal).catch(() => undefined);
        clearTimeout(timer);
      }
    }),
  );
}

function rows(scenario: string, measured: { ls: number[]; search: number[]; failed: number }): BenchRow[] {
  const lsP95 = percentile(measured.ls, 95);
  const searchP95 = percentile(measured.search, 95);
  const what = `another reader's calls while ${scenario} (spree, serve --http${WORKERS > 1 ? ` --workers ${WORKERS}` : ""}, measured on a shared busy machine; ${measured.ls.length} ls, ${measured.failed} failed)`;
  return [
    { area: "availability", metric: `\`ls /\` p50, ${what}`, value: percentile(measured.ls, 50), unit: "ms" },
    { area: "availability", metric: `\`ls /\` p95, ${what}`, value: lsP95, unit: "ms", target: "<= 1500 ms", ok: lsP95 <= 1_500 && measured.failed === 0 },
    { area: "availability", metric: `search p95, ${what}`, value: searchP95, unit: "ms", target: "<= 1500 ms", ok: searchP95 <= 1_500 },
  ];
}

export const availabilitySuite: BenchSuite = {
  name: "availability",
  run: async (log) => {
    const serve = await serveUnderTest(["--dir", SPREE, "--trust-proxy", ...OFF]);
    if (serve.pids !== undefined) log(`--workers ${WORKERS}: pids ${serve.pids.join(", ")}`);
    const out: BenchRow[] = [];
    try {
      const tools = await toolNames(serve.origin);
      // Warm: the victim's first calls load the index and the workers, as on a server that has been serving.
      await victim(serve.origin, tools, sleep(1_000));

      if (ROWS.has("a")) {
        log("(a) 60 abandoned runaways from 3 addresses...");
        const windowA = sleep(WINDOW_MS);
        const cpuA = serverCpuMs(serve);
        const [a] = await Promise.all([victim(serve.origin, tools, windowA), abandoned(serve.origin, tools)]);
        out.push(...rows("60 abandoned runaways from 3 addresses (each hangs up after 300 ms)", a), cpuRow("(a)", serverCpuMs(serve) - cpuA));
      }

      if (ROWS.has("b")) {
        log("(b) 4 addresses each holding a runaway...");
        const windowB = sleep(WINDOW_MS);
        const cpuB = serverCpuMs(serve);
        const [b, heldB] = await Promise.all([victim(serve.origin, tools, windowB), holding(serve.origin, tools, windowB)]);
        out.push(...rows("4 addresses each hold a runaway", b), cpuRow("(b)", serverCpuMs(serve) - cpuB));
        out.push({ area: "availability", metric: `runaways answered at their limit while (b) was timed (${WINDOW_MS} ms)`, value: heldB.ended, unit: "runaways" });
      }

      if (ROWS.has("c")) {
        log("(c) 6 fresh addresses each sending a first runaway, round after round...");
        const windowC = sleep(WINDOW_MS);
        const [c] = await Promise.all([victim(serve.origin, tools, windowC), freshRounds(serve.origin, tools, windowC)]);
        out.push(...rows("6 fresh addresses each send a first runaway at once (new addresses every round)", c));
      }

      if (ROWS.has("d")) {
        log("(d) 6 addresses each holding a runaway...");
        const windowD = sleep(WINDOW_MS);
        const [d] = await Promise.all([victim(serve.origin, tools, windowD), holding(serve.origin, tools, windowD, 6)]);
        out.push(...rows("6 addresses each hold a runaway", d));
      }

      if (ROWS.has("e")) {
        log("(e) one address cancelling its running runaways in a loop...");
        const windowE = sleep(WINDOW_MS);
        const [e] = await Promise.all([victim(serve.origin, tools, windowE), cancelling(serve.origin, tools, windowE)]);
        out.push(...rows("one address cancels its running runaways in a loop (2 at a time, each after 300 ms)", e));
      }

      if (ROWS.has("f")) {
        log("(f) 6 fresh addresses each sending a first runaway over 2025 sessions, round after round...");
        const reader = await session(serve.origin, VICTIM);
        const windowF = sleep(WINDOW_MS);
        const [f] = await Promise.all([victim(serve.origin, tools, windowF, reader), freshRounds(serve.origin, tools, windowF, 6, true)]);
        out.push(...rows("6 fresh addresses each send a first runaway at once over 2025 sessions, the reader's too (new addresses every round)", f));
      }

      if (ROWS.has("h")) {
        log("(h) a stream of fresh runaways from many networks, the reader new at every call...");
        const windowH = sleep(STREAM_MS);
        const cpuH = serverCpuMs(serve);
        const [h, stream] = await Promise.all([victim(serve.origin, tools, windowH, newcomers(serve.origin)), freshStream(serve.origin, tools, windowH)]);
        out.push(...rows(`a stream of fresh callers, 8 from 8 new /24s every ${STREAM_EVERY_MS / 1000} s, each sending one runaway (${stream.sent} in ${STREAM_MS} ms), the reader new at every call`, h), cpuRow("(h)", serverCpuMs(serve) - cpuH));
      }

      if (ROWS.has("g")) {
        log("(g) 2 addresses each holding 3 runaways, spread over the workers...");
        const windowG = sleep(WINDOW_MS);
        const cpuBefore = serverCpuMs(serve);
        const [g, held] = await Promise.all([victim(serve.origin, tools, windowG), spreadHolding(serve, tools, windowG)]);
        const cpu = serverCpuMs(serve) - cpuBefore;
        out.push(...rows("2 addresses each hold 3 runaways, each over a connection of its own (spread over the workers)", g));
        out.push({ area: "availability", metric: `runaways of the 2 addresses that ran to their work limit while (g) was timed (${WINDOW_MS} ms; 2 running per address at once allow fewer than 3)`, value: held.ended, unit: "runaways" });
        // On a machine shared with other work, threads get CPU in proportion to how many are runnable: 3 runaways per address burn more of it than 2.
        out.push({ area: "availability", metric: `CPU of the server's processes, every thread, while (g) was timed (${WINDOW_MS} ms; /proc/PID/stat)`, value: cpu, unit: "ms" });
      }
    } finally {
      await stopProcess(serve.child);
    }
    return out;
  },
};
