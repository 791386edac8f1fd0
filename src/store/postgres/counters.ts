import type { CounterCharge, WindowCounters } from "../counters.js";
import type { PgDb } from "./db.js";

/**
 * Rate-limit counters in PostgreSQL (`rate_counters`), charged by `svc_mcp_take` (migration 1) in
 * one round trip per request. Keys are charged in sorted order, so two requests charging the
 * same counters lock them in the same order and never deadlock.
 */
export class PgWindowCounters implements WindowCounters {
  /** The newest window this process has seen; older rows are deleted when it moves on. */
  private window = Number.NaN;

  constructor(private readonly db: PgDb) {}

  async take(window: number, charges: readonly CounterCharge[]): Promise<number> {
    if (charges.length === 0) return -1;
    await this.roll(window);
    const order = charges.map((c, i) => ({ c, i })).sort((a, b) => (a.c.key < b.c.key ? -1 : a.c.key > b.c.key ? 1 : 0));
    const { rows } = await this.db.query<{ refused: number }>("SELECT svc_mcp_take($1, $2, $3, $4) AS refused", [
      window,
      order.map((o) => o.c.key),
      order.map((o) => o.c.units),
      order.map((o) => o.c.limit),
    ]);
    const refused = rows[0]?.refused ?? 0;
    return refused === 0 ? -1 : order[refused - 1]!.i;
  }

  async refund(window: number, charges: readonly Omit<CounterCharge, "limit">[]): Promise<void> {
    if (charges.length === 0) return;
    await this.db.query(
      `UPDATE rate_counters c SET count = greatest(c.count - r.units, 0)
       FROM unnest($2::text[], $3::bigint[]) AS r(key, units) WHERE c.window_index = $1 AND c.key = r.key`,
      [window, charges.map((c) => c.key), charges.map((c) => c.units)],
    );
  }

  private async roll(window: number): Promise<void> {
    if (window <= this.window) return;
    this.window = window;
    // Every instance does this once per window; the rows are few (one per active key).
    await this.db.query("DELETE FROM rate_counters WHERE window_index < $1", [window]);
  }
}
