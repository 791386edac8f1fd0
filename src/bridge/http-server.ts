import { createServer, type IncomingMessage, maxHeaderSize, type Server, ServerResponse, STATUS_CODES } from "node:http";
import { LIMITS } from "../limits.js";
import type { AddressInfo, Socket } from "node:net";
import { getRequestListener, RequestError } from "@hono/node-server";
import type { Bridge } from "./bridge.js";
import type { CallerTurns } from "../engine/search/caller-turns.js";
import { JSON_RPC, apiErrorResponse } from "./middleware/http-errors.js";
import { refusalOfPosted } from "./posted-messages.js";
import { errorForPath } from "./middleware/origin-policy.js";
import { PATHS } from "./urls.js";
import { CallerAnswerBytes } from "./caller-answer-bytes.js";
import { CallerConnections } from "./caller-connections.js";
import { PipelinedAnswers } from "./pipelined-answers.js";
import { CallerReading } from "./caller-reading.js";
import { ConnectionCap } from "./connection-cap.js";
import type { ConnectionSource } from "./connection-source.js";
import { clientAddress } from "./context.js";
import { type IdleCandidate, IdleConnections } from "./idle-connections.js";
import { callerAddress } from "./middleware/caller-address.js";
import { shedRank } from "./shed-rank.js";

export interface RunningServer {
  /** `http://host:port` as bound (the real port when 0 was asked for). */
  readonly origin: string;
  readonly port: number;
  /** Requests being answered now (open notification streams not counted: they never end by themselves). */
  readonly inFlight: () => number;
  /**
   * Drain and stop: accept no more connections, let the requests being answered finish (up to
   * `LIMITS.bridge.drainMs`), then end open notification streams and sessions, and wait until
   * the socket is closed.
   */
  readonly close: () => Promise<void>;
}

/** Where and how `listen` serves; the bounds default to `LIMITS.bridge` (tests give small ones). */
export interface ListenOptions {
  readonly host: string;
  readonly port: number;
  readonly firstRequestMs?: number;
  readonly maxConnectionsPerCaller?: number;
  readonly maxConnectionsReadPerCaller?: number;
  readonly stalledWriteMs?: number;
  /** The least average rate, in bytes per second, a client must take an answer handed whole at (`LIMITS.bridge.answerMinBytesPerSec`). */
  readonly answerMinBytesPerSec?: number;
  /** How long a client has, besides a second per `answerMinBytesPerSec` bytes, to take an answer handed whole (`stalledWriteMs` unless given). */
  readonly slowAnswerGraceMs?: number;
  /** Bytes of a caller's answers not yet taken past which its next answer is refused (`LIMITS.bridge.maxUnreadAnswerBytesPerCaller`). */
  readonly maxUnreadAnswerBytesPerCaller?: number;
  /** The process's bound on open connections and its reserves (`ConnectionCap`); `--max-connections` sets the first. */
  readonly maxConnections?: number;
  readonly newcomerReserve?: number;
  readonly signedInReserve?: number;
  /** Open listen streams at most (`QuietStreams`); half of `maxConnections` unless given. */
  readonly maxQuietStreams?: number;
  /** Whether a connection finding no place may take an idle keep-alive connection's, or a silent one's (`IdleConnections`); true unless false (the bound's own tests, which fill it with such connections). */
  readonly shedIdle?: boolean;
  readonly maxRefusedWaiting?: number;
  /** How long a refused connection has, in all, to send the request it is told why on. */
  readonly refusedRequestMs?: number;
  /** How long a request's headers and body have to arrive from its first byte (`LIMITS.bridge.requestMs`). */
  readonly requestMs?: number;
  /** Connections another process accepts and hands over (a worker of `--workers N`); else this server binds `host:port` itself. */
  readonly connections?: ConnectionSource;
}

