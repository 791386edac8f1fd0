import pg from "pg";
import { LeasingLimiter } from "../src/bridge/middleware/leasing-limiter.js";
import { type Charge, CountersLimiter, FixedWindowLimiter, type RateLimiter } from "../src/bridge/middleware/rate-limit.js";
import { parseStateLocation } from "../src/store/location.js";
import { openStores } from "../src/store/stores.js";
import { type BenchRow, type BenchSuite, percentile, timeMany } from "./bench.js";

const HOUR = 3_600_000;
/** What a public search call charges: its IP's counter and the site's search counter. */
const charges = (ip: number): Charge[] => [
  { key: `ip:10.0.${ip >> 8}.${ip & 255}`, limit: 1e9, what: "requests" },
  { key: "tool:public:search", limit: 1e9, what: "search calls" },
];

/** Sequential latency and 32-in-flight throughput of one limiter. */
async function measure(limiter: RateLimiter): Promise<{ p50: number; p99: number; perSec: number }> {
  await timeMany(200, (i) => limiter.take(charges(i % 50))); // warm-up: connections, plans
  const times = await timeMany(2_000, (i) => limiter.take(charges(i % 50)));
  const total = 6_400;
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < total) await limiter.take(charges(next++ % 50));
    }),
  );
  return { p50: percentile(times, 50), p99: percentile(times, 99), perSec: total / ((performance.now() - t) / 1000) };
}

/**
 * The cost of shared rate-limit counters: `take` on PostgreSQL (`CountersLimiter`, one function
 * call per request on the local server) against the in-process `FixedWindowLimiter`. Every public
 * search charges the one site-wide `tool:public:search` counter, so concurrent calls queue on its
 * row lock: the 32-in-flight figure is the ceiling that puts on search calls per second.
 */
export const rateLimitSuite: BenchSuite = {
  name: "rate-limit",
  run: async (log) => {
    const adminUrl = process.env.SVC_TEST_PG ?? "postgres://postgres@127.0.0.1:5432/test";
    const name = `svc_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const stores = openStores(parseStateLocation(url.toString(), "/"));
    try {
      const memory = await measure(new FixedWindowLimiter(HOUR));
      log(`in memory: p50 ${memory.p50.toFixed(4)} ms, p99 ${memory.p99.toFixed(4)} ms, ${Math.round(memory.perSec)}/s at 32 in flight`);
      const shared = await measure(new CountersLimiter((await stores.counters())!, HOUR));
      log(`PostgreSQL: p50 ${shared.p50.toFixed(3)} ms, p99 ${shared.p99.toFixed(3)} ms, ${Math.round(shared.perSec)}/s at 32 in flight`);
      // As served: the counters leased in blocks (one round trip per 64 takes of a counter).
      const leased = await measure(new LeasingLimiter(new CountersLimiter((await stores.counters())!, HOUR), HOUR));
      log(`PostgreSQL, leased in blocks: p50 ${leased.p50.toFixed(4)} ms, p99 ${leased.p99.toFixed(3)} ms, ${Math.round(leased.perSec)}/s at 32 in flight`);
      const rows: BenchRow[] = [
        { area: "rate-limit", metric: "take p50, PostgreSQL counters (ip + search)", value: shared.p50, unit: "ms", baseline: { name: "in memory", value: memory.p50 } },
        { area: "rate-limit", metric: "take p99, PostgreSQL counters (ip + search)", value: shared.p99, unit: "ms", baseline: { name: "in memory", value: memory.p99 } },
        {
          area: "rate-limit",
          metric: "takes/s at 32 in flight, one shared search counter",
          value: shared.perSec,
          unit: "/s",
          baseline: { name: "in memory", value: memory.perSec },
          target: ">= 1,500/s (the bridge target)",
          ok: shared.perSec >= 1_500,
        },
        { area: "rate-limit", metric: "take p50, PostgreSQL counters leased in blocks of 64 (as served)", value: leased.p50, unit: "ms", baseline: { name: "every take in the database", value: shared.p50 } },
        { area: "rate-limit", metric: "takes/s at 32 in flight, PostgreSQL counters leased in blocks of 64 (as served)", value: leased.perSec, unit: "/s", baseline: { name: "every take in the database", value: shared.perSec } },
      ];
      return rows;
    } finally {
      await stores.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  },
};
