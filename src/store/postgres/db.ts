import type { Client, ClientConfig, Pool, PoolClient, QueryResultRow } from "pg";
import { LIMITS } from "../../limits.js";
import { StoreConnectionLost, StoreUnavailableError } from "../errors.js";
import { redactUrl } from "../location.js";
import { POSTGRES_MIGRATIONS, type PgMigration } from "./migrations.js";

/** What the stores run queries through: the pool, or one client inside a transaction. */
export interface PgQueryable {
  query<R extends QueryResultRow>(sql: string, params?: readonly unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

/** int8 (OID 20): our times are milliseconds since the epoch, far inside a double's exact range. */
const INT8_OID = 20;

/**
 * A connection pool to the state database. `pg` is imported when a store is first opened, never
 * at start-up (serving over stdio never needs it).
 */
export class PgDb implements PgQueryable {
  /** Connections of their own (`dedicated`), ended with the pool. */
  private readonly dedicatedClients = new Set<Client>();
  private closed = false;

  private constructor(
    private readonly pool: Pool,
    readonly label: string,
    /** How `dedicated` connects: the pool's own settings, for a connection outside it. */
    private readonly connect: (applicationName: string) => Client,
  ) {}

  /** Connect and bring the schema up to date (once, whichever process gets there first). */
  static async open(url: string, migrations: readonly PgMigration[] = POSTGRES_MIGRATIONS): Promise<PgDb> {
    const { default: pg } = await import("pg");
    const types = {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID && format !== "binary" ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
    };
    // Parameters on the URL (`?query_timeout=1000`) take precedence over these (pg's rule).
    const config: ClientConfig = {
      connectionString: url,
      types,
      connectionTimeoutMillis: 10_000,
      query_timeout: LIMITS.postgres.queryTimeoutMs,
      lock_timeout: LIMITS.postgres.lockTimeoutMs,
      idle_in_transaction_session_timeout: LIMITS.postgres.idleInTransactionMs,
      keepAlive: true,
    };
    const pool = new pg.Pool({ ...config, max: 10 });
    // An idle client whose server went away: log nothing here, the next query reports it.
    pool.on("error", () => {});
    const db = new PgDb(pool, redactUrl(url), (applicationName) => new pg.Client({ ...config, application_name: applicationName }));
    try {
      await migrate(db, migrations);
    } catch (error) {
      await pool.end();
      // Migrations run through `query`, which reports a lost connection as StoreConnectionLost.
      const cause = error instanceof StoreConnectionLost ? error.cause : error;
      if (isConnectionError(cause)) throw new PostgresUnreachableError(db.label, (cause as Error).message);
      throw error;
    }
    return db;
  }

  async query<R extends QueryResultRow>(sql: string, params: readonly unknown[] = []): Promise<{ rows: R[]; rowCount: number | null }> {
    try {
      return await this.pool.query<R>(sql, params as unknown[]);
    } catch (error) {
      throw asLostConnection(error);
    }
  }

  /** Run `fn` in one transaction on one connection; rolled back when it throws. */
  async transaction<T>(fn: (q: PgQueryable) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw asLostConnection(error);
    }
    // A connection that lost its server (or stopped answering) is dropped from the pool, not
    // handed to the next request.
    let broken: Error | undefined;
    try {
      return await this.inTransaction(client, fn);
    } catch (error) {
      const lost = asLostConnection(error);
      if (lost instanceof StoreConnectionLost) broken = lost;
      throw lost;
    } finally {
      client.release(broken);
    }
  }

  private async inTransaction<T>(client: PoolClient, fn: (q: PgQueryable) => Promise<T>): Promise<T> {
    try {
      await client.query("BEGIN");
      const result = await fn(client as PgQueryable);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    }
  }

  /**
   * A connection of its own, outside the pool, for what holds a connection's session: LISTEN,
   * which a pooled connection would take to the next borrower. Connected; ended by the caller,
   * or with the pool. Its errors are the caller's to listen for (`error`, `end`).
   */
  async dedicated(applicationName: string): Promise<Client> {
    if (this.closed) throw new StoreConnectionLost("the state database's pool is closed");
    const client = this.connect(applicationName);
    this.dedicatedClients.add(client);
    client.once("end", () => this.dedicatedClients.delete(client));
    try {
      await client.connect();
    } catch (error) {
      this.dedicatedClients.delete(client);
      await endDedicated(client);
      throw asLostConnection(error);
    }
    return client;
  }

  /** Whether `close` was called: nothing opens a connection any more. */
  get isClosed(): boolean {
    return this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.dedicatedClients].map(endDedicated));
    await this.pool.end();
  }
}

