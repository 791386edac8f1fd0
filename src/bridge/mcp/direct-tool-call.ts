import { type CallToolResult, classifyInboundRequest, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY } from "@modelcontextprotocol/server";
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, type ClientCapabilities } from "@modelcontextprotocol/server";
import { rendersApps } from "../../mcp/ui-extension.js";
import { callTool } from "../../mcp/tool-calls.js";
import { STATELESS_PROTOCOL_VERSIONS } from "../../mcp/protocol-versions.js";
import { serverIdentity } from "../../mcp/server.js";
import type { DocsTool } from "../../mcp/tool.js";
import { answerForm, derivedForm } from "../../engine/use-cases/search-answers.js";
import type { RequestContext } from "../../vfs/request-context.js";
import type { BridgeDeps } from "../context.js";
import type { Endpoint } from "./sessions.js";
import { utf8Of } from "./utf8-of.js";
import { withMember } from "../../objects.js";

/** A 2026-07-28 `tools/call` this module answers: its id, tool and arguments. */
interface DirectCall {
  readonly id: string | number;
  readonly tool: DocsTool;
  readonly name: string;
  readonly args: Record<string, unknown> | undefined;
  /** What the client declared in the request's envelope (MCP Apps change a search's result). */
  readonly capabilities: ClientCapabilities | undefined;
}

/** The `_meta` keys a plain call carries: the per-request envelope, nothing the SDK would act on. */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);

/** The `params` members of a plain call: a task, retry material (`inputResponses`, `requestState`) or anything else is the SDK's. */
const CALL_KEYS: ReadonlySet<string> = new Set(["name", "arguments", "_meta"]);

/**
 * A 2026-07-28 `tools/call` answered by the tool's use case directly, without a server built
 * for the request. The SDK's stateless path (`createMcpHandler`) connects a server to a
 * one-exchange transport, dispatches, and closes it again for every request; on search calls
 * that cost half as much again as the search over a 2025 session (bench `protocol`), and tool
 * calls are nearly all the traffic. Only a call the SDK would serve exactly so is taken here:
 * one request, valid envelope and standard headers (the SDK's own `classifyInboundRequest`
 * judges them), one of our tools by name, arguments absent or an object, no task, no retry
 * material. Anything else (and every other method) goes through the SDK as before. The answer
 * is the SDK's, byte for byte: the tool's result, `resultType`, the server's identity in
 * `_meta` (test/bridge/direct-tool-call.test.ts compares the two paths).
 */
export class DirectToolCalls {
  private readonly verdicts = new ClassificationVerdicts();

  constructor(private readonly deps: BridgeDeps) {}

  /** The answer to `body`, or undefined when the SDK must serve it. */
  async answer(endpoint: Endpoint, request: Request, body: unknown, context: RequestContext): Promise<Response | undefined> {
    const call = this.plainCall(request, body);
    if (call === undefined) return undefined;
    const { deps } = this;
    const state = deps.runtime.readerState(context);
    const apps = deps.apps !== undefined && rendersApps(call.capabilities) ? deps.apps : undefined;
    let bytes: Buffer<ArrayBuffer>;
    try {
      const result = await callTool([call.tool], deps.runtime.names, call.name, call.args, { runtime: deps.runtime, request: context, state, endpoint, signal: context.gone ?? request.signal, ...(apps !== undefined ? { apps } : {}) });
      // As JSON.stringify({ result, jsonrpc, id }) writes it, with the result written once if shared.
      bytes = utf8Of(`{"result":`, resultJson(result, serverIdentity(deps.runtime, deps.version)), `,"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`);
    } catch (error) {
      bytes = thrownAnswer(call.id, error);
    }
    // Bytes, not a string: the HTTP layer copied a string body twice (`utf8Of`).
    return new Response(bytes, { status: 200, headers: { "content-type": "application/json" } });
  }

  private plainCall(request: Request, body: unknown): DirectCall | undefined {
    if (!isPlainObject(body) || body.method !== "tools/call" || !("id" in body)) return undefined;
    const params = body.params;
    if (!isPlainObject(params) || !Object.keys(params).every((k) => CALL_KEYS.has(k))) return undefined;
    const { name, arguments: args, _meta: meta } = params;
    if (typeof name !== "string" || (args !== undefined && !isPlainObject(args))) return undefined;
    if (!isPlainObject(meta) || !Object.keys(meta).every((k) => ENVELOPE_KEYS.has(k))) return undefined;
    const names = this.deps.runtime.names;
    const tool = this.deps.tools.find((t) => t.name(names) === name);
    // An app's own tool for a client without MCP Apps is no tool: the SDK's path says so, naming the tools there are.
    if (tool === undefined || (tool.app === true && !rendersApps(meta[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined))) return undefined;
    const headers = request.headers;
    const protocolVersionHeader = headers.get("mcp-protocol-version") ?? undefined;
    const mcpMethodHeader = headers.get("mcp-method") ?? undefined;
    const mcpNameHeader = headers.get("mcp-name") ?? undefined;
    // The standard headers the SDK requires of a request: present, and naming what the body names.
    if (protocolVersionHeader === undefined || mcpMethodHeader === undefined || (mcpNameHeader === undefined || stripOws(mcpNameHeader) !== name)) return undefined;
    if (!this.verdicts.modernRequest(body, meta, protocolVersionHeader, mcpMethodHeader, mcpNameHeader)) return undefined;
    return { id: body.id as string | number, tool, name, args: args as Record<string, unknown> | undefined, capabilities: meta[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined };
  }
}

/**
 * As the SDK answers a handler that threw, in both generations: the error's own code (else
 * -32603; -32002, resource not found, is sent as -32602 as both revisions' codecs write it), its
 * message, its data.
 */
export function thrownAnswer(id: string | number, error: unknown): Buffer<ArrayBuffer> {
  const e = error as { code?: unknown; message?: string; data?: unknown };
  const thrown = Number.isSafeInteger(e.code) ? (e.code as number) : -32603;
  const code = thrown === -32002 ? -32602 : thrown;
  return Buffer.from(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message: e.message ?? "Internal error", ...(e.data !== undefined ? { data: e.data } : {}) } }), "utf8");
}

