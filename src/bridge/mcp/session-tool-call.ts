import { rendersApps } from "../../mcp/ui-extension.js";
import { callTool } from "../../mcp/tool-calls.js";
import type { DocsTool } from "../../mcp/tool.js";
import { answerForm, derivedForm } from "../../engine/use-cases/search-answers.js";
import type { RequestContext } from "../../vfs/request-context.js";
import type { BridgeDeps } from "../context.js";
import { thrownAnswer } from "./direct-tool-call.js";
import type { Session } from "./sessions.js";
import { utf8Of } from "./utf8-of.js";

/** A session's `tools/call` this module answers: its id, tool and arguments. */
interface SessionCall {
  readonly id: string | number;
  readonly tool: DocsTool;
  readonly name: string;
  readonly args: Record<string, unknown> | undefined;
}

/** The members of a plain JSON-RPC request (the SDK's message schemas are strict: any other is its to refuse). */
const REQUEST_KEYS: ReadonlySet<string> = new Set(["jsonrpc", "id", "method", "params"]);

/** The `params` members of a plain call: `_meta` (a progress token...), a task or anything else is the SDK's. */
const CALL_KEYS: ReadonlySet<string> = new Set(["name", "arguments"]);

/**
 * A 2025 session's `tools/call` answered by the tool's use case directly, without the session's
 * SDK transport and server. The SDK's path parses the message with its JSON-RPC schemas four
 * times over, validates the request and then the tool's result (the whole ~11 KB search answer)
 * with zod, keeps per-request stream tables and writes the answer with `Response.json`: a 2025
 * session call cost ~0.19 ms more server CPU than a 2026-07-28 call answered by
 * `DirectToolCalls` (issue 23: 0.89 against 0.70 ms). Only a call the SDK would serve exactly so
 * is taken here: one request with a string or safe-integer id and no other member, params of a
 * name and (absent or object) arguments only, one of our tools by name (an app's tool only for a
 * session whose client renders MCP Apps), the Accept header the transport requires, and no
 * `MCP-Protocol-Version` header or the session's own. Anything else goes through the SDK as
 * before. The answer is the SDK's, byte for byte: `{"result":...,"jsonrpc":"2.0","id":...}`, the
 * result as the tool gave it, with the session's id header (test/bridge/session-tool-call.test.ts
 * compares the two paths). The call's signal is aborted as the SDK's would be: by the client's
 * `notifications/cancelled`, the session's end (`SessionCalls`), or the client hanging up.
 */
export class SessionToolCalls {
  constructor(private readonly deps: BridgeDeps) {}

  /** The answer to `body` on `session`, or undefined when the SDK must serve it. */
  async answer(session: Session, request: Request, body: unknown, context: RequestContext): Promise<Response | undefined> {
    const apps = this.deps.apps !== undefined && rendersApps(session.server.server.getClientCapabilities()) ? this.deps.apps : undefined;
    const call = this.plainCall(session, request, body, apps !== undefined);
    if (call === undefined || !session.calls.open) return undefined;
    const { deps } = this;
    const state = deps.runtime.readerState(context);
    const controller = session.calls.start(call.id);
    const gone = context.gone ?? request.signal;
    // The client's hang-up aborts the call's own controller, with its reason, as
    // `AbortSignal.any([controller.signal, gone])` did: making a third signal and joining the two
    // was 0.9% of a worker's CPU per session call (issue 23).
    const hangUp = (): void => controller.abort(gone.reason);
    if (gone.aborted) hangUp();
    else gone.addEventListener("abort", hangUp, { once: true });
    let bytes: Buffer<ArrayBuffer>;
    try {
      const signal = controller.signal;
      const result = await callTool([call.tool], deps.runtime.names, call.name, call.args, { runtime: deps.runtime, request: context, state, endpoint: session.endpoint, signal, ...(apps !== undefined ? { apps } : {}) });
      // As JSON.stringify({ result, jsonrpc, id }) writes it, with the result written once if shared.
      bytes = utf8Of(`{"result":`, derivedForm(result, RESULT_JSON, "", () => JSON.stringify(result)), `,"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`);
    } catch (error) {
      bytes = thrownAnswer(call.id, error);
    } finally {
      gone.removeEventListener("abort", hangUp);
      session.calls.end(call.id, controller);
    }
    // Bytes, not a string: the HTTP layer copied a string body twice (`utf8Of`).
    return new Response(bytes, { status: 200, headers: { "content-type": "application/json", "mcp-session-id": session.id } });
  }

  private plainCall(session: Session, request: Request, body: unknown, rendersAppsHere: boolean): SessionCall | undefined {
    if (!isPlainObject(body) || body.jsonrpc !== "2.0" || body.method !== "tools/call" || !Object.keys(body).every((k) => REQUEST_KEYS.has(k))) return undefined;
    const id = body.id;
    if (typeof id !== "string" && !Number.isSafeInteger(id)) return undefined;
    const params = body.params;
    if (!isPlainObject(params) || !Object.keys(params).every((k) => CALL_KEYS.has(k))) return undefined;
    const { name, arguments: args } = params;
    if (typeof name !== "string" || (args !== undefined && !isPlainObject(args))) return undefined;
    const names = this.deps.runtime.names;
    const tool = this.deps.tools.find((t) => t.name(names) === name);
    // An app's own tool for a client without MCP Apps is no tool: the SDK's path says so, naming the tools there are.
    if (tool === undefined || (tool.app === true && !rendersAppsHere)) return undefined;
    // The transport's own checks of the request: both answer forms accepted, a version it serves.
    const headers = request.headers;
    const accept = headers.get("accept");
    if (accept === null || !accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
    const version = session.server.server.getNegotiatedProtocolVersion();
    const named = headers.get("mcp-protocol-version");
    if (version === undefined || (named !== null && named !== version)) return undefined;
    return { id: id as string | number, tool, name, args: args as Record<string, unknown> | undefined };
  }
}

/**
 * The JSON of a search's tool result, written once per shared result (a form of the search's
 * answer: `SearchAnswer`), as `DirectToolCalls` writes the 2026-07-28 one.
 */
const RESULT_JSON = answerForm<string>("session call result JSON");

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
