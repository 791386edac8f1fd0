import type { Client, Notification } from "pg";
import { LIMITS } from "../../limits.js";
import { endDedicated, type PgDb, type PgQueryable } from "./db.js";

/** The channel the settings table's trigger notifies on every commit that changes it (migration 4). */
export const SETTINGS_CHANNEL = "svc_mcp_settings";
/** The channel the triggers of the tables a bearer check reads notify on every commit that deletes or changes a row of them (migration 5). */
export const ACCESS_CHANNEL = "svc_mcp_access";
/** Where a listening server acknowledges each change, with the change's payload (its transaction id). */
export const SETTINGS_ACK_CHANNEL = "svc_mcp_settings_ack";
/** The `application_name` of a listening connection, set once it listens: what writers wait for. */
export const LISTENER_APPLICATION_NAME = "svc-mcp settings cache";
const CONNECTING_NAME = "svc-mcp settings cache (starting)";

/** What a process keeps while it listens (`SettingsCache`, `TokenCache`). */
export interface KeptWhileListening {
  invalidate(): void;
  setListening(listening: boolean): void;
}

/**
 * One connection of its own that LISTENs for changes of the settings (`SETTINGS_CHANNEL`) and of
 * the tables a bearer check reads (`ACCESS_CHANNEL`), and drops what the process keeps of them at
 * each (then acknowledges it, for the writer waiting in `writeAndWait`). While it is not listening
 * (connecting, lost, closed) nothing is kept: every request reads. A lost connection is opened
 * again after `LIMITS.postgres.listenRetryMs`.
 */
export class SettingsListener {
  private client: Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private onListening: (() => void)[] = [];

  private readonly caches: readonly KeptWhileListening[];

  constructor(
    private readonly db: PgDb,
    /** What each channel's notification drops. */
    private readonly byChannel: Readonly<Record<string, KeptWhileListening>>,
  ) {
    this.caches = Object.values(byChannel);
  }

  start(): void {
    void this.connect();
  }

  /** Settles once the connection listens (the settings may be kept from then on): for tests. */
  listening(): Promise<void> {
    return this.client !== undefined ? Promise.resolve() : new Promise((resolve) => this.onListening.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.setListening(false);
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) await endDedicated(client);
  }

  private async connect(): Promise<void> {
    let client: Client | undefined;
    try {
      client = await this.db.dedicated(CONNECTING_NAME);
      const own = client;
      let gone = false;
      const lost = (): void => {
        if (gone) return;
        gone = true;
        this.lost(own);
      };
      own.on("error", lost);
      own.on("end", lost);
      own.on("notification", (n: Notification) => this.changed(own, n));
      for (const channel of Object.keys(this.byChannel)) await own.query(`LISTEN ${channel}`);
      // Named only once it listens: a writer waits for every connection of this name.
      await own.query(`SET application_name = '${LISTENER_APPLICATION_NAME}'`);
      if (this.closed || gone) {
        await endDedicated(own);
        return;
      }
      this.client = own;
      this.setListening(true);
      for (const resolve of this.onListening.splice(0)) resolve();
    } catch {
      if (client !== undefined) await endDedicated(client);
      this.scheduleRetry();
    }
  }

  private changed(client: Client, n: Notification): void {
    const cache = this.byChannel[n.channel];
    if (cache === undefined) return;
    cache.invalidate();
    // After the copy is dropped: the writer returns once every listener has said so.
    client.query("SELECT pg_notify($1, $2)", [SETTINGS_ACK_CHANNEL, n.payload ?? ""]).catch(() => {});
  }

  private lost(client: Client): void {
    if (this.client !== undefined && this.client !== client) return;
    this.client = undefined;
    this.setListening(false);
    this.scheduleRetry();
  }

  private setListening(listening: boolean): void {
    for (const cache of this.caches) cache.setListening(listening);
  }

  private scheduleRetry(): void {
    if (this.closed || this.db.isClosed || this.retry !== undefined) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, LIMITS.postgres.listenRetryMs);
    this.retry.unref();
  }
}

/** Write one setting and wait for every listening server to drop its copy (`writeAndWait`). */
export async function writeSettingAndWait(db: PgDb, key: string, value: string, maxWaitMs: number): Promise<void> {
  await writeAndWait(
    db,
    async (q) => {
      await q.query("INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [key, value]);
      return { value: undefined, notified: true };
    },
    maxWaitMs,
  );
}

/**
 * Run `write` in one transaction, then, if it changed what servers keep (`notified`: a trigger
 * announced it), wait until every server listening for changes (`SettingsListener`) has
 * acknowledged it, i.e. has dropped its copy, so the change (a setting, a revocation) applies to
 * the next request each serves once this returns. A server that does not acknowledge within
 * `maxWaitMs` (the most a copy is kept: `SettingsCache`, `TokenCache`) holds no copy older than
 * the change by then. The wait is for a transaction's acknowledgements, by the listening
 * connections seen after commit. A write that changed nothing waits for no one (nothing was
 * announced, so no one would acknowledge).
 */
export async function writeAndWait<T>(db: PgDb, write: (q: PgQueryable) => Promise<{ value: T; notified: boolean }>, maxWaitMs: number): Promise<T> {
  const client = await db.dedicated("svc-mcp settings writer");
  client.on("error", () => {});
  const acks: Notification[] = [];
  let heard: () => void = () => {};
  client.on("notification", (n: Notification) => {
    if (n.channel !== SETTINGS_ACK_CHANNEL) return;
    acks.push(n);
    heard();
  });
  try {
    await client.query(`LISTEN ${SETTINGS_ACK_CHANNEL}`);
    const { value, notified, txid } = await inTransaction(client, async () => {
      const done = await write(client as PgQueryable);
      return { ...done, txid: (await client.query<{ txid: string }>("SELECT txid_current()::text AS txid")).rows[0]?.txid };
    });
    if (!notified) return value;
    const deadline = performance.now() + maxWaitMs;
    const { rows } = await client.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1", [LISTENER_APPLICATION_NAME]);
    const waiting = new Set(rows.map((r) => r.pid));
    await new Promise<void>((done) => {
      const timer = setTimeout(done, Math.max(0, deadline - performance.now()));
      heard = () => {
        for (const n of acks.splice(0)) if (n.payload === txid) waiting.delete(n.processId);
        if (waiting.size > 0) return;
        clearTimeout(timer);
        done();
      };
      heard();
    });
    return value;
  } finally {
    await endDedicated(client);
  }
}

async function inTransaction<T>(client: Client, fn: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const result = await fn();
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
