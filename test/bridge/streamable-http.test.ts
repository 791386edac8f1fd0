import { request } from "node:http";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { Connection } from "../helpers/workers.js";
import { FS, type Harness, INIT, PROTOCOL, openSession, postJson, startBridge } from "./harness.js";

/** MCP Streamable HTTP as the transport spec describes it, and every way a request can be bad. */

let h: Harness;
/** Routes a sibling module mounts (feedback API, relay): they must never shadow ours. */
const extra = new Hono();
extra.all("/mcp", (c) => c.text("shadowed /mcp", 200));
extra.all("/authed/mcp/oauth/token", (c) => c.text("shadowed token", 200));
extra.get("/extra/ping", (c) => c.json({ pong: true }));

beforeAll(async () => {
  h = await startBridge({ bridge: { extraRoutes: [extra, (app) => app.get("/extra/fn", (c) => c.text("fn route"))] } });
});
afterAll(() => h.close());

const call = (id: number, command = "ls /") => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: FS, arguments: { command } } });
/** V8's own message for a JSON text (its wording differs between Node versions). */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("valid JSON");
}
const rpcError = (code: number, message: string, id: string | number | null = null) => ({ jsonrpc: "2.0", id, error: { code, message } });
const TOO_LARGE = { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Payload Too Large: the request body must not exceed 65536 bytes", data: { reason: "payload_too_large", limit: 65536 } } };

describe("sessions", () => {
  it("initialize opens a session: 200 JSON with Mcp-Session-Id; calls carry it", async () => {
    const r = await postJson(h.urls.mcp, INIT);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    const id = r.headers.get("mcp-session-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body).toMatchObject({
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: PROTOCOL,
        capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, logging: {} },
        serverInfo: { name: "svc-mcp", title: "Nimbus Storage docs" },
        instructions:
          "Documentation for Nimbus Storage: Object storage with buckets, signed URLs and webhooks. It covers: Guides, API reference. " +
          "Use search_nimbus_storage to find pages for a question, then query_docs_filesystem_nimbus_storage to read them " +
          "(pages are files: /a/b.mdx is the page at https://docs.nimbus.example/a/b). Cite page links in answers.",
      },
    });
    const note = await postJson(h.urls.mcp, { jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": id as string });
    expect(note.status).toBe(202);
    expect(note.text).toBe("");
    const c = await postJson(h.urls.mcp, call(2), { "mcp-session-id": id as string, "mcp-protocol-version": PROTOCOL });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ id: 2, result: { content: [{ type: "text", text: "api\nguides\nindex.mdx\nquickstart.mdx\nskill.md\n" }] } });
  });

  it("a request without a session (other than initialize) is 400; an unknown session is 404", async () => {
    expect(await postJson(h.urls.mcp, call(1))).toMatchObject({
      status: 400,
      body: rpcError(-32000, "Bad Request: Mcp-Session-Id header is required (send initialize first to open a session, or use protocol version 2026-07-28, which needs none)"),
    });
    expect(await postJson(h.urls.mcp, call(1), { "mcp-session-id": "00000000-0000-0000-0000-000000000000" })).toMatchObject({
      status: 404,
      body: rpcError(-32001, "Session not found: it expired or was closed; initialize a new one"),
    });
  });

  it("a session opened on /mcp is unknown on /authed/mcp, and needs a token there first", async () => {
    const id = await openSession(h.urls.mcp);
    const r = await postJson(h.urls.authedMcp, call(1), { "mcp-session-id": id });
    expect(r.status).toBe(401);
  });

  it("an anonymous session is its address's: from another address it is unknown to ping, calls, its stream and DELETE, and lives on for its own (adversary round 40, F1)", async () => {
    const id = await openSession(h.urls.mcp);
    const other = new Connection(h.origin, "127.0.0.2");
    const headers = { "mcp-session-id": id, "mcp-protocol-version": PROTOCOL };
    const unknown = [404, rpcError(-32001, "Session not found: it expired or was closed; initialize a new one")];
    try {
      const answer = (r: { status: number; body: string }): unknown[] => [r.status, JSON.parse(r.body)];
      expect(answer(await other.post("/mcp", { jsonrpc: "2.0", id: 2, method: "ping" }, headers))).toEqual(unknown);
      expect(answer(await other.post("/mcp", call(3), headers))).toEqual(unknown);
      expect(answer(await other.get("/mcp", { ...headers, accept: "text/event-stream" }))).toEqual(unknown);
      expect(answer(await other.delete("/mcp", headers))).toEqual(unknown);
    } finally {
      other.close();
    }
    const c = await postJson(h.urls.mcp, call(4), headers);
    expect([c.status, (c.body as { result: { content: unknown } }).result.content]).toEqual([200, [{ type: "text", text: "api\nguides\nindex.mdx\nquickstart.mdx\nskill.md\n" }]]);
    expect((await fetch(h.urls.mcp, { method: "DELETE", headers })).status).toBe(200);
  });

  it("DELETE ends a session; later requests get 404", async () => {
    const id = await openSession(h.urls.mcp);
    const del = await fetch(h.urls.mcp, { method: "DELETE", headers: { "mcp-session-id": id } });
    expect(del.status).toBe(200);
    expect((await postJson(h.urls.mcp, call(3), { "mcp-session-id": id })).status).toBe(404);
    const noSession = await fetch(h.urls.mcp, { method: "DELETE" });
    expect(noSession.status).toBe(400);
    expect(await noSession.json()).toEqual(rpcError(-32000, "Bad Request: Mcp-Session-Id header is required"));
  });

  it("GET opens the session's SSE notification stream; without a session it is 405", async () => {
    const id = await openSession(h.urls.mcp);
    const ctl = new AbortController();
    const sse = await fetch(h.urls.mcp, { headers: { Accept: "text/event-stream", "mcp-session-id": id, "mcp-protocol-version": PROTOCOL }, signal: ctl.signal });
    expect(sse.status).toBe(200);
    expect(sse.headers.get("content-type")).toBe("text/event-stream");
    expect(h.bridge.endpoint.sessions.get(id)?.openStreams).toBe(1);
    ctl.abort();
    await sse.body?.cancel().catch(() => {});
    const bare = await fetch(h.urls.mcp, { headers: { Accept: "text/event-stream" } });
    expect(bare.status).toBe(405);
    expect(bare.headers.get("allow")).toBe("POST");
    expect(await bare.json()).toEqual(
      rpcError(-32000, "GET opens the notification stream of a session: initialize with POST first, then send its Mcp-Session-Id"),
    );
    const notAccepting = await fetch(h.urls.mcp, { headers: { Accept: "application/json", "mcp-session-id": id } });
    expect(notAccepting.status).toBe(406);
  });

  it("other methods are 405 with Allow", async () => {
    const r = await fetch(h.urls.mcp, { method: "PUT", body: "{}" });
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("GET, POST, DELETE");
    expect(await r.json()).toEqual(rpcError(-32000, "Method PUT is not allowed: use POST (and GET or DELETE with an Mcp-Session-Id)"));
  });
});

