import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { SHARED } from "../test/helpers/paths.js";
import { cpuMs } from "./cpu-time.js";
import { LIMITS } from "../src/limits.js";
import { PG_ADMIN_URL, freshDatabase, queryDatabase } from "../test/helpers/postgres.js";
import { connectionsLater, type ProbeRound, probeEnv, probeRound, probeTotals } from "./loop-probe.js";
import { WARM_UP_CALLS_PER_WORKER, type WrkProtocol, wrkLoad } from "./wrk-load.js";

/**
 * Server CPU per call of two (or more) checkouts side by side over HTTP, for a loaded machine:
 * every server is started at once (spree, `serve --http`, result cache off, distinct questions
 * from bench/query-stream.ts over wrk, 32 connections), then `rounds` rounds give each server
 * `seconds` of wrk in turn, the order reversed every round, so that the machine's load falls on
 * each alike. Prints one JSON line per side: its processes' CPU per call over all rounds (all
 * threads; main threads apart), and each round's calls/s, p99 and load average, wrk's own CPU a
 * call (`wrkMsPerCall`: the client shares the two cores) and the CPU the other sides' processes
 * used, idle, during the round (`othersCpuMs`: V8 collects an idle process's heap some seconds
 * after its traffic stops, inside the next side's round).
 *
 *   npx tsx bench/wrk-ab.ts <workers> <seconds> <rounds> <checkout>[@pg][#protocol][~node-args] <checkout>[@pg][#protocol][~node-args]... [--limits counted] [--protocol 2025-11-25] [--endpoint authed] [--probe]
 *
 * A checkout is a folder with this repository built (`npm run build`; another commit's worktree
 * with its node_modules linked). `@pg` gives that side PostgreSQL state (a fresh database on
 * SVC_TEST_PG's server; its backends' CPU per call is printed too, and the transactions its
 * database committed or rolled back per call, i.e. its round trips: `pg_stat_database`, read 2 s
 * after each round so every backend has reported), else SQLite state in a temp folder.
 * `#2025-11-25` or `#2026-07-28` after a side gives it its own protocol (else `--protocol`'s):
 * one checkout's two generations side by side, alike under the machine's load (a checkout may be
 * named twice; each side has a server of its own). `~--a,--b` after a side: options on node's
 * command line of its server (a primary's are its workers' too), e.g. a V8 flag Node refuses in
 * `NODE_OPTIONS` (`~--single-threaded-gc`), so one checkout runs beside itself with and without. `WRK_AB_NODE_OPTIONS` is added to every server's NODE_OPTIONS. `--limits counted`: the ip and search limits counted but never reached (else off).
 * Each server's site cache is written a second after its index is built (issue 22) and lands in
 * the first round; run with SVC_MCP_CACHE=off to leave it out. Each side's first round starts
 * after a warm-up of `BENCH_WARM_UP_CALLS` calls per worker (default 3,000; wrk-load.ts), not
 * counted. `--endpoint authed`: the calls go to `/authed/mcp` with a bearer token (a client
 * credential made by the side's own `credentials create`, its token from the side's token
 * endpoint), so every call has its token checked. Each side's line gives `errors`: answers other
 * than 200 over all rounds (a 503 or 401 is cheap and would flatter the rate).
 *
 * With `--workers N`, each side's line also gives `primaryCpuMsPerCall`: the primary's own CPU
 * (hand-outs, counters) over the measured runs, per call.
 *
 * `--probe`: every server process loads bench/loop-probe.mjs, and each round also prints, per
 * worker, its share of wrk's connections (sampled mid-run), the requests it answered and the
 * connections it was given in the round (more than its share of the 32: its clients reconnected,
 * a shed excess), its blocking events (event loop late
 * by > 20, 50, 100 ms) split into time on a core, waiting for one and asleep, and its garbage
 * collections by kind: what the tail was made of, as counts a busy machine does not invent; and
 * the other, idle sides' collections during the round, summed by kind (`othersGc`). Each probe
 * line gives the round's span in ms after its side's spawn (`fromMs`, `toMs`), to place V8's
 * `--trace-gc` lines (`~--trace-gc` after a side, `WRK_AB_STDOUT=<folder>` for its stdout).
 */

