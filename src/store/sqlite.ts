import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";

export type Db = Database.Database;

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
 */
export function openDatabase(file: string, migrations: readonly Migration[]): Db {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Create the file ourselves so it never exists with a wider mode, even for an instant.
  closeSync(openSync(file, "a", 0o600));
  chmodSync(file, 0o600);
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
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

/** Apply the migrations newer than the database's `user_version`. */
export function migrate(db: Db, migrations: readonly Migration[]): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  const latest = migrations.reduce((m, x) => Math.max(m, x.version), 0);
  if (current > latest) {
    throw new Error(`database schema version ${current} is newer than this svc-mcp supports (${latest}); upgrade svc-mcp`);
  }
  const pending = [...migrations].filter((m) => m.version > current).sort((a, b) => a.version - b.version);
  for (const m of pending) {
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}
