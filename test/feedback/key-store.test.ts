import { describe, expect, it } from "vitest";
import { type AdminKeyStore, KeyNotFoundError } from "../../src/store/keys/key-store.js";
import { parseStateLocation } from "../../src/store/location.js";
import { openStores } from "../../src/store/stores.js";
import { describePostgres, freshDatabase } from "../helpers/postgres.js";
import { tempState } from "./harness.js";

/** The AdminKeyStore contract, run against each backend through the store factory. */
function describeKeyStore(name: string, open: () => Promise<{ url: string; cleanup: () => Promise<void> }>, describeIt: (name: string, fn: () => void) => void = describe) {
  describeIt(`AdminKeyStore contract: ${name}`, () => {
    async function withKeys(fn: (keys: AdminKeyStore, reopen: () => Promise<AdminKeyStore>) => Promise<void>): Promise<void> {
      const { url, cleanup } = await open();
      const stores = openStores(parseStateLocation(url, "/"));
      const second = openStores(parseStateLocation(url, "/"));
      try {
        await fn(await stores.keys(), () => second.keys());
      } finally {
        await stores.close();
        await second.close();
        await cleanup();
      }
    }

    it("creates a key shown once, lists it newest first, and verifies it (recording use at most once a minute)", () =>
      withKeys(async (keys) => {
        const a = await keys.create("first", Date.parse("2026-01-01T00:00:00Z"));
        const b = await keys.create("second", Date.parse("2026-01-02T00:00:00Z"));
        expect(a.key).toMatch(/^svc_[a-z2-7]{12}[0-9A-Za-z]{32}$/);
        expect(a.info).toEqual({ id: a.key.slice(4, 16), label: "first", createdAt: "2026-01-01T00:00:00.000Z", lastUsedAt: null, revokedAt: null });
        expect(await keys.list()).toEqual([b.info, a.info]);
        const t = Date.parse("2026-01-03T00:00:00Z");
        expect(await keys.verify(a.key, t)).toEqual({ ok: true, key: { ...a.info, lastUsedAt: "2026-01-03T00:00:00.000Z" } });
        expect(await keys.verify(a.key, t + 59_999)).toEqual({ ok: true, key: { ...a.info, lastUsedAt: "2026-01-03T00:00:00.000Z" } });
        expect(await keys.verify(a.key, t + 60_000)).toEqual({ ok: true, key: { ...a.info, lastUsedAt: "2026-01-03T00:01:00.000Z" } });
      }));

    it("refuses malformed, unknown and altered keys", () =>
      withKeys(async (keys) => {
        const { key } = await keys.create("", 0);
        expect(await keys.verify("nope", 1)).toEqual({ ok: false, reason: "malformed" });
        expect(await keys.verify(`svc_aaaaaaaaaaaa${"A".repeat(32)}`, 1)).toEqual({ ok: false, reason: "unknown" });
        expect(await keys.verify(`${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`, 1)).toEqual({ ok: false, reason: "unknown" });
      }));

    it("revokes by id or by the key; a revoked key is refused by every process at its next request", () =>
      withKeys(async (keys, reopen) => {
        const a = await keys.create("a", 0);
        const b = await keys.create("b", 0);
        const other = await reopen();
        expect((await other.verify(a.key, 1)).ok).toBe(true);
        expect(await keys.revoke(a.info.id, 5_000)).toEqual({ info: { ...a.info, lastUsedAt: "1970-01-01T00:00:00.001Z", revokedAt: "1970-01-01T00:00:05.000Z" }, alreadyRevoked: false });
        expect(await keys.revoke(b.key, 6_000)).toEqual({ info: { ...b.info, revokedAt: "1970-01-01T00:00:06.000Z" }, alreadyRevoked: false });
        expect(await other.verify(a.key, 7_000)).toEqual({ ok: false, reason: "revoked" });
        expect(await other.verify(b.key, 7_000)).toEqual({ ok: false, reason: "revoked" });
        expect((await keys.revoke(a.info.id, 8_000)).alreadyRevoked).toBe(true);
        await expect(keys.revoke("zzzzzzzzzzzz", 1)).rejects.toThrow(KeyNotFoundError);
      }));
  });
}

describeKeyStore("SQLite", async () => {
  const state = tempState();
  return { url: state.dir, cleanup: async () => state.cleanup() };
});

describeKeyStore(
  "PostgreSQL",
  async () => {
    const db = await freshDatabase();
    return { url: db.url, cleanup: db.drop };
  },
  describePostgres,
);
