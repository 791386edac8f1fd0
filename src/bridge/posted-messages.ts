import type { IncomingMessage } from "node:http";
import { rawIds } from "../mcp/raw-ids.js";
import { type JsonRpcErrorObject, jsonRpcRefusal } from "./middleware/http-errors.js";

/** What an MCP POST's body held, as the endpoint parsed it. */
interface PostedMessages {
  /** The parsed body: one message or a batch. */
  readonly body: unknown;
  /** Its text, for the ids as the client wrote them (`rawIds`), read only if a refusal needs them. */
  readonly text: string;
}

/** Where the endpoint leaves a POST's parsed body on the Node request it came on. */
const POSTED = Symbol("svc-mcp: the JSON-RPC messages this request posted");

/**
 * Note a POST's parsed JSON-RPC body on its Node request (`@hono/node-server`'s `incoming`;
 * none in-process), so that an answer refused after the route has run (the unread-answer bound,
 * `http-server.ts`) can name the requests it refuses. Kept on the request itself: it lives as
 * long as the request does, and nothing is shared between requests.
 */
export function notePostedMessages(incoming: unknown, body: unknown, text: string): void {
  if (typeof incoming !== "object" || incoming === null) return;
  (incoming as { [POSTED]?: PostedMessages })[POSTED] = { body, text };
}

/**
 * A refusal of the answer to `req` as a JSON-RPC error with the ids of the requests it answers
 * (JSON-RPC 2.0 section 5: a response's id must be its request's; null only when it could not be
 * read, as for a body that is no JSON), or undefined when the request posted no parsed body.
 */
export function refusalOfPosted(req: IncomingMessage, status: number, error: JsonRpcErrorObject, headers: Record<string, string>): Response | undefined {
  const posted = (req as { [POSTED]?: PostedMessages })[POSTED];
  if (posted === undefined) return undefined;
  return jsonRpcRefusal(status, posted.body, error, { headers, rawIds: rawIds(posted.text) });
}
