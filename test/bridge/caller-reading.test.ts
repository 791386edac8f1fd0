import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningServer } from "../../src/bridge/http-server.js";
import { LIMITS } from "../../src/limits.js";
import { type Harness, startBridge } from "./harness.js";

/**
 * Which connections the server reads (issue 25): one address's flood of searches, each on a new
 * connection, was read (queued, or refused 429) ahead of another caller's request, which waited
 * behind all of it. Now a caller's new connections are read 8 at a time
 * (`LIMITS.bridge.maxConnectionsReadPerCaller`), the rest waiting unread in the kernel, so
 * another caller's request is read and answered at once, and the flood is answered in turn
 * rather than refused. Order, not time, is what is checked: every request is in the server's
 * sockets before it reads any of them (written in one synchronous run), and the order answers
 * arrive in is the order the server wrote them.
 */
interface Answer {
  readonly status: number;
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

/** The answer to what was written on `socket` (`Connection: close`: the whole of it, up to the close). */
function answer(socket: Socket): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.once("error", reject);
    socket.once("close", () => {
      const text = Buffer.concat(chunks).toString();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
  });
}

/** The first bytes of an answer that stays open (an event stream): its head. */
function head(socket: Socket): Promise<string> {
  return new Promise((resolve) => socket.once("data", (chunk: Buffer) => resolve(chunk.toString().split("\r\n")[0] ?? "")));
}

const get = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;
const search = (n: number): string => get(`/_svc/preview/search?query=${encodeURIComponent(`how do I store objects in a bucket, question ${n}`)}&pageSize=50`);

describe("connections read per caller", () => {
  let h: Harness;
  let server: RunningServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    h = await startBridge({ apps: true });
    server = await listen(h.bridge, { host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await server?.close();
    await h?.close();
  });
  const opened = async (from: string, n: number): Promise<Socket[]> => {
    const made = await Promise.all(Array.from({ length: n }, () => open(server.port, from)));
    sockets.push(...made);
    return made;
  };

  it("another caller's request is answered before a flood of searches on new connections, and the flood is answered in turn, none refused", async () => {
    // The victim's route warm (its first answer builds what later ones reuse), as on a server that has been serving.
    const [warm] = await opened("127.0.0.3", 1);
    const warmed = answer(warm!);
    warm!.write(get("/.well-known/mcp.json"));
    expect((await warmed).status).toBe(200);
    const flood = await opened("127.0.0.2", 40);
    const [victim] = await opened("127.0.0.3", 1);
    const order: string[] = [];
    const floodAnswers = flood.map((s) => answer(s).then((a) => (order.push("flood"), a)));
    const victimAnswer = answer(victim!).then((a) => (order.push("victim"), a));
    // All in the server's sockets before it reads any: the flood's first, the victim's last.
    flood.forEach((s, n) => s.write(search(n)));
    victim!.write(get("/.well-known/mcp.json"));
    const [answers, mine] = await Promise.all([Promise.all(floodAnswers), victimAnswer]);
    expect(mine.status).toBe(200);
    expect(JSON.parse(mine.body)).toMatchObject({ name: expect.any(String) });
    // Before (one connection accepted per turn of the event loop, a search in every turn): the
    // victim's connection was accepted after the flood's 40, and answered after all 40. Now it is read
    // with the flood's first 8 and answered before their searches are done: at most the one whose
    // turn came as the victim's request was read (its answer takes a turn of I/O) goes first.
    const before = order.indexOf("victim");
    expect({ victimAfterAllRead: before >= LIMITS.bridge.maxConnectionsReadPerCaller, statuses: [...new Set(answers.map((a) => a.status))] }).toEqual({ victimAfterAllRead: false, statuses: [200] });
    expect(answers.every((a) => (JSON.parse(a.body) as { results: unknown[] }).results.length > 0)).toBe(true);
  });

  it("a caller's open event streams do not hold its turn to be read", async () => {
    // More live-reload streams than connections read at once: each stays open, answered.
    const streams = await opened("127.0.0.4", LIMITS.bridge.maxConnectionsReadPerCaller + 1);
    const heads = streams.map(head);
    for (const s of streams) s.write(`GET /_svc/preview/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(await Promise.all(heads)).toEqual(streams.map(() => "HTTP/1.1 200 OK"));
    const [next] = await opened("127.0.0.4", 1);
    const answered = answer(next!);
    next!.write(get("/.well-known/mcp.json"));
    expect((await answered).status).toBe(200);
  });

  it("a caller's connections that send nothing do not hold its others unread", async () => {
    // As many idle connections as are read at once (a browser's speculative ones): each gives its place back.
    await opened("127.0.0.5", LIMITS.bridge.maxConnectionsReadPerCaller);
    const [next] = await opened("127.0.0.5", 1);
    const answered = answer(next!);
    next!.write(get("/.well-known/mcp.json"));
    expect((await answered).status).toBe(200);
  });
});
