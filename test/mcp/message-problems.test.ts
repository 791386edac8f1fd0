import { parseJSONRPCMessage } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { schemaProblem } from "../../src/mcp/message-problems.js";

/**
 * `schemaProblem` judges plain requests and notifications without the SDK's zod schema (issue
 * 23): its verdict must be the SDK's on every message, those it judges itself and those near
 * the edge of what it does, which it leaves to the schema.
 */
const SDK_REFUSAL = "Bad Request: the request body is not a valid JSON-RPC message";

function sdkVerdict(m: unknown): string | undefined {
  try {
    parseJSONRPCMessage(m);
    return undefined;
  } catch {
    return SDK_REFUSAL;
  }
}

const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search", arguments: { query: "x" } } };
const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

const MESSAGES: readonly unknown[] = [
  call,
  { ...call, id: "a" },
  { ...call, id: -7 },
  { ...call, id: 2 ** 53 },
  { ...call, id: 1.5 },
  { ...call, id: null },
  { jsonrpc: "2.0", id: 1, method: "ping" },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3, reason: "r" } },
  { ...call, params: { ...call.params, _meta: envelope } },
  { ...call, params: { ...call.params, _meta: { ...envelope, progressToken: "t" } } },
  { ...call, params: { ...call.params, _meta: { progressToken: 4 } } },
  { ...call, params: { ...call.params, _meta: { progressToken: 4.5 } } },
  { ...call, params: { ...call.params, _meta: { progressToken: null } } },
  { ...call, params: { ...call.params, _meta: { progressToken: true } } },
  { ...call, params: { ...call.params, _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } } },
  { ...call, params: { ...call.params, _meta: { "io.modelcontextprotocol/related-task": { taskId: 1 } } } },
  { ...call, params: { ...call.params, _meta: { "io.modelcontextprotocol/related-task": { taskId: "t", x: 1 } } } },
  { ...call, params: { ...call.params, _meta: [] } },
  { ...call, params: { ...call.params, _meta: null } },
  { ...call, params: { ...call.params, _meta: "m" } },
  { ...call, params: { ...call.params, task: { ttl: 1 } } },
  { ...call, params: [] },
  { ...call, params: null },
  { ...call, params: "p" },
  { ...call, extra: 1 },
  { ...call, jsonrpc: "1.0" },
  { ...call, method: 7 },
  { jsonrpc: "2.0", id: 1 },
  { jsonrpc: "2.0", id: 1, result: {} },
  { jsonrpc: "2.0", id: 1, error: { code: -1, message: "m" } },
  { jsonrpc: "2.0", error: { code: -1, message: "m" } },
  JSON.parse('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"s","__proto__":{"x":1}}}'),
  [],
  null,
  "text",
];

describe("schemaProblem", () => {
  it("judges every message as the SDK's schema does", () => {
    expect(MESSAGES.map(schemaProblem)).toEqual(MESSAGES.map(sdkVerdict));
    // Both verdicts are met: the table holds messages the schema takes and ones it refuses.
    expect(new Set(MESSAGES.map(schemaProblem))).toEqual(new Set([undefined, SDK_REFUSAL]));
  });
});
