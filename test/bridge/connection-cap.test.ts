import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningServer } from "../../src/bridge/http-server.js";
import { credentialTokens, type Harness, INIT, postJson, startBridge } from "./harness.js";

/**
 * The process's bound on open connections, every caller's together (issue 25: many addresses
 * together could take every file descriptor, and then nobody was answered). Past it a new
 * connection is answered `503 server_busy` with `Retry-After` and closed; the last places are kept
 * for callers holding no connection and, last of all, for callers seen signed in; the per-caller
 * bound still answers 429 below it. The server here: 8 places, 2 kept for signed-in callers and 2
 * before them for newcomers, 3 per caller, 2 refused connections waiting for their request.
 * The places are held by connections kept alive after an answer, which a newcomer may otherwise
 * take (`idle-connections.test.ts`): not here, where the bound itself is tested.
 */
interface Answer {
  readonly status: string;
  readonly retryAfter: string | undefined;
  readonly connection: string | undefined;
  readonly body: string;
}

/** A connection from `from` (any 127/8 address reaches the loopback server). */
function open(port: number, from: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress: from });
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Send one request on `socket` and read its whole answer. */
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
      resolve({ status: lines[0] ?? "", retryAfter: header("retry-after"), connection: header("connection"), body: received.subarray(end + 4, end + 4 + length).toString() });
    };
    socket.on("data", onData);
    socket.once("error", reject);
    socket.write(head);
  });
}

/** Whether the server closed `socket`, and what it wrote first (nothing, for one closed unread). */
function closedWith(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let got = "";
    socket.on("data", (d: Buffer) => (got += d.toString()));
    if (socket.closed) resolve(got);
    else socket.once("close", () => resolve(got));
  });
}

const GET = `GET /.well-known/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
const OK = "HTTP/1.1 200 OK";
const BUSY_MESSAGE = "the server has too many open connections: at most 8 at once, the last kept for signed-in readers and for clients with nothing open; try again in a few seconds";
const BUSY: Answer = { status: "HTTP/1.1 503 Service Unavailable", retryAfter: "5", connection: "close", body: JSON.stringify({ error: { code: "server_busy", message: BUSY_MESSAGE } }) };

describe("the process's bound on open connections", () => {
  let h: Harness;
  let server: RunningServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    h = await startBridge({});
    server = await listen(h.bridge, { host: "127.0.0.1", port: 0, maxConnections: 8, newcomerReserve: 2, signedInReserve: 2, maxConnectionsPerCaller: 3, maxRefusedWaiting: 2, shedIdle: false });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await server?.close();
    await h?.close();
  });
  const opened = async (from: string): Promise<Socket> => {
    const socket = await open(server.port, from);
    sockets.push(socket);
    return socket;
  };
  /** A request on a new connection from `from`; the connection stays open when it is served. */
  const ask = async (from: string, head = GET): Promise<Answer> => {
    const socket = await opened(from);
    const answer = await exchange(socket, head);
    if (answer.connection === "close") await closedWith(socket);
    return answer;
  };
  const status = async (from: string): Promise<string> => {
    const answer = await ask(from);
    return answer.status === OK ? OK : JSON.stringify(answer);
  };

  it("refuses 503 past it, keeps the last places for newcomers and signed-in callers, and the per-caller 429 still holds", async () => {
    // One address takes its 3 (the 4th is its own bound's 429), another 1: the 4 open to anyone.
    const crowd = [await status("127.0.0.2"), await status("127.0.0.2"), await status("127.0.0.2")];
    const ownBound = await ask("127.0.0.2");
    const fourth = await status("127.0.0.3");
    // Callers already holding one are refused now, on every path in its shape.
    const refused = await ask("127.0.0.3");
    const refusedMcp = await ask("127.0.0.2", `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
    // Newcomers take the next 2; then only a signed-in caller gets in, twice.
    const newcomers = [await status("127.0.0.4"), await status("127.0.0.5")];
    const lateNewcomer = await ask("127.0.0.6");
    h.bridge.signedIn.mark("127.0.0.7");
    const signedIn = [await status("127.0.0.7"), await status("127.0.0.7")];
    const full = await ask("127.0.0.7");
    expect({ crowd, ownBound: ownBound.status, fourth, refused, refusedMcp, newcomers, lateNewcomer, signedIn, full }).toEqual({
      crowd: [OK, OK, OK],
      ownBound: "HTTP/1.1 429 Too Many Requests",
      fourth: OK,
      refused: BUSY,
      refusedMcp: { ...BUSY, body: JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: BUSY_MESSAGE, data: { reason: "server_busy" } } }) },
      newcomers: [OK, OK],
      lateNewcomer: BUSY,
      signedIn: [OK, OK],
      full: BUSY,
    });
  });

  it("waits for the request of at most 2 refused connections at once; past that one is closed unread", async () => {
    const [a, b] = [await opened("127.0.0.8"), await opened("127.0.0.8")];
    const third = await opened("127.0.0.8");
    // Closed unread: nothing written back to its request (the code before answered it 200).
    const unread = await Promise.race([closedWith(third), exchange(third, GET).then((a) => a.status, () => "")]);
    const told = await exchange(a, GET);
    expect({ unread, told, b: b.closed }).toEqual({ unread: "", told: BUSY, b: false });
  });

  it("gives a place back when a connection closes", async () => {
    const mine = sockets.filter((s) => s.localAddress === "127.0.0.4" && !s.closed);
    expect(mine.length).toBe(1);
    (mine[0] as Socket).destroy();
    // The server sees the close on its own time: the signed-in caller refused above (all 8 taken)
    // is admitted once it has.
    let answer = await ask("127.0.0.7");
    while (answer.status !== OK) answer = await ask("127.0.0.7");
    expect([answer.status, (await ask("127.0.0.7")).status]).toEqual([OK, BUSY.status]);
  });
});

