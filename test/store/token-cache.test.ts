import { afterEach, beforeEach, expect, it } from "vitest";
import { PgDb } from "../../src/store/postgres/db.js";
import { PgStateStore } from "../../src/store/postgres/state-store.js";
import { parseStateLocation } from "../../src/store/location.js";
import type { AccessCheck, StateStore } from "../../src/store/state/state-store.js";
import { openStores } from "../../src/store/stores.js";
import { TEST_PASSWORD_COST } from "../bridge/harness.js";
import { describePostgres, freshDatabase, queryDatabase } from "../helpers/postgres.js";

/** One turn of the event loop: the notification is I/O, not a microtask. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const RESOURCE = "https://docs.example.com/authed/mcp";
const REFUSED: AccessCheck = { ok: false, reason: "unknown" };

/**
 * Access tokens kept between requests with PostgreSQL state (issue 23): a server checks a token
 * against the database once, not at every request, and a revocation made through another
 * connection (a state command, another instance's revoke endpoint, a refresh or code presented
 * twice) still refuses the token at the next request it serves, because the revoking write
 * returns only once every listening server has dropped what it keeps. Real PostgreSQL, two pools.
 */
describePostgres("access tokens kept between requests, PostgreSQL", () => {
  let db: { url: string; drop: () => Promise<void> };
  const closing: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
    await db.drop();
  });

  /** A server's store with its token reads counted, and a state command's store on another pool. */
  async function stores(): Promise<{ server: PgStateStore; tokenReads: () => number; command: StateStore }> {
    const pool = await PgDb.open(db.url);
    let reads = 0;
    const query = pool.query.bind(pool);
    pool.query = ((sql: string, params?: readonly unknown[]) => {
      if (sql.includes("FROM tokens t")) reads++;
      return query(sql, params);
    }) as typeof pool.query;
    // Kept rows do not age here (a busy machine could take half their life between two checks).
    const server = new PgStateStore(pool, { cacheSettings: true, passwordCost: TEST_PASSWORD_COST, settingsClock: () => 0 });
    closing.push(() => pool.close(), () => server.close());
    const commands = openStores(parseStateLocation(db.url, "/"), { state: { passwordCost: TEST_PASSWORD_COST } });
    closing.push(() => commands.close());
    await server.settingsListening();
    return { server, tokenReads: () => reads, command: await commands.state() };
  }

  async function credentialTokens(state: StateStore, label: string) {
    const { info, clientSecret } = await state.createCredential(label);
    const tokens = await state.issueTokens({ subject: { kind: "credential", clientId: info.clientId }, clientId: info.clientId, scope: "mcp", resource: RESOURCE });
    return { clientId: info.clientId, clientSecret, tokens };
  }

  it("checks a token against the database once for many requests; each kind of revocation on another connection refuses it at the next check", async () => {
    const { server, tokenReads, command } = await stores();
    const a = await credentialTokens(command, "a");
    for (let i = 0; i < 50; i++) expect((await server.verifyAccessToken(a.tokens.accessToken)).ok).toBe(true);
    expect(tokenReads()).toBe(1);

    // The revoke endpoint (RFC 7009), on another instance.
    expect(await command.revokeToken(a.tokens.accessToken, a.clientId)).toBe("revoked");
    expect(await server.verifyAccessToken(a.tokens.accessToken)).toEqual(REFUSED);

    // `svc-mcp credentials delete`: its grants and tokens cascade.
    const b = await credentialTokens(command, "b");
    expect((await server.verifyAccessToken(b.tokens.accessToken)).ok).toBe(true);
    expect((await command.deleteCredential(b.clientId))?.clientId).toBe(b.clientId);
    expect(await server.verifyAccessToken(b.tokens.accessToken)).toEqual(REFUSED);

    // `svc-mcp users remove`: a signed-in user's tokens end with the account.
    await command.addUser("alice", "correct horse", ["staff"]);
    const client = (await command.registerClient({ redirect_uris: ["http://127.0.0.1/cb"], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] })).client.clientId;
    const alice = await command.issueTokens({ subject: { kind: "user", name: "alice", groups: ["staff"] }, clientId: client, scope: "mcp", resource: RESOURCE });
    expect(await server.verifyAccessToken(alice.accessToken)).toMatchObject({ ok: true, subject: { kind: "user", name: "alice", groups: ["staff"] } });
    expect(await command.removeUser("alice")).toBe(true);
    expect(await server.verifyAccessToken(alice.accessToken)).toEqual(REFUSED);

    // A rotated refresh token presented again: the whole grant ends, the new access token too.
    const c = await credentialTokens(command, "c");
    const rotated = await command.refresh(c.tokens.refreshToken, c.clientId);
    if (!rotated.ok) throw new Error(`refresh: ${rotated.reason}`);
    expect([(await server.verifyAccessToken(c.tokens.accessToken)).ok, (await server.verifyAccessToken(rotated.tokens.accessToken)).ok]).toEqual([true, true]);
    expect(await command.refresh(c.tokens.refreshToken, c.clientId)).toEqual({ ok: false, reason: "reused" });
    expect([await server.verifyAccessToken(c.tokens.accessToken), await server.verifyAccessToken(rotated.tokens.accessToken)]).toEqual([REFUSED, REFUSED]);

    // A code redeemed twice ends the grant the first redemption made.
    await command.addUser("bob", "battery staple", []);
    const code = await command.createAuthCode({ clientId: client, userName: "bob", redirectUri: "http://127.0.0.1/cb", codeChallenge: "x".repeat(43), scope: "mcp", resource: RESOURCE });
    expect((await command.redeemAuthCode(code)).ok).toBe(true);
    const bob = await command.issueTokens({ subject: { kind: "user", name: "bob", groups: [] }, clientId: client, scope: "mcp", resource: RESOURCE, fromCode: code });
    expect((await server.verifyAccessToken(bob.accessToken)).ok).toBe(true);
    expect(await command.redeemAuthCode(code)).toEqual({ ok: false, reason: "reused" });
    expect(await server.verifyAccessToken(bob.accessToken)).toEqual(REFUSED);
  });

  it("what changes nothing a check reads drops nothing: issuing tokens, rotating a refresh token, revoking an unknown token", async () => {
    const { server, tokenReads, command } = await stores();
    const a = await credentialTokens(command, "a");
    expect((await server.verifyAccessToken(a.tokens.accessToken)).ok).toBe(true);
    await credentialTokens(command, "b");
    const rotated = await command.refresh(a.tokens.refreshToken, a.clientId);
    expect(rotated.ok).toBe(true);
    expect(await command.revokeToken("mcpat_not-a-token", a.clientId)).toBe("unknown");
    for (let i = 0; i < 10; i++) expect((await server.verifyAccessToken(a.tokens.accessToken)).ok).toBe(true);
    expect(tokenReads()).toBe(1);
  });

  it("an edit by hand (psql) drops the rows kept too; a lost listening connection keeps nothing until it listens again", async () => {
    const { server, tokenReads, command } = await stores();
    const a = await credentialTokens(command, "a");
    expect((await server.verifyAccessToken(a.tokens.accessToken)).ok).toBe(true);
    await queryDatabase(db.url, "DELETE FROM tokens WHERE kind = 'access'");
    // A hand edit waits for no server: the row is dropped when the notification arrives.
    while ((await server.verifyAccessToken(a.tokens.accessToken)).ok) await turn();
    expect(await server.verifyAccessToken(a.tokens.accessToken)).toEqual(REFUSED);

    const b = await credentialTokens(command, "b");
    expect((await server.verifyAccessToken(b.tokens.accessToken)).ok).toBe(true);
    const [listener] = await queryDatabase<{ pid: number }>(db.url, "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'svc-mcp settings cache'");
    await queryDatabase(db.url, "SELECT pg_terminate_backend($1)", [listener!.pid]);
    // Until the process learns the connection is gone a row may answer; from then on every check reads.
    const before = tokenReads();
    while (tokenReads() === before) {
      expect((await server.verifyAccessToken(b.tokens.accessToken)).ok).toBe(true);
      await turn();
    }
    // Not kept: the next check reads again (the connection is opened again only after listenRetryMs).
    const reading = tokenReads();
    expect((await server.verifyAccessToken(b.tokens.accessToken)).ok).toBe(true);
    expect(tokenReads()).toBe(reading + 1);
  });
});
