import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * A connection's requests as node:http dispatches them when its client pipelines (sends the
 * next request before the answer to the last), set right where node:http leaves them wrong:
 *
 * - An answer queued behind another gets no `close` when its connection closes before it is
 *   sent, so whatever is counted until an answer's `close` (answers in flight, a caller's held
 *   places and unread bytes) stayed counted for ever: a client pipelining and hanging up leaked
 *   them. Such an answer is given its `close` when its connection closes.
 * - A connection this server ends (`endWith`: `Connection: close` on an answer, as a worker
 *   shedding connections does) still had the requests pipelined after that answer dispatched:
 *   run (a feedback entry stored) and never answered, each counted in flight for ever
 *   (adversary round 33). RFC 9112 section 9.6: a server that sends close must not process a
 *   later request on the connection. They are dropped unprocessed; the client, seeing the
 *   close, sends them again on a new connection. (node:http itself stops after a request that
 *   asked for close: that case never reaches here.)
 */
export class PipelinedAnswers {
  /** The answer each connection ends with, once one is chosen. */
  private readonly last = new WeakMap<Socket, ServerResponse>();
  /** Requests dropped: the other listeners of the request leave them alone too. */
  private readonly dropped = new WeakSet<ServerResponse>();
  /** The answers queued on each connection behind the one being sent. */
  private readonly queued = new WeakMap<Socket, Set<ServerResponse>>();

  /** Whether the request answered by `res` is processed: false when it came after its connection's last answer. Asked first for every request. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    const socket = req.socket;
    const last = this.last.get(socket);
    if (last !== undefined && last !== res) {
      this.dropped.add(res);
      return false;
    }
    // Not given the connection yet: another answer is being sent on it.
    if (res.socket === null) this.closeWithConnection(socket, res);
    return true;
  }

  /** Whether `res` answers a request `admit` dropped. */
  isDropped(res: ServerResponse): boolean {
    return this.dropped.has(res);
  }

  /** `res` is its connection's last answer: it says `Connection: close`, and no request after it is processed. */
  endWith(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader("Connection", "close");
    this.last.set(req.socket, res);
  }

  private closeWithConnection(socket: Socket, res: ServerResponse): void {
    let answers = this.queued.get(socket);
    if (answers === undefined) {
      const mine = new Set<ServerResponse>();
      answers = mine;
      this.queued.set(socket, mine);
      // One listener a connection, however many answers queue on it.
      socket.once("close", () => {
        for (const queued of [...mine]) queued.emit("close");
      });
    }
    answers.add(res);
    res.once("close", () => answers.delete(res));
  }
}
