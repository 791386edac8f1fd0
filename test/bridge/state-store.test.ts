import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStateStore, type SqliteStateStore } from "../../src/store/state/sqlite-state-store.js";
import type { StateStore } from "../../src/store/state/state-store.js";
import { parseStateLocation } from "../../src/store/location.js";
import { openStores } from "../../src/store/stores.js";
import { describePostgres, freshDatabase } from "../helpers/postgres.js";
import { TEST_PASSWORD_COST, TestClock, tempDir } from "./harness.js";

/**
 * The state store's contract, written against the interface so a PostgreSQL implementation can
 * run the same suite; here it runs on the embedded SQLite file.
 */
function contract(name: string, open: (clock: TestClock) => Promise<{ store: StateStore; cleanup: () => Promise<void> }>, describeIt: (name: string, fn: () => void) => void = describe) {
  describeIt(name, () => {
    let clock: TestClock;
    let s: StateStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      clock = new TestClock();
      ({ store: s, cleanup } = await open(clock));
    });
    afterEach(async () => {
      await cleanup();
    });

    it("starts public with no MCP choice, and keeps what is set", async () => {
      expect(await s.settings()).toEqual({ authMode: "public", mcp: undefined });
      await s.setAuthMode("full");
      await s.setMcp("enabled");
      expect(await s.settings()).toEqual({ authMode: "full", mcp: "enabled" });
      await s.setMcp("disabled");
      expect(await s.settings()).toEqual({ authMode: "full", mcp: "disabled" });
    });

    it("keeps redirect domains as a sorted set", async () => {
      expect(await s.addRedirectDomain("https://b.example")).toBe(true);
      expect(await s.addRedirectDomain("https://a.example")).toBe(true);
      expect(await s.addRedirectDomain("https://a.example")).toBe(false);
      expect(await s.redirectDomains()).toEqual(["https://a.example", "https://b.example"]);
      expect(await s.removeRedirectDomain("https://a.example")).toBe(true);
      expect(await s.removeRedirectDomain("https://a.example")).toBe(false);
      expect(await s.redirectDomains()).toEqual(["https://b.example"]);
    });

    it("verifies a credential's secret and forgets it on delete, with its tokens", async () => {
      const { info, clientSecret } = await s.createCredential("CI");
      expect(info).toEqual({ clientId: expect.stringMatching(/^mcpc_[0-9A-Za-z]{20}$/), label: "CI", createdAt: clock.t });
      expect(clientSecret).toMatch(/^mcps_[0-9A-Za-z]{40}$/);
      expect(await s.credentials()).toEqual([info]);
      expect(await s.verifyCredential(info.clientId, clientSecret)).toEqual(info);
      expect(await s.verifyCredential(info.clientId, `${clientSecret}x`)).toBeUndefined();
      expect(await s.verifyCredential("mcpc_unknown", clientSecret)).toBeUndefined();
      const tokens = await s.issueTokens({ subject: { kind: "credential", clientId: info.clientId }, clientId: info.clientId, scope: "mcp:search", resource: "r" });
      expect(await s.verifyAccessToken(tokens.accessToken)).toEqual({
        ok: true,
        subject: { kind: "credential", clientId: info.clientId },
        clientId: info.clientId,
        scope: "mcp:search",
        resource: "r",
        expiresAt: Math.floor(clock.t / 1000) + 3600,
      });
      expect(await s.deleteCredential(info.clientId)).toEqual(info);
      expect(await s.deleteCredential(info.clientId)).toBeUndefined();
      expect(await s.verifyAccessToken(tokens.accessToken)).toEqual({ ok: false, reason: "unknown" });
      expect(await s.refresh(tokens.refreshToken, info.clientId)).toEqual({ ok: false, reason: "unknown" });
    });

    it("keeps accounts case-insensitive, checks passwords, and ends tokens on removal", async () => {
      expect(await s.addUser("Alice", "correct horse", ["staff", "partners", "staff"])).toEqual({ name: "alice", groups: ["partners", "staff"], createdAt: clock.t });
      await expect(s.addUser("ALICE", "x".repeat(8), [])).rejects.toThrow('user "alice" already exists');
      expect(await s.verifyUser("ALICE", "correct horse")).toMatchObject({ name: "alice" });
      expect(await s.verifyUser("alice", "wrong horse")).toBeUndefined();
      expect(await s.verifyUser("bob", "correct horse")).toBeUndefined();
      const t = await s.issueTokens({ subject: { kind: "user", name: "alice", groups: [] }, clientId: (await s.registerClient(meta)).client.clientId, scope: "mcp:search", resource: "r" });
      // The token carries the account's current groups, not those at issue time.
      expect(await s.verifyAccessToken(t.accessToken)).toMatchObject({ ok: true, subject: { kind: "user", name: "alice", groups: ["partners", "staff"] } });
      expect(await s.removeUser("Alice")).toBe(true);
      expect(await s.removeUser("alice")).toBe(false);
      expect(await s.verifyAccessToken(t.accessToken)).toEqual({ ok: false, reason: "unknown" });
    });

    it("rotates refresh tokens and revokes the grant when a rotated one returns", async () => {
      const { client } = await s.registerClient(meta);
      await s.addUser("sam", "password-1", ["staff"]);
      const grant = { subject: { kind: "user" as const, name: "sam", groups: [] }, clientId: client.clientId, scope: "mcp:search", resource: "r" };
      const first = await s.issueTokens(grant);
      const second = await s.refresh(first.refreshToken, client.clientId);
      expect(second).toMatchObject({ ok: true, tokens: { expiresIn: 3600, scope: "mcp:search" } });
      if (!second.ok) throw new Error("refresh failed");
      expect(await s.refresh(first.refreshToken, "mcpd_other")).toEqual({ ok: false, reason: "wrong_client" });
      expect(await s.refresh(first.refreshToken, client.clientId)).toEqual({ ok: false, reason: "reused" });
      expect(await s.verifyAccessToken(second.tokens.accessToken)).toEqual({ ok: false, reason: "unknown" });
      expect(await s.refresh(second.tokens.refreshToken, client.clientId)).toEqual({ ok: false, reason: "unknown" });
    });

    it("expires access tokens, refresh tokens and codes on the clock", async () => {
      const { client } = await s.registerClient(meta);
      await s.addUser("sam", "password-1", []);
      const t = await s.issueTokens({ subject: { kind: "user", name: "sam", groups: [] }, clientId: client.clientId, scope: "mcp:search", resource: "r" });
      const code = await s.createAuthCode({ clientId: client.clientId, userName: "sam", redirectUri: "http://localhost/cb", codeChallenge: "c", scope: "mcp:search", resource: "r" });
      clock.advance(60_000);
      expect(await s.redeemAuthCode(code)).toEqual({ ok: false, reason: "expired" });
      clock.advance(3600_000 - 60_000);
      expect(await s.verifyAccessToken(t.accessToken)).toEqual({ ok: false, reason: "expired" });
      clock.advance(30 * 24 * 3600_000 - 3600_000);
      expect(await s.refresh(t.refreshToken, client.clientId)).toEqual({ ok: false, reason: "expired" });
    });

    it("redeems a code once; a second use revokes what the first produced", async () => {
      const { client } = await s.registerClient(meta);
      await s.addUser("sam", "password-1", []);
      const request = { clientId: client.clientId, userName: "sam", redirectUri: "http://localhost/cb", codeChallenge: "c", scope: "mcp:search", resource: "r" };
      const code = await s.createAuthCode(request);
      expect(await s.redeemAuthCode(code)).toEqual({ ok: true, request });
      const t = await s.issueTokens({ subject: { kind: "user", name: "sam", groups: [] }, clientId: client.clientId, scope: "mcp:search", resource: "r", fromCode: code });
      expect(await s.redeemAuthCode(code)).toEqual({ ok: false, reason: "reused" });
      expect(await s.verifyAccessToken(t.accessToken)).toEqual({ ok: false, reason: "unknown" });
      expect(await s.redeemAuthCode("mcpac_nope")).toEqual({ ok: false, reason: "unknown" });
      // A code whose first use got no token (that attempt failed) is spent, not reused.
      const failed = await s.createAuthCode(request);
      expect(await s.redeemAuthCode(failed)).toEqual({ ok: true, request });
      expect(await s.redeemAuthCode(failed)).toEqual({ ok: false, reason: "spent" });
    });

    it("revokes an access token alone, a refresh token with its grant, and only for its client", async () => {
      const { info } = await s.createCredential("r");
      const grant = { subject: { kind: "credential" as const, clientId: info.clientId }, clientId: info.clientId, scope: "mcp:search", resource: "r" };
      const a = await s.issueTokens(grant);
      expect(await s.revokeToken(a.accessToken, "someone-else")).toBe("wrong_client");
      expect(await s.revokeToken(a.accessToken, info.clientId)).toBe("revoked");
      expect((await s.verifyAccessToken(a.accessToken)).ok).toBe(false);
      expect((await s.refresh(a.refreshToken, info.clientId)).ok).toBe(true);
      const b = await s.issueTokens(grant);
      expect(await s.revokeToken(b.refreshToken, info.clientId)).toBe("revoked");
      expect((await s.verifyAccessToken(b.accessToken)).ok).toBe(false);
      expect(await s.revokeToken("mcpat_unknown", info.clientId)).toBe("unknown");
    });

    it("keeps a metadata document's client under its URL, updating its metadata, never with a secret", async () => {
      const id = "https://client.example/oauth/client.json";
      const first = await s.rememberDocumentClient(id, { ...meta, client_name: "Agent" });
      expect(first).toEqual({ clientId: id, metadata: { ...meta, client_name: "Agent" }, createdAt: clock.t });
      clock.advance(1000);
      const second = await s.rememberDocumentClient(id, { ...meta, client_name: "Agent 2" });
      expect(second).toEqual({ clientId: id, metadata: { ...meta, client_name: "Agent 2" }, createdAt: first.createdAt });
      expect(await s.client(id)).toEqual(second);
      expect(await s.verifyClientSecret(id, "")).toBe(false);
      // Its codes and grants refer to it like a registered client's.
      await s.addUser("sam", "password-1", []);
      const code = await s.createAuthCode({ clientId: id, userName: "sam", redirectUri: "http://localhost/cb", codeChallenge: "c", scope: "mcp:search", resource: "r" });
      expect(await s.redeemAuthCode(code)).toMatchObject({ ok: true, request: { clientId: id } });
      const t = await s.issueTokens({ subject: { kind: "user", name: "sam", groups: [] }, clientId: id, scope: "mcp:search", resource: "r" });
      expect(await s.verifyAccessToken(t.accessToken)).toMatchObject({ ok: true, clientId: id });
      // A registered client's id is never a URL: one cannot be replaced through this.
      const { client } = await s.registerClient(meta);
      await expect(s.rememberDocumentClient(client.clientId, meta)).rejects.toThrow(`not a metadata document URL: ${client.clientId}`);
    });
  });
}

