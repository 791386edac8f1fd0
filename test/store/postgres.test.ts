import { afterEach, beforeEach, expect, it } from "vitest";
import { CountersLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { LIMITS } from "../../src/limits.js";
import type { WindowCounters } from "../../src/store/counters.js";
import { StoreConnectionLost } from "../../src/store/errors.js";
import { parseStateLocation } from "../../src/store/location.js";
import { openStores, type Stores } from "../../src/store/stores.js";
import { Relay } from "../helpers/pg-relay.js";
import { describePostgres, freshDatabase, queryDatabase } from "../helpers/postgres.js";

describePostgres("PostgreSQL state", () => {
  let db: { url: string; drop: () => Promise<void> };
  const opened: Stores[] = [];
  const open = (): Stores => {
    const stores = openStores(parseStateLocation(db.url, "/"));
    opened.push(stores);
    return stores;
  };
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    await db.drop();
  });

  it("four instances starting at once migrate once, and all see the same state", async () => {
    const instances = [open(), open(), open(), open()];
    const states = await Promise.all(instances.map((s) => s.state()));
    expect(await queryDatabase(db.url, "SELECT version FROM svc_mcp_schema ORDER BY version")).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }, { version: 4 }, { version: 5 }]);
    await states[0]!.setAuthMode("partial");
    expect(await Promise.all(states.map(async (s) => (await s.settings()).authMode))).toEqual(["partial", "partial", "partial", "partial"]);
  });

  it("refuses a database whose schema is newer than this version", async () => {
    await open().state();
    await queryDatabase(db.url, "INSERT INTO svc_mcp_schema (version, applied_at) VALUES (99, 0)");
    await expect(open().state()).rejects.toThrow("database schema version 99 is newer than this svc-mcp supports (5); upgrade svc-mcp");
  });

  it("an unknown auth mode in the database fails closed (full), with one warning", async () => {
    const warnings: string[] = [];
    const stores = openStores(parseStateLocation(db.url, "/"), { state: { warn: (m) => warnings.push(m) } });
    opened.push(stores);
    const state = await stores.state();
    await queryDatabase(db.url, "INSERT INTO settings (key, value) VALUES ('auth_mode', 'everyone')");
    expect(await state.settings()).toEqual({ authMode: "full", mcp: undefined });
    expect(await state.settings()).toEqual({ authMode: "full", mcp: undefined });
    expect(warnings).toEqual(['unknown auth mode "everyone" in the state database: treated as "full" (sign-in required) until `svc-mcp mcp auth` sets one']);
  });

  it("stores secrets only as hashes", async () => {
    const stores = open();
    const state = await stores.state();
    const { clientSecret } = await state.createCredential("ci");
    const { key } = await (await stores.keys()).create("k", 0);
    const dump = JSON.stringify(await queryDatabase(db.url, "SELECT * FROM credentials")) + JSON.stringify(await queryDatabase(db.url, "SELECT * FROM admin_keys"));
    expect(dump).not.toContain(clientSecret);
    expect(dump).not.toContain(key.slice(16));
  });

  it("bearer checks that arrive together are answered each for its own token; one revoked on another instance just before is refused", async () => {
    const [server, cli] = [await open().state(), await open().state()];
    const { info } = await cli.createCredential("batch");
    const subject = { kind: "credential", clientId: info.clientId } as const;
    const grant = { subject, clientId: info.clientId, scope: "", resource: "https://docs.example.com/authed/mcp" };
    const tokens = await Promise.all([1, 2, 3].map(() => cli.issueTokens(grant)));
    expect(await cli.revokeToken(tokens[1]!.accessToken, info.clientId)).toBe("revoked");
    // Five checks at once: the first goes alone, the others wait for it and go in one query.
    const checks = await Promise.all([tokens[0]!.accessToken, tokens[1]!.accessToken, tokens[2]!.accessToken, "mcpat_unknown", tokens[0]!.refreshToken].map((t) => server.verifyAccessToken(t)));
    const expiresAt = (checks[0] as { expiresAt: number }).expiresAt;
    const ok = { ok: true, subject, clientId: info.clientId, scope: "", resource: grant.resource, expiresAt };
    expect(checks).toEqual([ok, { ok: false, reason: "unknown" }, { ...ok, expiresAt: (checks[2] as { expiresAt: number }).expiresAt }, { ok: false, reason: "unknown" }, { ok: false, reason: "unknown" }]);
  });

  it("rate counters are exact across instances: of 60 concurrent calls on two instances, 25 pass", async () => {
    const [a, b] = [(await open().counters())!, (await open().counters())!];
    const charge = [{ key: "tool:search", units: 1, limit: 25 }];
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).take(7, charge)));
    expect(results.filter((r) => r === -1).length).toBe(25);
    expect(results.filter((r) => r === 0).length).toBe(35);
    expect(await queryDatabase(db.url, "SELECT window_index::int, key, count::int FROM rate_counters")).toEqual([{ window_index: 7, key: "tool:search", count: 25 }]);
  });

  it("charges every counter or none, names the first refused, refunds, and starts afresh in a new window", async () => {
    const counters: WindowCounters = (await open().counters())!;
    const both = [
      { key: "ip:1", units: 1, limit: 5 },
      { key: "tool:search", units: 1, limit: 1 },
    ];
    expect(await counters.take(1, both)).toBe(-1);
    expect(await counters.take(1, both)).toBe(1);
    expect(await counters.take(1, [{ key: "ip:1", units: 10, limit: 5 }])).toBe(0);
    const rows = () => queryDatabase(db.url, "SELECT window_index::int, key, count::int FROM rate_counters ORDER BY key");
    expect(await rows()).toEqual([
      { window_index: 1, key: "ip:1", count: 1 },
      { window_index: 1, key: "tool:search", count: 1 },
    ]);
    await counters.refund(1, [{ key: "tool:search", units: 1 }]);
    expect(await counters.take(1, both)).toBe(-1);
    await counters.refund(1, [{ key: "ip:1", units: 9 }]);
    expect(await counters.take(2, both)).toBe(-1);
    expect(await rows()).toEqual([
      { window_index: 2, key: "ip:1", count: 1 },
      { window_index: 2, key: "tool:search", count: 1 },
    ]);
  });

  it("takes that arrive while one is in the database go together, each decided in turn, all or nothing", async () => {
    const counters: WindowCounters = (await open().counters())!;
    // The first take goes alone; the five submitted while it is in flight go as one batch.
    const results = await Promise.all([
      counters.take(1, [{ key: "q", units: 1, limit: 1 }]),
      counters.take(1, [
        { key: "a", units: 2, limit: 3 },
        { key: "b", units: 1, limit: 1 },
      ]),
      // b is full: refused at b, and its unit of a is given back before the next request...
      counters.take(1, [
        { key: "a", units: 1, limit: 3 },
        { key: "b", units: 1, limit: 1 },
      ]),
      // ...which therefore finds room in a.
      counters.take(1, [{ key: "a", units: 1, limit: 3 }]),
      counters.take(1, [{ key: "c", units: 5, limit: 4 }]),
      // Named by its place in the caller's list, whatever the key order: a is now full.
      counters.take(1, [
        { key: "z", units: 1, limit: 1 },
        { key: "a", units: 1, limit: 3 },
      ]),
    ]);
    expect(results).toEqual([-1, -1, 1, -1, 0, 1]);
    expect(await queryDatabase(db.url, "SELECT key, count::int FROM rate_counters WHERE count > 0 ORDER BY key")).toEqual([
      { key: "a", count: 3 },
      { key: "b", count: 1 },
      { key: "q", count: 1 },
    ]);
  });

  it("batches from two instances charging overlapping counters in any order neither deadlock nor overcount", async () => {
    const [a, b] = [(await open().counters())!, (await open().counters())!];
    let seed = 7;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const takes = Array.from({ length: 300 }, () => {
      const first = next(5);
      const second = (first + 1 + next(4)) % 5;
      return [first, second].map((k) => ({ key: `k${k}`, units: 1 + next(2), limit: 60 }));
    });
    const results = await Promise.all(takes.map((charges, i) => (i % 2 === 0 ? a : b).take(3, charges)));
    const expected = new Map<string, number>();
    takes.forEach((charges, i) => {
      if (results[i] === -1) for (const c of charges) expected.set(c.key, (expected.get(c.key) ?? 0) + c.units);
    });
    const rows = await queryDatabase(db.url, "SELECT key, count::int FROM rate_counters ORDER BY key");
    expect(rows).toEqual([...expected].sort(([x], [y]) => (x < y ? -1 : 1)).map(([key, count]) => ({ key, count })));
    expect(Math.max(...rows.map((r) => r.count as number))).toBeLessThanOrEqual(60);
    // Demand is three times the limits: most takes are refused, against full counters.
    expect(results.filter((r) => r !== -1).length).toBeGreaterThan(150);
  });

  it("drops a connection that stops answering after the query timeout, and serves on a new one", async () => {
    const real = new URL(db.url);
    const relay = new Relay({ host: real.hostname, port: Number(real.port || 5432) });
    await relay.open();
    // Migrated first, at the usual timeout: the schema's statements (five migrations in one
    // transaction) are not what this test shortens the wait for, and on a busy machine they took longer than it.
    const migrated = openStores(parseStateLocation(db.url, "/"));
    await migrated.state();
    await migrated.close();
    const saved = LIMITS.postgres.queryTimeoutMs;
    // The default (no ?query_timeout= on the URL), shortened so the test need not wait 10 s.
    (LIMITS.postgres as { queryTimeoutMs: number }).queryTimeoutMs = 300;
    try {
      const url = new URL(db.url);
      url.port = String(relay.port);
      const stores = openStores(parseStateLocation(url.toString(), "/"));
      opened.push(stores);
      const state = await stores.state();
      // The users, not the settings: the settings may be answered from the process's copy while
      // it listens for changes (`SettingsCache`), and this test is of a query that must ask.
      expect(await state.users()).toEqual([]);
      relay.freeze();
      await expect(state.users()).rejects.toThrow(StoreConnectionLost);
      // The silent connection left the pool: the next read opens a new one.
      expect(await state.users()).toEqual([]);
    } finally {
      (LIMITS.postgres as { queryTimeoutMs: number }).queryTimeoutMs = saved;
      await relay.cut();
    }
  });

  it("the bridge's limiter on shared counters: the sign-in lockout holds across instances", async () => {
    const hour = 3_600_000;
    const clock = () => 5 * hour + 1_000;
    const [a, b] = [new CountersLimiter((await open().counters())!, hour, clock), new CountersLimiter((await open().counters())!, hour, clock)];
    const attempt = { key: "signin:alice", limit: 3, what: "sign-in attempts" };
    const decisions = await Promise.all([a, b, a, b, a].map((l) => l.take([attempt])));
    expect(decisions.filter((d) => d.ok).length).toBe(3);
    expect(decisions.find((d) => !d.ok)).toEqual({ ok: false, charge: attempt, retryAfterSec: 3599, resetAt: 6 * hour });
    await b.refund([attempt]);
    expect(await a.take([attempt])).toEqual({ ok: true });
    expect((await b.take([attempt])).ok).toBe(false);
  });
});