const SPREE = join(SHARED, "corpora", "spree");
const CLIENTS = 32;
const COUNTED = ["ip", "search", "authed-search"].flatMap((k) => ["--rate-limit", `${k}=1000000000`]);
const OFF = ["ip", "search", "filesystem", "authed-search", "authed-filesystem"].flatMap((k) => ["--rate-limit", `${k}=off`]);
/**
 * A one-worker server's young generation (and no memory reducer), as src/cli/worker-heap.ts gives every worker of
 * `--workers N`; with N > 1 each side's own code gives its workers theirs (an option here would
 * be the operator's, which the workers then keep, so the bench would measure its choice, not the
 * side's). On node's command line, not in NODE_OPTIONS: Node 20 refuses `--min-semi-space-size`
 * there ("is not allowed in NODE_OPTIONS") and the server exits before it listens.
 */
const youngGeneration = (): string[] => (workers === 1 ? [`--max-semi-space-size=${LIMITS.serve.workerSemiSpaceMb}`, `--min-semi-space-size=${LIMITS.serve.workerSemiSpaceMb}`, "--no-memory-reducer"] : []);

interface Side {
  readonly name: string;
  readonly child: ChildProcess;
  readonly pids: readonly number[];
  readonly url: string;
  readonly tool: string;
  readonly databaseUrl: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  errors: number;
  readonly drop: (() => Promise<void>) | undefined;
  calls: number;
  cpu: number;
  main: number;
  /** The primary's CPU over the measured runs (`--workers N`: it hands out connections, holds counters). */
  primary: number;
  db: number;
  transactions: number;
  readonly rounds: { rate: number; p99: number; load: number; wrkMsPerCall: number; othersCpuMs: number }[];
  readonly port: number;
  readonly protocol: WrkProtocol;
  /** When its server was spawned (performance.now()): its processes' `--trace-gc` times count from about then. */
  readonly spawnedAt: number;
}

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args.splice(at, 2)[1];
};
const probing = args.includes("--probe");
if (probing) args.splice(args.indexOf("--probe"), 1);
const probe = probing ? probeEnv() : undefined;
const limits = option("--limits") ?? "off";
const protocol = (option("--protocol") ?? "2026-07-28") as WrkProtocol;
const endpoint = option("--endpoint") ?? "mcp";
const [workersArg, secondsArg, roundsArg, ...checkouts] = args;
const workers = Number(workersArg);
const seconds = Number(secondsArg);
const rounds = Number(roundsArg);
if (!(workers >= 1) || !(seconds > 0) || !(rounds >= 1) || checkouts.length === 0) {
  process.stderr.write("usage: npx tsx bench/wrk-ab.ts <workers> <seconds> <rounds> <checkout>[@pg]... [--limits counted] [--protocol 2025-11-25] [--probe]\n");
  process.exit(2);
}

