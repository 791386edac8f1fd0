import { EventEmitter, once } from "node:events";
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRelay, createRelayApp, type Relay } from "../../src/bridge/playground/relay.js";
import { RelayPlaces } from "../../src/bridge/playground/relay-places.js";
import { RelayPlaceLedger, RemoteRelayPlaces } from "../../src/bridge/playground/shared-relay-places.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS } from "../../src/vfs/access.js";
import { requestContext } from "../../src/vfs/request-context.js";
import { writeRepo } from "../openapi/helpers.js";

/**
 * The relay's bounds on what callers hold (issue 25, adversary round 18 F3): calls in flight per
 * caller and in all, a hang-up stopping the upstream fetch, and the response size limit cutting
 * the read. The upstream is a real HTTP server on loopback; every wait is for an event (the
 * upstream seeing a request, or its socket close), never for time.
 */

/** Upstream requests held open (headers and a first piece sent, never ended), in arrival order. */
const held: { readonly res: ServerResponse; readonly socket: Socket }[] = [];
/** `request` when the upstream reads a held request, `closed` when one's socket closes (each with the request's URL). */
const upstreamEvents = new EventEmitter();
let upstream: Server;
let port: number;
let runtime: DocsRuntime;
let places: RelayPlaces;
let relay: Relay;
let server: ServerType;
let relayUrl: string;

const BINARY = Buffer.from(Array.from({ length: 100_001 }, (_, i) => (i * 7919) % 256));
const TEXT = "é€😀 line\n\"quoted\"\t".repeat(6_000);

/** The upstream's paths, each an operation of the spec with its own page. */
const PATHS = ["ok", "hold", "declared", "endless", "text", "binary"];

function onUpstream(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? "").split("?")[0];
  req.socket.once("close", () => upstreamEvents.emit("closed", req.url));
  if (path === "/v1/hold" || path === "/v1/declared") {
    res.writeHead(200, { "content-type": "text/plain", ...(path === "/v1/declared" ? { "content-length": "1000000" } : {}) });
    res.write("a");
    held.push({ res, socket: req.socket });
    upstreamEvents.emit("request", req.url);
  } else if (path === "/v1/endless") {
    // Chunked, no length: only the relay's count can stop it.
    res.writeHead(200, { "content-type": "text/plain" });
    const piece = Buffer.alloc(16 * 1024, 120);
    const more = (): void => {
      while (!res.destroyed && res.write(piece));
    };
    res.on("drain", more);
    more();
  } else if (path === "/v1/text") {
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    // Pieces of odd sizes: characters of 2, 3 and 4 bytes are split between them.
    const bytes = Buffer.from(TEXT, "utf8");
    for (let at = 0; at < bytes.length; at += 7_001) res.write(bytes.subarray(at, at + 7_001));
    res.end();
  } else if (path === "/v1/binary") {
    res.writeHead(200, { "content-type": "image/png" });
    for (let at = 0; at < BINARY.length; at += 10_000) res.write(BINARY.subarray(at, at + 10_000));
    res.end();
  } else {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("ok");
  }
}

beforeAll(async () => {
  upstream = createServer(onUpstream);
  port = await new Promise<number>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve((upstream.address() as AddressInfo).port)));
  const op = (summary: string) => ({ summary, tags: ["T"], responses: { "200": { description: "OK" } } });
  const root = writeRepo({
    "docs.json": { navigation: { groups: [{ group: "Local", openapi: "local.json", pages: PATHS.map((p) => `GET /${p}`) }] } },
    "local.json": {
      openapi: "3.0.3",
      info: { title: "Local", version: "1" },
      servers: [{ url: `http://127.0.0.1:${port}/v1` }],
      // An operation (and its page) per upstream path: the relay sends only the named page's own operation.
      paths: Object.fromEntries(PATHS.map((p) => [`/${p}`, { get: op(p[0]!.toUpperCase() + p.slice(1)) }])),
    },
  });
  runtime = await DocsRuntime.load({ root });
  // Two calls per caller, six in all, the last two kept for callers with none in flight.
  places = new RelayPlaces({ perCaller: 2, total: 6, newcomerReserve: 2 });
  // No time limit worth the name: what stops a call here must be the caller, the size or the bound.
  const limits = { maxResponseBytes: 256 * 1024, timeoutMs: 600_000 };
  const deps = { lookupPage: (p: string, context: Parameters<DocsRuntime["apiPage"]>[1]) => runtime.apiPage(p, context), limits, places };
  relay = createRelay(deps);
  const app = createRelayApp({ ...deps, callerOf: (c) => c.req.header("x-test-caller") ?? "address:127.0.0.1" });
  server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await once(server, "listening");
  relayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/_svc/api/request`;
});

afterEach(async () => {
  // Whatever a test left held upstream ends, and every place is given back before the next.
  for (const { res } of held.splice(0)) res.end();
  for (const caller of ["address:127.0.0.1", "a", "b", "c", "d", "mcp"]) await places.whenHolding(caller);
});

afterAll(async () => {
  server.close();
  upstream.close();
  await runtime.close();
});

let calls = 0;
/** A relay request to `path` upstream through its own operation's page, told apart from every other by its query (`?n=7`). */
const call = (path: string) => ({ page: `/api-reference/t${path}`, method: "GET", url: `http://127.0.0.1:${port}/v1${path}`, query: { n: String(++calls) } });

