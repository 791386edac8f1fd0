import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CallerConnections } from "../../src/bridge/caller-connections.js";
import { listen, type RunningServer } from "../../src/bridge/http-server.js";
import { type Harness, startBridge } from "./harness.js";

/**
 * What one caller may hold of the server's connections (adversary, 2026-11-29: a thousand
 * connections from one address held the server's file descriptors, and other clients went
 * unanswered). A caller is an address (an IPv6 /64), decided as for the rate limits: the socket's
 * peer, or behind `--trust-proxy` the last address of `X-Forwarded-For`, where every connection
 * is the proxy's and what a caller holds is its requests being answered. The servers here have a
 * bound of 2 (the default is `LIMITS.bridge.maxConnectionsPerCaller`).
 */
interface Answer {
  readonly status: string;
  readonly connection: string | undefined;
  readonly body: string;
}

/** A connection from `from` (any 127/8 address reaches the loopback server). */
function open(port: number, from = "127.0.0.1"): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress: from });
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Send one request on `socket` and read its whole answer (the connection stays open unless the server closes it). */
function exchange(socket: Socket, head: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const lines = received.subarray(0, end).toString().split("\r\n");
      const header = (name: string): string | undefined =>
        lines.find((l) => l.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim();
      const length = Number(header("content-length") ?? 0);
      if (received.length < end + 4 + length) return;
      socket.off("data", onData);
      socket.off("error", reject);
      resolve({ status: lines[0] ?? "", connection: header("connection"), body: received.subarray(end + 4, end + 4 + length).toString() });
    };
    socket.on("data", onData);
    socket.once("error", reject);
    socket.write(head);
  });
}

/** Resolves once a server's count of connections per caller gives a place back and the caller holds fewer than its bound. */
function placeFreed(): Promise<void> {
  const release = CallerConnections.prototype.release;
  return new Promise((resolve) => {
    const spy = vi.spyOn(CallerConnections.prototype, "release").mockImplementation(function (this: CallerConnections, caller: string) {
      release.call(this, caller);
      if (this.heldBy(caller) >= this.limit) return;
      spy.mockRestore();
      resolve();
    });
  });
}

const closed = (socket: Socket): Promise<void> => new Promise((resolve) => (socket.closed ? resolve() : socket.once("close", () => resolve())));

const GET = (extra = ""): string => `GET /.well-known/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}\r\n`;

const refusal = (message: string): Answer => ({
  status: "HTTP/1.1 429 Too Many Requests",
  connection: "close",
  body: JSON.stringify({ error: { code: "too_many_connections", message } }),
});

describe("connections per address", () => {
  let h: Harness;
  let server: RunningServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    h = await startBridge({});
    server = await listen(h.bridge, { host: "127.0.0.1", port: 0, maxConnectionsPerCaller: 2 });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await server?.close();
    await h?.close();
  });
  const opened = async (from?: string): Promise<Socket> => {
    const socket = await open(server.port, from);
    sockets.push(socket);
    return socket;
  };

  it("past its bound an address is answered 429 and closed; another address is served; a closed one gives its place back", async () => {
    const [a, b] = [await opened(), await opened()];
    const kept = [(await exchange(a, GET())).status, (await exchange(b, GET())).status];
    const third = await opened();
    const refused = await exchange(third, GET());
    await closed(third);
    const other = await exchange(await opened("127.0.0.2"), GET());
    expect({ kept, refused, other: other.status }).toEqual({
      kept: ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"],
      refused: refusal("too many open connections from this address: at most 2 at once per client address (an IPv6 /64); close some before opening more"),
      other: "HTTP/1.1 200 OK",
    });
    // The server sees the close on its own time: the event waited for is its giving the place
    // back. Asked again until it had (\`vi.waitFor\`, one second by default), a busy machine ran
    // out of time before the server saw the close.
    const givenBack = placeFreed();
    a.destroy();
    await givenBack;
    expect((await exchange(await opened(), GET())).status).toBe("HTTP/1.1 200 OK");
  });
});

describe("behind --trust-proxy", () => {
  let h: Harness;
  let server: RunningServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    h = await startBridge({ bridge: { trustProxy: true } });
    server = await listen(h.bridge, { host: "127.0.0.1", port: 0, maxConnectionsPerCaller: 2 });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await server?.close();
    await h?.close();
  });
  const opened = async (): Promise<Socket> => {
    const socket = await open(server.port);
    sockets.push(socket);
    return socket;
  };

  /** A request of `client` that the server is answering (its body still to come) once this resolves. */
  const held = async (client: string): Promise<string> => {
    const socket = await opened();
    return new Promise((resolve) => {
      // Node answers `100 Continue` as it hands the request to the server: the request is counted by then.
      socket.once("data", (d: Buffer) => resolve(d.toString().split("\r\n")[0] ?? ""));
      socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${client}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 64\r\nExpect: 100-continue\r\n\r\n`);
    });
  };

  it("a client is counted by its forwarded address, by requests being answered; the proxy's own connections are not bounded", async () => {
    const holding = [await held("203.0.113.9"), await held("203.0.113.9")];
    // What the client claims before the proxy's entry is not who it is.
    const refused = await exchange(await opened(), GET("X-Forwarded-For: 198.51.100.1, 203.0.113.9\r\n"));
    // Five connections from the proxy's one address: another client is served.
    const other = await exchange(await opened(), GET("X-Forwarded-For: 198.51.100.1\r\n"));
    expect({ holding, refused, other: other.status }).toEqual({
      holding: ["HTTP/1.1 100 Continue", "HTTP/1.1 100 Continue"],
      refused: refusal("too many requests of this client are being answered at once: at most 2 per client address (an IPv6 /64); wait for some to finish before sending more"),
      other: "HTTP/1.1 200 OK",
    });
  });
});
