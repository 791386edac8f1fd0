import { type IncomingMessage, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startBridge } from "./harness.js";

/**
 * Quiet `subscriptions/listen` streams against the process's connection places (adversary round
 * 51 F6): each stream is a connection held for as long as its client likes, so a flood of them
 * from many addresses took every place, the reserves too, and from then on every newcomer was
 * answered `503 server_busy`, for good. Now a newcomer that finds the places full takes the place
 * of the oldest stream of the caller holding the most streams (closed with the spec's graceful
 * close, which tells its client to come back), and streams in all are held to half the places.
 * Real HTTP over loopback, each client its own 127/8 address, each request a connection of its own.
 */
const MODERN = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
const LISTEN = { jsonrpc: "2.0", id: 7, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: MODERN } };
const TOOLS_LIST = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: MODERN } };
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28" };
const ACK = `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/subscriptionId": 7 } } })}\n\n`;
/** What a shed stream's client reads after its acknowledgement: the listen request's result (the spec's graceful close), then the end. */
const GRACEFUL_CLOSE = `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 7, result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": 7 } } })}\n\n`;

/** A listen stream as its client sees it: everything read so far (keep-alive comments left out), and whether it ended. */
interface Stream {
  readonly from: string;
  readonly status: number;
  readonly text: () => string;
  readonly ended: Promise<string>;
  readonly close: () => void;
}

/** Keep-alive comments (`: keepalive`, every 15 s) say nothing about what the stream was told. */
const told = (text: string): string => text.replace(/^: keepalive\n\n/gm, "");

/** A listen request from `from` on a connection of its own; resolves once its acknowledgement (or a refusal) was read. */
function listenFrom(origin: string, from: string, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}/mcp`, { method: "POST", agent: false, localAddress: from, headers: { ...HEADERS, "mcp-method": "subscriptions/listen", ...headers } }, (res: IncomingMessage) => {
      let text = "";
      let announced = false;
      let end: (t: string) => void = () => {};
      const ended = new Promise<string>((done) => (end = done));
      const stream: Stream = { from, status: res.statusCode ?? 0, text: () => told(text), ended, close: () => res.destroy() };
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
        if (!announced && text.includes("\n\n")) {
          announced = true;
          resolve(stream);
        }
      });
      res.on("end", () => {
        end(told(text));
        if (!announced) resolve(stream);
      });
      res.on("error", () => end(`${told(text)}<error>`));
    });
    req.on("error", reject);
    req.end(JSON.stringify(LISTEN));
  });
}

/** A 2026-07-28 `tools/list` from `from` on a new connection: its status and the tool names, or the refusal's body. */
function toolsListFrom(origin: string, from: string, headers: Record<string, string> = {}): Promise<{ status: number; answer: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}/mcp`, { method: "POST", agent: false, localAddress: from, headers: { ...HEADERS, accept: "application/json", "mcp-method": "tools/list", ...headers } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => {
        const parsed = JSON.parse(body) as { result?: { tools: { name: string }[] } };
        resolve({ status: res.statusCode ?? 0, answer: parsed.result !== undefined ? parsed.result.tools.map((t) => t.name) : parsed });
      });
    });
    req.on("error", reject);
    req.end(JSON.stringify(TOOLS_LIST));
  });
}

const BUSY_MESSAGE = "the server has too many open connections: at most 12 at once, the last kept for signed-in readers and for clients with nothing open; try again in a few seconds";
const TOOLS = ["search_nimbus_storage", "query_docs_filesystem_nimbus_storage"];

