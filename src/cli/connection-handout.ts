import { createServer, type Server, Socket } from "node:net";
import type { ConnectionSource } from "../bridge/connection-source.js";
import { LIMITS } from "../limits.js";

/**
 * Which worker the next connection goes to: the one holding the fewest open connections, and
 * among equals the one handed a connection longest ago (so equals take turns). Connections, not
 * requests in flight: an HTTP/1.1 client keeps its connection for many requests (wrk's 32 for
 * the whole run, an agent's for its session), so what a worker will have to answer is the
 * connections it holds; requests in flight are a moment's figure, and counting them would cost
 * two messages a call between the processes.
 */
export class LeastConnections<W> {
  private readonly held = new Map<W, { open: number; handedAt: number }>();
  private handed = 0;
  /**
   * Connections a worker closed to shed its excess (`closed`'s `shed`) whose clients have not
   * reconnected yet: counted in the share, or each shed would lower the share and shed more
   * (11/4 held, share 8: shedding 3 then lowered it to 6, and the reconnections to 9 pushed the
   * other worker over 8). Each new connection is taken for one of them coming back; a client that
   * never comes back leaves the share a little high, which sheds less, never more.
   */
  private returning = 0;

  /** `w` may be handed connections from now (it serves). */
  add(w: W): void {
    if (!this.held.has(w)) this.held.set(w, { open: 0, handedAt: 0 });
  }

  /** `w` is handed no more (it drains, or is gone); what it holds is forgotten. */
  remove(w: W): void {
    this.held.delete(w);
  }

  /** The worker to hand the next connection to, counted as holding it; undefined when none may take one. */
  next(): W | undefined {
    let best: W | undefined;
    let bestHeld: { open: number; handedAt: number } | undefined;
    for (const [w, h] of this.held) {
      if (bestHeld === undefined || h.open < bestHeld.open || (h.open === bestHeld.open && h.handedAt < bestHeld.handedAt)) {
        best = w;
        bestHeld = h;
      }
    }
    if (bestHeld === undefined) return undefined;
    if (this.returning > 0) this.returning--;
    bestHeld.open++;
    bestHeld.handedAt = ++this.handed;
    return best;
  }

  /** `w` no longer holds `n` of the connections it was handed (closed, or given back), `shed` of them closed by it to shed its excess. */
  closed(w: W, n: number, shed = 0): void {
    const h = this.held.get(w);
    if (h === undefined) return;
    h.open = Math.max(0, h.open - n);
    this.returning += Math.min(shed, n);
  }

  /** The open connections of each worker that may be handed more. */
  counts(): number[] {
    return [...this.held.values()].map((h) => h.open);
  }

  /**
   * The most connections a worker should hold: an even share of all open ones, rounded up
   * (Infinity with no worker). The counts it is read from lag behind closes (a worker tells of
   * them a few at a time), never behind hand-outs, so the share is never below the true one: a
   * worker shedding down to it never sheds a connection it should keep.
   */
  share(): number {
    if (this.held.size === 0) return Number.POSITIVE_INFINITY;
    let open = this.returning;
    for (const h of this.held.values()) open += h.open;
    return Math.ceil(open / this.held.size);
  }

  /** The workers that may be handed connections. */
  workers(): IterableIterator<W> {
    return this.held.keys();
  }
}

/** One end of the channel that carries sockets: a cluster `Worker` in the primary, `process` in a worker. */
export interface SocketPort {
  send(message: string, socket: Socket, options: { keepOpen: boolean }, callback: (error: Error | null) => void): unknown;
}

/** What a send on a worker's channel fails with once the worker is dying (the socket was not written). */
const CHANNEL_GONE = new Set(["ERR_IPC_CHANNEL_CLOSED", "EPIPE", "ECONNRESET"]);

/** The message a socket travels with, either way. */
export const CONNECTION_MESSAGE = "svc:conn";

/** What a worker's `listen` ask is answered: the port, or why it could not be opened. */
export type ListenReply = { readonly port: number } | { readonly code: string; readonly message: string };

/**
 * The primary's side of `serve --http --workers N`: it accepts every connection on the port
 * itself (`pauseOnConnect`: nothing is read) and hands each to the worker holding the fewest
 * (`LeastConnections`) over the worker's IPC channel. A worker is handed connections only once
 * it asks (`open`): once its server is made, its index built, its shell ready; never while it
 * loads. The port is opened at the first worker's ask, so it opens when a worker can answer.
 *
 * Why not node:cluster's own hand-out (issue 23): it gives a new connection to whichever worker
 * acknowledged its last one first, so a worker busy with a search while a client opens its
 * connections gets fewer (8 of wrk's 32 against 24), and the other's queue, and tail, grows.
 */
