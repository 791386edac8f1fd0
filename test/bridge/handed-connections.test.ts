import { EventEmitter } from "node:events";
import { connect, createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionSource } from "../../src/bridge/connection-source.js";
import { listen, type RunningServer } from "../../src/bridge/http-server.js";
import { CONNECTION_MESSAGE, ConnectionHandout, handedConnections, LeastConnections, stopReading, type WorkerChannel } from "../../src/cli/connection-handout.js";
import { type Harness, PROTOCOL, startBridge } from "./harness.js";

/**
 * The parts of the primary's least-connections hand-out (issue 23) that need no second process:
 * the choice of worker, a worker's end of the channel, and a server given connections another
 * process accepted, which must read each only when its caller's turn comes (issue 25), as it
 * reads the ones it accepts itself. test/bridge/workers-handout.test.ts runs the whole of it.
 */

describe("LeastConnections", () => {
  it("gives the next connection to the worker holding the fewest; equals take turns; closes and removals count", () => {
    const pick = new LeastConnections<string>();
    expect(pick.next()).toBeUndefined();
    pick.add("a");
    pick.add("b");
    expect(Array.from({ length: 5 }, () => pick.next())).toEqual(["a", "b", "a", "b", "a"]);
    expect(pick.counts()).toEqual([3, 2]);
    pick.closed("a", 3);
    // a holds none against b's 2: the next two are a's, then they take turns again.
    expect(Array.from({ length: 4 }, () => pick.next())).toEqual(["a", "a", "b", "a"]);
    pick.add("c");
    expect(Array.from({ length: 4 }, () => pick.next())).toEqual(["c", "c", "c", "b"]);
    pick.remove("a");
    pick.closed("a", 1);
    expect(pick.counts()).toEqual([4, 3]);
    expect(Array.from({ length: 3 }, () => pick.next())).toEqual(["c", "b", "c"]);
    // More closes than it was handed leave it at none, not below.
    pick.closed("b", 99);
    expect(pick.counts()).toEqual([0, 5]);
  });
});

describe("LeastConnections' share", () => {
  it("is an even share of the open connections, rounded up, counting shed ones until as many new ones came", () => {
    const pick = new LeastConnections<string>();
    expect(pick.share()).toBe(Number.POSITIVE_INFINITY);
    pick.add("a");
    expect(pick.share()).toBe(0);
    for (let i = 0; i < 11; i++) pick.next();
    pick.add("b");
    expect([pick.counts(), pick.share()]).toEqual([[11, 0], 6]);
    for (let i = 0; i < 4; i++) pick.next();
    expect([pick.counts(), pick.share()]).toEqual([[11, 4], 8]);
    // a sheds 3: they are still counted, so the share stays 8 and a sheds no more.
    pick.closed("a", 3, 3);
    expect([pick.counts(), pick.share()]).toEqual([[8, 4], 8]);
    // Their clients reconnect, to b.
    expect(Array.from({ length: 3 }, () => pick.next())).toEqual(["b", "b", "b"]);
    expect([pick.counts(), pick.share()]).toEqual([[8, 7], 8]);
    // Closes that were not shed lower it; more shed than closed counts only the closed.
    pick.closed("b", 5);
    expect([pick.counts(), pick.share()]).toEqual([[8, 2], 5]);
    pick.closed("b", 1, 9);
    expect([pick.counts(), pick.share()]).toEqual([[8, 1], 5]);
    pick.remove("a");
    expect([pick.counts(), pick.share()]).toEqual([[1], 2]);
  });
});

/** A worker's end of the channel, in process: what it sends, and a way to hand it a socket. */
class FakeChannel extends EventEmitter implements WorkerChannel {
  connected = true;
  readonly sent: { message: string; socket: Socket }[] = [];
  send(message: string, socket: Socket, callback: (error: Error | null) => void): boolean {
    this.sent.push({ message, socket });
    callback(null);
    return true;
  }
}