/** Serve a bridge on a real socket. Rejects with a clear message when the port is taken. */
// long: the bounds on connections (per caller, per process, read at once) and the drain share the server's events and counts; split, each would take them all
export function listen(bridge: Bridge, options: ListenOptions): Promise<RunningServer> {
  // long: as `listen`, whose body it is
  return new Promise((resolve, reject) => {
    const answer = getRequestListener(bridge.app.fetch, { hostname: options.host, errorHandler: answerUnreadableRequest });
    const held = new CallerConnections(options.maxConnectionsPerCaller ?? LIMITS.bridge.maxConnectionsPerCaller);
    /** Connections opened past their caller's bound: their request is answered 429. */
    const refused = new WeakSet<Socket>();
    const cap = connectionCap(options);
    /** Connections opened past the process's bound: their request is answered 503 (`busy.size` bounds how many wait for it). */
    const busy = new Set<Socket>();
    const maxRefusedWaiting = options.maxRefusedWaiting ?? LIMITS.bridge.maxRefusedWaiting;
    const refusedRequestMs = options.refusedRequestMs ?? LIMITS.bridge.refusedRequestMs;
    const firstRequestMs = options.firstRequestMs ?? LIMITS.bridge.firstRequestMs;
    const reading = callerReading(options, firstRequestMs);
    const unread = new CallerAnswerBytes(options.maxUnreadAnswerBytesPerCaller ?? LIMITS.bridge.maxUnreadAnswerBytesPerCaller);
    const requestMs = options.requestMs ?? LIMITS.bridge.requestMs;
    /** What gives back a connection's place (behind a trusted proxy, a request's), once. */
    const places = new WeakMap<Socket | ServerResponse, () => void>();
    const idle = new IdleConnections();
    /** Connections admitted that have sent no request yet (`IdleConnections`): taken only for another network's newcomer. */
    const silent = new IdleConnections();
    /** The order connections went quiet in (idle, or opened silent): the one quiet the longest is taken first. */
    let quietOrder = 0;
    /**
     * A caller finding no place takes one, if `shedRank` finds whose: the oldest listen stream
     * of the caller ranked first, or its idle keep-alive connection quiet the longest, or (only
     * for a caller of another network) its oldest connection that sent no request yet;
     * a stream before a connection of the same rank, as before networks were counted. Not for
     * one its own bound will refuse anyway: nothing is shed for a refusal.
     */
    const shedFor = (caller: string): boolean => {
      if (held.heldBy(caller) >= held.limit) return false;
      const rank = shedRank(caller, held);
      const stream = bridge.quietStreams.candidate(rank);
      const byConnection = !bridge.trustProxy && options.shedIdle !== false;
      const idleOne = byConnection ? idle.candidate(rank) : undefined;
      const silentOne = byConnection ? silent.candidate(shedRank(caller, held, false)) : undefined;
      const connection = firstRanked(idleOne, silentOne);
      if (stream !== undefined && (connection === undefined || stream.rank >= connection.rank)) {
        bridge.quietStreams.shedOldest(stream.caller);
        return true;
      }
      if (connection === undefined) return false;
      const socket = (connection === idleOne ? idle : silent).take(connection.caller);
      if (socket === undefined) return false;
      places.get(socket)?.();
      socket.destroy();
      return true;
    };
    bridge.quietStreams.serveWith(options.maxQuietStreams ?? quietShare(cap.limit), (res) => shedConnection(res, places, bridge.trustProxy, refusedRequestMs));
    // Node checks these deadlines every `connectionsCheckingInterval` (30 s by default, so a
    // request was cut up to 30 s late): every tenth of the deadline, so at most 10% late. The
    // headers' own deadline is the request's: they are part of it. (Node 20 starts both at a
    // request's first byte, so an idle keep-alive connection is not cut by them.)
    const pipelined = new PipelinedAnswers();
    const deadlines = { requestTimeout: requestMs, headersTimeout: requestMs, connectionsCheckingInterval: Math.max(1, Math.ceil(requestMs / 10)) };
    // Node answers an HTTP/1.1 request without `Host` itself, with an empty 400 (adversary round 60
    // F4): it is left to `answerMissingHost`, which says why in the path's error shape.
    const server = createServer({ ...deadlines, requireHostHeader: false }, (req, res) => {
      if (!pipelined.admit(req, res)) return;
      if (missingHost(req)) return answerMissingHost(req, res);
      // Over this worker's share of the connections: this answer is the connection's last (connection-source.ts).
      if (options.connections?.overShare?.(req.socket) === true) pipelined.endWith(req, res);
      if (busy.has(req.socket)) return refuseBusy(req, res, cap.limit, bridge.trustProxy);
      if (refused.has(req.socket)) return refuseConnection(req, res, held.limit, bridge.trustProxy);
      if (!bridge.trustProxy) {
        const socket = req.socket;
        const caller = requestCaller(req, false);
        reading.requested(socket);
        idle.busy(caller, socket);
        silent.busy(caller, socket);
        res.once("close", () => reading.answered(socket));
        // Written whole and kept alive: idle until its next request (a stream never finishes).
        res.once("finish", () => idle.idle(caller, socket, quietOrder++));
      }
      if (bridge.trustProxy) {
        // Every connection is the proxy's: the caller is known by request, and what it holds is
        // its requests being answered (each on one of the proxy's connections to us).
        const caller = requestCaller(req, true);
        if (!admitted(cap, held, bridge, caller, shedFor)) return refuseBusy(req, res, cap.limit, true);
        if (!held.take(caller)) return refuseConnection(req, res, held.limit, true);
        cap.take();
        const giveBack = once(() => {
          held.release(caller);
          cap.release();
        });
        places.set(res, giveBack);
        res.once("close", giveBack);
      }
      void answer(req, res);
    });
    const onError = (error: NodeJS.ErrnoException): void => {
      const why = error.code === "EADDRINUSE" ? `port ${options.port} is already in use` : error.code === "EACCES" ? `no permission to listen on port ${options.port}` : error.message;
      reject(new Error(`cannot listen on ${options.host}:${options.port}: ${why}`));
    };
    const active = new Set<ServerResponse>();
    /** Answers that are event streams (sessions' GET, `subscriptions/listen`): they never end by themselves. */
    const streams = new WeakSet<ServerResponse>();
    let drained: (() => void) | undefined;
    // Answers still to come; an open notification stream is not waited for.
    const pending = (): number => [...active].filter((res) => !streams.has(res)).length;
    const stalledWriteMs = options.stalledWriteMs ?? LIMITS.bridge.stalledWriteMs;
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      if (pipelined.isDropped(res)) return;
      active.add(res);
      const caller = requestCaller(req, bridge.trustProxy);
      unread.track(res, caller);
      // The content type is read as the head is written: @hono/node-server passes the headers to
      // writeHead directly, so `getHeader` never sees them.
      const writeHead = res.writeHead;
      let refused = false;
      res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
        // Refused: the route's own head, and a later implicit one (`flushHeaders`), are dropped.
        if (refused) return res;
        if (isEventStream(res, args)) {
          streams.add(res);
          // A stream stays open as long as its reader wants: it does not hold its caller's place.
          reading.answered(res.socket as Socket);
        } else if (!unread.admits(caller, res)) {
          // Decided as the answer is written, once it exists: however many of the caller's
          // requests were read together, each answer finds the bytes of those written before it.
          refused = true;
          return refuseUnreadAnswer(req, res, writeHead, unread.limit, bridge.trustProxy);
        }
        return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
      } as typeof res.writeHead;
      endStalledWrites(res, stalledWriteMs);
      endSlowAnswers(res, options.slowAnswerGraceMs ?? stalledWriteMs, options.answerMinBytesPerSec ?? LIMITS.bridge.answerMinBytesPerSec, () => streams.has(res));
      res.once("close", () => {
        active.delete(res);
        if (drained === undefined) return;
        // While draining, a connection whose answer is done is closed rather than kept alive.
        server.closeIdleConnections();
        if (pending() === 0) drained();
      });
    });
    // Longer than a load balancer's idle timeout (60 s on the common ones): the balancer, not
    // this server, closes an idle connection, so it never sends a request onto one being closed.
    server.keepAliveTimeout = LIMITS.bridge.keepAliveMs;
    yieldSearchesToAccepts(server, bridge.searchTurns);
    // Behind a trusted proxy every connection is the proxy's: the caller is known only once its
    // request is read, so connections are read as they come. (`pauseOnConnect` is net.Server's
    // option, read at each accept; node:http neither passes it through nor types it.)
    (server as unknown as { pauseOnConnect: boolean }).pauseOnConnect = !bridge.trustProxy;
    server.on("connection", (socket: Socket) => {
      if (!bridge.trustProxy) {
        const caller = callerAddress(socket.remoteAddress ?? "unknown");
        if (!admitted(cap, held, bridge, caller, shedFor)) {
          refuseWhenItSpeaks(socket, busy, maxRefusedWaiting, refusedRequestMs);
          return;
        }
        cap.take();
        const counted = held.take(caller);
        const giveBack = once(() => {
          cap.release();
          if (counted) held.release(caller);
        });
        places.set(socket, giveBack);
        socket.once("close", giveBack);
        socket.once("close", () => {
          idle.busy(caller, socket);
          silent.busy(caller, socket);
        });
        if (!counted) {
          // Told why when its request comes, if it comes soon; past that it is closed, whatever
          // it sent (a request trickled a byte at a time would otherwise hold it for minutes).
          refused.add(socket);
          closeAfter(socket, refusedRequestMs);
          socket.resume();
          return;
        }
        silent.idle(caller, socket, quietOrder++);
        reading.admit(socket, caller);
        return;
      }
      closeUnlessItSpeaks(socket, firstRequestMs);
    });
    server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket, requestMs));
    server.on("connect", answerConnect);
    server.on("checkExpectation", answerExpectation);
    const listening = (port: number): void => {
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      resolve({
        origin: `http://${host}:${port}`,
        port,
        inFlight: pending,
        close: async () => {
          options.connections?.close();
          const closed = new Promise<void>((done) => server.close(() => done()));
          server.closeIdleConnections();
          if (pending() > 0) {
            await new Promise<void>((done) => {
              const deadline = setTimeout(done, LIMITS.bridge.drainMs);
              drained = () => {
                clearTimeout(deadline);
                done();
              };
            });
          }
          await bridge.close();
          // Notification streams never end by themselves; past the deadline, neither do stuck answers.
          server.closeAllConnections();
          await closed;
        },
      });
    };
    const source = options.connections;
    if (source === undefined) {
      server.once("error", onError);
      server.listen(options.port, options.host);
      server.once("listening", () => {
        server.off("error", onError);
        listening((server.address() as AddressInfo).port);
      });
      return;
    }
    // Node starts tracking a server's connections (the idle ones closed at a drain, the request
    // deadlines checked) on its `listening` event; this server binds nothing, so it is told here,
    // before its first connection.
    server.emit("listening");
    source.open((socket) => handIn(server, socket, !bridge.trustProxy)).then(listening, onError);
  });
}

