import { timingSafeEqual } from "node:crypto";
import { LIMITS } from "../../limits.js";
import { generateKey, hashKey, keyIdOf } from "../keys/api-key.js";
import { type AdminKeyInfo, type AdminKeyStore, type KeyCheck, KeyNotFoundError, type KeyRow, toKeyInfo } from "../keys/key-store.js";
import { RandomIds } from "../random-id.js";
import type { PgDb } from "./db.js";

/** Admin API keys in PostgreSQL: a revocation on one instance refuses the key on all at the next request. */
export class PgKeyStore implements AdminKeyStore {
  private readonly random = new RandomIds();
  /** Compared against when the id is unknown, so a miss costs what a hit costs. */
  private readonly decoy = hashKey("svc_decoy");

  constructor(
    private readonly db: PgDb,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {}

  async create(label: string, now: number): Promise<{ key: string; info: AdminKeyInfo }> {
    const { key, id } = generateKey(this.random);
    const { rows } = await this.db.query<KeyRow>("INSERT INTO admin_keys (id, hash, label, created_at) VALUES ($1, $2, $3, $4) RETURNING *", [
      id,
      hashKey(key),
      label,
      now,
    ]);
    return { key, info: toKeyInfo(rows[0]!) };
  }

  async list(): Promise<AdminKeyInfo[]> {
    const { rows } = await this.db.query<KeyRow>('SELECT * FROM admin_keys ORDER BY created_at DESC, id COLLATE "C"');
    return rows.map(toKeyInfo);
  }

  async revoke(idOrKey: string, now: number): Promise<{ info: AdminKeyInfo; alreadyRevoked: boolean }> {
    const id = keyIdOf(idOrKey) ?? idOrKey;
    return this.db.transaction(async (q) => {
      const { rows } = await q.query<KeyRow>("SELECT * FROM admin_keys WHERE id = $1 FOR UPDATE", [id]);
      const row = rows[0];
      if (row === undefined) throw new KeyNotFoundError(idOrKey);
      if (row.revoked_at !== null) return { info: toKeyInfo(row), alreadyRevoked: true };
      await q.query("UPDATE admin_keys SET revoked_at = $1 WHERE id = $2", [now, id]);
      return { info: toKeyInfo({ ...row, revoked_at: now }), alreadyRevoked: false };
    });
  }

  async verify(key: string, now: number): Promise<KeyCheck> {
    const id = keyIdOf(key);
    if (id === undefined) return { ok: false, reason: "malformed" };
    const { rows } = await this.db.query<KeyRow>("SELECT * FROM admin_keys WHERE id = $1", [id]);
    const row = rows[0];
    const match = timingSafeEqual(hashKey(key), row?.hash ?? this.decoy);
    if (row === undefined || !match) return { ok: false, reason: "unknown" };
    if (row.revoked_at !== null) return { ok: false, reason: "revoked" };
    if (row.last_used_at === null || now - row.last_used_at >= LIMITS.keys.lastUsedResolutionMs) {
      await this.db.query("UPDATE admin_keys SET last_used_at = $1 WHERE id = $2", [now, id]);
      return { ok: true, key: toKeyInfo({ ...row, last_used_at: now }) };
    }
    return { ok: true, key: toKeyInfo(row) };
  }

  close(): Promise<void> {
    return this.onClose();
  }
}
