import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningServer } from "../../src/bridge/http-server.js";
import { type Harness, startBridge } from "./harness.js";

/**
 * A flood of searches on new connections must not hold another caller's request (issue 25).
 * Node 20 accepts one connection per turn of the event loop, and a search runs in every turn, so
 * with the kernel's queue of connections to accept full of a flood's, another caller's new
 * connection waited behind all of them, one search each: seconds under a real flood.
 *
 * Order, not time, is checked: every connection is made (in the kernel's queue) and every
 * request written (in its socket) before the server accepts most of them, the victim's last;
 * the order the answers arrive in is the order the server wrote them.
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

const get = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;
const search = (n: number): string => get(`/_svc/preview/search?query=${encodeURIComponent(`how do I store objects in a bucket, question ${n}`)}&pageSize=50`);

/** Flood callers and how many searches each sends at once (each caller's preview searches held are bounded to 8). */
const FLOOD_CALLERS = ["127.0.0.20", "127.0.0.21", "127.0.0.22", "127.0.0.23", "127.0.0.24"];
const PER_CALLER = 8;

describe("a flood of searches on new connections", () => {
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

  it("another caller's request, queued behind the flood's connections, is answered before the flood's searches are", async () => {
    // The routes warm (a first answer builds what later ones reuse), as on a server that has been serving.
    for (const path of ["/.well-known/mcp.json", "/_svc/preview/search?query=warm&pageSize=50"]) {
      const [warm] = [await open(server.port, "127.0.0.3")];
      sockets.push(warm);
      const warmed = answer(warm);
      warm.write(get(path));
      expect((await warmed).status).toBe(200);
    }
    // Connected (the kernel completes a loopback connection before the server accepts it) all in
    // one go: the flood's first, the victim's last in the queue of connections to accept.
    const flood = await Promise.all(FLOOD_CALLERS.flatMap((from) => Array.from({ length: PER_CALLER }, () => open(server.port, from))));
    const victim = await open(server.port, "127.0.0.3");
    sockets.push(...flood, victim);
    const order: string[] = [];
    const floodAnswers = flood.map((s) => answer(s).then((a) => (order.push("flood"), a)));
    const victimAnswer = answer(victim).then((a) => (order.push("victim"), a));
    // Every request in its socket before the server reads any of them.
    flood.forEach((s, n) => s.write(search(n)));
    victim.write(get("/.well-known/mcp.json"));
    const [answers, mine] = await Promise.all([Promise.all(floodAnswers), victimAnswer]);
    expect(mine.status).toBe(200);
    expect(JSON.parse(mine.body)).toMatchObject({ name: expect.any(String) });
    // Before: the victim's connection was accepted after the flood's 40, one search run per
    // accept, so it was answered after (nearly) all 40. Now searches give way while connections
    // are being accepted: the victim is read with the flood and answered before their searches.
    expect({ floodAnsweredFirst: order.indexOf("victim") <= FLOOD_CALLERS.length, statuses: [...new Set(answers.map((a) => a.status))] }).toEqual({ floodAnsweredFirst: true, statuses: [200] });
    expect(answers.every((a) => (JSON.parse(a.body) as { results: unknown[] }).results.length > 0)).toBe(true);
  });
});