describe("quiet listen streams do not lock newcomers out of the connection places (adversary round 51 F6)", () => {
  let h: Harness;
  const streams: Stream[] = [];
  beforeAll(async () => {
    // 12 places, the last 2 kept for signed-in callers and 2 before them for newcomers; streams
    // may take all 12 here (the bound on them is the next test's), 4 per caller.
    h = await startBridge({
      bridge: { holdLimits: { maxListenStreamsPerCaller: 4 } },
      listen: { maxConnections: 12, newcomerReserve: 2, signedInReserve: 2, maxQuietStreams: 12 },
    });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await h?.close();
  });
  const open = async (from: string): Promise<Stream> => {
    const stream = await listenFrom(h.origin, from);
    streams.push(stream);
    return stream;
  };

  it("a newcomer finding every place held by streams takes the place of the biggest holder's oldest, never an editor's", async () => {
    // The editor's stream is the oldest of all; then a flood fills every place anyone may take:
    // 127.0.0.2 its 4, 127.0.0.3 up to the newcomers' reserve, 127.0.0.4 and .5 the reserve.
    const editor = await open("127.0.0.9");
    const flood: Stream[] = [];
    for (const [from, count] of [["127.0.0.2", 4], ["127.0.0.3", 3], ["127.0.0.4", 1], ["127.0.0.5", 1]] as const) for (let i = 0; i < count; i++) flood.push(await open(from));
    expect([editor, ...flood].map((s) => [s.from, s.status, s.text()])).toEqual([["127.0.0.9", 200, ACK], ...flood.map((s) => [s.from, 200, ACK])]);
    // A newcomer: before, `503 server_busy`, and so for every newcomer while the streams stayed.
    const first = await toolsListFrom(h.origin, "127.0.0.50");
    expect(first).toEqual({ status: 200, answer: TOOLS });
    // The one closed is 127.0.0.2's oldest (it held the most), told to come back.
    expect(await flood[0]?.ended).toBe(ACK + GRACEFUL_CLOSE);
    // Coming back from 127.0.0.2 (holding 3) takes nobody's place: no one holds 2 more than it.
    const back = await listenFrom(h.origin, "127.0.0.2");
    expect([back.status, JSON.parse(back.text())]).toEqual([503, { jsonrpc: "2.0", id: null, error: { code: -32000, message: BUSY_MESSAGE, data: { reason: "server_busy" } } }]);
    // A fresh address of the flood takes the free place; the next newcomer again gets in: 127.0.0.2
    // and .3 hold 3 each, the older stream of the two goes (.2's); and after one more, .3's oldest.
    flood.push(await open("127.0.0.6"));
    const second = await toolsListFrom(h.origin, "127.0.0.51");
    flood.push(await open("127.0.0.7"));
    const third = await toolsListFrom(h.origin, "127.0.0.52");
    expect([second, third]).toEqual([
      { status: 200, answer: TOOLS },
      { status: 200, answer: TOOLS },
    ]);
    // Which were shed, as the server holds them (checked first: waiting on a stream not shed would not end).
    expect(h.bridge.quietStreams.held()).toEqual({ "127.0.0.2": 2, "127.0.0.3": 2, "127.0.0.4": 1, "127.0.0.5": 1, "127.0.0.6": 1, "127.0.0.7": 1, "127.0.0.9": 1 });
    expect([await flood[1]?.ended, await flood[4]?.ended]).toEqual([ACK + GRACEFUL_CLOSE, ACK + GRACEFUL_CLOSE]);
    // Every other stream, the editor's first, was told its acknowledgement and nothing else.
    expect([editor, ...flood].map((s) => [s.from, s.status, s.text()])).toEqual([
      ["127.0.0.9", 200, ACK],
      ["127.0.0.2", 200, ACK + GRACEFUL_CLOSE],
      ["127.0.0.2", 200, ACK + GRACEFUL_CLOSE],
      ["127.0.0.2", 200, ACK],
      ["127.0.0.2", 200, ACK],
      ["127.0.0.3", 200, ACK + GRACEFUL_CLOSE],
      ["127.0.0.3", 200, ACK],
      ["127.0.0.3", 200, ACK],
      ["127.0.0.4", 200, ACK],
      ["127.0.0.5", 200, ACK],
      ["127.0.0.6", 200, ACK],
      ["127.0.0.7", 200, ACK],
    ]);
  });
});