/** Resolves when the upstream socket of the request at `url` (path and query) closes. */
function closedOf(url: string): Promise<void> {
  return new Promise((resolve) => {
    const seen = (closed: string): void => {
      if (closed !== url) return;
      upstreamEvents.off("closed", seen);
      resolve();
    };
    upstreamEvents.on("closed", seen);
  });
}
/** `call`'s upstream URL (path and query), as the upstream reads it. */
const upstreamUrl = (body: ReturnType<typeof call>): string => `/v1${body.url.split("/v1")[1]}?n=${body.query.n}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted whole
async function post(path: string | ReturnType<typeof call>, caller?: string, url = relayUrl): Promise<{ status: number; retryAfter: string | null; json: any }> {
  const body = typeof path === "string" ? call(path) : path;
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...(caller !== undefined ? { "x-test-caller": caller } : {}) }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), json: await res.json() };
}

/** Start a relay call to a held path and resolve once the upstream has it (its answer is the promise's). */
async function holding(path: "/hold" | "/declared", caller?: string, url = relayUrl): Promise<{ answer: ReturnType<typeof post> }> {
  const seen = once(upstreamEvents, "request");
  const answer = post(path, caller, url);
  await seen;
  return { answer };
}

describe("relay calls in flight", () => {
  it("refuses a caller's third call in flight with 429 too_many_relay_requests, and takes it again once one ends", async () => {
    const first = await holding("/hold");
    const second = await holding("/hold");
    expect(await post("/ok")).toEqual({
      status: 429,
      retryAfter: "2",
      json: {
        error: {
          code: "too_many_relay_requests",
          message: "too many playground requests of this client in flight: at most 2 at once per client (an address, an IPv6 /64 or a token); wait for one to finish, then send again",
        },
      },
    });
    held.shift()!.res.end("b");
    expect((await first.answer).json).toMatchObject({ status: 200, body: "ab", encoding: "utf8" });
    await places.whenHolding("address:127.0.0.1", 1);
    expect((await post("/ok")).json).toMatchObject({ status: 200, body: "ok" });
    held.shift()!.res.end();
    expect((await second.answer).status).toBe(200);
  });

  it("keeps the last places for callers with none in flight: 503 relay_busy to one holding a call, a newcomer gets through", async () => {
    const calls = [await holding("/hold", "a"), await holding("/hold", "a"), await holding("/hold", "b"), await holding("/hold", "b")];
    expect(await post("/ok", "a")).toMatchObject({ status: 429 });
    // Four of six in flight: the last two are for callers with none. A newcomer takes one...
    calls.push(await holding("/hold", "c"));
    // ...but, holding one now, not the last.
    const busy = {
      status: 503,
      retryAfter: "2",
      json: { error: { code: "relay_busy", message: "the relay has as many requests in flight as it takes (6, the last 2 kept for clients with none in flight); try again in a moment" } },
    };
    expect(await post("/ok", "c")).toEqual(busy);
    calls.push(await holding("/hold", "d"));
    // All six taken: even a newcomer waits.
    expect(await post("/ok", "e")).toEqual(busy);
    for (const { res } of held.splice(0)) res.end();
    for (const c of calls) expect((await c.answer).status).toBe(200);
  });
});

describe("a caller that hangs up", () => {
  it("over HTTP: the relay closes its upstream connection at once, and gives its place back once that is closed", async () => {
    const seen = once(upstreamEvents, "request");
    const body = call("/hold");
    const client = httpRequest(relayUrl, { method: "POST", headers: { "content-type": "application/json" } });
    client.on("error", () => {});
    client.end(JSON.stringify(body));
    await seen;
    const closed = closedOf(upstreamUrl(body));
    client.destroy();
    // With no time limit on the call, only the hang-up can close it.
    await closed;
    held.splice(0);
    await places.whenHolding("address:127.0.0.1");
    expect(places.count).toBe(0);
  });

  it("through the MCP Apps' Send (its signal aborts: notifications/cancelled, a closed connection): the upstream connection closes, the call answers client_gone", async () => {
    const seen = once(upstreamEvents, "request");
    const cancel = new AbortController();
    const body = call("/hold");
    const answer = relay.send(body, requestContext(ANONYMOUS, "public", Date.now, "mcp"), 0, cancel.signal);
    await seen;
    expect(places.heldBy("mcp")).toBe(1);
    const closed = closedOf(upstreamUrl(body));
    cancel.abort();
    await closed;
    held.splice(0);
    expect(await answer).toEqual({ status: 503, body: { error: { code: "client_gone", message: "the client hung up; the upstream request was stopped" } } });
    await places.whenHolding("mcp");
  });
});

describe("the response size limit", () => {
  const TOO_LARGE = { code: "response_too_large", message: `the response of 127.0.0.1:PORT is over the relay's 262144-byte limit` };

  it("cuts an endless answer while reading it: 502 response_too_large, and the upstream connection closes", async () => {
    const body = call("/endless");
    const closed = closedOf(upstreamUrl(body));
    expect(await post(body)).toEqual({ status: 502, retryAfter: null, json: { error: { ...TOO_LARGE, message: TOO_LARGE.message.replace("PORT", String(port)) } } });
    await closed;
  });

  it("refuses an answer whose Content-Length is over the limit before reading its body", async () => {
    const body = call("/declared");
    const closed = closedOf(upstreamUrl(body));
    expect(await post(body)).toEqual({ status: 502, retryAfter: null, json: { error: { ...TOO_LARGE, message: TOO_LARGE.message.replace("PORT", String(port)) } } });
    await closed;
    held.splice(0);
  });
});

