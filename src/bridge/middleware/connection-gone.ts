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
  const stop = watchEnd(socket, onEnd);
  // A kept-alive connection serves many requests: each stops listening once answered.
  outgoing.once("close", () => {
    stop();
    // As the library aborts its own signal: the request failed, or its answer was cut short.
    if (incoming?.errored || !outgoing.writableFinished) ended.abort(CONNECTION_GONE);
  });
  return ended.signal;
}

/** The requests in flight on each socket that want to hear of its end. */
const watchers = new WeakMap<ConnectionEnd, Set<() => void>>();

/**
 * Call `onEnd` when `socket` ends or closes; the returned function stops that. A socket gets one
 * pair of listeners whatever its requests: a client pipelining a dozen requests on a connection
 * added a pair each, and Node warned of a listener leak on stderr at the eleventh (adversary
 * round 27).
 */
function watchEnd(socket: ConnectionEnd, onEnd: () => void): () => void {
  let set = watchers.get(socket);
  if (set === undefined) {
    const waiting = new Set<() => void>();
    set = waiting;
    watchers.set(socket, waiting);
    const fire = (): void => {
      if (watchers.get(socket) !== waiting) return;
      watchers.delete(socket);
      for (const listener of waiting) listener();
    };
    socket.once("end", fire);
    socket.once("close", fire);
  }
  const mine = set;
  mine.add(onEnd);
  return () => void mine.delete(onEnd);
}
