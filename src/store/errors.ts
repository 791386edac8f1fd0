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

/** What kind of fault of the state storage an error is, if any (see `stateFault`). */
export type StateFaultKind = "unavailable" | "full";

/**
 * The state storage failing under a request, by kind: `unavailable` (busy or unreachable for a
 * moment, `isTransientStoreError`) or `full` (no room to write: the disk or a quota is full, or
 * the file system stopped taking writes: SQLite's SQLITE_FULL and I/O errors, ENOSPC, EDQUOT,
 * EROFS, PostgreSQL's disk_full 53100). Both are a 503 with Retry-After, not a 500: retrying
 * later can succeed, and the request was not at fault. Undefined for anything else (a bug).
 */
export function stateFault(error: unknown): { readonly kind: StateFaultKind; readonly code: string } | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return undefined;
  if (isTransientStoreError(error)) return { kind: "unavailable", code };
  if (FULL_CODES.has(code) || code.startsWith("SQLITE_IOERR") || code.startsWith("SQLITE_READONLY")) return { kind: "full", code };
  return undefined;
}

const FULL_CODES = new Set(["SQLITE_FULL", "ENOSPC", "EDQUOT", "EROFS", "53100"]);

/** Why a state folder cannot be used, in words, by error code. */
const FOLDER_PROBLEMS: Readonly<Record<string, string>> = {
  EROFS: "the file system is read-only",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  SQLITE_FULL: "the disk is full",
  ENOTDIR: "a part of the path is not a folder",
  SQLITE_CANTOPEN: "its database files cannot be opened",
  SQLITE_READONLY: "its database files are read-only",
  SQLITE_NOTADB: "a file in it is not a database",
  SQLITE_CORRUPT: "a database in it is damaged",
};

/**
 * The SQLite state folder cannot be opened or written at start (a read-only file system, no
 * permission, a full disk): one line naming the folder and why, and the CLI exits 2, instead of a
 * stack trace. The code is the system's (`EROFS`) or SQLite's.
 */
export class StateFolderError extends Error {
  constructor(
    readonly folder: string,
    readonly code: string,
    why: string,
  ) {
    super(`cannot use the state folder ${folder}: ${why} (${code}); give another with --state, or make it writable`);
    this.name = "StateFolderError";
  }

  /** The error as a `StateFolderError` when it is one of the folder problems above, else undefined. */
  static of(folder: string, error: unknown): StateFolderError | undefined {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code !== "string") return undefined;
    const why = FOLDER_PROBLEMS[code] ?? (code.startsWith("SQLITE_READONLY") ? FOLDER_PROBLEMS.SQLITE_READONLY : code.startsWith("SQLITE_IOERR") ? "it cannot be written" : undefined);
    return why === undefined ? undefined : new StateFolderError(folder, code, why);
  }
}
