import { connect, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
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
      // A connection closed before its answer says so, rather than waiting for good.
      void closed.then(() => waiting?.({ status: "<closed>", body: "" }));
      resolve({
        label,
        socket,
        closed,
        get: (path) =>
          new Promise((done) => {
            if (socket.closed) return done({ status: "<closed>", body: "" });
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

/**
 * The places shared out by network first (an IPv4 /24, an IPv6 /48; adversary round 53 F1):
 * addresses holding one connection each, silent (no request yet) or kept alive, held every place,
 * none holding two more than a newcomer, so every newcomer was answered `503`, and a flood's own
 * reconnect took a reader's second connection. Loopback addresses stand for networks here:
 * 127.1.0.x and 127.2.0.x are floods' networks, 127.0.0.x the readers'.
 */
describe("connection places by network", () => {
  const card = "/.well-known/mcp/server-card.json";
  const OK = { status: "HTTP/1.1 200 OK" };
  const BUSY = {
    status: "HTTP/1.1 503 Service Unavailable",
    body: { error: { code: "server_busy", message: "the server has too many open connections: at most 12 at once, the last kept for signed-in readers and for clients with nothing open; try again in a few seconds" } },
  };
  let h: Harness;
  const all: Connection[] = [];
  let closed: string[] = [];
  beforeEach(async () => {
    // 12 places: 10 for callers not signed in (the last 2 of them for callers holding none), 2 for the signed-in.
    h = await startBridge({ listen: { maxConnections: 12, newcomerReserve: 2, signedInReserve: 2, firstRequestMs: 120_000 } });
    closed = [];
  });
  afterEach(async () => {
    for (const c of all.splice(0)) c.socket.destroy();
    await h?.close();
  });
  const connect = async (from: string, label: string): Promise<Connection> => {
    const c = await open(Number(new URL(h.origin).port), from, label);
    all.push(c);
    void c.closed.then((l) => closed.push(l));
    return c;
  };
  /** The answer's status, and its body read as JSON unless it is a 200's (the card) or none. */
  const ask = async (c: Connection): Promise<{ status: string; body?: unknown }> => {
    const { status, body } = await c.get(card);
    return status === OK.status || body === "" ? { status } : { status, body: JSON.parse(body) };
  };

  it("a newcomer takes the place of the heaviest network's connection quiet the longest, silent or idle, while that network holds two more than its own", async () => {
    // 127.1.0.1 and .2 open a connection each and send nothing; .3 to .7 one each, kept alive
    // after a GET; 127.2.0.1 to .3 one each likewise: 10 places held, one per address.
    const flood = [await connect("127.1.0.1", "1.1"), await connect("127.1.0.2", "1.2")];
    const keptAlive = [...[3, 4, 5, 6, 7].map((k) => `1.${k}`), ...[1, 2, 3].map((k) => `2.${k}`)];
    for (const label of keptAlive) {
      const c = await connect(`127.${label.replace(".", ".0.")}`, label);
      flood.push(c);
      expect(await ask(c)).toEqual(OK);
    }
    // Three newcomers of 127.0.0.x: each in place of one of 127.1.0.x's (7, 6, 5 against 0, 1, 2),
    // the silent ones first (quiet since they opened), then the idle one quiet the longest.
    const newcomers: Connection[] = [];
    const answers = [];
    for (const [i, k] of [50, 51, 52].entries()) {
      const c = await connect(`127.0.0.${k}`, `0.${k}`);
      newcomers.push(c);
      answers.push(await ask(c));
      // Each newcomer's answer is awaited with the close it caused (if any), so the order is theirs.
      if (answers[i]?.status === OK.status) await flood[i]?.closed;
    }
    expect({ answers, closed }).toEqual({ answers: [OK, OK, OK], closed: ["1.1", "1.2", "1.3"] });
    // A fourth finds no network holding two more than its own (127.1.0.x 4, 127.2.0.x 3, its own
    // 3), and no caller of its own holding two more than it: refused, as is the flood's reconnect.
    const refused = [];
    for (const [from, label] of [["127.0.0.53", "0.53"], ["127.1.0.1", "1.1 again"]] as const) {
      const c = await connect(from, label);
      refused.push(await ask(c));
      if (refused.at(-1)?.status !== OK.status) await c.closed;
    }
    expect({ refused, closed }).toEqual({ refused: [BUSY, BUSY], closed: ["1.1", "1.2", "1.3", "0.53", "1.1 again"] });
    // Every connection not closed still answers.
    const still = [];
    for (const c of [...flood.slice(3), ...newcomers]) still.push(await ask(c));
    expect(still).toEqual(Array.from({ length: 10 }, () => OK));
  });

  it("a flood's reconnects never take a reader's second connection, its network holding fewer; a newcomer of the reader's network takes a flood's place", async () => {
    // 127.0.0.9 holds 2 kept alive; 127.1.0.1 to .8 one each, silent: 10 places held.
    const reader = [await connect("127.0.0.9", "r.0"), await connect("127.0.0.9", "r.1")];
    const readerFirst = [await ask(reader[0] as Connection), await ask(reader[1] as Connection)];
    const flood = [];
    for (let k = 1; k <= 8; k++) flood.push(await connect(`127.1.0.${k}`, `1.${k}`));
    // A flood address holding nothing: before, the reader (2, against its 0) lost its oldest.
    const reconnect = await connect("127.1.0.9", "1.9");
    const refused = await ask(reconnect);
    if (refused.status !== OK.status) await reconnect.closed;
    const readerAfter = [await ask(reader[0] as Connection), await ask(reader[1] as Connection)];
    // A newcomer of the reader's network (holding 2, the flood's 8): in place of the flood's oldest.
    const newcomer = await connect("127.0.0.50", "0.50");
    const answer = await ask(newcomer);
    if (answer.status === OK.status) await flood[0]?.closed;
    expect({ readerFirst, refused, readerAfter, answer, closed }).toEqual({ readerFirst: [OK, OK], refused: BUSY, readerAfter: [OK, OK], answer: OK, closed: ["1.9", "1.1"] });
  });
});