/**
 * A connection another process accepted, given to `server` as node:net gives one it accepts
 * itself: half-open allowed (node:http ends its side when it has answered), no Nagle delay, and
 * read when its caller's turn comes (`pauseOnConnect`), or at once behind a trusted proxy.
 */
function handIn(server: Server, socket: Socket, pauseOnConnect: boolean): void {
  socket.allowHalfOpen = true;
  socket.setNoDelay(true);
  server.emit("connection", socket);
  if (!pauseOnConnect) socket.resume();
}

/**
 * A connection is read when its caller's turn comes, so one caller's flood of connections is
 * neither read ahead of another's request nor left in the kernel's queue in front of it.
 */
function callerReading(options: ListenOptions, firstRequestMs: number): CallerReading {
  const read = (socket: Socket): void => {
    closeUnlessItSpeaks(socket, firstRequestMs);
    socket.resume();
  };
  return new CallerReading(options.maxConnectionsReadPerCaller ?? LIMITS.bridge.maxConnectionsReadPerCaller, read, LIMITS.bridge.unreadConnectionMs);
}

/**
 * Node 20 accepts one connection per turn of the event loop: while connections are coming in
 * (one was accepted in the turn just past), searches wait (a bounded number of turns), so a
 * flood of new connections cannot keep the kernel's queue of them full with another caller's new
 * connection at its back (issue 25).
 */
