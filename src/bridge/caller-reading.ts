import type { Socket } from "node:net";

/**
 * Which connections the server reads now, per caller (an address, an IPv6 /64: `callerAddress`).
 *
 * The server's one thread reads every connection that has bytes waiting, in the order they
 * became ready, before it runs anything else: each request read is parsed, routed and queued
 * (or refused) at once. A caller opening 150 connections, each with a search, put 150 requests
 * ahead of another caller's: a `GET /.well-known/mcp.json` waited 1-3.7 s behind them, though
 * the searches themselves take turns (`CallerTurns`) and a caller's eighth waiting one is
 * refused (issue 25). So a new connection is accepted paused (nothing read from it) and read
 * only while its caller has fewer than `limit` connections being read or answered; the others
 * wait their turn in the kernel, unread, in the order they came, and cost the thread nothing.
 * A caller with nothing in flight is read at once, whatever others have waiting.
 *
 * A connection counts from the moment it is read until its request is answered (or it
 * closes); a kept-alive connection then counts again only while its next request is answered
 * (such a request was read without waiting: the bound is on connections opened, as floods
 * open them, and a caller's keep-alive connections are bounded by `CallerConnections`). One
 * whose request has not come two turns of the event loop after it was read (a browser's
 * speculative connection, a client still to send) gives its place back, and counts again when
 * its request comes: a request already sent is read within a turn, and idle connections must
 * not hold their caller's others unread until `firstRequestMs` closes them.
 */
export class CallerReading {
  /** Per caller: connections counted now. */
  private readonly reading = new Map<string, number>();
  /** Per caller: connections accepted and not read yet, oldest first. */
  private readonly waiting = new Map<string, Socket[]>();
  /** Connections counted now, and whose. */
  private readonly counted = new WeakMap<Socket, string>();
  /** Connections with a request read since they were counted. */
  private readonly spoke = new WeakSet<Socket>();

  /** `read(socket)` starts reading a socket admitted (once, when its turn comes). */
  constructor(
    readonly limit: number,
    private readonly read: (socket: Socket) => void,
  ) {}

  /** A connection accepted paused: read now if its caller may, else when its turn comes (or never, if it closes first). */
  admit(socket: Socket, caller: string): void {
    socket.once("close", () => this.closed(socket, caller));
    if ((this.reading.get(caller) ?? 0) < this.limit) {
      this.start(socket, caller);
      return;
    }
    const queue = this.waiting.get(caller);
    if (queue === undefined) this.waiting.set(caller, [socket]);
    else queue.push(socket);
  }

  /** A request arrived on `socket` (read at admission or a kept-alive one): it counts until answered. */
  requested(socket: Socket, caller: string): void {
    this.spoke.add(socket);
    if (!this.counted.has(socket)) this.count(socket, caller);
  }

  /** The request on `socket` is answered (or abandoned): the caller's next waiting connection may be read. */
  answered(socket: Socket): void {
    const caller = this.counted.get(socket);
    if (caller === undefined) return;
    this.counted.delete(socket);
    this.release(caller);
  }

  /** Connections of `caller` counted now (for tests). */
  readingBy(caller: string): number {
    return this.reading.get(caller) ?? 0;
  }

  /** Connections of `caller` waiting to be read (for tests). */
  waitingBy(caller: string): number {
    return this.waiting.get(caller)?.length ?? 0;
  }

  /** Read `socket` now, counted; if no request has come two turns later, its place is given back. */
  private start(socket: Socket, caller: string): void {
    this.count(socket, caller);
    this.read(socket);
    setImmediate(() =>
      setImmediate(() => {
        if (!this.spoke.has(socket)) this.answered(socket);
      }),
    );
  }

  private count(socket: Socket, caller: string): void {
    this.counted.set(socket, caller);
    this.reading.set(caller, (this.reading.get(caller) ?? 0) + 1);
  }

  private closed(socket: Socket, caller: string): void {
    if (this.counted.has(socket)) {
      this.answered(socket);
      return;
    }
    // Still waiting (a socket read nothing from sees its client's hang-up only when read, but a
    // reset or our own timer closes it): it leaves the queue.
    const queue = this.waiting.get(caller);
    const at = queue?.indexOf(socket) ?? -1;
    if (queue === undefined || at === -1) return;
    queue.splice(at, 1);
    if (queue.length === 0) this.waiting.delete(caller);
  }

  /** One of `caller`'s counted connections is done: read its oldest waiting one, if any. */
  private release(caller: string): void {
    const mine = (this.reading.get(caller) ?? 1) - 1;
    if (mine <= 0) this.reading.delete(caller);
    else this.reading.set(caller, mine);
    const queue = this.waiting.get(caller);
    while (queue !== undefined && queue.length > 0 && (this.reading.get(caller) ?? 0) < this.limit) {
      const next = queue.shift()!;
      if (queue.length === 0) this.waiting.delete(caller);
      if (next.destroyed) continue;
      this.start(next, caller);
    }
  }
}