/** Connections accepted by a plain net.Server here, each handed on as a worker gets one: reading (as Node makes a socket that came over IPC), then stopped. */
async function acceptingServer(take: () => ((socket: Socket) => void) | undefined): Promise<Server> {
  const server = createServer((socket) => {
    const handTo = take();
    if (handTo === undefined) socket.destroy();
    else handTo(stopReading(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

const opened = (port: number, from = "127.0.0.1"): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const s = connect({ port, host: "127.0.0.1", localAddress: from });
    s.once("connect", () => resolve(s));
    s.once("error", reject);
  });

/** Everything the server writes on `socket` until it has written one whole answer head and `length` bytes after it. */
function answerOn(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let got = "";
    socket.on("data", (d: Buffer) => {
      got += d.toString();
      const end = got.indexOf("\r\n\r\n");
      const length = Number(/content-length: (\d+)/i.exec(got)?.[1] ?? Number.NaN);
      if (end >= 0 && got.length >= end + 4 + length) resolve(got.split("\r\n")[0] ?? "");
    });
  });
}

describe("a server given connections another process accepted", () => {
  let h: Harness;
  let front: Server;
  let served: RunningServer;
  let take: ((socket: Socket) => void) | undefined;
  beforeAll(async () => {
    h = await startBridge({});
    front = await acceptingServer(() => take);
    const source: ConnectionSource = {
      open: async (given) => {
        take = given;
        return (front.address() as { port: number }).port;
      },
      close: () => (take = undefined),
    };
    // One connection of a caller read at a time: its second waits, unread, until the first is answered.
    served = await listen(h.bridge, { host: "127.0.0.1", port: 0, connections: source, maxConnectionsReadPerCaller: 1 });
  });
  afterAll(async () => {
    await served?.close();
    front?.close();
    await h?.close();
  });

  it("is on the port the connections come from, and reads a caller's second connection only when its first is answered", async () => {
    expect(served.origin).toBe(`http://127.0.0.1:${(front.address() as { port: number }).port}`);
    const head = (length: number): string => `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${length}\r\n\r\n`;
    const body = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    const first = await opened(served.port);
    const firstAnswer = answerOn(first);
    // Read, and not answered until the rest of its body comes: it holds the caller's one place.
    first.write(head(body.length) + body.slice(0, 5));
    const second = await opened(served.port);
    let secondAnswered = false;
    const secondAnswer = answerOn(second).then((status) => {
      secondAnswered = true;
      return status;
    });
    second.write("GET /.well-known/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    // Another caller is read at once: its answer comes while the second waits unread.
    const other = await opened(served.port, "127.0.0.2");
    const otherAnswer = answerOn(other);
    other.write("GET /.well-known/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    expect(await otherAnswer).toBe("HTTP/1.1 200 OK");
    expect(secondAnswered).toBe(false);
    first.write(body.slice(5));
    expect(await firstAnswer).toBe("HTTP/1.1 200 OK");
    expect(await secondAnswer).toBe("HTTP/1.1 200 OK");
    for (const s of [first, second, other]) s.destroy();
  });
});

describe("a server given connections, over its share", () => {
  it("says Connection: close on an answer when its source says the connection is over its share, and closes it after the answer", async () => {
    const h = await startBridge({});
    let take: ((socket: Socket) => void) | undefined;
    const front = await acceptingServer(() => take);
    let over = false;
    const served = await listen(h.bridge, {
      host: "127.0.0.1",
      port: 0,
      connections: { open: async (given) => ((take = given), (front.address() as { port: number }).port), close: () => (take = undefined), overShare: () => over },
    });
    try {
      const socket = await opened(served.port);
      const heads: string[] = [];
      socket.on("data", (d: Buffer) => heads.push(...d.toString().split("\r\n").filter((l) => /^(HTTP|connection)/i.test(l))));
      const ended = new Promise((resolve) => socket.once("end", resolve));
      const first = answerOn(socket);
      socket.write("GET /.well-known/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      await first;
      over = true;
      socket.write("GET /.well-known/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      await ended;
      expect(heads).toEqual(["HTTP/1.1 200 OK", "Connection: keep-alive", "HTTP/1.1 200 OK", "Connection: close"]);
      socket.destroy();
    } finally {
      await served.close();
      front.close();
      await h.close();
    }
  });
});

describe("a server given connections, its deadlines", () => {
  it("answers a request not whole within its deadline 408, as on a connection it accepted itself (Node checks deadlines only on a server told it listens)", async () => {
    const h = await startBridge({});
    let take: ((socket: Socket) => void) | undefined;
    const front = await acceptingServer(() => take);
    const served = await listen(h.bridge, {
      host: "127.0.0.1",
      port: 0,
      requestMs: 300,
      connections: { open: async (given) => ((take = given), (front.address() as { port: number }).port), close: () => (take = undefined) },
    });
    try {
      const socket = await opened(served.port);
      const answer = answerOn(socket);
      socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
      expect(await answer).toBe("HTTP/1.1 408 Request Timeout");
      socket.destroy();
    } finally {
      await served.close();
      front.close();
      await h.close();
    }
  });
});

describe("a worker's end of the hand-out", () => {
  it("asks to listen, says how many closed, and once draining gives back a connection still on its way", async () => {
    const channel = new FakeChannel();
    const told: unknown[] = [];
    const source = handedConnections(channel, async () => ({ port: 4321 }), (news) => told.push(news));
    const taken: Socket[] = [];
    expect(await source.open((s) => taken.push(s))).toBe(4321);
    const front = await acceptingServer(() => (socket) => channel.emit("message", CONNECTION_MESSAGE, socket));
    const port = (front.address() as { port: number }).port;
    const clients = [await opened(port), await opened(port)];
    await new Promise<void>((resolve) => (taken.length === 2 ? resolve() : channel.on("message", () => taken.length === 2 && resolve())));
    // Both close in one turn: one message says so.
    const closed = taken.map((s) => new Promise((resolve) => s.once("close", resolve)));
    for (const s of taken) s.destroy();
    await Promise.all(closed);
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toEqual([{ t: "closed", n: 2, shed: 0 }]);
    source.close();
    source.close();
    expect(told).toEqual([{ t: "closed", n: 2, shed: 0 }, { t: "draining" }]);
    const late = await opened(port);
    await new Promise<void>((resolve) => (channel.sent.length === 1 ? resolve() : channel.on("message", () => resolve())));
    expect(channel.sent.map((m) => m.message)).toEqual([CONNECTION_MESSAGE]);
    expect(taken).toHaveLength(2);
    for (const s of [...clients, late, ...channel.sent.map((m) => m.socket)]) s.destroy();
    front.close();
  });

  it("held over its share, closes as many connections as it holds over it after their answer, and says how many it shed", async () => {
    const channel = new FakeChannel();
    const told: unknown[] = [];
    const source = handedConnections(channel, async () => ({ port: 4321 }), (news) => told.push(news));
    const taken: Socket[] = [];
    await source.open((s) => taken.push(s));
    const front = await acceptingServer(() => (socket) => channel.emit("message", CONNECTION_MESSAGE, socket));
    const port = (front.address() as { port: number }).port;
    const clients = [await opened(port), await opened(port), await opened(port), await opened(port)];
    await new Promise<void>((resolve) => (taken.length === 4 ? resolve() : channel.on("message", () => taken.length === 4 && resolve())));
    const [s0, s1, s2, s3] = taken as [Socket, Socket, Socket, Socket];
    // No share told yet: it keeps them all.
    expect(taken.map((s) => source.overShare?.(s))).toEqual([false, false, false, false]);
    source.share(2);
    // Two over: the first two answered close; asked again, one leaving still leaves; a socket it was not handed never.
    expect([s0, s1, s0, s2, s3].map((s) => source.overShare?.(s))).toEqual([true, true, true, false, false]);
    expect(source.overShare?.(clients[0] as Socket)).toBe(false);
    const closed = [s0, s1, s2].map((s) => new Promise((resolve) => s.once("close", resolve)));
    for (const s of [s0, s1, s2]) s.destroy();
    await Promise.all(closed);
    await new Promise((resolve) => setImmediate(resolve));
    // Two of the three closes were shed ones.
    expect(told).toEqual([{ t: "closed", n: 3, shed: 2 }]);
    // One left, at a share of 1: kept; at 0 it goes.
    source.share(1);
    expect(source.overShare?.(s3)).toBe(false);
    source.share(0);
    expect(source.overShare?.(s3)).toBe(true);
    for (const s of [...clients, s3]) s.destroy();
    front.close();
  });

  it("an error opening the port rejects with its code", async () => {
    const source = handedConnections(new FakeChannel(), async () => ({ code: "EADDRINUSE", message: "listen EADDRINUSE: address already in use 127.0.0.1:80" }), () => undefined);
    await expect(source.open(() => undefined)).rejects.toMatchObject({ code: "EADDRINUSE" });
  });
});

/** A worker as the primary sees it: what it was sent; `stuck` leaves each send queued (never written, as behind a socket not yet acknowledged). */
class FakeWorker {
  readonly got: Socket[] = [];
  private waiter: (() => void) | undefined;
  constructor(
    readonly name: string,
    private readonly stuck = false,
    /** Its channel closed (it is dying, its exit not seen yet): a send fails on the next tick, as Node's does. */
    private readonly closed = false,
  ) {}
  send(_message: string, socket: Socket, _options: { keepOpen: boolean }, callback: (error: Error | null) => void): boolean {
    this.got.push(socket);
    // Past a few sends it stops answering, so a hand-out that kept picking it stops spinning and the test fails instead of hanging.
    if (this.closed) {
      if (this.got.length <= 5) process.nextTick(callback, Object.assign(new Error("Channel closed"), { code: "ERR_IPC_CHANNEL_CLOSED" }));
    } else if (!this.stuck) callback(null);
    this.waiter?.();
    return true;
  }
  /** Resolves once it has been sent `n` sockets in all. */
  async has(n: number): Promise<void> {
    while (this.got.length < n) await new Promise<void>((resolve) => (this.waiter = resolve));
  }
}

describe("the primary's hand-out, the shares it tells", () => {
  it("tells each worker its share when it changes: as a worker joins, as connections are handed, closed and shed, and as one drains", async () => {
    const told: string[] = [];
    const handout = new ConnectionHandout<FakeWorker>("127.0.0.1", 0, () => undefined, () => undefined, (w, most) => void told.push(`${w.name}:${most}`));
    const a = new FakeWorker("a");
    const reply = await handout.open(a);
    if (!("port" in reply)) throw new Error(reply.message);
    const clients: Socket[] = [];
    for (let i = 0; i < 3; i++) clients.push(await opened(reply.port));
    await a.has(3);
    expect(told).toEqual(["a:0", "a:1", "a:2", "a:3"]);
    const b = new FakeWorker("b");
    await handout.open(b);
    expect(told.splice(0)).toEqual(["a:0", "a:1", "a:2", "a:3", "a:2", "b:2"]);
    // a sheds one: still counted until a new connection comes, so nobody is told anything.
    handout.closedBy(a, 1, 1);
    expect(told).toEqual([]);
    clients.push(await opened(reply.port));
    await b.has(1);
    expect([handout.counts(), told]).toEqual([[2, 1], []]);
    // Closed, not shed: the share drops to 1.
    handout.closedBy(a, 1);
    expect(told.splice(0)).toEqual(["a:1", "b:1"]);
    // b drains: what it holds is no longer counted, and a's share of its one stays 1; c joins, told 1.
    handout.draining(b);
    expect(told).toEqual([]);
    const c = new FakeWorker("c");
    await handout.open(c);
    expect(told.splice(0)).toEqual(["c:1"]);
    handout.close();
    for (const s of [...clients, ...a.got, ...b.got]) s.destroy();
  });
});

describe("the primary's hand-out", () => {
  it("opens the port with the first worker; gives each connection to the one holding the fewest; never to one draining or gone; re-hands what a dead one never got", async () => {
    // Each socket written to a worker's channel is released here (closed, in a real primary) once; one never written is not.
    const released: Socket[] = [];
    const handout = new ConnectionHandout<FakeWorker>("127.0.0.1", 0, () => undefined, (socket) => void released.push(socket));
    const clients: Socket[] = [];
    const a = new FakeWorker("a");
    const reply = await handout.open(a);
    if (!("port" in reply)) throw new Error(reply.message);
    const connectMany = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) clients.push(await opened(reply.port));
    };
    await connectMany(3);
    await a.has(3);
    // b serves: it holds none against a's 3, so the next three are all b's (stuck: never written).
    const b = new FakeWorker("b", true);
    expect(await handout.open(b)).toEqual(reply);
    await connectMany(3);
    await b.has(3);
    expect(handout.counts()).toEqual([3, 3]);
    // a closes two: the next two are a's.
    handout.closedBy(a, 2);
    await connectMany(2);
    await a.has(5);
    expect(handout.counts()).toEqual([3, 3]);
    // a drains: a connection it gives back goes to b, as does every new one.
    handout.draining(a);
    handout.givenBack(a, a.got[4] as Socket);
    await b.has(4);
    expect(b.got[3]).toBe(a.got[4]);
    // b dies with its four never written: with no worker left they wait, then all go to c.
    handout.gone(b);
    expect(handout.counts()).toEqual([]);
    const c = new FakeWorker("c");
    await handout.open(c);
    await c.has(4);
    expect(c.got).toEqual(b.got);
    expect(released).toEqual([...a.got, ...c.got]);
    // Closed: the port refuses, and a worker asking now is handed nothing.
    handout.close();
    await expect(opened(reply.port)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    await handout.open(new FakeWorker("d"));
    expect(handout.counts()).toEqual([4]);
    for (const s of [...clients, ...a.got, ...b.got]) s.destroy();
  });

  it("hands nothing more to a worker whose channel closed before its exit is seen: the connection goes to another, or waits for one", async () => {
    const released: Socket[] = [];
    const handout = new ConnectionHandout<FakeWorker>("127.0.0.1", 0, () => undefined, (socket) => void released.push(socket));
    const clients: Socket[] = [];
    const a = new FakeWorker("a");
    const reply = await handout.open(a);
    if (!("port" in reply)) throw new Error(reply.message);
    for (let i = 0; i < 3; i++) clients.push(await opened(reply.port));
    await a.has(3);
    // d holds none against a's 3, so it is picked; its send fails: it is dropped, and a takes the connection.
    const d = new FakeWorker("d", false, true);
    await handout.open(d);
    clients.push(await opened(reply.port));
    // (A hand-out that picks d again is sent the connection again: the race ends at once, and the test fails.)
    await Promise.race([a.has(4), d.has(2)]);
    expect([d.got.length, handout.counts()]).toEqual([1, [4]]);
    expect(a.got[3]).toBe(d.got[0]);
    // Its exit, seen later, changes nothing; a worker asking after that is handed connections again.
    handout.gone(d);
    clients.push(await opened(reply.port));
    await a.has(5);
    // The only worker dying: the connection waits for the next worker.
    const e = new FakeWorker("e", false, true);
    handout.draining(a);
    await handout.open(e);
    clients.push(await opened(reply.port));
    await e.has(1);
    const f = new FakeWorker("f");
    await handout.open(f);
    await Promise.race([f.has(1), e.has(2)]);
    expect([d.got.length, e.got.length, f.got[0]]).toEqual([1, 1, e.got[0]]);
    expect(released).toEqual([...a.got, ...f.got]);
    handout.close();
    for (const s of [...clients, ...a.got, ...f.got]) s.destroy();
  });
});