function yieldSearchesToAccepts(server: Server, turns: CallerTurns): void {
  let accepted = false;
  server.on("connection", () => (accepted = true));
  const stop = turns.yieldTo(() => {
    const was = accepted;
    accepted = false;
    return was;
  }, LIMITS.bridge.searchTurnsYieldedToConnections);
  server.once("close", stop);
}

/** Whether a head being written (`writeHead(status[, reason][, headers])`) is an event stream's. */
function isEventStream(res: ServerResponse, args: readonly unknown[]): boolean {
  const given = args.find((a) => typeof a === "object" && a !== null) as Record<string, unknown> | unknown[] | undefined;
  let type: unknown = res.getHeader("content-type");
  if (Array.isArray(given)) {
    // Raw pairs: [name, value, name, value...] or [[name, value]...].
    const flat = given.flat() as unknown[];
    for (let i = 0; i + 1 < flat.length; i += 2) if (String(flat[i]).toLowerCase() === "content-type") type = flat[i + 1];
  } else if (given !== undefined) {
    for (const [name, value] of Object.entries(given)) if (name.toLowerCase() === "content-type") type = value;
  }
  return String(type ?? "").startsWith("text/event-stream");
}

/** Who a request is from for the per-caller bounds: its address (an IPv6 /64), behind a trusted proxy the last forwarded one. */
function requestCaller(req: IncomingMessage, trustProxy: boolean): string {
  if (!trustProxy) return callerAddress(req.socket.remoteAddress ?? "unknown");
  return callerAddress(clientAddress(true, headerText(req.headers["x-forwarded-for"]), req.socket.remoteAddress));
}