/** One side's server, serving once every worker has answered a search (its index built). */
async function start(named: string): Promise<Side> {
  const tilde = named.indexOf("~");
  const nodeArgs = tilde === -1 ? [] : named.slice(tilde + 1).split(",");
  const hash = tilde === -1 ? named.lastIndexOf("#") : named.lastIndexOf("#", tilde);
  const bare = tilde === -1 ? named : named.slice(0, tilde);
  const spec = hash === -1 ? bare : bare.slice(0, hash);
  const sideProtocol = hash === -1 ? protocol : (bare.slice(hash + 1) as WrkProtocol);
  const postgres = spec.endsWith("@pg");
  const dir = resolve(postgres ? spec.slice(0, -3) : spec);
  const db = postgres ? await freshDatabase() : undefined;
  const state = db?.url ?? mkdtempSync(join(tmpdir(), "svc-wrk-ab-"));
  const serveArgs = ["serve", "--http", "--port", "0", "--no-watch", "--dir", SPREE, "--no-fetch-remote", "--state", state, ...(limits === "off" ? OFF : COUNTED), "--search-cache", "0"];
  if (workers > 1) serveArgs.push("--workers", String(workers));
  // WRK_AB_STDOUT=<folder>: each side's processes' stdout (V8's `~--trace-gc` lines) to <folder>/side-<n>.log.
  const stdout = process.env.WRK_AB_STDOUT === undefined ? "ignore" : openSync(join(process.env.WRK_AB_STDOUT, `side-${sides.length}.log`), "w");
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...youngGeneration(), ...nodeArgs, join(dir, "bin", "svc-mcp.js"), ...serveArgs], { env: { ...process.env, ...probe?.env, NODE_OPTIONS: [probe?.nodeOption ?? "", process.env.WRK_AB_NODE_OPTIONS ?? ""].join(" ").trim() }, stdio: ["ignore", stdout, "pipe"] });
  const lines: string[] = [];
  const { origin, pids } = await new Promise<{ origin: string; pids: number[] }>((ready, fail) => {
    let found: string | undefined;
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lines.push(line);
      found ??= /^svc-mcp: MCP \(public\): +(\S+)\/mcp$/.exec(line)?.[1];
      const many = /worker process(?:es)? on one port \(pids ([\d, ]+)\)$/.exec(line);
      if (found !== undefined && workers > 1 && many !== null) ready({ origin: found, pids: (many[1] as string).split(", ").map(Number) });
      if (found !== undefined && workers === 1 && line.includes("site auth")) ready({ origin: found, pids: [] });
    });
    child.once("exit", (code) => fail(new Error(`${spec}: serve exited with ${code}:\n${lines.join("\n")}`)));
  });
  const tool = /tools (\S+),/.exec(lines.join("\n"))?.[1] ?? "search";
  const auth: Record<string, string> = endpoint === "authed" ? { authorization: `Bearer ${await accessToken(dir, state, origin)}` } : {};
  const url = `${origin}/${endpoint === "authed" ? "authed/mcp" : "mcp"}`;
  const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "wrk-ab", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": tool, ...auth };
  // Fresh connections go to the workers in turn: each waits for its worker's index.
  await Promise.all(
    Array.from({ length: workers * 4 }, async () => {
      const r = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: { query: "warm up" }, _meta } }) });
      await r.text();
    }),
  );
  return { name: named, protocol: sideProtocol, child, pids, url, tool, databaseUrl: db?.url, drop: db?.drop, headers: auth, errors: 0, calls: 0, cpu: 0, main: 0, primary: 0, db: 0, transactions: 0, rounds: [], port: Number(new URL(origin).port), spawnedAt };
}

/** A bearer token for `/authed/mcp`: a client credential made by the checkout's CLI on the side's state, exchanged at its token endpoint. */
async function accessToken(dir: string, state: string, origin: string): Promise<string> {
  const created = execFileSync(process.execPath, [join(dir, "bin", "svc-mcp.js"), "credentials", "create", "--label", "wrk-ab", "--json", "--dir", SPREE, "--state", state], { encoding: "utf8" });
  const { clientId, clientSecret } = JSON.parse(created) as { clientId: string; clientSecret: string };
  const form = new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret });
  const r = await fetch(`${origin}/authed/mcp/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form });
  if (r.status !== 200) throw new Error(`token: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { access_token: string }).access_token;
}

/**
 * The other sides' collections during a side's round, summed over their processes by kind: an
 * idle server's V8 runs its memory reducer's full collections some seconds into the idle spell
 * (`--gc-memory-reducer-start-delay-ms`, 8 s), which is inside the next side's round, on the
 * cores that side is measured on.
 */
function gcByKind(rounds: readonly ProbeRound[]): Record<string, { n: number; ms: number }> {
  const out: Record<string, { n: number; ms: number }> = {};
  for (const r of rounds) {
    for (const [kind, g] of Object.entries(r.gc)) {
      const sum = (out[kind] ??= { n: 0, ms: 0 });
      sum.n += g.n;
      sum.ms += g.ms;
    }
  }
  return out;
}

