import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { Relay } from "../helpers/pg-relay.js";
import { describePostgres, freshDatabase } from "../helpers/postgres.js";
import { type ServeProcess, startServe } from "../helpers/serve-http.js";
import { stopProcess } from "../helpers/workers.js";
import { DEMO, PROTOCOL } from "./harness.js";

/**
 * The state database going away while a server runs (a restart, a failover, a network cut) is
 * a 503 with `Retry-After` and a JSON body saying so, never a 500, on every endpoint that needs
 * it (tokens, `/authed/mcp`, and `/mcp` too: its rate limits are counted there); the server
 * keeps running and answers as before once the database is back. The cut is a TCP relay between the server and
 * PostgreSQL that the test closes and reopens on the same port.
 */

let db: { url: string; drop: () => Promise<void> } | undefined;
let relay: Relay | undefined;
let serve: ServeProcess | undefined;

beforeAll(async () => {
  db = await freshDatabase();
  const real = new URL(db.url);
  relay = new Relay({ host: real.hostname, port: Number(real.port || 5432) });
  await relay.open();
});
afterAll(async () => {
  if (serve !== undefined) await stopProcess(serve.child);
  await relay?.cut();
  await db?.drop();
});

describePostgres("the state database unavailable while serving", () => {
  it("answers 503 with Retry-After on the token endpoint, /authed/mcp and /mcp, then serves again when it is back", async () => {
    const url = new URL((db as { url: string }).url);
    url.port = String((relay as Relay).port);
    const state = ["--state", url.toString(), "--project-id", "docs"];
    serve = await startServe(["--dir", DEMO, ...state]);
    const created = await runCli(["credentials", "create", "--label", "cut", "--json", "--dir", DEMO, ...state]);
    const { clientId, clientSecret } = JSON.parse(created.stdout) as { clientId: string; clientSecret: string };
    const token = (): Promise<Response> =>
      fetch(`${serve?.origin}/authed/mcp/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
      });
    const first = await token();
    expect(first.status).toBe(200);
    const bearer = `Bearer ${((await first.json()) as { access_token: string }).access_token}`;
    const initialize = (): Promise<Response> =>
      fetch(`${serve?.origin}/authed/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: bearer },
        body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
      });
    expect((await initialize()).status).toBe(200);

    await (relay as Relay).cut();
    const refused = await token();
    expect([refused.status, refused.headers.get("retry-after"), await refused.json()]).toEqual([
      503,
      "1",
      { error: "state_unavailable", error_description: "the state database is busy or unreachable; retry shortly" },
    ]);
    const mcp = await initialize();
    expect([mcp.status, mcp.headers.get("retry-after"), await mcp.json()]).toEqual([
      503,
      "1",
      { jsonrpc: "2.0", id: null, error: { code: -32000, message: "the state database is busy or unreachable; retry shortly", data: { reason: "state_unavailable" } } },
    ]);
    // The public endpoint's rate limits are counted in the database too: refused alike, rather
    // than served uncounted (the limits stay exact across instances).
    const open = await fetch(`${serve.origin}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
    });
    expect([open.status, open.headers.get("retry-after")]).toEqual([503, "1"]);

    await (relay as Relay).open();
    expect((await token()).status).toBe(200);
    expect((await initialize()).status).toBe(200);
    // Three requests refused while it was away: one log line for the episode, not one each.
    expect(serve.lines.filter((l) => l.includes("answering 503"))).toEqual([
      expect.stringMatching(/^svc-mcp: warning: the state database is unavailable \(\w+\): answering 503 with Retry-After until it clears; later failures of this kind are counted, not logged$/),
    ]);
  });

  it("gives up on a connection that stops answering: 503 after the query timeout, then serves on a new one", async () => {
    if (serve !== undefined) await stopProcess(serve.child);
    await (relay as Relay).cut();
    await (relay as Relay).open();
    const url = new URL((db as { url: string }).url);
    url.port = String((relay as Relay).port);
    // The URL's own parameters set the wait (default 10 s), so the test need not wait that long.
    url.searchParams.set("query_timeout", "1000");
    serve = await startServe(["--dir", DEMO, "--state", url.toString(), "--project-id", "docs", "--rate-limit", "search=100"]);
    const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
    const search = (): Promise<Response> =>
      fetch(`${serve?.origin}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "search_nimbus_storage" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_nimbus_storage", arguments: { query: "bucket" }, _meta } }),
      });
    expect((await search()).status).toBe(200);
    // Every connection the server holds goes silent. The request waiting on one is answered 503
    // after the timeout rather than left hanging, and the silent connection is dropped; the next
    // request may find another silent one idle in the pool (one per connection the server had
    // open), until the pool holds none and requests are served on new connections.
    (relay as Relay).freeze();
    const answers: [number, string | null][] = [];
    for (let i = 0; i < 11; i++) {
      const r = await search();
      answers.push([r.status, r.headers.get("retry-after")]);
      if (r.status === 200) break;
    }
    expect(answers[0]).toEqual([503, "1"]);
    expect(answers.at(-1)).toEqual([200, null]);
    expect(answers.slice(0, -1).every(([status, retry]) => status === 503 && retry === "1")).toBe(true);
    const after = await Promise.all([search(), search(), search()]);
    expect(after.map((r) => r.status)).toEqual([200, 200, 200]);
  });
});
