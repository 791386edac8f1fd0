import { LIMITS } from "../limits.js";
import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { packageRoot } from "../package-root.js";
import { StoreUnavailableError } from "./errors.js";

export type Db = BetterSqlite3.Database;
type Driver = typeof BetterSqlite3;

/**
 * better-sqlite3 is an optional peer dependency, which npm does not install with svc-mcp: it is
 * native, and where npm finds no prebuilt binary it compiles one (a minute, and only with Python,
 * make and a C++ compiler), so the package installs in seconds without it. Serving over stdio,
 * search, fs, check, nav and schema keep no state, so they must work without it: the module is
 * loaded when a store is first opened, never at import, and its absence is this typed error,
 * which the CLI turns into a message saying what the command needs.
 */
export class SqliteUnavailableError extends StoreUnavailableError {
  constructor(readonly reason: string) {
    super(`the SQLite module (better-sqlite3) is not installed or could not load: ${reason}`);
    this.name = "SqliteUnavailableError";
  }

  /** What a state command needs when better-sqlite3 is not there. */
  explain(command: string): string {
    const what = command === "serve" ? "serve --http" : command;
    return (
      `${what} keeps its state in SQLite, and the SQLite module (better-sqlite3, which svc-mcp does not install because it is native) is not installed or could not load: ${this.reason}\n` +
      "Install it where svc-mcp is installed: npm install better-sqlite3@12 (for a global svc-mcp: npm install -g better-sqlite3@12). " +
      "npm fetches a prebuilt binary for this platform or builds one with Python 3, make and a C++ compiler; " +
      "npm 12 runs that step only for packages you allow (npm approve-scripts better-sqlite3, or --allow-scripts=better-sqlite3).\n" +
      "Without it, serve over stdio, search, fs, check, nav and schema work; serve --http and the commands that keep state " +
      "(feedback, keys, mcp, users, credentials, redirect-domains) do not; or keep the state in PostgreSQL (--state postgres://...)."
    );
  }
}

/**
 * Load the driver with `load` (Node's `require`) and open an in-memory database: the native
 * addon is only loaded at the first `new Database`, so a package whose binary is missing or built
 * for another Node fails here, not halfway through a command.
 */
export function loadSqliteDriver(load: (id: string) => unknown): Driver {
  try {
    const driver = load("better-sqlite3") as Driver;
    new driver(":memory:").close();
    return driver;
  } catch (error) {
    // bindings' "Could not locate the bindings file" lists every path it tried: keep the first line.
    throw new SqliteUnavailableError(((error as Error).message ?? String(error)).split("\n")[0] ?? "");
  }
}

let driver: Driver | undefined;

/**
 * The driver, loaded once per process (Node caches the module itself too). Resolved from the
 * package's folder, not this module's: the installed bundle may run from a copy under the user's
 * cache folder (bin/svc-mcp.js), and better-sqlite3 is installed beside the package.
 */
function sqlite(): Driver {
  driver ??= loadSqliteDriver(createRequire(join(packageRoot(import.meta.url), "package.json")));
  return driver;
}

/**
 * Throws `SqliteUnavailableError` unless a store can be opened here: for a command that would
 * otherwise find out only after its slow part (`serve --http` read and indexed a whole site first).
 */
export function requireSqlite(): void {
  sqlite();
}

/** Whether a store can be opened here (loads the driver: a few milliseconds). */
export function sqliteAvailable(): boolean {
  try {
    sqlite();
    return true;
  } catch (error) {
    if (error instanceof SqliteUnavailableError) return false;
    throw error;
  }
}

/** One schema change. Migrations run in order, each once, inside a transaction. */
export interface Migration {
  /** 1, 2, 3...: the `user_version` the database has after this migration. */
  readonly version: number;
  readonly sql: string;
}

/**
 * Open (creating if needed) an SQLite database file for service state.
 * - The file (and its WAL/SHM companions) is created with mode 0600: it holds secret hashes.
 * - WAL lets readers proceed while a writer commits; `synchronous = FULL` makes a committed
 *   transaction survive a crash or power loss (a 2xx means the row is on disk).
 * - Pending migrations are applied; a database newer than this code is refused.
 * - Several processes may share the file (`serve --http --workers N`, a CLI command beside a
 *   server): the stores' write transactions are IMMEDIATE, so one that reads before it writes
 *   waits for the write lock (`busy_timeout`) instead of failing with SQLITE_BUSY when another
 *   process committed between its read and its write.
 */
export function openDatabase(file: string, migrations: readonly Migration[]): Db {
  // Before anything is created: without the driver, no empty state file is left behind.
  const Database = sqlite();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Create the file ourselves so it never exists with a wider mode, even for an instant.
  closeSync(openSync(file, "a", 0o600));
  chmodSync(file, 0o600);
  const db = new Database(file);
  // First: processes opening one file at once (`--workers`) wait for each other's locks,
  // switching to WAL included, instead of failing with SQLITE_BUSY.
  db.pragma(`busy_timeout = ${LIMITS.sqlite.busyTimeoutMs}`);
  switchToWal(db);
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  for (const companion of [`${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(companion, 0o600);
    } catch {
      // Created lazily by SQLite; when absent there is nothing to protect yet.
    }
  }
  migrate(db, migrations);
  return db;
}

/**
 * `journal_mode = WAL`, tried again while another process holds the lock. SQLite does not always
 * call the busy handler for this switch (not when waiting could deadlock two connections opening
 * the file at once), so two workers of `serve --http --workers N` starting together could fail
 * with SQLITE_BUSY and stop the start (seen in CI, 2026-11-29). Start-up only: blocking here
 * holds no request.
 */
function switchToWal(db: Db): void {
  const deadline = Date.now() + LIMITS.sqlite.busyTimeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "SQLITE_BUSY" || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, 20);
    }
  }
}

/**
 * Apply the migrations newer than the database's `user_version`. The version is read and the
 * migrations applied in one IMMEDIATE transaction: processes opening one file at once (the
 * workers of `serve --http --workers N`) take turns, and the second finds nothing left to do.
 */
export function migrate(db: Db, migrations: readonly Migration[]): void {
  const latest = migrations.reduce((m, x) => Math.max(m, x.version), 0);
  db.transaction(() => {
    const current = db.pragma("user_version", { simple: true }) as number;
    if (current > latest) {
      throw new Error(`database schema version ${current} is newer than this svc-mcp supports (${latest}); upgrade svc-mcp`);
    }
    const pending = [...migrations].filter((m) => m.version > current).sort((a, b) => a.version - b.version);
    for (const m of pending) {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }
  }).immediate();
}