describe("headers", () => {
  it("refuses a POST that does not accept both JSON and SSE (406)", async () => {
    const r = await postJson(h.urls.mcp, INIT, { Accept: "application/json" });
    expect(r).toMatchObject({ status: 406, body: rpcError(-32000, "Not Acceptable: Client must accept both application/json and text/event-stream") });
    // No session was left behind by the refused initialize.
    expect(r.headers.get("mcp-session-id")).toBeNull();
  });

  it("refuses a body that is not application/json (415)", async () => {
    const r = await postJson(h.urls.mcp, INIT, { "Content-Type": "text/plain" });
    expect(r).toMatchObject({ status: 415, body: rpcError(-32000, "Unsupported Media Type: Content-Type must be application/json") });
  });

  it("reads a body in the charset its Content-Type declares (UTF-16), and refuses another charset with a 415 (issue 25)", async () => {
    // Before, a UTF-16 body was read as UTF-8: a parse error.
    const send = (body: Uint8Array, type: string) =>
      fetch(h.urls.mcp, { method: "POST", headers: { "content-type": type, accept: "application/json, text/event-stream" }, body: Buffer.from(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }));
    const utf16 = new Uint8Array(Buffer.from(JSON.stringify(INIT), "utf16le"));
    const ok = await send(utf16, "application/json; charset=utf-16le");
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ jsonrpc: "2.0", id: INIT.id, result: { serverInfo: expect.any(Object) } });
    expect(await send(utf16, "application/json; charset=shift_jis")).toEqual({
      status: 415,
      body: rpcError(-32000, 'Unsupported Media Type: charset "shift_jis" is not supported; send the body as UTF-8 (or UTF-16)'),
    });
    expect(await send(utf16.subarray(1), "application/json; charset=utf-16le")).toEqual({ status: 400, body: rpcError(-32700, "Parse error: the body is not valid UTF-16") });
  });

  it("refuses an unsupported MCP-Protocol-Version after initialization (400)", async () => {
    const id = await openSession(h.urls.mcp);
    const r = await postJson(h.urls.mcp, call(1), { "mcp-session-id": id, "mcp-protocol-version": "1999-01-01" });
    expect(r.status).toBe(400);
    expect((r.body as { error: { message: string } }).error.message).toMatch(/^Bad Request: Unsupported protocol version: 1999-01-01 \(supported versions: 2025-11-25, /);
  });

  it("refuses a Host that is not a loopback name (DNS rebinding) and a foreign Origin", async () => {
    // fetch() may not set Host; a raw request can, as a rebinding browser effectively does.
    const host = await rawRequest(h.urls.mcp, { Host: "evil.example:80", "Content-Type": "application/json" }, "{}");
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: 'Host "evil.example:80" is not served here', data: { reason: "forbidden_host" } } });
    const origin = await postJson(h.urls.mcp, INIT, { Origin: "https://evil.example" });
    expect(origin).toMatchObject({ status: 403, body: { error: { message: "Origin https://evil.example may not call this server" } } });
  });

  it("answers CORS for allowed origins (loopback, redirect domains)", async () => {
    await h.state.addRedirectDomain("https://tool.example");
    const pre = await fetch(h.urls.mcp, { method: "OPTIONS", headers: { Origin: "https://tool.example", "Access-Control-Request-Method": "POST" } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://tool.example");
    expect(pre.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID");
    const r = await postJson(h.urls.mcp, INIT, { Origin: "http://localhost:6274" });
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("http://localhost:6274");
    expect(r.headers.get("access-control-expose-headers")).toBe("Mcp-Session-Id, WWW-Authenticate, Retry-After");
  });
});

describe("bodies", () => {
  const cases: [string, string, number, object][] = [
    ["invalid JSON", "{nope", 400, rpcError(-32700, `Parse error: the body is not valid JSON (${jsonError("{nope")})`)],
    ["an empty body", "", 400, rpcError(-32700, `Parse error: the body is not valid JSON (${jsonError("")})`)],
    ["a JSON string", '"hello"', 400, rpcError(-32600, "Invalid Request: each message must be a JSON object")],
    ["a message without jsonrpc", '{"id":1,"method":"initialize"}', 400, rpcError(-32600, 'Invalid Request: the "jsonrpc" member must be "2.0"', 1)],
    ["a non-integer id", '{"jsonrpc":"2.0","id":1.5,"method":"x"}', 400, rpcError(-32600, 'Invalid Request: the "id" member must be a string or an integer', 1.5)],
    ["a numeric method", '{"jsonrpc":"2.0","id":1,"method":7}', 400, rpcError(-32600, 'Invalid Request: the "method" member must be a string', 1)],
    ["no method", '{"jsonrpc":"2.0","id":1}', 400, rpcError(-32600, 'Invalid Request: a message needs a "method" (or is a response with "result" or "error")', 1)],
    ["string params", '{"jsonrpc":"2.0","id":1,"method":"x","params":"p"}', 400, rpcError(-32600, 'Invalid Request: the "params" member must be an object', 1)],
    ["an empty batch", "[]", 400, rpcError(-32600, "Invalid Request: an empty batch")],
    ["a batch of 101", JSON.stringify(Array.from({ length: 101 }, (_, i) => call(i))), 400, rpcError(-32600, "Invalid Request: a batch must not exceed 100 messages")],
  ];
  it.each(cases)("refuses %s with a JSON-RPC error", async (_name, body, status, expected) => {
    const id = await openSession(h.urls.mcp);
    const r = await postJson(h.urls.mcp, body, { "mcp-session-id": id });
    expect(r.status).toBe(status);
    expect(r.body).toEqual(expected);
  });

  it("refuses an id JSON.parse cannot read exactly (past 2^53 - 1, or out of range), echoing it as the client wrote it (issue 25)", async () => {
    const id = await openSession(h.urls.mcp);
    const send = async (body: string): Promise<[number, string]> => {
      const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "mcp-session-id": id, "mcp-protocol-version": PROTOCOL };
      const r = await fetch(h.urls.mcp, { method: "POST", headers, body });
      return [r.status, await r.text()];
    };
    const tooBig = JSON.stringify({ code: -32600, message: `Invalid Request: the "id" member must be a string or an integer from -9007199254740991 to 9007199254740991: a number past that cannot be echoed exactly (send it as a string)` });
    // Before, the SDK answered the ping with id 12345678901234567000, and 1e400 with null.
    expect(await send('{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}')).toEqual([400, `{"jsonrpc":"2.0","id":12345678901234567890,"error":${tooBig}}`]);
    expect(await send('{"jsonrpc":"2.0","id":1e400,"method":"ping"}')).toEqual([400, `{"jsonrpc":"2.0","id":1e400,"error":${tooBig}}`]);
    expect(await send('{"jsonrpc":"2.0","id":-9007199254740993,"method":"ping"}')).toEqual([400, `{"jsonrpc":"2.0","id":-9007199254740993,"error":${tooBig}}`]);
    const notRun = JSON.stringify({ code: -32600, message: "Invalid Request: the batch was not processed because its message at index 1 is invalid" });
    expect(await send('[{"jsonrpc":"2.0","id":7,"method":"ping"}, {"id" : 9007199254740993 , "jsonrpc":"2.0","method":"ping","params":{"id":1}}]')).toEqual([
      400,
      `[{"jsonrpc":"2.0","id":7,"error":${notRun}},{"jsonrpc":"2.0","id":9007199254740993,"error":${tooBig}}]`,
    ]);
    const token = JSON.stringify({
      code: -32602,
      message: "Invalid params: params._meta.progressToken: must be a string or an integer from -9007199254740991 to 9007199254740991 (got a number past that, which cannot be echoed exactly)",
    });
    expect(await send('{"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{"progressToken":99999999999999999999}}}')).toEqual([400, `{"jsonrpc":"2.0","id":3,"error":${token}}`]);
    // The largest exact integer is served as before.
    expect(await send('{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}')).toEqual([200, '{"result":{},"jsonrpc":"2.0","id":9007199254740991}']);
  });

  it("refuses a message that is both a request and a response, a response without an id or with a member JSON-RPC does not name as an invalid message, -32600, not as a body that is not JSON (adversary F6, issue 25)", async () => {
    // A 2025-03-26 session, which keeps batches.
    const id = await openSession(h.urls.mcp, {}, "2025-03-26");
    const send = async (body: string): Promise<[number, string]> => {
      const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "mcp-session-id": id, "mcp-protocol-version": "2025-03-26" };
      const r = await fetch(h.urls.mcp, { method: "POST", headers, body });
      return [r.status, await r.text()];
    };
    const notRun = JSON.stringify({ code: -32600, message: "Invalid Request: the batch was not processed because its message at index 1 is invalid" });
    const both = JSON.stringify({ code: -32600, message: 'Invalid Request: a message with a "method" is a request or a notification and has no "result" or "error"' });
    // Before, the SDK answered the whole batch with one 400 -32700 "Parse error: Invalid JSON-RPC message", id null.
    expect(await send('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"result":{},"method":"ping"}]')).toEqual([
      400,
      `[{"jsonrpc":"2.0","id":1,"error":${notRun}},{"jsonrpc":"2.0","id":2,"error":${both}}]`,
    ]);
    // Before, an error with no id was taken in silence and the ping answered.
    const noId = JSON.stringify({ code: -32600, message: 'Invalid Request: a response ("result" or "error") needs the "id" of the request it answers' });
    expect(await send('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","error":{"code":-32603,"message":"x"}}]')).toEqual([
      400,
      `[{"jsonrpc":"2.0","id":1,"error":${notRun}},{"jsonrpc":"2.0","id":null,"error":${noId}}]`,
    ]);
    const twoAnswers = JSON.stringify({ code: -32600, message: 'Invalid Request: a response has a "result" or an "error", not both' });
    expect(await send('{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"m"}}')).toEqual([400, `{"jsonrpc":"2.0","id":3,"error":${twoAnswers}}`]);
    const unnamed = JSON.stringify({ code: -32600, message: "Bad Request: the request body is not a valid JSON-RPC message" });
    expect(await send('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":"ping","x":1}]')).toEqual([
      400,
      `[{"jsonrpc":"2.0","id":1,"error":${notRun}},{"jsonrpc":"2.0","id":4,"error":${unnamed}}]`,
    ]);
    expect(await send('{"jsonrpc":"2.0","id":5,"method":"ping","x":1}')).toEqual([400, `{"jsonrpc":"2.0","id":5,"error":${unnamed}}`]);
    // A valid batch is answered as before.
    expect(await send('[{"jsonrpc":"2.0","id":6,"method":"ping"}]')).toEqual([200, '[{"result":{},"jsonrpc":"2.0","id":6}]']);
  });

  it("answers a batch with an invalid message with an array: that message's error, and each request saying why it was not run", async () => {
    const id = await openSession(h.urls.mcp);
    const batch = [call(1), { jsonrpc: "2.0", method: "notifications/progress", params: {} }, { jsonrpc: "1.0", id: 2, method: "ping" }, 7, { jsonrpc: "2.0", id: "s", method: "ping" }];
    const r = await postJson(h.urls.mcp, batch, { "mcp-session-id": id, "mcp-protocol-version": PROTOCOL });
    const notRun = "Invalid Request: the batch was not processed because its message at index 2 is invalid";
    expect([r.status, r.body]).toEqual([
      400,
      [
        rpcError(-32600, notRun, 1),
        rpcError(-32600, 'Invalid Request: the "jsonrpc" member must be "2.0"', 2),
        rpcError(-32600, "Invalid Request: each message must be a JSON object"),
        rpcError(-32600, notRun, "s"),
      ],
    ]);
  });

  it("refuses a body over the limit with 413 before reading it all", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "x", params: { pad: "x".repeat(LIMITS.bridge.maxBodyBytes) } });
    const r = await postJson(h.urls.mcp, big);
    expect([r.status, r.body]).toEqual([413, TOO_LARGE]);
  });

  it("stops reading a chunked body (no Content-Length) once it passes the limit", async () => {
    const r = await new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      const req = request(h.urls.mcp, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" } }, (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, connection: res.headers.connection }));
      });
      req.on("error", reject);
      const chunk = "x".repeat(64 * 1024);
      for (let i = 0; i < 17; i++) req.write(chunk);
      req.end();
    });
    expect(r.status).toBe(413);
    expect(r.connection).toBe("close");
    expect(JSON.parse(r.body)).toEqual(TOO_LARGE);
  });

  it("survives a burst of garbage and keeps serving", async () => {
    const junk = ["\u0000\u0001", "[[[[[[", '{"jsonrpc":"2.0","id":{},"method":"tools/call"}', "null", "1e999", '{"jsonrpc":"2.0","method":"tools/call","params":{"name":null}}'];
    const statuses = await Promise.all(junk.map(async (b) => (await postJson(h.urls.mcp, b)).status));
    expect(statuses.every((s) => s >= 400 && s < 500)).toBe(true);
    const id = await openSession(h.urls.mcp);
    expect((await postJson(h.urls.mcp, call(9), { "mcp-session-id": id })).status).toBe(200);
    expect(h.logs.filter((l) => l.startsWith("error:"))).toEqual([]);
  });
});

