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
 * The SDK's low-level `Server`, with every request's `params` checked before anything of the
 * SDK's runs: odd input (a number for `cursor`, an array for `arguments`, an unknown log level)
 * is an InvalidParams error naming the member (`Invalid params for tools/list: cursor: must be a
 * string (got 5)`), where the SDK answers with its schema's messages, written for programmers
 * (or -32603 for a handler registered by method). `_wrapHandler` is the SDK's hook around every
 * stored handler, its own (`initialize`, `logging/setLevel`) included; the check goes outside
 * the SDK's wrapper, so `tools/call`'s own request check never sees an argument we name better.
 * A `task` the server does not support is InvalidParams too.
 */
export class CheckedServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const inner = super._wrapHandler(method, handler);
    // Looked up from a constant table: `Server`'s constructor registers its handlers (and so
    // calls this) before any field of a subclass exists.
    const schema = CHECKED[method];
    if (schema === undefined) return inner;
    return async (request, ctx) => {
      const parsed = schema.safeParse(request, { reportInput: true });
      if (!parsed.success) throw invalidParams(`Invalid params for ${method}: ${describeParamsIssues(parsed.error)}`);
      const params = (request.params ?? {}) as Record<string, unknown>;
      if (params.task !== undefined) throw invalidParams(`Invalid params for ${method}: task: this server does not run requests as tasks`);
      if (method === "tools/call") refuseNonObjectArguments(params);
      return inner(request, ctx);
    };
  }
}

/** Absent is no arguments; anything but an object (null, an array, a string) is named before the SDK's own check, which would say less. */
function refuseNonObjectArguments(params: Record<string, unknown>): void {
  const args = params.arguments;
  if (args === undefined || (typeof args === "object" && args !== null && !Array.isArray(args))) return;
  throw invalidParams(`Invalid arguments for ${String(params.name)}: arguments: must be an object (got ${inputText(args)})`);
}
