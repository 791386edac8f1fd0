import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { type AnyObjectSchema, type SchemaOutput, getLiteralValue, getObjectShape } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { Protocol, type RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Notification, Request, Result, ServerNotification, ServerRequest, ServerResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { describeParamsIssues, invalidParams } from "./issues.js";

/** What `Server` (with its default type parameters) hands a handler besides the request. */
type Extra = RequestHandlerExtra<ServerRequest | Request, ServerNotification | Notification>;

/**
 * The SDK's low-level `Server`, with every request's `params` checked before its handler runs:
 * odd input (a number for `cursor`, an array for `arguments`, an unknown log level) is an
 * InvalidParams error naming the member (`Invalid params for tools/list: cursor: must be a
 * string (got 5)`), where the SDK answers -32603 with a raw zod dump. This covers the SDK's own
 * handlers too (`initialize`, `logging/setLevel`): its constructors register them through this
 * method. A `task` the server does not support is InvalidParams too.
 *
 * Handlers are installed with `Protocol`'s method, past `Server`'s: for `tools/call` that one
 * checks the request against the SDK's schema before anything of ours runs (so an array
 * `arguments` could never be named), and checks results for tasks, which we do not offer.
 */
export class CheckedServer extends Server {
  override setRequestHandler<T extends AnyObjectSchema>(schema: T, handler: (request: SchemaOutput<T>, extra: Extra) => ServerResult | Result | Promise<ServerResult | Result>): void {
    const literal = getObjectShape(schema)?.method;
    const method = literal !== undefined ? getLiteralValue(literal) : undefined;
    if (typeof method !== "string") throw new Error("a request schema needs a method literal");
    const loose = z.looseObject({ method: z.literal(method) });
    const check = schema as unknown as z.ZodType<SchemaOutput<T>>;
    Protocol.prototype.setRequestHandler.call(this, loose, (request: unknown, extra: Extra) => {
      const parsed = check.safeParse(request, { reportInput: true });
      if (!parsed.success) throw invalidParams(`Invalid params for ${method}: ${describeParamsIssues(parsed.error)}`);
      return handler(parsed.data, extra);
    });
  }

  /** A request that asks to run as a task (`params.task`) is the caller's mistake here, not ours. */
  protected override assertTaskHandlerCapability(method: string): void {
    try {
      super.assertTaskHandlerCapability(method);
    } catch {
      throw invalidParams(`Invalid params for ${method}: task: this server does not run requests as tasks`);
    }
  }
}