describe("answers encoded a step at a time", () => {
  it("relays text whose characters are split between pieces, whole", async () => {
    const r = await post("/text");
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 200, statusText: "OK", headers: { "content-type": "text/plain; charset=utf-8", date: expect.any(String) }, contentType: "text/plain; charset=utf-8", kind: "code", encoding: "utf8", body: TEXT });
  });

  it("relays binary of a length that is no multiple of 3, in base64, whole; the MCP Apps' answer is the same", async () => {
    const r = await post("/binary");
    expect(r.json).toEqual({ status: 200, statusText: "OK", headers: { "content-type": "image/png", date: expect.any(String) }, contentType: "image/png", kind: "image", encoding: "base64", body: BINARY.toString("base64") });
    const viaApps = await relay.send(call("/binary"), requestContext(ANONYMOUS, "public", Date.now, "mcp"));
    expect(viaApps).toEqual({ status: 200, body: { ...r.json, headers: { "content-type": "image/png", date: expect.any(String) } } });
  });
});

describe("a client slow to send its body (issue 25, adversary F1)", () => {
  // The process's own bounds: 16 places, 2 per caller, the last 4 kept for callers with none in flight.
  const places16 = new RelayPlaces();
  let slowServer: ServerType;
  let url: string;
  beforeAll(async () => {
    const app = createRelayApp({
      lookupPage: (p, context) => runtime.apiPage(p, context),
      limits: { timeoutMs: 600_000 },
      places: places16,
      callerOf: (c) => c.req.header("x-test-caller") ?? "address:127.0.0.1",
    });
    // As the bridge's error handler does (`isClientAbort`): a client that hung up mid-body is no fault to log.
    app.onError((_error, c) => c.json({ error: { code: "request_aborted", message: "the client hung up" } }, 400));
    slowServer = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await once(slowServer, "listening");
    url = `http://127.0.0.1:${(slowServer.address() as AddressInfo).port}/_svc/api/request`;
  });
  afterAll(() => void slowServer.close());

  /**
   * A call whose client sends its headers (the whole body's `Content-Length`) and the body's
   * first byte, then waits: resolves once the server has read the headers (its `request` event).
   * `send(n)` sends n more bytes (all that is left by default), `abort` hangs up.
   */
  async function trickling(caller: string): Promise<{ send: (n?: number) => void; abort: () => void; answer: Promise<{ status: number; json: unknown }> }> {
    const body = Buffer.from(JSON.stringify(call("/ok")));
    const req = httpRequest(url, { method: "POST", agent: false, headers: { "content-type": "application/json", "content-length": String(body.length), "x-test-caller": caller } });
    const answer = new Promise<{ status: number; json: unknown }>((resolve, reject) => {
      req.once("error", reject);
      req.once("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (b: Buffer) => chunks.push(b));
        res.once("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString()) as unknown }));
      });
    });
    let at = 0;
    const send = (n = body.length): void => {
      const end = Math.min(body.length, at + n);
      req.write(body.subarray(at, end));
      at = end;
      if (at === body.length) req.end();
    };
    const read = once(slowServer, "request");
    send(1);
    await read;
    return { send, abort: () => req.destroy(), answer };
  }

  it("holds no place while its body trickles in: 16 other callers take every place, and it is answered once its body is whole", async () => {
    // 16 callers each start a call and send a byte of its body: before, each took a place at its
    // headers and held it while the body trickled (Node's request timeout, 5.5 minutes).
    const slow = [];
    for (let i = 0; i < 16; i++) slow.push(await trickling(`slow-${i}`));
    // Another caller is answered at once...
    expect(await post("/ok", "first", url)).toMatchObject({ status: 200, json: { status: 200, body: "ok" } });
    // ...and 16 more, each holding a call upstream, take every place.
    const calls = [];
    for (let i = 0; i < 16; i++) calls.push(await holding("/hold", `victim-${i}`, url));
    expect(places16.count).toBe(16);
    // The bound stands: the 17th is refused.
    expect(await post("/ok", "victim-16", url)).toEqual({
      status: 503,
      retryAfter: "2",
      json: { error: { code: "relay_busy", message: "the relay has as many requests in flight as it takes (16, the last 4 kept for clients with none in flight); try again in a moment" } },
    });
    // The slow clients trickle on; half of them hang up.
    for (const s of slow) s.send(1);
    for (const s of slow.splice(8)) {
      s.answer.catch(() => {});
      s.abort();
    }
    for (const { res } of held.splice(0)) res.end();
    for (const c of calls) expect((await c.answer).status).toBe(200);
    for (let i = 0; i < 16; i++) await places16.whenHolding(`victim-${i}`);
    // Whole at last, each of the others is answered, as any call.
    for (const s of slow) s.send();
    for (const s of slow) expect(await s.answer).toMatchObject({ status: 200, json: { status: 200, body: "ok" } });
    for (let i = 0; i < 16; i++) await places16.whenHolding(`slow-${i}`);
    expect(places16.count).toBe(0);
  });
});

