import { BatchInFlight } from "../batch-in-flight.js";
import type { CounterCharge, WindowCounters } from "../counters.js";
import type { PgDb } from "./db.js";

/** Requests per `svc_mcp_take_many` call: a batch holds its counters' locks until it commits. */
const MAX_BATCH = 256;

interface Take {
  readonly window: number;
  /** The request's charges in key order, each with its index in the caller's list. */
  readonly sorted: readonly { readonly charge: CounterCharge; readonly index: number }[];
}

/**
 * Rate-limit counters in PostgreSQL (`rate_counters`). The takes of this process go to the
 * database in batches, one batch in flight at a time (`BatchInFlight`): `svc_mcp_take_many`
 * (migration 3) decides a batch's requests in turn, each all or nothing, in one transaction. So
 * under load a process holds the site-wide search counter's row lock once per round trip rather
 * than once per call, and the instances do not queue on it. Keys are locked in sorted order, so
 * two batches charging the same counters never deadlock.
 */
export class PgWindowCounters implements WindowCounters {
  /** The newest window this process has seen; older rows are deleted when it moves on. */
  private window = Number.NaN;
  private readonly takes = new BatchInFlight<Take, number>((batch) => this.takeMany(batch), MAX_BATCH);

  constructor(private readonly db: PgDb) {}

  async take(window: number, charges: readonly CounterCharge[]): Promise<number> {
    if (charges.length === 0) return -1;
    const sorted = charges.map((charge, index) => ({ charge, index })).sort((a, b) => (a.charge.key < b.charge.key ? -1 : a.charge.key > b.charge.key ? 1 : 0));
    return this.takes.submit({ window, sorted });
  }

  async refund(window: number, charges: readonly Omit<CounterCharge, "limit">[]): Promise<void> {
    if (charges.length === 0) return;
    await this.db.query(
      `UPDATE rate_counters c SET count = greatest(c.count - r.units, 0)
       FROM unnest($2::text[], $3::bigint[]) AS r(key, units) WHERE c.window_index = $1 AND c.key = r.key`,
      [window, charges.map((c) => c.key), charges.map((c) => c.units)],
    );
  }

  /** One round trip per window among `batch` (all one window, but at the turn of the hour). */
  private async takeMany(batch: readonly Take[]): Promise<number[]> {
    const results: number[] = new Array<number>(batch.length);
    for (const window of new Set(batch.map((t) => t.window))) {
      const group = batch.flatMap((t, i) => (t.window === window ? [i] : []));
      await this.roll(window);
      const request: number[] = [];
      const keys: string[] = [];
      const units: number[] = [];
      const limits: number[] = [];
      group.forEach((i, n) => {
        for (const { charge } of (batch[i] as Take).sorted) {
          request.push(n + 1);
          keys.push(charge.key);
          units.push(charge.units);
          limits.push(charge.limit);
        }
      });
      const { rows } = await this.db.query<{ refused: number[] }>("SELECT svc_mcp_take_many($1, $2, $3, $4, $5) AS refused", [window, request, keys, units, limits]);
      const refused = rows[0]?.refused ?? [];
      group.forEach((i, n) => {
        const position = refused[n] ?? 0;
        results[i] = position === 0 ? -1 : ((batch[i] as Take).sorted[position - 1] as { index: number }).index;
      });
    }
    return results;
  }

  private async roll(window: number): Promise<void> {
    if (window <= this.window) return;
    this.window = window;
    // Every instance does this once per window; the rows are few (one per active key).
    await this.db.query("DELETE FROM rate_counters WHERE window_index < $1", [window]);
  }
}
