import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, it } from "vitest";

/**
 * The PostgreSQL server the tests use: `$SVC_TEST_PG`, else the machine's own at 127.0.0.1:5432
 * (trust auth, database `test`). global-setup.ts checks once whether it answers: when it does
 * not, these tests are skipped with the reason it printed (under CI=true the run fails instead).
 */
export const PG_ADMIN_URL = process.env.SVC_TEST_PG ?? "postgres://postgres@127.0.0.1:5432/test";
/** Set by global-setup.ts: the one-line reason the server cannot be used, or "" when it can. */
const UNREACHABLE = process.env.SVC_TEST_PG_UNREACHABLE ?? "";
export const PG_PRESENT = UNREACHABLE === "";

/** `describe` for a suite that talks to PostgreSQL; skipped, saying why, without one. */
export function describePostgres(name: string, fn: () => void): void {
  describe.skipIf(!PG_PRESENT)(PG_PRESENT ? name : `${name} (skipped: ${UNREACHABLE})`, fn);
}

/** `it` for a test that talks to PostgreSQL. */
export const itPostgres = it.skipIf(!PG_PRESENT);

/** Whether the server answers; the reason when it does not (used by global-setup.ts). */
export async function probePostgres(url = PG_ADMIN_URL): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${url} is not reachable (${(error as Error).message}); set SVC_TEST_PG to a server's URL`;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A new, empty database of its own for a test or suite (`svc_test_<random>` on the test server),
 * and a function that drops it (closing whatever connections are still open to it).
 */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `svc_test_${randomBytes(6).toString("hex")}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Run a query on a database the test made (to look at rows the store wrote). */
export async function queryDatabase<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