/** Verdicts kept: one per distinct envelope and headers, which a client sends alike on every call. */
const MAX_VERDICTS = 256;

/**
 * The SDK's classification of a plain call (`classifyInboundRequest`), kept per what it reads.
 * It runs four zod parses over the whole message on every call (3-5% of a worker's CPU under
 * distinct questions), and what decides its verdict is the same on every call of a client: the
 * message's members (the JSON-RPC schemas are strict), `jsonrpc`, whether the id is a string or
 * a safe integer (`RequestIdSchema`), the method, `params._meta` (the envelope, validated whole)
 * and the three headers. `params` is a loose object whose other members (the tool's name, its
 * arguments) no JSON-RPC schema reads. So the SDK judges, once per such key, a message equal to
 * the call in everything it reads, and the verdict is reused; an id of any other kind is judged
 * on the call itself. The tool's arguments are validated by the tool, as before.
 */
class ClassificationVerdicts {
  private readonly verdicts = new Map<string, boolean>();

  modernRequest(body: Record<string, unknown>, meta: Record<string, unknown>, protocolVersionHeader: string, mcpMethodHeader: string, mcpNameHeader: string): boolean {
    const id = body.id;
    const idKind = typeof id === "string" ? "s" : Number.isSafeInteger(id) ? "i" : undefined;
    if (idKind === undefined) return judged(body, protocolVersionHeader, mcpMethodHeader, mcpNameHeader);
    const key = JSON.stringify([Object.keys(body), body.jsonrpc, idKind, body.method, meta, protocolVersionHeader, mcpMethodHeader, mcpNameHeader]);
    let verdict = this.verdicts.get(key);
    if (verdict === undefined) {
      const alike: Record<string, unknown> = {};
      for (const k of Object.keys(body)) alike[k] = k === "id" ? (idKind === "s" ? "" : 0) : k === "params" ? { _meta: meta } : body[k];
      verdict = judged(alike, protocolVersionHeader, mcpMethodHeader, mcpNameHeader);
      if (this.verdicts.size >= MAX_VERDICTS) this.verdicts.clear();
      this.verdicts.set(key, verdict);
    }
    return verdict;
  }
}

/** Whether the SDK takes `body` for a 2026-07-28 (stateless) request. */
function judged(body: unknown, protocolVersionHeader: string, mcpMethodHeader: string, mcpNameHeader: string): boolean {
  const route = classifyInboundRequest({ httpMethod: "POST", protocolVersionHeader, mcpMethodHeader, mcpNameHeader, body });
  if (route.kind !== "modern" || route.messageKind !== "request") return false;
  const revision = route.classification.revision;
  return revision !== undefined && STATELESS_PROTOCOL_VERSIONS.includes(revision);
}

/**
 * The JSON of a search's tool result, written once per shared result and server identity (a
 * form of the search's answer: `SearchAnswer`): writing an answer of ~11 KB was the largest
 * single cost of a repeated search (a seventh of the worker's CPU in a profile under wrk).
 */
const RESULT_JSON = answerForm<string>("direct call result JSON");

function resultJson(result: CallToolResult, identity: Record<string, unknown>): string {
  return derivedForm(result, RESULT_JSON, JSON.stringify(identity), () => JSON.stringify(encodeResult(result, identity)));
}

/**
 * A tool result as the SDK's 2026-07-28 encoding writes it: `resultType: "complete"` after the
 * result's own members, then the server's identity in `_meta` (kept where the result has its own).
 */
function encodeResult(result: CallToolResult, identity: Record<string, unknown>): Record<string, unknown> {
  const typed: Record<string, unknown> = result.resultType === undefined ? withMember(result, "resultType", "complete") : { ...result };
  const meta = typed._meta;
  if (meta === undefined) return withMember(typed, "_meta", { [SERVER_INFO_META_KEY]: identity });
  if (!isPlainObject(meta) || meta[SERVER_INFO_META_KEY] !== undefined) return typed;
  return withMember(typed, "_meta", withMember(meta, SERVER_INFO_META_KEY, identity));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A header value without the optional whitespace HTTP allows around it (spaces and tabs), as the SDK reads it. */
function stripOws(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, "");
}