describe("the places of serve --http --workers N, counted by the primary (RelayPlaceLedger)", () => {
  it("counts every worker's takes together, gives a worker's places back when it exits, and takes nothing more for it", async () => {
    const ledger = new RelayPlaceLedger<number>(new RelayPlaces({ perCaller: 2, total: 3, newcomerReserve: 1 }));
    // Worker 1 and worker 2 each ask over a channel: the remote side of each, as a worker holds it.
    const remote = (owner: number) => new RemoteRelayPlaces(async (m) => ledger.answer(owner, m));
    const [one, two] = [remote(1), remote(2)];
    expect(await one.take("a")).toMatchObject({ ok: true });
    const second = await two.take("a");
    expect(await one.take("a")).toMatchObject({ ok: false, status: 429, code: "too_many_relay_requests" });
    expect(await one.take("b")).toMatchObject({ ok: true });
    expect(await two.take("c")).toMatchObject({ ok: false, status: 503, code: "relay_busy" });
    expect(ledger.count).toBe(3);
    // A release goes to the primary; given twice, it counts once.
    if (!second.ok) throw new Error("refused");
    second.release();
    second.release();
    await Promise.resolve();
    expect(ledger.count).toBe(2);
    // Worker 1 dies holding a's other place and b's: both are given back, and a late ask of worker 1 takes nothing.
    ledger.forget(1);
    expect(ledger.count).toBe(0);
    await expect(one.take("c")).rejects.toThrow("the worker process is gone");
    expect(ledger.count).toBe(0);
    expect(await two.take("a")).toMatchObject({ ok: true });
  });
});