/** How long ending a dedicated connection waits for the server to close its side. */
const END_WAIT_MS = 1_000;

/**
 * End a connection of its own (`PgDb.dedicated`). `end()` waits for the server to close its side,
 * which a silent connection (a host gone, a network cut that resets nothing) never does: past
 * `END_WAIT_MS` its socket is destroyed, so stopping never hangs on it.
 */
export async function endDedicated(client: Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, END_WAIT_MS)));
  await Promise.race([client.end().catch(() => {}), waited]);
  clearTimeout(timer);
  // pg has no public way to drop a connection at once; its socket is `connection.stream`.
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/** The state database cannot be reached (refused, unknown host, authentication, no database). */
export class PostgresUnreachableError extends StoreUnavailableError {
  constructor(
    readonly label: string,
    readonly reason: string,
  ) {
    super(`cannot open the PostgreSQL state database ${label}: ${reason}`);
    this.name = "PostgresUnreachableError";
  }

  explain(): string {
    return this.message;
  }
}

/**
 * A connection lost under a query, or none to be had, as the store-neutral `StoreConnectionLost`
 * (a 503 and a retry for the bridge); SQLSTATE errors keep their code (`isTransientStoreError`
 * reads it), and anything else is left as it is.
 */
function asLostConnection(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && !/^E[A-Z]+$/.test(code)) return error;
  return isConnectionError(error) ? new StoreConnectionLost((error as Error).message, { cause: error }) : error;
}

/** Errors that mean "no usable server there", as opposed to a bug in a query. */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // pg's own failures (a connection timeout, a connection ended under a query) carry no code:
  // their words are all the driver gives.
  if (typeof code !== "string") return error instanceof Error && /timeout|terminated|connect/i.test(error.message);
  // Node's socket errors, and SQLSTATE classes 08 (connection), 28 (authorization), 3D000 (no such database).
  return /^E[A-Z]+$/.test(code) || code.startsWith("08") || code.startsWith("28") || code === "3D000";
}

/**
 * Any advisory lock id, the same in every process: the first instance to start migrates, the
 * others wait on the lock, then find the schema current and apply nothing.
 */
const MIGRATION_LOCK = 0x5356434d4350; // "SVCMCP"

/** Apply the migrations the database has not had, in one transaction under the lock. */
async function migrate(db: PgDb, migrations: readonly PgMigration[]): Promise<void> {
  const latest = migrations.reduce((m, x) => Math.max(m, x.version), 0);
  await db.transaction(async (q) => {
    // Another instance migrating may hold the lock for as long as its migration takes.
    await q.query("SET LOCAL lock_timeout = 0");
    await q.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await q.query("CREATE TABLE IF NOT EXISTS svc_mcp_schema (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)");
    const { rows } = await q.query<{ version: number | null }>("SELECT max(version) AS version FROM svc_mcp_schema");
    const current = rows[0]?.version ?? 0;
    if (current > latest) {
      throw new Error(`database schema version ${current} is newer than this svc-mcp supports (${latest}); upgrade svc-mcp`);
    }
    for (const m of [...migrations].filter((x) => x.version > current).sort((a, b) => a.version - b.version)) {
      await q.query(m.sql);
      await q.query("INSERT INTO svc_mcp_schema (version, applied_at) VALUES ($1, $2)", [m.version, Date.now()]);
    }
  });
}
