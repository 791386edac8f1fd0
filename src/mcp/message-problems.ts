import { RELATED_TASK_META_KEY, parseJSONRPCMessage } from "@modelcontextprotocol/server";
import { inputText } from "./issues.js";

/**
 * What is wrong with one JSON-RPC message as it arrived, in the words both transports answer with
 * (HTTP: a 400 with the error; stdio: the error on its line, `stdio-guard.ts`), so a client is told
 * the same thing whichever way it connects. The SDK's transports would call these unparseable
 * (HTTP `-32700`) or drop them (stdio: no answer at all, a zod dump on stderr).
 */

/** JSON-RPC error codes these problems are answered with. */
export const MESSAGE_ERRORS = { parseError: -32700, invalidRequest: -32600, invalidParams: -32602 } as const;

/** What is wrong with a parsed message's shape (JSON-RPC 2.0 section 4), answered with `-32600 Invalid Request: ...`. */
export function shapeProblem(m: unknown): string | undefined {
  if (typeof m !== "object" || m === null || Array.isArray(m)) return "each message must be a JSON object";
  const o = m as Record<string, unknown>;
  if (o.jsonrpc !== "2.0") return 'the "jsonrpc" member must be "2.0"';
  if ("id" in o && typeof o.id === "number" && inexact(o.id)) return `the "id" member must be a string or an integer from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}: a number past that cannot be echoed exactly (send it as a string)`;
  if ("id" in o && typeof o.id !== "string" && (typeof o.id !== "number" || !Number.isInteger(o.id))) return 'the "id" member must be a string or an integer';
  if ("method" in o && typeof o.method !== "string") return 'the "method" member must be a string';
  if (!("method" in o) && !("result" in o) && !("error" in o)) return 'a message needs a "method" (or is a response with "result" or "error")';
  // JSON-RPC 2.0 sections 4 and 5: a request or notification has no result or error, a response
  // one of the two and the id of the request it answers (the SDK's HTTP transport called the first
  // two unparseable, -32700, and took an error with no id in silence; adversary F6, issue 25).
  if ("method" in o && ("result" in o || "error" in o)) return 'a message with a "method" is a request or a notification and has no "result" or "error"';
  if ("result" in o && "error" in o) return 'a response has a "result" or an "error", not both';
  if (!("method" in o) && !("id" in o)) return 'a response ("result" or "error") needs the "id" of the request it answers';
  if ("params" in o && (typeof o.params !== "object" || o.params === null)) return 'the "params" member must be an object';
  return undefined;
}

/**
 * What is wrong with a well-formed message as a member of a batch (HTTP only: stdio takes no
 * batches), answered with `-32600 Invalid Request: ...`. An `initialize` opens the session the
 * rest of a batch would run in, and MCP 2025-03-26 says it must not be part of one; let through,
 * it opened a session the bridge had signed for another protocol version than the one the server
 * then negotiated (an HTTP 500; adversary round 58, F1).
 */
export function batchMemberProblem(m: unknown): string | undefined {
  return (m as { method?: unknown }).method === "initialize" ? "initialize must be sent alone, not in a JSON-RPC batch" : undefined;
}

/** What is wrong with a well-formed message's `params` (an array, a `_meta` or progress token of the wrong type), named by member; answered with `-32602 Invalid params: ...`. */
export function paramsProblem(m: unknown): string | undefined {
  const params = (m as { params?: unknown }).params;
  if (params === undefined) return undefined;
  if (Array.isArray(params)) return `params: must be an object (got ${inputText(params)})`;
  const meta = (params as { _meta?: unknown })._meta;
  if (meta === undefined) return undefined;
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return `params._meta: must be an object (got ${inputText(meta)})`;
  const token = (meta as { progressToken?: unknown }).progressToken;
  if (typeof token === "number" && inexact(token)) {
    return `params._meta.progressToken: must be a string or an integer from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER} (got a number past that, which cannot be echoed exactly)`;
  }
  if (token !== undefined && typeof token !== "string" && (typeof token !== "number" || !Number.isInteger(token))) {
    return `params._meta.progressToken: must be a string or an integer (got ${inputText(token)})`;
  }
  return undefined;
}

/**
 * A number JSON.parse could not read exactly: an integer past 2^53 - 1 (`12345678901234567890`
 * reads as ...000) or one out of a double's range (`1e400` reads as Infinity). Echoed as read, the
 * client's id came back changed, as a float (issue 25); a fraction (`1.5`) is another problem.
 */
function inexact(n: number): boolean {
  return !Number.isFinite(n) || (Number.isInteger(n) && !Number.isSafeInteger(n));
}

/**
 * What the SDK's schema refuses in a message the checks above let through (its objects are strict:
 * a member JSON-RPC does not name, `{"jsonrpc":"2.0","id":1,"method":"ping","x":1}`), in the words
 * the stdio guard answers with; the SDK's HTTP transport called such a message unparseable (-32700).
 */
export function schemaProblem(m: unknown): string | undefined {
  if (plainRequest(m)) return undefined;
  try {
    parseJSONRPCMessage(m);
    return undefined;
  } catch {
    return "Bad Request: the request body is not a valid JSON-RPC message";
  }
}

/** The members of a JSON-RPC request or notification (the SDK's schemas for them are strict). */
const REQUEST_MEMBERS: ReadonlySet<string> = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * Whether the SDK's schema surely takes `m`, judged without it: a request or notification with
 * no member but JSON-RPC's, `"2.0"`, a string or safe-integer id if any, a string method, and
 * params absent or an object whose `_meta`, if any, is an object with no progress token but a
 * string or safe integer and no related task (which the schema would look into). The SDK's
 * `JSONRPCRequestSchema` and `JSONRPCNotificationSchema` check no more of such a message (params
 * are a loose object), and running its zod union over every call was 1.3% of a worker's CPU
 * under search calls (issue 23). Anything else is left to the schema.
 */
function plainRequest(m: unknown): boolean {
  if (!isObject(m)) return false;
  const o = m as Record<string, unknown>;
  for (const k in o) if (!REQUEST_MEMBERS.has(k)) return false;
  if (o.jsonrpc !== "2.0" || typeof o.method !== "string") return false;
  if ("id" in o && typeof o.id !== "string" && !Number.isSafeInteger(o.id)) return false;
  const params = o.params;
  if (params === undefined) return !("params" in o);
  if (!isObject(params)) return false;
  const meta = (params as { _meta?: unknown })._meta;
  if (meta === undefined) return !("_meta" in params);
  if (!isObject(meta)) return false;
  const token = (meta as { progressToken?: unknown }).progressToken;
  if (token === undefined ? "progressToken" in meta : typeof token !== "string" && !Number.isSafeInteger(token)) return false;
  return !(RELATED_TASK_META_KEY in meta);
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
