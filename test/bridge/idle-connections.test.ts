import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startBridge } from "./harness.js";

/**
 * Idle keep-alive connections against the process's connection places (adversary round 52 F2):
 * a connection kept alive between requests holds its place while doing nothing, so many
 * addresses each sending a request now and then held every place, the reserves too, and every
 * newcomer was answered `503 server_busy`. Now a newcomer finding no place takes the place of the
 * oldest idle connection of the caller holding the most, if it holds at least two more. Real
 * HTTP over loopback, each client its own 127/8 address.
 */
interface Connection {
  readonly label: string;
  readonly socket: Socket;
  /** Resolves with the next whole answer's status line and body. */
  readonly get: (path: string) => Promise<{ status: string; body: string }>;
  readonly closed: Promise<string>;
}

function open(port: number, from: string, label: string): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress: from }, () => {
      let buffer = "";
      let waiting: ((a: { status: string; body: string }) => void) | undefined;
      const parse = (): void => {
        const head = buffer.indexOf("\r\n\r\n");
        if (head === -1 || waiting === undefined) return;
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(buffer.slice(0, head))?.[1] ?? 0);
        if (buffer.length < head + 4 + length) return;
        const answer = { status: buffer.slice(0, buffer.indexOf("\r\n")), body: buffer.slice(head + 4, head + 4 + length) };
        buffer = buffer.slice(head + 4 + length);
        const done = waiting;
        waiting = undefined;
        done(answer);
      };
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => {
        buffer += chunk;
        parse();
      });
      socket.on("error", () => {});
      const closed = new Promise<string>((done) => socket.once("close", () => done(label)));
      resolve({
        label,
        socket,
        closed,
        get: (path) =>
          new Promise((done) => {
            waiting = done;
            socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
            parse();
          }),
      });
    });
    socket.once("error", reject);
  });
}

describe("idle keep-alive connections and the connection places", () => {
  let h: Harness;
  const all: Connection[] = [];
  beforeAll(async () => {
    // 12 places: callers holding one or more may fill 8, newcomers 2 more, the signed-in the last 2.
    h = await startBridge({ listen: { maxConnections: 12, newcomerReserve: 2, signedInReserve: 2 } });
  });
  afterAll(async () => {
    for (const c of all) c.socket.destroy();
    await h?.close();
  });

  it("a newcomer finding every place held takes the place of the oldest idle connection of the caller holding the most, never a caller's only one", async () => {
    const port = Number(new URL(h.origin).port);
    const closed: string[] = [];
    const connect = async (from: string, label: string): Promise<Connection> => {
      const c = await open(port, from, label);
      all.push(c);
      void c.closed.then((l) => closed.push(l));
      return c;
    };
    const card = "/.well-known/mcp/server-card.json";
    // 127.0.0.2 holds 8, each after one answer kept alive; two editors hold one each.
    const flood: Connection[] = [];
    for (let k = 0; k < 8; k++) flood.push(await connect("127.0.0.2", `2#${k}`));
    const editors = [await connect("127.0.0.3", "3#0"), await connect("127.0.0.4", "4#0")];
    const statuses = [];
    for (const c of [...flood, ...editors]) statuses.push((await c.get(card)).status);
    expect(statuses).toEqual(Array.from({ length: 10 }, () => "HTTP/1.1 200 OK"));
    // Two newcomers: each is answered, in place of 127.0.0.2's oldest idle connections.
    const newcomers = [await connect("127.0.0.5", "5#0"), await connect("127.0.0.6", "6#0")];
    const answered = [];
    for (const c of newcomers) answered.push((await c.get(card)).status);
    expect(answered).toEqual(["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"]);
    await Promise.all([flood[0]?.closed, flood[1]?.closed]);
    expect(closed).toEqual(["2#0", "2#1"]);
    // 127.0.0.2 (6 now) opening one more finds nobody holding two more than it: refused.
    const again = await connect("127.0.0.2", "2#8");
    const refused = await again.get(card);
    expect([refused.status, JSON.parse(refused.body)]).toEqual([
      "HTTP/1.1 503 Service Unavailable",
      { error: { code: "server_busy", message: "the server has too many open connections: at most 12 at once, the last kept for signed-in readers and for clients with nothing open; try again in a few seconds" } },
    ]);
    // The editors' only connections were never closed for anyone.
    expect(closed).toEqual(["2#0", "2#1"]);
  });
});
