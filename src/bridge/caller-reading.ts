import type { Socket } from "node:net";

/** How `CallerReading` holds each connection it was given. */
type Held =
  /** Accepted paused, nothing read: waits in its caller's queue for a place. */
  | { readonly state: "waiting"; readonly caller: string; readonly deadline: NodeJS.Timeout }
  /** Read, and holding one of its caller's places (until answered, gone, or found silent). */
  | { readonly state: "counted"; readonly caller: string }
  /** Read, holding no place (answered and kept alive, an event stream, silent). */
  | { readonly state: "free"; readonly caller: string };

/**
 * Which connections the server reads now, per caller (an address, an IPv6 /64: `callerAddress`).
 *
 * A caller's flood of new connections, each with a search, was read ahead of another caller's
 * request, and while its connections waited in the kernel's one queue of connections to accept,
 * another caller's new connection waited at the back of it (issue 25). So connections are
 * accepted paused, and a caller's are read only while it has fewer than `limit` being read or
 * answered; its others wait here, accepted (out of the kernel's shared queue), unread, in order,
 * costing the thread nothing. A caller with nothing in flight is read at once.
 *
 * No connection is left paused: every connection given (`admit`) is either read at once or put
 * in its caller's queue with a deadline; it leaves the queue only by being read, which happens
 * (a) when one of its caller's places is given back (`pump` runs on every change that can free
 * one), (b) at its deadline, whatever the count says, or (c) never, because it closed first (a
 * reset, the server closing it). A place is held by a connection read and not yet answered, and
 * given back on each of: its answer's end (`answered`), its head being an event stream's
 * (`answered`), no request two turns after it was read (a browser's speculative connection), its
 * close (end, error, timeout and destroy all end in `close`). Places are a set of sockets, not a
 * counter, so giving one back twice, or one never taken, changes nothing.
 */
export class CallerReading {
  private readonly held = new WeakMap<Socket, Held>();
  /** Per caller: its connections holding a place now. */
  private readonly places = new Map<string, Set<Socket>>();
  /** Per caller: its connections waiting to be read, oldest first. */
  private readonly queues = new Map<string, Socket[]>();
  /** Connections a request was read on. */
  private readonly spoke = new WeakSet<Socket>();

  /**
   * `read(socket)` starts reading an admitted socket (once). `maxWaitMs`: a connection waits at
   * most this long unread, whatever its caller holds (a backstop: the count is not trusted with a
   * connection's life).
   */
  constructor(
    readonly limit: number,
    private readonly read: (socket: Socket) => void,
    private readonly maxWaitMs: number,
  ) {}

  /** A connection accepted paused: read now if its caller may, else when its turn comes. */
  admit(socket: Socket, caller: string): void {
    socket.once("close", () => this.gone(socket));
    if (this.placesOf(caller) < this.limit) {
      this.start(socket, caller);
      return;
    }
    const deadline = setTimeout(() => this.waitedTooLong(socket), this.maxWaitMs);
    deadline.unref();
    this.held.set(socket, { state: "waiting", caller, deadline });
    const queue = this.queues.get(caller);
    if (queue === undefined) this.queues.set(caller, [socket]);
    else queue.push(socket);
  }

  /** A request was read on `socket`: it holds a place until answered. */
  requested(socket: Socket): void {
    const h = this.held.get(socket);
    if (h === undefined || h.state === "waiting") return;
    this.spoke.add(socket);
    this.held.set(socket, { state: "counted", caller: h.caller });
    this.place(h.caller).add(socket);
  }

  /** The request on `socket` is answered (or its answer is a stream that stays open): its place is given back. */
  answered(socket: Socket): void {
    const h = this.held.get(socket);
    if (h === undefined || h.state !== "counted") return;
    this.held.set(socket, { state: "free", caller: h.caller });
    this.giveBack(socket, h.caller);
  }

  /** Connections of `caller` holding a place (for tests). */
  placesOf(caller: string): number {
    return this.places.get(caller)?.size ?? 0;
  }

  /** Connections of `caller` waiting to be read (for tests). */
  waitingOf(caller: string): number {
    return this.queues.get(caller)?.length ?? 0;
  }

  /** Read `socket` now, holding a place; if no request has come two turns later, the place is given back. */
  private start(socket: Socket, caller: string): void {
    this.held.set(socket, { state: "counted", caller });
    this.place(caller).add(socket);
    this.read(socket);
    // A request already sent is read within a turn; one still to come must not hold its
    // caller's other connections unread (it takes a place again when it comes: `requested`).
    setImmediate(() => setImmediate(() => this.silent(socket)));
  }

  private silent(socket: Socket): void {
    if (!this.spoke.has(socket)) this.answered(socket);
  }

  /** `socket` closed (end, error, timeout, destroy): it leaves its queue, or gives its place back. */
  private gone(socket: Socket): void {
    const h = this.held.get(socket);
    if (h === undefined) return;
    this.held.delete(socket);
    if (h.state === "waiting") {
      clearTimeout(h.deadline);
      this.unqueue(socket, h.caller);
    } else this.giveBack(socket, h.caller);
  }

  /** Waited its longest: read now, past its caller's places. */
  private waitedTooLong(socket: Socket): void {
    const h = this.held.get(socket);
    if (h?.state !== "waiting") return;
    this.unqueue(socket, h.caller);
    this.start(socket, h.caller);
  }

  private giveBack(socket: Socket, caller: string): void {
    const mine = this.places.get(caller);
    if (mine?.delete(socket) !== true) return;
    if (mine.size === 0) this.places.delete(caller);
    this.pump(caller);
  }

  /** Read `caller`'s oldest waiting connections while it has places free. */
  private pump(caller: string): void {
    const queue = this.queues.get(caller);
    while (queue !== undefined && queue.length > 0 && this.placesOf(caller) < this.limit) {
      const next = queue.shift()!;
      if (queue.length === 0) this.queues.delete(caller);
      const h = this.held.get(next);
      if (h?.state !== "waiting") continue;
      clearTimeout(h.deadline);
      this.start(next, caller);
    }
  }

  private unqueue(socket: Socket, caller: string): void {
    const queue = this.queues.get(caller);
    const at = queue?.indexOf(socket) ?? -1;
    if (queue === undefined || at === -1) return;
    queue.splice(at, 1);
    if (queue.length === 0) this.queues.delete(caller);
  }

  private place(caller: string): Set<Socket> {
    let mine = this.places.get(caller);
    if (mine === undefined) this.places.set(caller, (mine = new Set()));
    return mine;
  }
}