describe("listen streams are held to half the connection places", () => {
  let h: Harness;
  const streams: Stream[] = [];
  beforeAll(async () => {
    // 12 places: 6 streams at most (`LIMITS.bridge.maxQuietStreams` is half of `maxConnections`, whatever it is set to).
    h = await startBridge({ bridge: { holdLimits: { maxListenStreamsPerCaller: 4 } }, listen: { maxConnections: 12, newcomerReserve: 2, signedInReserve: 2 } });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await h?.close();
  });
  const open = async (from: string): Promise<Stream> => {
    const stream = await listenFrom(h.origin, from);
    streams.push(stream);
    return stream;
  };

  it("one more sheds the oldest of a caller holding two more than its own, never its own; refused otherwise", async () => {
    const opened: Stream[] = [];
    for (const from of ["127.0.0.9", "127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.3"]) opened.push(await open(from));
    // The 7th: 127.0.0.2 holds 4, 127.0.0.3 would hold 2: .2's oldest goes. The 8th: .2 holds 3,
    // .3 would hold 3: refused, its own oldest kept (a team behind one address replacing its own
    // streams in turn listened again for good: adversary round 52 F1). Then newcomers, each
    // holding none: .2's, .2's, .3's.
    for (const from of ["127.0.0.3", "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6"]) opened.push(await open(from));
    // Six callers holding one each: a seventh is refused, naming the bound; nobody's is shed for it.
    const refused = await open("127.0.0.7");
    const refusal = (from: string): unknown => ({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32000, message: "This server process holds its most open notification streams (6, half its connections: subscriptions/listen and session GET streams), and no other network or caller holds two more than this one's; retry later", data: { reason: "listen_streams", limit: 6 } },
      from,
    });
    const body = (s: Stream | undefined): unknown => (s === undefined ? undefined : { ...(JSON.parse(s.text()) as object), from: s.from });
    expect([refused.status, body(refused)]).toEqual([503, refusal("127.0.0.7")]);
    expect(h.bridge.quietStreams.held()).toEqual({ "127.0.0.2": 1, "127.0.0.3": 1, "127.0.0.4": 1, "127.0.0.5": 1, "127.0.0.6": 1, "127.0.0.9": 1 });
    const shed = [1, 2, 3, 5].map((i) => opened[i]);
    expect(await Promise.all(shed.map((s) => s?.ended))).toEqual(shed.map(() => ACK + GRACEFUL_CLOSE));
    expect(body(opened[7])).toEqual(refusal("127.0.0.3"));
    expect(opened.filter((_, i) => i !== 7).map((s) => [s.from, s.status, s.text()])).toEqual([
      ["127.0.0.9", 200, ACK],
      ["127.0.0.2", 200, ACK + GRACEFUL_CLOSE],
      ["127.0.0.2", 200, ACK + GRACEFUL_CLOSE],
      ["127.0.0.2", 200, ACK + GRACEFUL_CLOSE],
      ["127.0.0.2", 200, ACK],
      ["127.0.0.3", 200, ACK + GRACEFUL_CLOSE],
      ["127.0.0.3", 200, ACK],
      ["127.0.0.4", 200, ACK],
      ["127.0.0.5", 200, ACK],
      ["127.0.0.6", 200, ACK],
    ]);
    expect(opened[7]?.status).toBe(503);
  });
});

describe("listen streams' places are shared out by network first (adversary round 53 F1)", () => {
  let h: Harness;
  const streams: Stream[] = [];
  beforeAll(async () => {
    // 12 places, 6 streams at most; 127.1.0.x stands for a flood's network, 127.0.0.x for the readers'.
    h = await startBridge({ listen: { maxConnections: 12, newcomerReserve: 2, signedInReserve: 2 } });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await h?.close();
  });
  const open = async (from: string): Promise<Stream> => {
    const stream = await listenFrom(h.origin, from);
    streams.push(stream);
    return stream;
  };

  it("a newcomer's stream sheds the oldest of a network holding two more than its own, though each address there holds one", async () => {
    const flood: Stream[] = [];
    for (let k = 1; k <= 6; k++) flood.push(await open(`127.1.0.${k}`));
    // 127.1.0.x holds 6, 127.0.0.x none: 127.1.0.1's stream (the oldest) goes.
    const reader = await open("127.0.0.50");
    // Refused (as before networks were counted), nobody's stream would end.
    if (reader.status === 200) await flood[0]?.ended;
    // The flood's next address (its network 5, the readers' 1): no network holds two more, no
    // caller of its own network two more than it: refused, nobody's shed.
    const more = await open("127.1.0.7");
    expect({
      reader: [reader.status, reader.text()],
      more: [more.status, JSON.parse(more.text())],
      held: h.bridge.quietStreams.held(),
      flood: flood.map((s) => [s.from, s.text()]),
    }).toEqual({
      reader: [200, ACK],
      more: [
        503,
        {
          jsonrpc: "2.0",
          id: 7,
          error: { code: -32000, message: "This server process holds its most open notification streams (6, half its connections: subscriptions/listen and session GET streams), and no other network or caller holds two more than this one's; retry later", data: { reason: "listen_streams", limit: 6 } },
        },
      ],
      held: { "127.0.0.50": 1, "127.1.0.2": 1, "127.1.0.3": 1, "127.1.0.4": 1, "127.1.0.5": 1, "127.1.0.6": 1 },
      flood: [["127.1.0.1", ACK + GRACEFUL_CLOSE], ...[2, 3, 4, 5, 6].map((k) => [`127.1.0.${k}`, ACK])],
    });
  });
});