export class ConnectionHandout<W extends SocketPort> {
  private readonly pick = new LeastConnections<W>();
  /** Sockets sent to a worker whose send has not completed: queued behind the last one it has not acknowledged. */
  private readonly inTransit = new Map<W, Set<Socket>>();
  /** Connections accepted while no worker could take one (all restarting), handed to the first that can. */
  private readonly waiting: Socket[] = [];
  /** Workers that drain or are gone: an `open` answered after that does not add them. */
  private readonly stopped = new WeakSet<W>();
  private server: Server | undefined;
  private opened: Promise<ListenReply> | undefined;
  private closed = false;

  private lastAcceptError = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly log: (message: string) => void,
    /** Close this process's copy of a socket once it is written to a worker's channel (tests keep theirs: one process). */
    private readonly release: (socket: Socket) => void = (socket) => socket.destroy(),
    /** Tell worker `w` the most connections it should hold (`LeastConnections.share`), when that changes. */
    private readonly tellShare: (w: W, most: number) => void = () => undefined,
  ) {}

  /** The share each worker was last told. */
  private readonly told = new Map<W, number>();

  /** `w` may take connections from now: the port is opened if it is not yet. */
  async open(w: W): Promise<ListenReply> {
    this.opened ??= this.listen();
    const reply = await this.opened;
    // Its stop came while the port was opening: it is handed nothing.
    if ("port" in reply && !this.closed && !this.stopped.has(w)) {
      this.pick.add(w);
      for (const socket of this.waiting.splice(0)) this.hand(socket);
      this.shareChanged();
    }
    return reply;
  }

  /** `w` drains: it is handed no more. */
  draining(w: W): void {
    this.stopped.add(w);
    this.pick.remove(w);
    this.told.delete(w);
    this.shareChanged();
  }

  /**
   * `w` exited: it is handed no more, and the connections sent to it that it never got (queued
   * behind one it had not acknowledged) go to another worker, untouched. The ones it held are
   * closed with it.
   */
  gone(w: W): void {
    this.draining(w);
    const sockets = this.inTransit.get(w);
    this.inTransit.delete(w);
    for (const socket of sockets ?? []) this.hand(socket);
  }

  /** `w` closed `n` of the connections it was handed, `shed` of them to shed its excess. */
  closedBy(w: W, n: number, shed = 0): void {
    this.pick.closed(w, n, shed);
    this.shareChanged();
  }

  /** `w`, draining, gave back a connection that was on its way to it: another worker takes it. */
  givenBack(w: W, socket: Socket): void {
    stopReading(socket);
    this.pick.closed(w, 1);
    this.hand(socket);
  }

  /** Accept no more: the port is closed, and connections still waiting for a worker are closed. */
  close(): void {
    this.closed = true;
    this.server?.close();
    for (const socket of this.waiting.splice(0)) socket.destroy();
  }

  /** The open connections of each worker being handed connections (tests, the bench's probe). */
  counts(): number[] {
    return this.pick.counts();
  }

  /**
   * Tell each worker its share when it changed. Why (issue 23): the counts lag behind closes, so
   * connections opened just after others closed (a client reconnecting, wrk's next run) can be
   * handed by stale counts, 24 to one worker and 9 to the other, and keep-alive keeps that split
   * for the connections' life. A worker over its share closes connections after their next
   * answer (`Connection: close`); their clients reconnect and are handed to the fewest. Nothing
   * rests on when a report comes: once the counts are true, the split evens out.
   */
  private shareChanged(): void {
    const most = this.pick.share();
    for (const w of this.pick.workers()) {
      if (this.told.get(w) === most) continue;
      this.told.set(w, most);
      this.tellShare(w, most);
    }
  }

  private listen(): Promise<ListenReply> {
    // noDelay as node:http's server sets it on what it accepts (the option stays on the socket when sent).
    const server = createServer({ pauseOnConnect: true, noDelay: true }, (socket) => this.hand(socket));
    this.server = server;
    return new Promise((resolve) => {
      const failed = (error: NodeJS.ErrnoException): void => resolve({ code: error.code ?? "", message: error.message });
      server.once("error", failed);
      server.listen(this.port, this.host, () => {
        server.off("error", failed);
        // Accepting can fail for a while (EMFILE: out of descriptors); the server accepts on.
        server.on("error", (error: NodeJS.ErrnoException) => {
          if (Date.now() - this.lastAcceptError < LIMITS.serve.acceptErrorLogMs) return;
          this.lastAcceptError = Date.now();
          this.log(`warning: accepting a connection failed (${error.code ?? error.message}); said at most once a minute while it lasts`);
        });
        resolve({ port: (server.address() as { port: number }).port });
      });
    });
  }

  private hand(socket: Socket): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    const w = this.pick.next();
    if (w === undefined) {
      // Held for a worker that serves soon; past the bound, closed at once rather than held without end.
      if (this.waiting.length < LIMITS.serve.connectionsWaitingForWorker) this.waiting.push(socket);
      else socket.destroy();
      return;
    }
    this.shareChanged();
    let sent = this.inTransit.get(w);
    if (sent === undefined) this.inTransit.set(w, (sent = new Set()));
    sent.add(socket);
    // Kept open here until it is written to the channel, then closed here: Node's own way (the
    // copy closed when the worker acknowledges it) left a connection open and unanswered in this
    // process when the worker died between the two (adversary round 22); written, the worker's
    // copy is the kernel's, which closes it if the worker dies before reading it.
    w.send(CONNECTION_MESSAGE, socket, { keepOpen: true }, (error) => {
      // Already handed elsewhere (the worker exited first): that hand-over closes this copy.
      if (!sent.delete(socket)) return;
      if (error === null) {
        this.release(socket);
        return;
      }
      this.pick.closed(w, 1);
      const code = (error as NodeJS.ErrnoException).code ?? "";
      const dead = CHANNEL_GONE.has(code);
      // Its channel is gone: the worker is dying, and its exit comes later. Handed nothing more
      // from now: it stayed the pick (its count frozen below the live one's), so the re-hand
      // below picked it again, failed again on the next tick, and so on, and the exit that would
      // remove it was never reached: the primary spun, serving no one, until killed (adversary
      // round 41, F3).
      if (dead) this.draining(w);
      else this.shareChanged();
      // The socket was not written: it is still ours, untouched.
      if (dead) this.hand(socket);
      else socket.destroy();
    });
  }
}

