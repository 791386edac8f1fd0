import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonComplexity } from "../../src/json-complexity.js";
import { LIMITS } from "../../src/limits.js";
import { DEMO, type Harness, SEARCH, credentialTokens, mcpClient, startBridge } from "./harness.js";

/**
 * Adversary round 60 F2/F3: valid JSON nested thousands deep, inside the 64 KB body bound, cost
 * ten times a request's CPU and from 2,000-3,000 levels overflowed the stack of the SDK's schemas:
 * HTTP 500 for tools/list, server/discover, resources/list, subscriptions/listen and tools/call,
 * and a 2025 `initialize` answered `-32700` with `RangeError: Maximum call stack size exceeded`
 * in its data. Such a body, and one of more values than `LIMITS.clientJson.maxValues` (F1: 20,000
 * empty arrays), is now refused on its text before it is parsed, on every route that reads a
 * client's JSON, in that route's error shape and naming the bound. A real bridge on port 0.
 */

let h: Harness;
let token = "";
beforeAll(async () => {
  h = await startBridge({ root: DEMO, apps: true, authMode: "partial", mcp: "enabled", rateLimits: ["ip=off", "feedback=off", "feedback-bytes=off", "search=off", "filesystem=off"] });
  token = (await credentialTokens(h)).access_token;
});
afterAll(async () => {
  await h.close();
});

const nested = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);
const META = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"experimental":{"x":{"d":';
const MODERN = { "mcp-protocol-version": "2026-07-28" };

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body });
  return { status: res.status, text: await res.text() };
}

const tooDeep = (id: string): string =>
  `{"jsonrpc":"2.0","id":${id},"error":{"code":-32600,"message":"Invalid Request: the body nests arrays and objects more than 64 levels deep","data":{"reason":"json_depth","limit":64}}}`;

describe("an MCP body nested past the bound", () => {
  it("is refused 400 with the request's id for every 2026-07-28 method that answered 500", async () => {
    const calls: [string, string][] = [
      ["tools/list", ""],
      ["server/discover", ""],
      ["resources/list", ""],
      ["subscriptions/listen", ""],
      ["tools/call", `,"name":"${SEARCH}","arguments":{"query":"storage"}`],
    ];
    const answers = [];
    for (const [method, extra] of calls) {
      const body = `{"jsonrpc":"2.0","id":7,"method":"${method}","params":{${META}${nested(2_000)}}}}}${extra}}}`;
      answers.push(await post(h.urls.mcp, body, { ...MODERN, "mcp-method": method, ...(extra !== "" ? { "mcp-name": SEARCH } : {}) }));
    }
    expect(answers).toEqual(calls.map(() => ({ status: 400, text: tooDeep("7") })));
  });

  it("is refused 400 on a 2025 initialize, with its id, and no stack overflow named", async () => {
    const body = `{"jsonrpc":"2.0","id":"init-9","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"experimental":{"x":{"d":${nested(30_000)}}}},"clientInfo":{"name":"c","version":"1"}}}`;
    expect(await post(h.urls.mcp, body)).toEqual({ status: 400, text: tooDeep('"init-9"') });
  });

  it("is refused the same on /authed/mcp, and an id past 2^53 is echoed as written", async () => {
    const body = `{"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"x":${nested(3_000)}}}`;
    expect(await post(h.urls.authedMcp, body, { ...MODERN, "mcp-method": "tools/list", authorization: `Bearer ${token}` })).toEqual({ status: 400, text: tooDeep("12345678901234567890") });
  });

  it("is answered with id null when it is a batch or names no id", async () => {
    const note = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"x":${nested(100)}}}`;
    expect(await post(h.urls.mcp, note)).toEqual({ status: 400, text: tooDeep("null") });
    expect(await post(h.urls.mcp, `[{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":${nested(100)}}}]`)).toEqual({ status: 400, text: tooDeep("null") });
  });

  it("is served at the bound: 64 levels are read, 65 are refused", async () => {
    // The body is level 1 and its params level 2: 62 arrays inside make 64.
    const at = (depth: number) => `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"x":${nested(depth)}}}`;
    const ok = await post(h.urls.mcp, at(62), { ...MODERN, "mcp-method": "tools/list" });
    expect([ok.status, (JSON.parse(ok.text) as { result?: { tools?: unknown[] } }).result?.tools?.length]).toEqual([200, 2]);
    expect(await post(h.urls.mcp, at(63), { ...MODERN, "mcp-method": "tools/list" })).toEqual({ status: 400, text: tooDeep("4") });
  });
});