/** The PostgreSQL backends serving a side's database. */
function backends(databaseUrl: string): () => Promise<readonly number[]> {
  const name = new URL(databaseUrl).pathname.slice(1);
  return async () => (await queryDatabase<{ pid: number }>(databaseUrl, "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name])).map((r) => r.pid);
}

/** Transactions committed or rolled back in a side's database so far (read on the test server's own database). */
function transactionsOf(databaseUrl: string): () => Promise<number> {
  const name = new URL(databaseUrl).pathname.slice(1);
  return async () => Number((await queryDatabase<{ n: string }>(PG_ADMIN_URL, "SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1", [name]))[0]?.n ?? Number.NaN);
}

const sides: Side[] = [];
try {
  for (const spec of checkouts) sides.push(await start(spec));
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const load = loadavg()[0] as number;
      const workerPids = side.pids.length > 0 ? side.pids : [side.child.pid as number];
      let probed: { connections: Record<number, number>; processes: ProbeRound[]; others: Record<string, { n: number; ms: number }> } | undefined;
      let before: Awaited<ReturnType<typeof probeTotals>> | undefined;
      let othersBeforeGc: Awaited<ReturnType<typeof probeTotals>> | undefined;
      let sampler: ReturnType<typeof connectionsLater> | undefined;
      // The other sides' processes, idle, during this side's measured run: their CPU is taken
      // from this side's (V8's memory reducer collects an idle process's heap some seconds after
      // its load stops, which lands in the next side's round).
      const others = sides.filter((s) => s !== side).flatMap((s) => [s.child.pid as number, ...s.pids]);
      const othersCpu = (): number => others.reduce((sum, pid) => sum + cpuMs(pid), 0);
      let othersBefore = 0;
      const span = { fromMs: 0, toMs: 0 };
      let othersCpuMs = 0;
      const primaryCpu = (): number => (side.pids.length > 0 ? cpuMs(side.child.pid) : 0);
      const measured = async (phase: "start" | "end"): Promise<void> => {
        if (phase === "start") {
          othersBefore = othersCpu();
          span.fromMs = Math.round(performance.now() - side.spawnedAt);
          side.primary -= primaryCpu();
        } else {
          othersCpuMs = Math.round(othersCpu() - othersBefore);
          span.toMs = Math.round(performance.now() - side.spawnedAt);
          side.primary += primaryCpu();
        }
        if (probe === undefined) return;
        if (phase === "start") {
          othersBeforeGc = await probeTotals(probe.dir, others);
          before = await probeTotals(probe.dir, workerPids);
          sampler = connectionsLater(side.port, (seconds * 1000) / 2);
          return;
        }
        const processes = probeRound(before!, await probeTotals(probe.dir, workerPids));
        probed = { connections: await sampler!.read(), processes, others: gcByKind(probeRound(othersBeforeGc!, await probeTotals(probe.dir, others))) };
      };
      const r = await wrkLoad(side.url, CLIENTS, seconds, side.tool, JSON.stringify({ query: "payment methods" }), {
        protocol: side.protocol,
        traffic: "distinct",
        // The first round warms each worker by as many calls (wrk-load.ts); later rounds find them warm.
        warmUpCalls: round === 0 ? WARM_UP_CALLS_PER_WORKER * workers : 0,
        serverPids: [side.child.pid as number, ...side.pids],
        measured,
        headers: side.headers,
        ...(side.databaseUrl !== undefined ? { databasePids: backends(side.databaseUrl), databaseTransactions: transactionsOf(side.databaseUrl) } : {}),
      });
      const calls = r.callsPerSec * seconds;
      side.errors += r.errors;
      side.calls += calls;
      side.cpu += r.cpuMsPerCall * calls;
      side.main += r.mainThreadCpuMsPerCall * calls;
      if (!Number.isNaN(r.dbCpuMsPerCall)) side.db += r.dbCpuMsPerCall * calls;
      if (!Number.isNaN(r.dbTransactionsPerCall)) side.transactions += r.dbTransactionsPerCall * calls;
      side.rounds.push({ rate: Math.round(r.callsPerSec), p99: r.p99, load: Math.round(load * 10) / 10, wrkMsPerCall: r.wrkCpuMsPerCall, othersCpuMs });
      if (probed !== undefined) process.stdout.write(`${JSON.stringify({ side: side.name, round, ...span, calls, connections: probed.connections, processes: probed.processes, othersGc: probed.others })}\n`);
    }
  }
  for (const side of sides) {
    const perCall = (ms: number): number => Math.round((ms / side.calls) * 1000) / 1000;
    const database = side.databaseUrl !== undefined ? { databaseCpuMsPerCall: perCall(side.db), databaseTransactionsPerCall: perCall(side.transactions) } : {};
    process.stdout.write(`${JSON.stringify({ side: side.name, workers, limits, protocol: side.protocol, endpoint, errors: side.errors, cpuMsPerCall: perCall(side.cpu), mainThreadCpuMsPerCall: perCall(side.main), primaryCpuMsPerCall: perCall(side.primary), ...database, rounds: side.rounds })}\n`);
  }
} finally {
  for (const side of sides) {
    if (side.child.exitCode === null) {
      const exited = once(side.child, "exit");
      side.child.kill("SIGTERM");
      await exited;
    }
    await side.drop?.();
  }
  if (probe !== undefined) rmSync(probe.dir, { recursive: true, force: true });
}