describe("behind --trust-proxy: requests being answered, by forwarded address", () => {
  let h: Harness;
  const streams: Stream[] = [];
  beforeAll(async () => {
    // 4 requests answered at once, the last kept for signed-in callers and one before it for newcomers.
    h = await startBridge({ bridge: { trustProxy: true }, listen: { maxConnections: 4, newcomerReserve: 1, signedInReserve: 1, maxQuietStreams: 4 } });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await h?.close();
  });
  const open = async (client: string): Promise<Stream> => {
    const stream = await listenFrom(h.origin, "127.0.0.1", { "x-forwarded-for": client });
    streams.push(stream);
    return stream;
  };

  it("a newcomer's request takes the place of the oldest stream of the client holding the most", async () => {
    const flood = [await open("203.0.113.1"), await open("203.0.113.1")];
    const editor = await open("203.0.113.2");
    // 203.0.113.1 asking for a third finds no place, and nobody holds two more than it.
    const more = await open("203.0.113.1");
    const newcomer = await toolsListFrom(h.origin, "127.0.0.1", { "x-forwarded-for": "203.0.113.3" });
    const message = "the server has too many requests being answered: at most 4 at once, the last kept for signed-in readers and for clients with nothing open; try again in a few seconds";
    expect({ more: [more.status, more.status === 503 ? JSON.parse(more.text()) : more.text()], newcomer }).toEqual({
      more: [503, { jsonrpc: "2.0", id: null, error: { code: -32000, message, data: { reason: "server_busy" } } }],
      newcomer: { status: 200, answer: TOOLS },
    });
    expect(h.bridge.quietStreams.held()).toEqual({ "203.0.113.1": 1, "203.0.113.2": 1 });
    expect(await flood[0]?.ended).toBe(ACK + GRACEFUL_CLOSE);
    expect([flood[1]?.text(), editor.text()]).toEqual([ACK, ACK]);
  });
});

/** A 2025 session opened from `from` (its `initialize` and `notifications/initialized`, each on a connection of its own): its id. */
async function sessionFrom(origin: string, from: string): Promise<string> {
  const post = (body: unknown, headers: Record<string, string>): Promise<{ status: number; session: string | undefined }> =>
    new Promise((resolve, reject) => {
      const req = request(`${origin}/mcp`, { method: "POST", agent: false, localAddress: from, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, session: res.headers["mcp-session-id"] as string | undefined }));
      });
      req.on("error", reject);
      req.end(JSON.stringify(body));
    });
  const opened = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }, {});
  if (opened.status !== 200 || opened.session === undefined) throw new Error(`initialize answered ${opened.status}`);
  const initialized = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": opened.session, "mcp-protocol-version": "2025-06-18" });
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return opened.session;
}