/**
 * An answer written while its caller holds `limit` bytes of earlier answers it has not read
 * (`CallerAnswerBytes`): in its place, 429 `too_many_unread_answers` in the path's error shape
 * with `Retry-After`, and the connection closed. The answer itself is dropped as its route hands
 * it over: what it writes is taken and thrown away, and a body it streams waits for a `drain`
 * that never comes and is cancelled as the connection closes.
 */
function refuseUnreadAnswer(req: IncomingMessage, res: ServerResponse, writeHead: ServerResponse["writeHead"], limit: number, byForwarded: boolean): ServerResponse {
  const path = req.url?.startsWith("/") === true ? (req.url.split("?")[0] ?? "/") : "/";
  const who = byForwarded ? "client" : "client address (an IPv6 /64)";
  const message = `too many bytes of this client's earlier answers are not yet read: at most ${limit} at once per ${who}; read them, or close their connections, before asking for more`;
  const headers = { "Retry-After": "5" };
  // An MCP POST whose body the endpoint read is refused with its requests' ids; any other (a page,
  // a body that was no JSON) in its path's error shape, a JSON-RPC one with id null.
  const answer = refusalOfPosted(req, 429, { code: JSON_RPC.serverError, message, data: { reason: "too_many_unread_answers" } }, headers) ?? errorForPath(path, 429, "too_many_unread_answers", message, headers);
  const end = res.end;
  res.write = (() => false) as typeof res.write;
  res.end = (() => res) as typeof res.end;
  void answer.text().then((body) => {
    if (res.destroyed) return;
    res.shouldKeepAlive = false;
    (writeHead as (...a: unknown[]) => ServerResponse).call(res, answer.status, { ...Object.fromEntries(answer.headers), "Content-Length": Buffer.byteLength(body), Connection: "close" });
    (end as (chunk: string) => ServerResponse).call(res, body);
  });
  return res;
}

/** A header's value as one string (Node gives an array only for a few headers). */
function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * The answer on a connection past its caller's bound (`LIMITS.bridge.maxConnectionsPerCaller`):
 * 429 naming the bound, in the path's error shape, and the connection closed.
 */
function refuseConnection(req: IncomingMessage, res: ServerResponse, limit: number, byRequest: boolean): void {
  const path = req.url?.startsWith("/") === true ? (req.url.split("?")[0] ?? "/") : "/";
  const message = byRequest
    ? `too many requests of this client are being answered at once: at most ${limit} per client address (an IPv6 /64); wait for some to finish before sending more`
    : `too many open connections from this address: at most ${limit} at once per client address (an IPv6 /64); close some before opening more`;
  const answer = errorForPath(path, 429, "too_many_connections", message, { "Retry-After": "5" });
  void answer.text().then((body) => {
    res.shouldKeepAlive = false;
    res.writeHead(answer.status, { ...Object.fromEntries(answer.headers), "Content-Length": Buffer.byteLength(body), Connection: "close" });
    res.end(body);
  });
}

/**
 * A connection past the process's bound: told why when its request comes (soon, or it is
 * closed), as one past its caller's; past `max` of those waiting, closed at once, unread.
 */
function refuseWhenItSpeaks(socket: Socket, waiting: Set<Socket>, max: number, deadlineMs: number): void {
  if (waiting.size >= max) {
    socket.destroy();
    return;
  }
  waiting.add(socket);
  socket.once("close", () => waiting.delete(socket));
  closeAfter(socket, deadlineMs);
  socket.resume();
}

/**
 * Close a refused connection `ms` after it opened, whatever it is sending: a deadline in all, not
 * an idle timeout, which a request trickled a byte at a time resets (one byte every 200 ms held a
 * waiting place 35 s; adversary round 13). Its answer, once its request is read, is one short
 * write, sent well within it.
 */
