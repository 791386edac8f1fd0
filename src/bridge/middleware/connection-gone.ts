import type { Context } from "hono";

/** The part of the Node request and response `@hono/node-server` passes as `incoming`/`outgoing`. */
interface NodeBindings {
  readonly incoming?: { readonly socket?: ConnectionEnd; readonly errored?: unknown };
  readonly outgoing?: { readonly writableFinished: boolean; once(event: "close", listener: () => void): unknown };
}

/** What is read of the client's socket. */
interface ConnectionEnd {
  readonly readableEnded: boolean;
  readonly destroyed: boolean;
  once(event: "end" | "close", listener: () => void): unknown;
  off(event: "end" | "close", listener: () => void): unknown;
}

/** Why `connectionGone` aborted (the abort reason). */
export const CONNECTION_GONE = "the client closed its connection";

/**
 * A signal that aborts when the request's client has gone: its connection ended, or its answer
 * was closed before it was all written (when the HTTP library aborts its own request signal).
 * Why not that signal: `@hono/node-server` aborts it from the response's `close` event, which
 * Node emits in the event loop's close phase after the socket is torn down, one turn after the
 * client's end of the connection (its FIN) was read; work started in between (a search waiting
 * for the thread starts in the check phase, between the two) ran for a client already gone
 * (issue 25's closing note). The socket's `end` is emitted as the FIN is read. Once it is, the
 * answer can no longer be delivered: this server does not allow half-open connections (Node's
 * default), so it ends its side at once. One controller for both, not the library's signal joined
 * to another with `AbortSignal.any`: making the two and joining them was 2-3% of a worker's CPU
 * per search call under load (issue 23).
 */
export function connectionGone(c: Context): AbortSignal {
  const { incoming, outgoing } = (c.env ?? {}) as NodeBindings;
  const socket = incoming?.socket;
  if (socket === undefined || outgoing === undefined) return c.req.raw.signal;
  const ended = new AbortController();
  if (socket.readableEnded || socket.destroyed) {
    ended.abort(CONNECTION_GONE);
    return ended.signal;
  }
  const onEnd = (): void => ended.abort(CONNECTION_GONE);
  socket.once("end", onEnd);
  socket.once("close", onEnd);
  // A kept-alive connection serves many requests: each stops listening once answered.
  outgoing.once("close", () => {
    socket.off("end", onEnd);
    socket.off("close", onEnd);
    // As the library aborts its own signal: the request failed, or its answer was cut short.
    if (incoming?.errored || !outgoing.writableFinished) ended.abort(CONNECTION_GONE);
  });
  return ended.signal;
}
