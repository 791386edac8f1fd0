import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { PgDb } from "../../src/store/postgres/db.js";
import { PgStateStore } from "../../src/store/postgres/state-store.js";
import { SettingsCache } from "../../src/store/postgres/settings-cache.js";
import { LIMITS } from "../../src/limits.js";
import { parseStateLocation } from "../../src/store/location.js";
import { openStores, type Stores } from "../../src/store/stores.js";
import { DEMO, postJson, SEARCH } from "../bridge/harness.js";
import { describePostgres, freshDatabase, queryDatabase } from "../helpers/postgres.js";
import { type ServeProcess, startServe } from "../helpers/serve-http.js";

/** One turn of the event loop: the notification or the closed socket is I/O, not a microtask. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Settings kept between requests with PostgreSQL state (issue 23): a server reads them once,
 * not at every request, and a change made through another connection (a state command, another
 * instance) still applies to the next request it serves.
 */
describePostgres("settings kept between requests, PostgreSQL", () => {
  let db: { url: string; drop: () => Promise<void> };
  const closing: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
    await db.drop();
  });

  /** A server's store with its queries counted, and a state command's store (another connection). */
  async function stores(settingsClock?: () => number): Promise<{ server: PgStateStore; queries: string[]; answered: Promise<unknown>[]; command: Stores }> {
    const pool = await PgDb.open(db.url);
    const queries: string[] = [];
    const answered: Promise<unknown>[] = [];
    const query = pool.query.bind(pool);
    pool.query = ((sql: string, params?: readonly unknown[]) => {
      queries.push(sql);
      const answer = query(sql, params);
      answered.push(answer.catch(() => {}));
      return answer;
    }) as typeof pool.query;
    const server = new PgStateStore(pool, { cacheSettings: true, ...(settingsClock !== undefined ? { settingsClock } : {}) });
    closing.push(() => pool.close(), () => server.close());
    const command = openStores(parseStateLocation(db.url, "/"));
    closing.push(() => command.close());
    await server.settingsListening();
    return { server, queries, answered, command };
  }

  it("reads the settings once for many requests, and again after a change made on another connection, which the next read sees", async () => {
    const { server, queries, command } = await stores();
    const state = await command.state();
    for (let i = 0; i < 50; i++) expect(await server.settings()).toEqual({ authMode: "public", mcp: undefined });
    expect(queries).toEqual(["SELECT key, value FROM settings"]);
    // Revocations and grants in turn, each read right after the command returned.
    const steps = [
      () => state.setMcp("disabled"),
      () => state.setAuthMode("full"),
      () => state.setMcp("enabled"),
      () => state.setAuthMode("partial"),
      () => state.setMcp("disabled"),
    ] as const;
    const seen = [];
    for (const step of steps) {
      await step();
      seen.push(await server.settings());
      seen.push(await server.settings());
    }
    expect(seen).toEqual([
      { authMode: "public", mcp: "disabled" },
      { authMode: "public", mcp: "disabled" },
      { authMode: "full", mcp: "disabled" },
      { authMode: "full", mcp: "disabled" },
      { authMode: "full", mcp: "enabled" },
      { authMode: "full", mcp: "enabled" },
      { authMode: "partial", mcp: "enabled" },
      { authMode: "partial", mcp: "enabled" },
      { authMode: "partial", mcp: "disabled" },
      { authMode: "partial", mcp: "disabled" },
    ]);
    // One read per change, none per request.
    expect(queries.length).toBe(1 + steps.length);
  });

  it("past half its life the copy answers while it is read again in the background: no request waits for the database, even one locked", async () => {
    let now = 0;
    const { server, queries, answered } = await stores(() => now);
    const PUBLIC = { authMode: "public", mcp: undefined };
    expect(await server.settings()).toEqual(PUBLIC);
    expect(queries).toEqual(["SELECT key, value FROM settings"]);
    // The table locked by another connection: a read of it waits until the lock is released.
    const locker = await PgDb.open(db.url);
    closing.push(() => locker.close());
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked: () => void = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = locker.transaction(async (q) => {
      await q.query("LOCK TABLE settings IN ACCESS EXCLUSIVE MODE");
      locked();
      await released;
    });
    await isLocked;
    try {
      // Half its life: answered by the copy, and one read begun beside it (blocked by the lock).
      now = LIMITS.postgres.settingsCacheMs / 2;
      expect(await server.settings()).toEqual(PUBLIC);
      expect(queries.length).toBe(2);
      // Nearly the end of the copy's life: still answered by it, no second read while one is out.
      now = LIMITS.postgres.settingsCacheMs - 1;
      for (let i = 0; i < 10; i++) expect(await server.settings()).toEqual(PUBLIC);
      expect(queries.length).toBe(2);
    } finally {
      release();
      await holding;
    }
    await answered[1];
    await turn();
    // Past the first copy's life: the read begun at half of it answers, and is itself due.
    now = LIMITS.postgres.settingsCacheMs + LIMITS.postgres.settingsCacheMs / 4;
    expect(await server.settings()).toEqual(PUBLIC);
    expect(queries).toEqual(Array.from({ length: 3 }, () => "SELECT key, value FROM settings"));
  });

  it("an edit by hand (psql) drops the copy too; a lost listening connection keeps nothing until it listens again", async () => {
    const { server, queries } = await stores();
    await server.settings();
    await queryDatabase(db.url, "INSERT INTO settings (key, value) VALUES ('mcp', 'disabled')");
    // The edit does not wait for the servers: the copy is dropped when the notification arrives.
    while ((await server.settings()).mcp !== "disabled") await turn();
    const [listener] = await queryDatabase<{ pid: number }>(db.url, "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'svc-mcp settings cache'");
    await queryDatabase(db.url, "SELECT pg_terminate_backend($1)", [listener!.pid]);
    const before = queries.length;
    // Until the process learns the connection is gone its copy may answer; from then on every read goes to the database.
    while (queries.length === before) {
      await server.settings();
      await turn();
    }
    await queryDatabase(db.url, "UPDATE settings SET value = 'enabled' WHERE key = 'mcp'");
    expect(await server.settings()).toEqual({ authMode: "public", mcp: "enabled" });
    await server.settingsListening();
  });
});

