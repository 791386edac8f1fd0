import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { JSON_RPC } from "../middleware/http-errors.js";
import type { AuthInfoWithContext } from "../middleware/request-context.js";
import type { CallerLanes } from "./caller-lanes.js";
import { idInUse } from "./session-calls.js";

/** What the runner reports after each message of a batch it ran (tests and the bench watch it). */
export interface BatchStep {
  /** The message's index in its batch. */
  readonly index: number;
  /** Messages in the batch. */
  readonly of: number;
}

/** The charges of one message, or the refusal (a 429) that answers it instead of running it. */
export type MessageCharge<C> = { readonly ok: true; readonly charged: C } | { readonly ok: false; readonly refusal: Response };

export interface BatchRun<C> {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** The POST, for its headers (the SDK checks them for each message alike). */
  readonly request: Request;
  readonly authInfo: AuthInfoWithContext;
  readonly messages: readonly unknown[];
  readonly lanes: CallerLanes;
  /** Whose lane the messages run in (an address, a token's principal). */
  readonly caller: string;
  /** Aborts when the client has gone: no further message starts. */
  readonly gone: AbortSignal | undefined;
  /** Bytes of answers after which no further message starts (`LIMITS.bridge.maxBatchAnswerBytes`). */
  readonly answerBytes: number;
  /** Charge one message as a call of its own (`first`: the request itself was already counted per IP). */
  readonly charge: (message: unknown, first: boolean) => Promise<MessageCharge<C>>;
  /** Give back a message's charges when the transport refused it without running it. */
  readonly settle: (response: Response, charged: C) => Promise<Response>;
  /** A message's answer made without the transport (a plain tool call: `SessionToolCalls`), or undefined when the transport must make it. */
  readonly direct?: ((message: unknown) => Promise<Response | undefined>) | undefined;
  /** The session's running request ids: a message whose id a running request holds is refused, not run (`SessionCalls.claim`). */
  readonly ids?: { claim(id: string | number): boolean; release(id: string | number): void } | undefined;
  readonly observe?: ((step: BatchStep) => void) | undefined;
}

/**
 * A JSON-RPC batch of a 2025 session, run as the calls it holds would be: each message on its
 * own, in the caller's lane (`CallerLanes`), charged against the per-IP limit and the tool limits
 * as a call of its own (the N+1th message past a limit is refused as the N+1th call is, and the
 * messages before it run; a batch none of whose messages ran is answered 429); none starts once the client is gone; and none starts once the answers
 * before it reach `answerBytes` (each request left is answered with an error saying so, and is
 * not run). Handing the batch whole to the SDK ran every message at once, kept on running for a
 * client gone, and built answers of 71 MB (issue 25, adversary F1). The answers keep the order
 * of their requests; a batch of notifications only is answered 202. A message the transport
 * refuses whole (a header it does not take, the session closed meanwhile) ends the batch with
 * that refusal, as the SDK refused a batch whole for it. A plain tool call is answered by the
 * tool directly (`direct`), as it is sent alone, with the same bytes and within the same bounds.
 */
export async function runBatch<C>(run: BatchRun<C>): Promise<Response> {
  // Bytes, as the transport made them and as they are sent: decoding each answer to a string and
  // encoding the whole again cost a fifth more CPU per message than the same calls sent alone.
  const answers: Buffer[] = [];
  let bytes = 0;
  let headers: Headers | undefined;
  /** The first refusal (429) and whether any message ran: a batch refused whole is answered 429, as before. */
  let refusal: Response | undefined;
  let ran = false;
  const of = run.messages.length;
  for (let index = 0; index < of; index++) {
    const message = run.messages[index];
    if (bytes >= run.answerBytes) {
      for (const rest of run.messages.slice(index)) if (isRequest(rest)) answers.push(Buffer.from(overBudget(rest, run.answerBytes)));
      break;
    }
    const id = isRequest(message) ? message.id : undefined;
    if (id !== undefined && run.ids !== undefined && !run.ids.claim(id)) {
      answers.push(Buffer.from(JSON.stringify({ jsonrpc: "2.0", id, error: idInUse(id) })));
      continue;
    }
    let answer: Response | undefined;
    try {
      answer = await run.lanes.run(run.caller, async (): Promise<Response | undefined> => {
        if (run.gone?.aborted === true) return undefined;
        const charge = await run.charge(message, index === 0);
        if (!charge.ok) return charge.refusal;
        const answered = (await run.direct?.(message)) ?? (await run.transport.handleRequest(run.request, { parsedBody: message, authInfo: run.authInfo }));
        const response = await run.settle(answered, charge.charged);
        run.observe?.({ index, of });
        return response;
      });
    } finally {
      if (id !== undefined) run.ids?.release(id);
    }
    // The client has gone: nobody reads what the rest would say.
    if (answer === undefined) return new Response(null, { status: 499 });
    if (answer.status === 202) continue;
    if (answer.status === 429) {
      refusal ??= answer;
      if (isRequest(message)) answers.push(Buffer.from(await answer.arrayBuffer()));
      continue;
    }
    if (!answer.ok) return answer;
    ran = true;
    headers ??= answer.headers;
    const body = Buffer.from(await answer.arrayBuffer());
    bytes += body.length;
    answers.push(body);
  }
  if (!ran && refusal !== undefined) {
    // A batch of responses and notifications has no request to answer in the array, and
    // JSON-RPC forbids an empty one: the refusal alone says why, as a POST's (id null: it
    // answers no request; adversary round 24, F6).
    if (answers.length === 0) {
      const { error } = (await refusal.json()) as { error: unknown };
      const out = new Headers(refusal.headers);
      out.delete("Content-Length");
      return new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error }), { status: 429, headers: out });
    }
    return new Response(arrayOf(answers), { status: 429, headers: refusal.headers });
  }
  if (answers.length === 0) return new Response(null, { status: 202 });
  const out = new Headers(headers);
  out.set("Content-Type", "application/json");
  out.delete("Content-Length");
  return new Response(arrayOf(answers), { status: 200, headers: out });
}

/** The JSON array of `answers` (each one JSON text), as one buffer. */
function arrayOf(answers: readonly Buffer[]): Uint8Array<ArrayBuffer> {
  const parts: Buffer[] = [OPEN];
  answers.forEach((a, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(a);
  });
  parts.push(CLOSE);
  return new Uint8Array(Buffer.concat(parts));
}

const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

/** A request (a method and an id), as opposed to a notification. */
function isRequest(m: unknown): m is { readonly id: string | number } {
  const id = (m as { id?: unknown } | null)?.id;
  return typeof (m as { method?: unknown } | null)?.method === "string" && (typeof id === "string" || typeof id === "number");
}

/** The answer to a request of a batch left unrun because the answers before it reached the budget. */
function overBudget(m: { readonly id: string | number }, limit: number): string {
  const error = {
    code: JSON_RPC.serverError,
    message: `Not run: the answers to this batch's earlier messages reached ${limit} bytes, the most one batch is answered with; send this request again, alone or in a later batch`,
    data: { reason: "batch_answer_too_large", limit },
  };
  return JSON.stringify({ jsonrpc: "2.0", id: m.id, error });
}
