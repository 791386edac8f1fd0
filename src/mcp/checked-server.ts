import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/core";
import { type JSONRPCRequest, type Result, Server, type ServerContext } from "@modelcontextprotocol/server";
import { z } from "zod";
import { describeParamsIssues, inputText, invalidParams } from "./issues.js";

/** `tools/call` as we check it: `arguments` is the tool's to judge, so an array is named (`must be an object`). */
const CallToolRequest = CallToolRequestSchema.extend({
  params: CallToolRequestSchema.shape.params.extend({ arguments: z.unknown().optional() }),
});

/**
 * The request schemas our checks apply, by method (the SDK registers `initialize` and
 * `logging/setLevel` itself; 2026-07-28's `server/discover` and `subscriptions/listen` take no
 * params of their own beyond `_meta`, which the SDK checks as the request envelope).
 */
const CHECKED: Readonly<Record<string, z.ZodType>> = {
  initialize: InitializeRequestSchema,
  "logging/setLevel": SetLevelRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequest,
  "resources/list": ListResourcesRequestSchema,
  "resources/templates/list": ListResourceTemplatesRequestSchema,
  "resources/read": ReadResourceRequestSchema,
};

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The SDK's low-level `Server`, with odd `params` named: a number for `cursor`, an array for
 * `arguments`, an unknown log level is an InvalidParams error naming the member (`Invalid params
 * for tools/list: cursor: must be a string (got 5)`), where the SDK answers with its schema's
 * messages, written for programmers (or -32603 for a handler registered by method).
 * `_wrapHandler` is the SDK's hook around every stored handler, its own (`initialize`,
 * `logging/setLevel`) included. The SDK checks every request against its schema before the
 * handler runs; our schema (the same protocol schema, with `arguments` left to the tool) is
 * consulted only when the request failed, to say what is wrong: a well-formed request is
 * checked once, not twice (this is on the path of every call). A non-object `arguments` and a
 * `task` the server does not support are named before the SDK looks.
 */
export class CheckedServer extends Server {
  /**
   * The SDK's close makes a "Connection closed" error for requests still waiting on the
   * client, whether or not any are. A 2026-07-28 server closes after every exchange, and none
   * of ours ever waits on the client (no sampling, no elicitation): capturing that error's
   * stack was the largest single cost of a stateless call (bench `protocol`).
   */
  protected override _onclose(): void {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super._onclose();
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const inner = super._wrapHandler(method, handler);
    // Looked up from a constant table: `Server`'s constructor registers its handlers (and so
    // calls this) before any field of a subclass exists.
    const schema = CHECKED[method];
    if (schema === undefined) return inner;
    return async (request, ctx) => {
      const params = (request.params ?? {}) as Record<string, unknown>;
      if (isObject(params)) {
        // A well-formed task request is refused by name; a malformed `task` is the schema's to describe.
        if (isObject(params.task)) throw invalidParams(`Invalid params for ${method}: task: this server does not run requests as tasks`);
        if (method === "tools/call") refuseNonObjectArguments(params);
      }
      try {
        return await inner(request, ctx);
      } catch (error) {
        // The SDK refused the request (or a handler failed): if the request is malformed, say how.
        const parsed = schema.safeParse(request, { reportInput: true });
        if (!parsed.success) throw invalidParams(`Invalid params for ${method}: ${describeParamsIssues(parsed.error)}`);
        throw error;
      }
    };
  }
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Absent is no arguments; anything but an object (null, an array, a string) is named before the SDK's own check, which would say less. */
function refuseNonObjectArguments(params: Record<string, unknown>): void {
  const args = params.arguments;
  if (args === undefined || (typeof args === "object" && args !== null && !Array.isArray(args))) return;
  throw invalidParams(`Invalid arguments for ${String(params.name)}: arguments: must be an object (got ${inputText(args)})`);
}