it("a copy is due to be read again from half its life, and answers until the end of it", () => {
  let now = 0;
  const cache = new SettingsCache<string>(1_000, () => now);
  cache.setListening(true);
  expect(cache.due()).toBe(false);
  cache.keep(cache.begin(), "kept");
  now = 499;
  expect([cache.due(), cache.get() !== undefined]).toEqual([false, true]);
  now = 500;
  expect([cache.due(), cache.get() !== undefined]).toEqual([true, true]);
  now = 1_000;
  expect([cache.get(), cache.due()]).toEqual([undefined, false]);
});

it("a read that was in the database when a change was announced answers its requests but is not kept", () => {
  let now = 0;
  const cache = new SettingsCache<string>(1_000, () => now);
  cache.setListening(true);
  const first = cache.begin();
  cache.invalidate();
  cache.keep(first, "old");
  expect(cache.get()).toBeUndefined();
  const second = cache.begin();
  cache.keep(second, "new");
  expect(cache.get()).toBeDefined();
  now = 999;
  expect(cache.get()).toBeDefined();
  now = 1_000;
  expect(cache.get()).toBeUndefined();
  // Not listening: nothing is kept.
  cache.setListening(false);
  cache.keep(cache.begin(), "x");
  expect(cache.get()).toBeUndefined();
});

/** The same over HTTP, against a real server process: the next request after the command is refused or served. */
describePostgres("serve --http with PostgreSQL state: a change on another connection applies at the next request", () => {
  let db: { url: string; drop: () => Promise<void> };
  let server: ServeProcess;
  let command: Stores;
  beforeAll(async () => {
    db = await freshDatabase();
    server = await startServe(["--dir", DEMO, "--state", db.url, "--no-shell-worker", ...["ip", "search"].flatMap((k) => ["--rate-limit", `${k}=off`])]);
    command = openStores(parseStateLocation(db.url, "/"));
  });
  afterAll(async () => {
    await command.close();
    await new Promise((resolve) => (server.child.once("exit", resolve), server.child.kill("SIGTERM")));
    await db.drop();
  });

  it("mcp disable and enable, ten times, each seen by the request right after it", async () => {
    const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": SEARCH };
    const call = async (): Promise<number> => (await postJson(`${server.origin}/mcp`, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: SEARCH, arguments: { query: "bucket" }, _meta } }, headers)).status;
    // The server listens once it has started; wait for its connection by name.
    while ((await queryDatabase(db.url, "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'svc-mcp settings cache'")).length === 0);
    const state = await command.state();
    const statuses: number[] = [await call(), await call()];
    for (let i = 0; i < 10; i++) {
      await state.setMcp("disabled");
      statuses.push(await call());
      await state.setMcp("enabled");
      statuses.push(await call(), await call());
    }
    expect(statuses).toEqual([200, 200, ...Array.from({ length: 10 }, () => [403, 200, 200]).flat()]);
  });
});
