import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createMcpServer } from "../../src/mcp/server.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { localContext } from "../../src/vfs/request-context.js";
import { fixture } from "../helpers/paths.js";

/**
 * Finding 10 of the security review, and its class: odd input to any method is the caller's
 * mistake, answered InvalidParams (-32602) with a message naming the member, never the SDK's
 * -32603 with a raw zod dump; a tool's arguments are the model's to correct, so their problems
 * are an error result (SEP-1303) with the same message. Raw JSON-RPC over an in-memory transport, so nothing in between
 * (the SDK client) cleans the input up first.
 */

let runtime: DocsRuntime;
let send: (method: string, params?: unknown) => Promise<JSONRPCMessage>;
let close: () => Promise<void>;

beforeAll(async () => {
  runtime = await DocsRuntime.load({ root: fixture("demo"), baseUrl: "https://docs.nimbus.example" });
  const { server } = createMcpServer({ runtime, context: localContext() });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<number, (m: JSONRPCMessage) => void>();
  client.onmessage = (m) => {
    const id = (m as { id?: number }).id;
    if (id !== undefined) waiting.get(id)?.(m);
  };
  await server.connect(serverSide);
  await client.start();
  let next = 1;
  send = (method, params) => {
    const id = next++;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      void client.send({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) } as JSONRPCMessage);
    });
  };
  close = async () => {
    await client.close();
    await runtime.close();
  };
});
afterAll(async () => close());

const invalid = (message: string) => ({ error: { code: -32602, message } });
/**
 * SEP-1303: argument values that fail validation are a tool result the model reads, not a
 * protocol error. `arguments` that is no object at all is a malformed request: -32602.
 */
const toolError = (text: string) => ({ result: { content: [{ type: "text", text }], isError: true } });
const SEARCH = "search_nimbus_storage";
const LEVELS = '"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"';

describe("odd params, method by method", () => {
  it.each([
    ["initialize", { protocolVersion: 5 }, invalid("Invalid params for initialize: protocolVersion: must be a string (got 5); capabilities: is required; clientInfo: is required")],
    ["initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x" } }, invalid("Invalid params for initialize: clientInfo.version: is required")],
    ["logging/setLevel", { level: "loud" }, invalid(`Invalid params for logging/setLevel: level: must be one of ${LEVELS} (got "loud")`)],
    ["logging/setLevel", {}, invalid("Invalid params for logging/setLevel: level: is required")],
    ["tools/list", { cursor: 5 }, invalid("Invalid params for tools/list: cursor: must be a string (got 5)")],
    ["tools/list", { cursor: null }, invalid("Invalid params for tools/list: cursor: must be a string (got null)")],
    ["tools/list", { cursor: "abc" }, invalid('Invalid params for tools/list: cursor: not a cursor of this server (it lists everything at once and gives none) (got "abc")')],
    ["tools/call", { name: SEARCH, arguments: [] }, invalid(`Invalid arguments for ${SEARCH}: arguments: must be an object (got an array)`)],
    ["tools/call", { name: SEARCH, arguments: ["query", "x"] }, invalid(`Invalid arguments for ${SEARCH}: arguments: must be an object (got an array)`)],
    ["tools/call", { name: SEARCH, arguments: "query=x" }, invalid(`Invalid arguments for ${SEARCH}: arguments: must be an object (got "query=x")`)],
    ["tools/call", { name: SEARCH, arguments: 5 }, invalid(`Invalid arguments for ${SEARCH}: arguments: must be an object (got 5)`)],
    ["tools/call", { name: SEARCH, arguments: true }, invalid(`Invalid arguments for ${SEARCH}: arguments: must be an object (got true)`)],
    ["tools/call", { name: SEARCH, arguments: null }, invalid(`Invalid arguments for ${SEARCH}: arguments: must be an object (got null)`)],
    ["tools/call", { name: SEARCH }, toolError(`Invalid arguments for ${SEARCH}: query: is required`)],
    ["tools/call", { name: 5, arguments: {} }, invalid("Invalid params for tools/call: name: must be a string (got 5)")],
    ["tools/call", {}, invalid("Invalid params for tools/call: name: is required")],
    ["tools/call", undefined, invalid("Invalid params for tools/call: params: is required")],
    ["tools/call", { name: SEARCH, arguments: { query: "x" }, task: { ttl: 5 } }, invalid("Invalid params for tools/call: task: this server does not run requests as tasks")],
    ["tools/call", { name: SEARCH, arguments: { query: "x" }, task: 5 }, invalid("Invalid params for tools/call: task: must be an object (got 5)")],
    ["resources/list", { cursor: {} }, invalid("Invalid params for resources/list: cursor: must be a string (got an object)")],
    ["resources/read", { uri: 5 }, invalid("Invalid params for resources/read: uri: must be a string (got 5)")],
    ["resources/read", {}, invalid("Invalid params for resources/read: uri: is required")],
    ["resources/read", undefined, invalid("Invalid params for resources/read: params: is required")],
    ["tools/call", { name: "search_elsewhere", arguments: { query: "x" } }, invalid('Unknown tool "search_elsewhere". Available: search_nimbus_storage, query_docs_filesystem_nimbus_storage')],
    ["resources/templates/list", { cursor: 5 }, invalid("Invalid params for resources/templates/list: cursor: must be a string (got 5)")],
    ["prompts/list", {}, { error: { code: -32601, message: "Method not found" } }],
  ])("%s %j", async (method, params, answered) => {
    const answer = await send(method, params);
    expect(answer).toEqual({ jsonrpc: "2.0", id: (answer as { id: number }).id, ...answered });
  });
});

describe("no method answers odd input with an internal error", () => {
  const METHODS = ["initialize", "ping", "logging/setLevel", "tools/list", "tools/call", "resources/list", "resources/read", "resources/templates/list", "prompts/list", "prompts/get", "completion/complete"];
  const ODD: unknown[] = [
    undefined,
    {},
    { cursor: 0 },
    { cursor: [] },
    { cursor: "" },
    { name: [] },
    { name: SEARCH, arguments: [1] },
    { name: SEARCH, arguments: "" },
    { name: "query_docs_filesystem_nimbus_storage", arguments: { command: ["ls"] } },
    { uri: {} },
    { uri: "docs://nimbus_storage/../../etc/passwd" },
    { level: 3 },
    { protocolVersion: [], capabilities: 1, clientInfo: "x" },
    { task: "x" },
    { _meta: {} },
  ];
  it.each(METHODS)("%s", async (method) => {
    for (const params of ODD) {
      const answer = (await send(method, params)) as { result?: unknown; error?: { code: number; message: string } };
      if (answer.error === undefined) continue;
      // Each message is one line a person reads: no JSON dump of zod issues.
      expect([method, params, answer.error.code, answer.error.message.includes("\n")]).toEqual([method, params, answer.error.code === -32601 ? -32601 : -32602, false]);
    }
  });
});
