import { timingSafeEqual } from "node:crypto";
import { join } from "node:path";
import type { Statement } from "better-sqlite3";
import { LIMITS } from "../../limits.js";
import { RandomIds } from "../random-id.js";
import { type Db, type Migration, openDatabase } from "../sqlite.js";
import { generateKey, hashKey, keyIdOf } from "./api-key.js";

/** The admin key database's file name inside the state directory (beside `feedback.db`). */
export const KEYS_DB_FILE = "keys.db";

/** What `keys list` shows about a key. The key itself is never stored, so never shown again. */
export interface AdminKeyInfo {
  readonly id: string;
  readonly label: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
}

export type KeyCheck =
  | { readonly ok: true; readonly key: AdminKeyInfo }
  | { readonly ok: false; readonly reason: "malformed" | "unknown" | "revoked" };

/**
 * Admin API keys (the feedback API's `Authorization: Bearer svc_...`). Asynchronous like the
 * feedback store, so both can move to a shared database together.
 */
export interface AdminKeyStore {
  /** A new key: the only time its text exists outside the caller. */
  create(label: string, now: number): Promise<{ key: string; info: AdminKeyInfo }>;
  /** Every key, newest first, revoked ones included. */
  list(): Promise<AdminKeyInfo[]>;
  /** Revoke by id or by the key itself. Throws KeyNotFoundError. */
  revoke(idOrKey: string, now: number): Promise<{ info: AdminKeyInfo; alreadyRevoked: boolean }>;
  /** Check a presented key (constant time in the secret). */
  verify(key: string, now: number): Promise<KeyCheck>;
  close(): Promise<void>;
}

export class KeyNotFoundError extends Error {
  constructor(readonly idOrKey: string) {
    super(`no API key ${JSON.stringify(keyIdOf(idOrKey) ?? idOrKey)}; see \`svc-mcp keys list\``);
    this.name = "KeyNotFoundError";
  }
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE admin_keys (
        id TEXT PRIMARY KEY,
        hash BLOB NOT NULL,
        label TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at INTEGER
      );
    `,
  },
];

/** An `admin_keys` row, as both backends store it. */
export interface KeyRow {
  id: string;
  hash: Buffer;
  label: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** Open (creating if needed) `<stateDir>/keys.db`. */
export function openKeyStore(stateDir: string): SqliteKeyStore {
  return new SqliteKeyStore(openDatabase(join(stateDir, KEYS_DB_FILE), MIGRATIONS));
}

export class SqliteKeyStore implements AdminKeyStore {
  private readonly random = new RandomIds();
  private readonly byId: Statement;
  private readonly touch: Statement;
  /** Compared against when the id is unknown, so a miss costs what a hit costs. */
  private readonly decoy = hashKey("svc_decoy");

  constructor(private readonly db: Db) {
    this.byId = db.prepare("SELECT * FROM admin_keys WHERE id = ?");
    this.touch = db.prepare("UPDATE admin_keys SET last_used_at = ? WHERE id = ?");
  }

  async create(label: string, now: number): Promise<{ key: string; info: AdminKeyInfo }> {
    const { key, id } = generateKey(this.random);
    this.db.prepare("INSERT INTO admin_keys (id, hash, label, created_at) VALUES (?, ?, ?, ?)").run(id, hashKey(key), label, now);
    return { key, info: toKeyInfo(this.byId.get(id) as KeyRow) };
  }

  async list(): Promise<AdminKeyInfo[]> {
    return (this.db.prepare("SELECT * FROM admin_keys ORDER BY created_at DESC, id").all() as KeyRow[]).map(toKeyInfo);
  }

  async revoke(idOrKey: string, now: number): Promise<{ info: AdminKeyInfo; alreadyRevoked: boolean }> {
    const id = keyIdOf(idOrKey) ?? idOrKey;
    return this.db
      .transaction(() => {
        const row = this.byId.get(id) as KeyRow | undefined;
        if (row === undefined) throw new KeyNotFoundError(idOrKey);
        if (row.revoked_at !== null) return { info: toKeyInfo(row), alreadyRevoked: true };
        this.db.prepare("UPDATE admin_keys SET revoked_at = ? WHERE id = ?").run(now, id);
        return { info: toKeyInfo({ ...row, revoked_at: now }), alreadyRevoked: false };
      })
      .immediate();
  }

  async verify(key: string, now: number): Promise<KeyCheck> {
    const id = keyIdOf(key);
    if (id === undefined) return { ok: false, reason: "malformed" };
    const row = this.byId.get(id) as KeyRow | undefined;
    const match = timingSafeEqual(hashKey(key), row?.hash ?? this.decoy);
    if (row === undefined || !match) return { ok: false, reason: "unknown" };
    if (row.revoked_at !== null) return { ok: false, reason: "revoked" };
    if (row.last_used_at === null || now - row.last_used_at >= LIMITS.keys.lastUsedResolutionMs) {
      this.touch.run(now, id);
      return { ok: true, key: toKeyInfo({ ...row, last_used_at: now }) };
    }
    return { ok: true, key: toKeyInfo(row) };
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** What `keys list` shows of a row. */
export function toKeyInfo(r: KeyRow): AdminKeyInfo {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return { id: r.id, label: r.label, createdAt: new Date(r.created_at).toISOString(), lastUsedAt: iso(r.last_used_at), revokedAt: iso(r.revoked_at) };
}
