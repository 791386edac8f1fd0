import { LeasingLimiter } from "../src/bridge/middleware/leasing-limiter.js";
import { CountersLimiter } from "../src/bridge/middleware/rate-limit.js";
import { PgWindowCounters } from "../src/store/postgres/counters.js";
import { PgDb } from "../src/store/postgres/db.js";
import { PgStateStore } from "../src/store/postgres/state-store.js";
import { freshDatabase, queryDatabase } from "../test/helpers/postgres.js";
import { cpuMs } from "./cpu-time.js";

/**
 * What PostgreSQL state costs a call, without the search: the state work of `calls` tool calls
 * made by 32 callers at once on one process, as `/mcp` and `/authed/mcp` do it (the settings,
 * the bearer check on `/authed/mcp`, the rate-limit charges of the per-IP and the tool's
 * counters, leased in blocks as `serve` does), against a fresh database on SVC_TEST_PG's
 * server. Prints per call: round trips (queries sent by the process's pool, counted in the
 * client; the LISTEN connection's acknowledgements are not on the call's path), this process's
 * CPU and the database's backends' CPU (`/proc`). The counts do not depend on the machine's
 * load; the CPU does, less than a rate.
 *
 *   npx tsx bench/pg-state-calls.ts [calls] [mcp|authed] [busyMs]
 *
 * `busyMs`: CPU each call then spends on the main thread (a search's), so that, as in a server,
 * fewer checks are waiting together when one goes to the database (smaller batches).
 */

const calls = Number(process.argv[2] ?? 20_000);
const endpoint = process.argv[3] ?? "authed";
const busyMs = Number(process.argv[4] ?? 0);
const CALLERS = 32;
const WINDOW_MS = 3_600_000;

const db = await freshDatabase();
const pool = await PgDb.open(db.url);
let roundTrips = 0;
const query = pool.query.bind(pool);
pool.query = ((sql: string, params?: readonly unknown[]) => {
  roundTrips++;
  return query(sql, params);
}) as typeof pool.query;
const state = new PgStateStore(pool, { cacheSettings: true });
try {
  await state.settingsListening();
  const { info } = await state.createCredential("bench");
  const { accessToken } = await state.issueTokens({ subject: { kind: "credential", clientId: info.clientId }, clientId: info.clientId, scope: "mcp", resource: "https://docs.example.com/authed/mcp" });
  const limiter = new LeasingLimiter(new CountersLimiter(new PgWindowCounters(pool), WINDOW_MS), WINDOW_MS);
  const charges = [
    { key: "ip:127.0.0.1", limit: 1_000_000_000, what: "calls per hour from this address" },
    { key: `tool:${endpoint}:search`, limit: 1_000_000_000, what: "search calls per hour" },
  ];
  const oneCall = async (): Promise<void> => {
    await state.settings();
    if (endpoint === "authed") {
      const check = await state.verifyAccessToken(accessToken);
      if (!check.ok) throw new Error(`token refused: ${check.reason}`);
    }
    const decision = await limiter.take(charges);
    if (!decision.ok) throw new Error("refused");
    for (const until = performance.now() + busyMs; performance.now() < until; );
  };
  const run = async (n: number): Promise<void> => {
    let left = n;
    await Promise.all(
      Array.from({ length: CALLERS }, async () => {
        // Each caller's next call after a turn of the event loop, as a request's would be.
        while (left-- > 0) {
          await oneCall();
          await new Promise((resolve) => setImmediate(resolve));
        }
      }),
    );
  };
  await run(2_000);
  const name = new URL(db.url).pathname.slice(1);
  const backends = async (): Promise<number[]> => (await queryDatabase<{ pid: number }>(db.url, "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name])).map((r) => r.pid);
  const dbBefore = new Map((await backends()).map((pid) => [pid, cpuMs(pid)]));
  const tripsBefore = roundTrips;
  const cpuBefore = cpuMs(process.pid);
  const started = performance.now();
  await run(calls);
  const elapsed = performance.now() - started;
  const cpu = cpuMs(process.pid) - cpuBefore;
  const dbCpu = (await backends()).reduce((sum, pid) => sum + cpuMs(pid) - (dbBefore.get(pid) ?? 0), 0);
  const per = (x: number): number => Math.round((x / calls) * 10_000) / 10_000;
  process.stdout.write(`${JSON.stringify({ endpoint, busyMs, calls, roundTripsPerCall: per(roundTrips - tripsBefore), processCpuMsPerCall: per(cpu), databaseCpuMsPerCall: per(dbCpu), callsPerSec: Math.round(calls / (elapsed / 1000)) })}\n`);
} finally {
  await state.close();
  await pool.close();
  await db.drop();
}