describe("an MCP body of more values than the bound", () => {
  it("is refused 400 naming the bound: a 2025 initialize with 20,000 empty arrays in its capabilities (F1)", async () => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"experimental":{"x":{"d":[${Array(20_000).fill("[]").join(",")}]}}},"clientInfo":{"name":"c","version":"1"}}}`;
    expect(await post(h.urls.mcp, body)).toEqual({
      status: 400,
      text: '{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: the body holds more than 10000 JSON values","data":{"reason":"json_values","limit":10000}}}',
    });
  });
});

describe("the official SDK client", () => {
  it("gets the refusal, named, for a call whose arguments nest too deep, and its session goes on", async () => {
    const c = await mcpClient(h.urls.mcp);
    try {
      const error = await c.client.callTool({ name: SEARCH, arguments: { query: "storage", deep: JSON.parse(nested(100)) as unknown } }).catch((e: unknown) => e);
      // The SDK's client reports any 4xx to a POST so, with the body the server answered.
      expect(String(error)).toBe(`Error: Streamable HTTP error: Error POSTing to endpoint: ${tooDeep("1")}`);
      expect((await c.client.listTools()).tools.length).toBe(2);
    } finally {
      await c.close();
    }
  });
});

describe("other routes that read a client's JSON", () => {
  it("refuse a body nested too deep in their own error shape", async () => {
    const deep = `{"rating":${nested(30_000)}}`;
    expect(await post(`${h.origin}/v1/feedback/docs/rating`, deep)).toEqual({
      status: 400,
      text: '{"error":{"code":"json_too_deep","message":"request body nests arrays and objects more than 64 levels deep"}}',
    });
    expect(await post(`${h.origin}/v1/feedback/docs/rating`, `[${Array(10_001).fill("0").join(",")}]`)).toEqual({
      status: 400,
      text: '{"error":{"code":"json_too_many_values","message":"request body holds more than 10000 JSON values"}}',
    });
    const registration = await post(h.urls.register, `{"redirect_uris":["http://127.0.0.1:8976/callback"],"x":${nested(5_000)}}`);
    expect([registration.status, JSON.parse(registration.text) as unknown]).toEqual([
      400,
      { error: "invalid_client_metadata", error_description: "the body nests arrays and objects more than 64 levels deep" },
    ]);
  });
});

describe("jsonComplexity", () => {
  it("counts levels and values outside strings only, member names not counted", () => {
    const bounds = { maxDepth: 3, maxValues: 6 };
    expect(
      [
        '{"a":[[1]]}',
        '{"a":[[[1]]]}',
        '{"[[[[":"]]]]","b":"\\"[[[["}',
        '[1,2,true,null,"x"]',
        '[1,2,true,null,"x",-0.5e3]',
        '{"a":1,"b":2,"c":3,"d":4,"e":5}',
        '{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}',
      ].map((t) => jsonComplexity(t, bounds)),
    ).toEqual([undefined, { reason: "json_depth", limit: 3 }, undefined, undefined, { reason: "json_values", limit: 6 }, undefined, { reason: "json_values", limit: 6 }]);
    expect(LIMITS.clientJson).toEqual({ maxDepth: 64, maxValues: 10_000 });
  });
});