describe("who counts as signed in", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startBridge({});
  });
  afterAll(async () => h?.close());

  it("a caller whose bearer token verified on /authed/mcp; not one whose token did not, nor an anonymous one", async () => {
    const headers = { accept: "application/json, text/event-stream" };
    await postJson(`${h.origin}/mcp`, INIT, headers);
    const anonymous = h.bridge.signedIn.has("127.0.0.1");
    const bad = (await postJson(`${h.origin}/authed/mcp`, INIT, { ...headers, authorization: "Bearer not-a-token" })).status;
    const afterBad = h.bridge.signedIn.has("127.0.0.1");
    const { access_token } = await credentialTokens(h);
    const good = (await postJson(`${h.origin}/authed/mcp`, INIT, { ...headers, authorization: `Bearer ${access_token}` })).status;
    expect({ anonymous, bad, afterBad, good, signedIn: h.bridge.signedIn.has("127.0.0.1") }).toEqual({ anonymous: false, bad: 401, afterBad: false, good: 200, signedIn: true });
  });
});

describe("behind --trust-proxy: requests being answered, by forwarded address", () => {
  let h: Harness;
  let server: RunningServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    h = await startBridge({ bridge: { trustProxy: true } });
    server = await listen(h.bridge, { host: "127.0.0.1", port: 0, maxConnections: 4, newcomerReserve: 1, signedInReserve: 1 });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await server?.close();
    await h?.close();
  });
  const opened = async (): Promise<Socket> => {
    const socket = await open(server.port, "127.0.0.1");
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
  const get = async (client: string): Promise<Answer> => exchange(await opened(), `GET /.well-known/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${client}\r\n\r\n`);

  it("refuses 503 past the open places, keeping the reserves for a newcomer and a signed-in caller", async () => {
    const crowd = [await held("203.0.113.1"), await held("203.0.113.1")];
    const more = await get("203.0.113.1");
    const newcomer = await held("203.0.113.2");
    const lateNewcomer = await get("203.0.113.3");
    h.bridge.signedIn.mark("203.0.113.4");
    const signedIn = (await get("203.0.113.4")).status;
    const message = "the server has too many requests being answered: at most 4 at once, the last kept for signed-in readers and for clients with nothing open; try again in a few seconds";
    const busy: Answer = { status: "HTTP/1.1 503 Service Unavailable", retryAfter: "5", connection: "close", body: JSON.stringify({ error: { code: "server_busy", message } }) };
    expect({ crowd, more, newcomer, lateNewcomer, signedIn }).toEqual({
      crowd: ["HTTP/1.1 100 Continue", "HTTP/1.1 100 Continue"],
      more: busy,
      newcomer: "HTTP/1.1 100 Continue",
      lateNewcomer: busy,
      signedIn: OK,
    });
  });
});

describe("a refused connection's time to send its request", () => {
  let h: Harness;
  let server: RunningServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    h = await startBridge({});
    server = await listen(h.bridge, { host: "127.0.0.1", port: 0, maxConnections: 2, newcomerReserve: 0, signedInReserve: 0, maxConnectionsPerCaller: 3, maxRefusedWaiting: 2, refusedRequestMs: 300 });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await server?.close();
    await h?.close();
  });

  it("is a deadline in all: a request trickled a byte at a time does not hold the place (adversary round 13)", async () => {
    const { port } = server;
    for (let i = 0; i < 2; i++) sockets.push(await open(port, "127.0.0.5"));
    const trickler = await open(port, "127.0.0.6");
    sockets.push(trickler);
    // A header that never ends, a byte every 50 ms: an idle timeout of any length above that never fires.
    const header = `GET /.well-known/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${"a".repeat(100_000)}`;
    let sent = 0;
    const timer = setInterval(() => {
      if (!trickler.destroyed) trickler.write(header[sent++ % header.length] as string);
    }, 50);
    const written = await closedWith(trickler);
    clearInterval(timer);
    expect({ written, closed: trickler.closed }).toEqual({ written: "", closed: true });
  });
});