function closeAfter(socket: Socket, ms: number): void {
  const timer = setTimeout(() => socket.destroy(), ms);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

/**
 * Whether `caller` may have one more connection (or, behind a proxy, request) now: there is a
 * place for it, or another's gives its place up for it (`shedFor`: adversary round 51 F6, quiet
 * streams held every place; round 52 F2, idle keep-alive connections did; round 53 F1, single
 * connections from many addresses of one network did).
 */
function admitted(cap: ConnectionCap, held: CallerConnections, bridge: Bridge, caller: string, shedFor: (caller: string) => boolean): boolean {
  if (cap.admits(held.heldBy(caller), bridge.signedIn.has(caller))) return true;
  return shedFor(caller);
}

/** Of two connections a newcomer may take, the one ranked first, ties to the one quiet the longest. */
function firstRanked(a: IdleCandidate | undefined, b: IdleCandidate | undefined): IdleCandidate | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  if (a.rank !== b.rank) return a.rank > b.rank ? a : b;
  return a.since <= b.since ? a : b;
}

/**
 * A listen stream shed for a newcomer (`QuietStreams`), its graceful close written: its place is
 * given back now, the newcomer's already, and its connection is closed once that close is out
 * (or `ms` later, taken or not), so it holds no place and no descriptor past that. Behind a
 * proxy the connection is the proxy's, and kept.
 */
function shedConnection(res: ServerResponse, places: WeakMap<Socket | ServerResponse, () => void>, byRequest: boolean, ms: number): void {
  if (byRequest) {
    places.get(res)?.();
    return;
  }
  const socket = res.socket;
  if (socket === null) return;
  places.get(socket)?.();
  res.once("finish", () => socket.end());
  closeAfter(socket, ms);
}

/** `fn` run at most once, however often called. */
function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

/** Listen streams' bound for a connection bound of `limit`: the share `LIMITS.bridge.maxQuietStreams` is of `maxConnections` (a half). */
function quietShare(limit: number): number {
  return Math.floor((limit * LIMITS.bridge.maxQuietStreams) / LIMITS.bridge.maxConnections);
}

/** The process's connection bound from `options`, `LIMITS.bridge` for what they leave out. */
function connectionCap(options: ListenOptions): ConnectionCap {
  const { maxConnections, newcomerReserve, signedInReserve } = LIMITS.bridge;
  const limit = options.maxConnections ?? maxConnections;
  // Another bound keeps the reserves' share of it (a twelfth each by default).
  const share = (reserve: number): number => Math.floor((limit * reserve) / maxConnections);
  return new ConnectionCap(limit, options.newcomerReserve ?? share(newcomerReserve), options.signedInReserve ?? share(signedInReserve));
}

/**
 * The answer on a connection past the process's bound (`LIMITS.bridge.maxConnections`): 503
 * `server_busy` in the path's error shape, with `Retry-After`, and the connection closed. Nothing
 * else is read or done for it.
 */
function refuseBusy(req: IncomingMessage, res: ServerResponse, limit: number, byRequest: boolean): void {
  const path = req.url?.startsWith("/") === true ? (req.url.split("?")[0] ?? "/") : "/";
  const what = byRequest ? `requests being answered` : `open connections`;
  const message = `the server has too many ${what}: at most ${limit} at once, the last kept for signed-in readers and for clients with nothing open; try again in a few seconds`;
  const answer = errorForPath(path, 503, "server_busy", message, { "Retry-After": "5" });
  void answer.text().then((body) => {
    res.shouldKeepAlive = false;
    res.writeHead(answer.status, { ...Object.fromEntries(answer.headers), "Content-Length": Buffer.byteLength(body), Connection: "close" });
    res.end(body);
  });
}

/**
 * End an answer whose client takes none of it for `ms`: while bytes written wait for the socket
 * (a write refused more, or the end not yet sent), a timer runs; the socket taking them (drain,
 * finish) stops it. Then the connection is destroyed, which ends the transfer behind it (a
 * medium's stream is cancelled and its place given back). Quiet streams are not cut: an event
 * stream with nothing to send has nothing waiting.
 */
function endStalledWrites(res: ServerResponse, ms: number): void {
  let timer: NodeJS.Timeout | undefined;
  const stop = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const wait = (): void => {
    stop();
    timer = setTimeout(() => res.destroy(), ms);
  };
  const write = res.write;
  res.write = function (this: ServerResponse, ...args: unknown[]) {
    const taken = (write as (...a: unknown[]) => boolean).apply(this, args);
    if (!taken) wait();
    return taken;
  } as typeof res.write;
  const end = res.end;
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    const result = (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    if (!res.writableFinished && !res.destroyed) wait();
    return result;
  } as typeof res.end;
  res.on("drain", stop);
  res.once("finish", stop);
  res.once("close", stop);
}