const meta = { redirect_uris: ["http://localhost/cb"], token_endpoint_auth_method: "none" as const, grant_types: ["authorization_code"], response_types: ["code"] };

contract("StateStore contract: SQLite", async (clock) => {
  const tmp = tempDir();
  const store = openStateStore(join(tmp.dir, "state"), { now: clock.now });
  return { store, cleanup: async () => (await store.close(), tmp.cleanup()) };
});

contract(
  "StateStore contract: PostgreSQL",
  async (clock) => {
    const db = await freshDatabase();
    const stores = openStores(parseStateLocation(db.url, "/"), { state: { now: clock.now } });
    return { store: await stores.state(), cleanup: async () => (await stores.close(), await db.drop()) };
  },
  describePostgres,
);

describe("the SQLite file", () => {
  it("an unknown auth mode fails closed (full), with one warning", async () => {
    const tmp = tempDir();
    const warnings: string[] = [];
    const store = openStateStore(join(tmp.dir, "state"), { warn: (m) => warnings.push(m) });
    const db = new Database(join(tmp.dir, "state", "access.db"));
    db.prepare("INSERT INTO settings (key, value) VALUES ('auth_mode', 'everyone')").run();
    db.close();
    expect(await store.settings()).toEqual({ authMode: "full", mcp: undefined });
    expect(await store.settings()).toEqual({ authMode: "full", mcp: undefined });
    expect(warnings).toEqual(['unknown auth mode "everyone" in the state database: treated as "full" (sign-in required) until `svc-mcp mcp auth` sets one']);
    await store.close();
    tmp.cleanup();
  });

  it("is created 0600 in a 0700 folder and holds no secret in the clear", async () => {
    const tmp = tempDir();
    const dir = join(tmp.dir, "state");
    const s: SqliteStateStore = openStateStore(dir);
    const { info, clientSecret } = await s.createCredential("ci");
    await s.addUser("sam", "a-memorable-password", []);
    const tokens = await s.issueTokens({ subject: { kind: "credential", clientId: info.clientId }, clientId: info.clientId, scope: "mcp:search", resource: "r" });
    const { clientSecret: dynSecret } = await s.registerClient({ ...meta, token_endpoint_auth_method: "client_secret_basic" });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(dir)) {
      expect(statSync(join(dir, f)).mode & 0o777, f).toBe(0o600);
      const bytes = readFileSync(join(dir, f)).toString("latin1");
      for (const secret of [clientSecret, "a-memorable-password", tokens.accessToken, tokens.refreshToken, dynSecret as string]) {
        expect(bytes.includes(secret), `${f} holds a secret`).toBe(false);
      }
    }
    await s.close();
    tmp.cleanup();
  });

  it("hashes passwords with scrypt at N = 2^15, or at the cost it is given (tests)", async () => {
    const tmp = tempDir();
    const stores = { production: openStateStore(join(tmp.dir, "a")), test: openStateStore(join(tmp.dir, "b"), { passwordCost: TEST_PASSWORD_COST }) };
    const prefixes: string[] = [];
    for (const [name, s] of Object.entries(stores)) {
      await s.addUser("sam", "a-memorable-password", []);
      expect(await s.verifyUser("sam", "a-memorable-password"), name).toMatchObject({ name: "sam" });
      expect(await s.verifyUser("sam", "a-wrong-password"), name).toBeUndefined();
      await s.close();
      const db = new Database(join(tmp.dir, name === "production" ? "a" : "b", "access.db"), { readonly: true });
      prefixes.push((db.prepare("SELECT password_hash FROM users").pluck().get() as string).split("$").slice(0, 4).join("$"));
      db.close();
    }
    expect(prefixes).toEqual(["scrypt$32768$8$1", "scrypt$1024$8$1"]);
    tmp.cleanup();
  });

  it("shares changes between two connections (a CLI command beside a running server)", async () => {
    const tmp = tempDir();
    const dir = join(tmp.dir, "state");
    const server = openStateStore(dir);
    const cli = openStateStore(dir);
    const { info, clientSecret } = await cli.createCredential("from the CLI");
    expect(await server.verifyCredential(info.clientId, clientSecret)).toEqual(info);
    await cli.setMcp("disabled");
    expect((await server.settings()).mcp).toBe("disabled");
    await cli.close();
    await server.close();
    tmp.cleanup();
  });

  it("reads the settings again after any change, made by another connection or by its own (the settings are kept between reads)", async () => {
    const tmp = tempDir();
    const dir = join(tmp.dir, "state");
    const server = openStateStore(dir);
    const cli = openStateStore(dir);
    const shell = new Database(join(dir, "access.db"));
    expect(await server.settings()).toEqual({ authMode: "public", mcp: undefined });
    // Another process's command (here another connection), each setting in turn.
    await cli.setMcp("disabled");
    expect(await server.settings()).toEqual({ authMode: "public", mcp: "disabled" });
    await cli.setAuthMode("full");
    expect(await server.settings()).toEqual({ authMode: "full", mcp: "disabled" });
    // An edit in the sqlite3 shell, by any statement.
    shell.prepare("UPDATE settings SET value = 'enabled' WHERE key = 'mcp'").run();
    expect(await server.settings()).toEqual({ authMode: "full", mcp: "enabled" });
    shell.prepare("DELETE FROM settings WHERE key = 'auth_mode'").run();
    expect(await server.settings()).toEqual({ authMode: "public", mcp: "enabled" });
    // A commit of another table is no change of the settings: read again, the same.
    await cli.createCredential("unrelated");
    expect(await server.settings()).toEqual({ authMode: "public", mcp: "enabled" });
    // Its own writes, which SQLite's data version does not count.
    await server.setAuthMode("partial");
    expect(await server.settings()).toEqual({ authMode: "partial", mcp: "enabled" });
    await server.setMcp("disabled");
    expect(await server.settings()).toEqual({ authMode: "partial", mcp: "disabled" });
    expect(await cli.settings()).toEqual({ authMode: "partial", mcp: "disabled" });
    shell.close();
    await cli.close();
    await server.close();
    tmp.cleanup();
  });
});
