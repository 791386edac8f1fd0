/**
 * The state cannot be opened here: a driver that is not installed, a database that cannot be
 * reached. The CLI prints `explain(command)` and exits 1; the message says what to do.
 */
export abstract class StoreUnavailableError extends Error {
  /** The whole message for `command` (`serve --http`, `keys`...). */
  abstract explain(command: string): string;
}

/** A `--state` value (or `SVC_STATE_URL`) that names no state we can keep: a user's mistake. */
export class StateLocationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StateLocationError";
  }
}

/** The connection to the state database was lost under a request, or none could be had: the
 *  database restarting, failing over or cut off. Worth a retry. */
export class StoreConnectionLost extends Error {
  readonly code = "STORE_CONNECTION_LOST";

  constructor(message: string, options?: ErrorOptions) {
    super(`the state database connection was lost: ${message}`, options);
    this.name = "StoreConnectionLost";
  }
}

/**
 * Whether an error is the database being busy for a moment (another process holding a lock past
 * the wait, a serialization conflict, a dropped connection): worth a 503 and a retry, not a 500.
 */
export function isTransientStoreError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  // SQLite: the write lock held past busy_timeout. PostgreSQL: serialization failure, deadlock,
  // lock timeout, too many connections, the server shutting down or restarting, a lost connection.
  return (
    code === "SQLITE_BUSY" ||
    code === "STORE_CONNECTION_LOST" ||
    ["40001", "40P01", "55P03", "53300", "57P01", "57P02", "57P03"].includes(code) ||
    code.startsWith("08") ||
    code === "ECONNRESET" ||
    code === "ECONNREFUSED"
  );
}