/**
 * A socket that came over the IPC channel, left as node:net's accept leaves one with
 * `pauseOnConnect`: nothing read. Node makes it reading at once (the `net.Socket` it makes from
 * the handle asks for a first read), and node:http feeds what a reading socket gets straight to
 * its parser, which `pause()` alone does not stop: a connection would be read before its
 * caller's turn (http-server.ts). So, before the event loop turns, the handle stops reading and
 * the stream forgets the read it asked for (else `resume()` would never ask again), the state
 * net's own `pauseOnCreate` leaves. Node's internals, for want of a public way: checked by
 * test/bridge/workers-handout.test.ts (a connection read only when resumed).
 */
export function stopReading(socket: Socket): Socket {
  const inside = socket as unknown as { _handle: { reading: boolean; readStop(): number } | null; _readableState: { reading: boolean } };
  if (inside._handle !== null) {
    inside._handle.reading = false;
    inside._handle.readStop();
  }
  inside._readableState.reading = false;
  socket.pause();
  return socket;
}

/** A worker's end of the channel, as it carries sockets (`process` in a worker). */
export interface WorkerChannel {
  readonly connected: boolean;
  send(message: string, socket: Socket, callback: (error: Error | null) => void): unknown;
  on(event: "message", listener: (message: unknown, handle: unknown) => void): unknown;
}

/** A worker's end of the hand-out, with the share its primary tells it (`ConnectionHandout`'s `tellShare`). */
export interface HandedConnections extends ConnectionSource {
  /** The most connections this worker should hold, as the primary counts them now. */
  share(most: number): void;
}

/**
 * A worker's side of the hand-out: the connections its primary hands it, each given to the
 * server with nothing read; `listen` asks to be handed them, `tell` says how many closed (a few
 * at a time: one message for the closes of one turn) and that it drains. A connection that
 * arrives once it drains (sent before the primary knew) is given back, to go to another worker.
 * Held over its share, it closes connections after their next answer (`overShare`): as many as
 * it holds over the share, counting those already on their way out.
 */
export function handedConnections(channel: WorkerChannel, listen: () => Promise<ListenReply>, tell: (news: { t: "closed"; n: number; shed: number } | { t: "draining" }) => void): HandedConnections {
  let take: ((socket: Socket) => void) | undefined;
  let closed = 0;
  let shed = 0;
  let most = Number.POSITIVE_INFINITY;
  const held = new Set<Socket>();
  /** Connections whose answer now being written is their last. */
  const leaving = new Set<Socket>();
  const report = (): void => {
    if (closed > 0 && channel.connected) tell({ t: "closed", n: closed, shed });
    closed = 0;
    shed = 0;
  };
  channel.on("message", (message, handle) => {
    if (message !== CONNECTION_MESSAGE || !(handle instanceof Socket)) return;
    const socket = stopReading(handle);
    if (take === undefined) {
      if (channel.connected) channel.send(CONNECTION_MESSAGE, socket, (error) => error !== null && socket.destroy());
      else socket.destroy();
      return;
    }
    held.add(socket);
    socket.once("close", () => {
      held.delete(socket);
      if (leaving.delete(socket)) shed++;
      if (closed++ === 0) setImmediate(report);
    });
    take(socket);
  });
  return {
    open: async (given) => {
      take = given;
      const reply = await listen();
      if ("port" in reply) return reply.port;
      take = undefined;
      throw Object.assign(new Error(reply.message), { code: reply.code });
    },
    close: () => {
      if (take === undefined) return;
      take = undefined;
      if (channel.connected) tell({ t: "draining" });
    },
    share: (n) => {
      most = n;
    },
    overShare: (socket) => {
      if (leaving.has(socket)) return true;
      if (!held.has(socket) || held.size - leaving.size <= most) return false;
      leaving.add(socket);
      return true;
    },
  };
}
