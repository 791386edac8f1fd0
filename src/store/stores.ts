import { existsSync } from "node:fs";
import { join } from "node:path";
import type { WindowCounters } from "./counters.js";
import { StateFolderError } from "./errors.js";
import { FEEDBACK_DB_FILE, openFeedbackStore } from "./feedback/sqlite-store.js";
import type { FeedbackStore } from "./feedback/store.js";
import { type AdminKeyStore, openKeyStore } from "./keys/key-store.js";
import type { StateLocation } from "./location.js";
import { PgWindowCounters } from "./postgres/counters.js";
import type { PgDb } from "./postgres/db.js";
import { PgFeedbackStore } from "./postgres/feedback-store.js";
import { PgKeyStore } from "./postgres/key-store.js";
import { PgStateStore } from "./postgres/state-store.js";
import { sqliteAvailable } from "./sqlite.js";
import type { StateStoreOptions } from "./state/common.js";
import { STATE_DB_FILE, openStateStore } from "./state/sqlite-state-store.js";
import type { StateStore } from "./state/state-store.js";

/**
 * A project's stores, whichever engine keeps them. Each is opened on first use (a command that
 * lists keys opens no feedback), and `close` closes what was opened. The stores' own `close`
 * need not be called.
 */
export interface Stores {
  /** Where the state is, for messages (a folder, or the database URL without its password). */
  readonly label: string;
  state(): Promise<StateStore>;
  feedback(): Promise<FeedbackStore>;
  keys(): Promise<AdminKeyStore>;
  /**
   * Rate-limit counters every process and instance shares, when the state is shared (a
   * database server); undefined for state local to one machine, where the caller counts.
   */
  counters(): Promise<WindowCounters | undefined>;
  /** Whether `what` was ever stored here: read-only commands open nothing when not. */
  has(what: "state" | "feedback"): boolean;
  /** Why feedback cannot be kept by this process (its driver is missing), or undefined. */
  feedbackUnavailable(): string | undefined;
  close(): Promise<void>;
}

export interface OpenStoresOptions {
  readonly state?: StateStoreOptions;
}

/** The stores for a location (`resolveStateLocation`). Nothing is opened until asked for. */
export function openStores(location: StateLocation, options: OpenStoresOptions = {}): Stores {
  return location.kind === "postgres" ? postgresStores(location.url, location.label, options) : sqliteStores(location.path, options);
}

/** Memoize one async opener, remembering what must be closed. */
function once<T>(open: () => Promise<T> | T): { get: () => Promise<T>; opened: () => Promise<T> | undefined } {
  let value: Promise<T> | undefined;
  return {
    get: () => (value ??= Promise.resolve().then(open)),
    opened: () => value,
  };
}

/** Three SQLite files in a folder (`access.db`, `feedback.db`, `keys.db`). */
function sqliteStores(dir: string, options: OpenStoresOptions): Stores {
  // A folder that cannot be written (read-only, no permission, full) is one clear line, not a stack.
  const guarded =
    <T>(open: () => T) =>
    (): T => {
      try {
        return open();
      } catch (error) {
        throw StateFolderError.of(dir, error) ?? error;
      }
    };
  const state = once(guarded(() => openStateStore(dir, options.state)));
  const feedback = once(guarded(() => openFeedbackStore(dir)));
  const keys = once(guarded(() => openKeyStore(dir)));
  return {
    label: dir,
    state: state.get,
    feedback: feedback.get,
    keys: keys.get,
    counters: async () => undefined,
    has: (what) => existsSync(join(dir, what === "state" ? STATE_DB_FILE : FEEDBACK_DB_FILE)),
    feedbackUnavailable: () => (sqliteAvailable() ? undefined : "feedback is kept in SQLite, and the SQLite module (better-sqlite3) is not installed (npm install -g better-sqlite3@12 beside a global svc-mcp adds it)"),
    close: async () => {
      await Promise.all([state, feedback, keys].map(async (s) => (await s.opened()?.catch(() => undefined))?.close()));
    },
  };
}

/** One PostgreSQL database for every store, through one pool. */
function postgresStores(url: string, label: string, options: OpenStoresOptions): Stores {
  const db = once(async () => (await import("./postgres/db.js")).PgDb.open(url));
  const pool = (): Promise<PgDb> => db.get();
  const state = once(async () => new PgStateStore(await pool(), options.state));
  const feedback = once(async () => PgFeedbackStore.open(await pool()));
  const keys = once(async () => new PgKeyStore(await pool()));
  const counters = once(async () => new PgWindowCounters(await pool()));
  return {
    label,
    state: state.get,
    feedback: feedback.get,
    keys: keys.get,
    counters: counters.get,
    has: () => true,
    feedbackUnavailable: () => undefined,
    close: async () => {
      const opened = db.opened();
      if (opened !== undefined) await (await opened.catch(() => undefined))?.close();
    },
  };
}