/** A 2025 session's GET stream from `from`; resolves once its headers were read (the stream says nothing until a notification). */
function getStreamFrom(origin: string, from: string, session: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}/mcp`, { method: "GET", agent: false, localAddress: from, headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" } }, (res: IncomingMessage) => {
      let text = "";
      let end: (t: string) => void = () => {};
      const ended = new Promise<string>((done) => (end = done));
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => end(`${told(text)}<end>`));
      res.on("error", () => end(`${told(text)}<error>`));
      res.on("close", () => end(`${told(text)}<closed>`));
      resolve({ from, status: res.statusCode ?? 0, text: () => told(text), ended, close: () => res.destroy() });
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a 2025 session's GET stream is a notification stream like a listen stream: bounded and shed alike", () => {
  let h: Harness;
  const streams: Stream[] = [];
  beforeAll(async () => {
    // 12 places, 6 notification streams at most, 4 per caller.
    h = await startBridge({ bridge: { holdLimits: { maxListenStreamsPerCaller: 4 } }, listen: { maxConnections: 12, newcomerReserve: 2, signedInReserve: 2 } });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await h?.close();
  });
  const get = async (from: string): Promise<Stream> => {
    const stream = await getStreamFrom(h.origin, from, await sessionFrom(h.origin, from));
    streams.push(stream);
    return stream;
  };

  it("one more sheds the oldest of a caller holding two more, listen or GET; a seventh caller holding one is refused", async () => {
    // Before, GET streams were not counted: every one of these opened, none was shed, and the
    // seventh caller's opened too.
    const opened: Stream[] = [];
    for (const from of ["127.0.0.9", "127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.3"]) opened.push(await get(from));
    // The 7th (.3, would hold 2): .2's oldest goes; a listen stream of .4: .2's next; .5: .2's
    // next (.2 and .3 hold 2 each, .2's oldest is older); .6: .3's oldest.
    opened.push(await get("127.0.0.3"));
    const listen = await listenFrom(h.origin, "127.0.0.4");
    streams.push(listen);
    for (const from of ["127.0.0.5", "127.0.0.6"]) opened.push(await get(from));
    expect(h.bridge.quietStreams.held()).toEqual({ "127.0.0.2": 1, "127.0.0.3": 1, "127.0.0.4": 1, "127.0.0.5": 1, "127.0.0.6": 1, "127.0.0.9": 1 });
    const shed = [1, 2, 3, 5].map((i) => opened[i]);
    expect(await Promise.all(shed.map((s) => s?.ended))).toEqual(shed.map(() => "<end>"));
    // Six callers holding one each: the seventh's GET is refused, naming the bound.
    const refused = await getStreamFrom(h.origin, "127.0.0.7", await sessionFrom(h.origin, "127.0.0.7"));
    expect([refused.status, JSON.parse((await refused.ended).replace(/<end>$/, ""))]).toEqual([
      503,
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, message: "This server process holds its most open notification streams (6, half its connections: subscriptions/listen and session GET streams), and no other network or caller holds two more than this one's; retry later", data: { reason: "listen_streams", limit: 6 } },
      },
    ]);
    expect([...opened.map((s) => [s.from, s.status, s.text()]), [listen.from, listen.status, listen.text()]]).toEqual([
      ["127.0.0.9", 200, ""],
      ["127.0.0.2", 200, ""],
      ["127.0.0.2", 200, ""],
      ["127.0.0.2", 200, ""],
      ["127.0.0.2", 200, ""],
      ["127.0.0.3", 200, ""],
      ["127.0.0.3", 200, ""],
      ["127.0.0.5", 200, ""],
      ["127.0.0.6", 200, ""],
      ["127.0.0.4", 200, ACK],
    ]);
  });
});

describe("behind --trust-proxy: places shared out by the forwarded address's network first (adversary round 53 F1)", () => {
  let h: Harness;
  const streams: Stream[] = [];
  beforeAll(async () => {
    // 4 requests answered at once, the last kept for signed-in callers and one before it for newcomers.
    h = await startBridge({ bridge: { trustProxy: true }, listen: { maxConnections: 4, newcomerReserve: 1, signedInReserve: 1, maxQuietStreams: 4 } });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await h?.close();
  });
  const open = async (client: string): Promise<Stream> => {
    const stream = await listenFrom(h.origin, "127.0.0.1", { "x-forwarded-for": client });
    streams.push(stream);
    return stream;
  };

  it("a newcomer of another network takes the place of the oldest stream of a network holding two more, each of its clients holding one", async () => {
    const flood = [await open("203.0.113.1"), await open("203.0.113.2"), await open("203.0.113.3")];
    const newcomer = await toolsListFrom(h.origin, "127.0.0.1", { "x-forwarded-for": "198.51.100.7" });
    // Refused (as before networks were counted), nobody's stream would end.
    if (newcomer.status === 200) await flood[0]?.ended;
    expect({ newcomer, held: h.bridge.quietStreams.held(), flood: flood.map((s) => s.text()) }).toEqual({
      newcomer: { status: 200, answer: TOOLS },
      held: { "203.0.113.2": 1, "203.0.113.3": 1 },
      flood: [ACK + GRACEFUL_CLOSE, ACK, ACK],
    });
  });
});