/**
 * End an answer handed whole that its client takes more slowly than `minBytesPerSec` on average:
 * from the moment its last byte is handed over (`end`), it must be taken within `graceMs` plus
 * a second per `minBytesPerSec` bytes of it. Until then every byte not taken is held in memory:
 * the stalled-write cut (`endStalledWrites`) sees progress whenever the socket takes a piece, so
 * a client reading at 16 KB/s held a 71 MB batch answer (its whole text) for over an hour
 * (issue 25, adversary F1).
 *
 * An answer written a piece at a time as the socket takes it (a medium read from disk, which waits
 * for `drain` before its next piece) is not timed while it is written: it holds one piece, and a
 * reader on a slow link (a phone taking a large image at 4 KB/s) would be cut for being slow, not
 * for what it holds; a client that takes nothing is still cut by the stalled-write rule. Its last
 * piece is timed as above, with a second per `minBytesPerSec` bytes of the whole answer. Event
 * streams are not timed: they are open for as long as their reader listens, and send little.
 */
function endSlowAnswers(res: ServerResponse, graceMs: number, minBytesPerSec: number, isEventStream: () => boolean): void {
  let handed = 0;
  let timer: NodeJS.Timeout | undefined;
  const stop = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const count = (chunk: unknown): void => {
    if (typeof chunk === "string") handed += Buffer.byteLength(chunk);
    else if (chunk instanceof Uint8Array) handed += chunk.byteLength;
  };
  const write = res.write;
  res.write = function (this: ServerResponse, ...args: unknown[]) {
    count(args[0]);
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof res.write;
  const end = res.end;
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (typeof args[0] !== "function") count(args[0]);
    const result = (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    if (!res.writableFinished && !res.destroyed && !isEventStream()) {
      stop();
      timer = setTimeout(() => res.destroy(), graceMs + (handed / minBytesPerSec) * 1000);
    }
    return result;
  } as typeof res.end;
  res.once("finish", stop);
  res.once("close", stop);
}

/**
 * Close a connection that sends nothing within `ms` of opening. Node's own timeouts start with a
 * request (the headers timeout) or after an answer (keep-alive), so a connection that never
 * sends a byte was held until the client closed it. Its first bytes lift this; the request's
 * own timeouts take over from there (an event stream that then goes quiet is not cut).
 */
function closeUnlessItSpeaks(socket: Socket, ms: number): void {
  socket.setTimeout(ms);
  socket.once("data", () => socket.setTimeout(0));
}

/**
 * A request Node's HTTP parser refuses before any route sees it (headers over `maxHeaderSize`,
 * a malformed request line or header, bytes that are not HTTP), or one not whole within
 * `requestMs` of its first byte (408, its route still waiting for its body), gets the project's
 * JSON error body like every other 4xx, instead of Node's bare status line; the connection is
 * closed. Bytes the parser refuses after whole requests a client pipelined are answered after
 * those requests' answers, in order (RFC 9112 9.3.2): before, the 400 went out at once, so the
 * client read it as the answer to its valid request, which had run (a feedback entry stored) and
 * whose answer was lost (adversary round 34).
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket, requestMs: number): void {
  const inFlight = answerOn(socket);
  if (inFlight !== undefined && inFlight.req?.complete === true && error.code !== "ECONNRESET") {
    // The refused bytes came after a whole request: its answer, and any queued behind it, go first.
    inFlight.once("close", () => setImmediate(() => answerClientError(error, socket, requestMs)));
    return;
  }
  // As Node's own handler does: while an answer on this connection has started (a notification
  // stream), writing another would corrupt it, so such a connection is only closed.
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "headers_too_large", `the request headers are over ${maxHeaderSize} bytes`]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "request_timeout", `the request did not arrive within ${requestMs / 1000} s of its first byte (its headers and its whole body); send it again, all at once`]
        : [400, "bad_request", `the request is not valid HTTP/1.1 (${error.code ?? "unparsable"})`];
  // A request whose headers were read (its body came too slowly) is answered in its path's shape.
  const url = inFlight?.req?.url;
  const answer = url?.startsWith("/") === true ? errorForPath(url.split("?")[0] ?? "/", status, code, message) : apiErrorResponse(status, code, message);
  void answer.text().then((body) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`, ...[...answer.headers].map(([name, value]) => `${name}: ${value}`), `Content-Length: ${Buffer.byteLength(body)}`, "Connection: close"];
    // Closed once the answer is out, whatever the client still sends: `end` alone closes only
    // our side, and a client keeping its own open (trickling on) held the connection, and the
    // request its route was still reading, until it chose to close.
    socket.end(`${head.join("\r\n")}\r\n\r\n${body}`, () => socket.destroy());
  });
}

/**
 * `CONNECT` asks a proxy for a tunnel; Node hands it to a `connect` listener instead of the
 * request handler, and without one closes the connection unanswered. It gets the path's 405 in
 * the path's error shape, like any other method a route does not take, and the connection is
 * closed (no tunnel follows).
 */
/**
 * The answer being sent on `socket`, if any: node:http gives a connection's answers the socket
 * one at a time, in order, and hands the next queued one over (a turn later) as each finishes.
 */
function answerOn(socket: Socket): (ServerResponse & { req?: IncomingMessage }) | undefined {
  return (socket as Socket & { _httpMessage?: (ServerResponse & { req?: IncomingMessage }) | null })._httpMessage ?? undefined;
}

function answerConnect(req: IncomingMessage, socket: Socket): void {
  const path = req.url?.startsWith("/") === true ? (req.url.split("?")[0] ?? "/") : "/";
  const allow = path === PATHS.mcp || path === PATHS.authedMcp ? "GET, POST, DELETE" : "GET, HEAD, POST, OPTIONS";
  const answer = errorForPath(path, 405, "method_not_allowed", `CONNECT is not allowed here; use ${allow}`, { Allow: allow });
  void answer.text().then((body) => {
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    res.shouldKeepAlive = false;
    res.once("finish", () => socket.end());
    res.writeHead(answer.status, { ...Object.fromEntries(answer.headers), "Content-Length": Buffer.byteLength(body), Connection: "close" });
    res.end(body);
  });
}

/**
 * A request whose `Expect` is not `100-continue`: node:http answers 417 with no body when no one
 * listens (adversary round 35 F5); here the path's error shape says which expectation, and the
 * connection is closed (the body, if one follows, is not read).
 */
function answerExpectation(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url?.startsWith("/") === true ? (req.url.split("?")[0] ?? "/") : "/";
  const expect = String(req.headers.expect ?? "").slice(0, 100);
  const answer = errorForPath(path, 417, "expectation_failed", `Expect: ${JSON.stringify(expect)} is not supported; only 100-continue is`);
  void answer.text().then((body) => {
    res.shouldKeepAlive = false;
    res.writeHead(answer.status, { ...Object.fromEntries(answer.headers), "Content-Length": Buffer.byteLength(body), Connection: "close" });
    res.end(body);
  });
}

/** An HTTP/1.1 request without a `Host` header, which RFC 9112 (3.2) says a server must refuse with 400. */
function missingHost(req: IncomingMessage): boolean {
  return req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && req.headers.host === undefined;
}

/**
 * Refuse a request without `Host` (`missingHost`) as Node's own check did, `400` and the connection
 * closed, but with a body in the path's error shape, as `forbidden_host` is answered, naming why.
 */
function answerMissingHost(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url?.startsWith("/") === true ? (req.url.split("?")[0] ?? "/") : "/";
  const answer = errorForPath(path, 400, "bad_request", "the request is HTTP/1.1 without a Host header (RFC 9112 section 3.2): Host header missing");
  void answer.text().then((body) => {
    res.shouldKeepAlive = false;
    res.writeHead(answer.status, { ...Object.fromEntries(answer.headers), "Content-Length": Buffer.byteLength(body), Connection: "close" });
    res.end(body);
  });
}

/**
 * A request that parsed as HTTP but cannot become a web `Request` (a `Host` that is no host
 * name, an unusable absolute URL) gets a JSON 400 naming why, where the adapter would answer an
 * empty 400. Anything else reaching here is a bug the app did not catch: a JSON 500.
 */
function answerUnreadableRequest(error: unknown): Response {
  if (error instanceof RequestError) return apiErrorResponse(400, "bad_request", `the request cannot be read: ${error.message}`);
  return apiErrorResponse(500, "server_error", "internal error");
}
