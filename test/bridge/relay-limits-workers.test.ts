import { EventEmitter, once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeRepo } from "../openapi/helpers.js";
import { type Answer, Connection, startWorkers, stopProcess, type WorkersProcess } from "../helpers/workers.js";
import { tempDir } from "./harness.js";

/**
 * The relay's places under `serve --http --workers 2` (issue 25): the primary counts them for
 * both workers, so a caller's bound (2) and the total (16, the last 4 for callers with none in
 * flight) hold for the server, answered with the same 429 / 503 bodies as one process; the places
 * of a worker that dies are given back. Before, each worker counted its own: 2 x 2 per caller,
 * 16 x 2 in all. Real processes and a real upstream on loopback; every call that takes a place
 * stays held upstream until the end, so the counts are exact at each step (the tests below build
 * on each other's places, in order). The relay's upstream budget is an hour here: at its default
 * 30 s, on a loaded machine (load 12) the first calls held ended by it before the last step,
 * giving their places back, and the step expecting 503 got 200.
 */

const held: ServerResponse[] = [];
const upstreamEvents = new EventEmitter();
let upstream: Server;
let port: number;
let state: ReturnType<typeof tempDir>;
let server: WorkersProcess;
let pids: number[];
const connections: Connection[] = [];

function onUpstream(req: IncomingMessage, res: ServerResponse): void {
  if ((req.url ?? "").startsWith("/v1/hold")) {
    res.writeHead(200, { "content-type": "text/plain" });
    res.write("a");
    held.push(res);
    upstreamEvents.emit("request", req.url);
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
    "docs.json": { name: "Relay", navigation: { groups: [{ group: "Local", openapi: "local.json", pages: ["GET /ok", "GET /hold"] }] } },
    "local.json": { openapi: "3.0.3", info: { title: "Local", version: "1" }, servers: [{ url: `http://127.0.0.1:${port}/v1` }], paths: { "/ok": { get: op("Ok") }, "/hold": { get: op("Hold") } } },
  });
  state = tempDir("svc-mcp-relay-workers-");
  // Behind a trusted proxy, each test caller is the X-Forwarded-For address it sends.
  server = await startWorkers(["--dir", root, "--state", state.dir, "--project-id", "docs", "--workers", "2", "--trust-proxy", "--rate-limit", "ip=off", "--relay-timeout", "3600"]);
  pids = [...server.pids];
});

afterAll(async () => {
  for (const res of held.splice(0)) res.end();
  for (const c of connections.splice(0)) c.close();
  if (server !== undefined) await stopProcess(server.child);
  upstream.close();
  state.cleanup();
});

/**
 * A new connection that worker `pid` serves (a held call keeps its connection busy). The others
 * opened on the way stay open: the primary hands each new connection to the worker holding the
 * fewest, so with every connection still counted the next lands on the other worker.
 */
async function via(pid: number): Promise<Connection> {
  // Within the others' lead in connections (a replacement worker serving with none against the
  // survivor's few takes those first); one whose answer is its last (`Connection: close`: a
  // worker over its share sheds it) is a miss.
  for (let i = 0; i < 32 * pids.length; i++) {
    const c = new Connection(server.origin);
    connections.push(c);
    const answer = await c.get("/.well-known/mcp");
    if (answer.headers.connection !== "close" && c.owner(pids) === pid) return c;
  }
  throw new Error(`no connection landed on worker ${pid}`);
}

let calls = 0;
function post(c: Connection, caller: string, path: "/hold" | "/ok"): Promise<Answer> {
  const body = { page: `/api-reference/t${path}`, method: "GET", url: `http://127.0.0.1:${port}/v1${path}`, query: { n: String(++calls) } };
  return c.post("/_svc/api/request", body, { "x-forwarded-for": caller });
}

/** A call of `caller` through worker `pid` that takes a place: resolves once the upstream holds it. */
async function holding(pid: number, caller: string): Promise<void> {
  const c = await via(pid);
  const seen = once(upstreamEvents, "request");
  const answer = post(c, caller, "/hold");
  answer.catch(() => {});
  await seen;
}

/** The answer of a call refused at once, as status, Retry-After and JSON body. */
async function refused(pid: number, caller: string): Promise<{ status: number; retryAfter: unknown; json: unknown }> {
  const r = await post(await via(pid), caller, "/ok");
  return { status: r.status, retryAfter: r.headers["retry-after"], json: JSON.parse(r.body) as unknown };
}

const TOO_MANY = {
  status: 429,
  retryAfter: "2",
  json: {
    error: {
      code: "too_many_relay_requests",
      message: "too many playground requests of this client in flight: at most 2 at once per client (an address, an IPv6 /64 or a token); wait for one to finish, then send again",
    },
  },
};
const BUSY = {
  status: 503,
  retryAfter: "2",
  json: { error: { code: "relay_busy", message: "the relay has as many requests in flight as it takes (16, the last 4 kept for clients with none in flight); try again in a moment" } },
};

// Three processes start: on a loaded 2-core machine that alone can take tens of seconds.
describe("relay places under serve --http --workers 2", () => {
  it("gives a dead worker's places back: a caller holding 2 through a worker killed with SIGKILL takes one again through the other", async () => {
    const [victim, survivor] = pids as [number, number];
    await holding(victim, "10.0.0.1");
    await holding(victim, "10.0.0.1");
    expect(await refused(survivor, "10.0.0.1")).toEqual(TOO_MANY);
    // The primary frees the places before it logs the exit: after the line, they are free.
    const restarted = server.waitFor(/^svc-mcp: worker process (\d+) is serving$/);
    process.kill(victim, "SIGKILL");
    pids = [survivor];
    await server.waitFor(new RegExp(`^svc-mcp: warning: worker process ${victim} exited with signal SIGKILL; starting another$`));
    await holding(survivor, "10.0.0.1");
    pids = [survivor, Number((await restarted)[1])];
  });

  it("holds a caller to 2 calls across both workers: the third is refused on either with 429 too_many_relay_requests", async () => {
    const [a, b] = pids as [number, number];
    await holding(a, "10.0.0.2");
    await holding(b, "10.0.0.2");
    expect(await refused(a, "10.0.0.2")).toEqual(TOO_MANY);
    expect(await refused(b, "10.0.0.2")).toEqual(TOO_MANY);
    // Another caller is not held to it.
    await holding(a, "10.0.0.3");
  });

  it("holds the server to 16 calls, the last 4 for callers with none: 503 relay_busy from either worker", async () => {
    const [a, b] = pids as [number, number];
    // Held so far: 10.0.0.1 one, 10.0.0.2 two, 10.0.0.3 one. Eight newcomers, four per worker: 12.
    for (let i = 0; i < 8; i++) await holding(i % 2 === 0 ? a : b, `10.0.1.${i}`);
    // The last four are for callers with none in flight: one holding a call is refused on both.
    expect(await refused(a, "10.0.0.3")).toEqual(BUSY);
    expect(await refused(b, "10.0.1.0")).toEqual(BUSY);
    // Four newcomers take them...
    for (let i = 0; i < 4; i++) await holding(i % 2 === 0 ? b : a, `10.0.2.${i}`);
    // ...and all 16 are taken: even a newcomer is refused, on either worker.
    expect(await refused(a, "10.0.3.1")).toEqual(BUSY);
    expect(await refused(b, "10.0.3.2")).toEqual(BUSY);
  });
});