describe("routing", () => {
  it("matches /mcp and the OAuth endpoints before any mounted route; mounted routes still serve", async () => {
    const init = await postJson(h.urls.mcp, INIT);
    expect(init.status).toBe(200);
    const token = await fetch(h.urls.token, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" });
    expect(token.status).toBe(401);
    expect(await (await fetch(`${h.origin}/extra/ping`)).json()).toEqual({ pong: true });
    expect(await (await fetch(`${h.origin}/extra/fn`)).text()).toBe("fn route");
  });

  it("answers unknown paths with a JSON 404", async () => {
    const r = await fetch(`${h.origin}/nothing/here`);
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: { code: "not_found", message: "nothing at GET /nothing/here" } });
    const o = await fetch(`${h.origin}/authed/mcp/oauth/nope`);
    expect(o.status).toBe(404);
    expect(await o.json()).toEqual({ error: "not_found", error_description: "no OAuth endpoint at /authed/mcp/oauth/nope" });
  });

  it("describes itself at /.well-known/mcp", async () => {
    const r = await fetch(h.urls.wellKnownMcp);
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      name: "svc-mcp",
      title: "Nimbus Storage docs",
      siteAuth: "public",
      available: true,
      endpoints: [
        { url: h.urls.mcp, transport: "streamable-http", authentication: "none" },
        { url: h.urls.authedMcp, transport: "streamable-http", authentication: "oauth2", protectedResourceMetadata: h.urls.protectedResourceMetadata },
      ],
      tools: [
        { name: "search_nimbus_storage", title: "Search Nimbus Storage" },
        { name: "query_docs_filesystem_nimbus_storage", title: "Query the Nimbus Storage docs filesystem" },
      ],
      resources: [{ uri: "docs://nimbus_storage/skill.md", name: "nimbus_storage" }],
      connect: {
        mcp: h.urls.mcp,
        "add-mcp": `npx add-mcp ${h.urls.mcp} --name nimbus-storage`,
      },
    });
  });
});

function rawRequest(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
