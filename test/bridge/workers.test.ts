import { once } from "node:events";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EventEmitter } from "node:events";
import { FixedWindowLimiter } from "../../src/bridge/middleware/rate-limit.js";
import { answerLimiterRequest, type LimiterReply, RemoteLimiter } from "../../src/bridge/middleware/shared-limiter.js";
import { answerSiteSessionRequest, RemoteSiteSessions, SiteSessions } from "../../src/bridge/web/site-sessions.js";
import { parseWorkers } from "../../src/cli/workers-option.js";
import { type Port, Rpc, type WorkerAsk } from "../../src/cli/worker-ipc.js";
import { openKeyStore } from "../../src/store/keys/key-store.js";
import { runCli } from "../helpers/cli.js";
import { type Answer, type Connection, connectionTo, startWorkers, stopProcess, type WorkersProcess } from "../helpers/workers.js";
import { DEMO, PROTOCOL, SEARCH, tempDir } from "./harness.js";

/**
 * `serve --http --workers 2` as deployed: two worker processes behind one port, real HTTP on
 * loopback. Each test reaches a given worker by opening connections until one lands on it
 * (the test reads from /proc which process holds the connection).
 */

let state: ReturnType<typeof tempDir>;
let server: WorkersProcess | undefined;
const connections: Connection[] = [];

beforeEach(() => {
  state = tempDir("svc-mcp-workers-");
});
afterEach(async () => {
  for (const c of connections.splice(0)) c.close();
  if (server !== undefined) await stopProcess(server.child);
  server = undefined;
  state.cleanup();
});

const LIMITED = ["--workers", "2", "--rate-limit", "ip=off", "--rate-limit", "search=4"];

async function start(extra: readonly string[]): Promise<WorkersProcess> {
  server = await startWorkers(["--dir", DEMO, "--state", state.dir, "--project-id", "docs", ...extra]);
  return server;
}

async function reach(s: WorkersProcess, pid: number): Promise<Connection> {
  const c = await connectionTo(s.origin, s.pids, pid);
  connections.push(c);
  return c;
}

/** `initialize` on a connection: the session's headers for later requests. */
async function openSession(c: Connection): Promise<Record<string, string>> {
  const r = await c.post("/mcp", { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  expect(r.status).toBe(200);
  return { "mcp-session-id": r.headers["mcp-session-id"] as string, "mcp-protocol-version": PROTOCOL };
}

const search = (c: Connection, session: Record<string, string>): Promise<Answer> =>
  c.post("/mcp", { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: SEARCH, arguments: { query: "signed url expires" } } }, session);

/** The 429 of the fifth search call, whatever the seconds left in the hour. */
function expectRefused(r: Answer): void {
  expect(r.status).toBe(429);
  const body = JSON.parse(r.body) as { error: { message: string } };
  expect(body.error.message).toMatch(/^Rate limit exceeded: at most 4 search calls per hour on this documentation site\. Retry after \d+ seconds\.$/);
}

// Three processes start per test: on a loaded 2-core machine that alone can take tens of seconds.
describe("serve --http --workers 2", () => {
  it("runs two worker processes on one port; N search calls pass across them and the N+1th is refused on each", async () => {
    const s = await start(LIMITED);
    expect(s.pids).toHaveLength(2);
    expect(new Set(s.pids).size).toBe(2);
    // Each worker runs with the young generation sized for search traffic, and fixed, and without the memory reducer (worker-heap.ts).
    for (const pid of s.pids) expect(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((a) => a.includes("semi-space") || a.includes("memory-reducer"))).toEqual(["--max-semi-space-size=32", "--min-semi-space-size=32", "--no-memory-reducer"]);
    // And glibc's malloc gives large blocks back (worker-heap.ts, issue 22); the primary keeps its own.
    for (const pid of s.pids) expect(readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter((v) => v.startsWith("GLIBC_TUNABLES="))).toEqual(["GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072"]);
    const [a, b] = [await reach(s, s.pids[0] as number), await reach(s, s.pids[1] as number)];
    const sa = await openSession(a);
    const sb = await openSession(b);
    const answers = [await search(a, sa), await search(b, sb), await search(a, sa), await search(b, sb)];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // Both workers answer the same search the same way.
    expect(new Set(answers.map((r) => r.body)).size).toBe(1);
    expect(JSON.parse(answers[0]?.body as string).result.content[0].text).toContain("signed");
    expectRefused(await search(a, sa));
    expectRefused(await search(b, sb));
    expect(a.owner(s.pids)).toBe(s.pids[0]);
    expect(b.owner(s.pids)).toBe(s.pids[1]);
  });

  it("a session opened on one worker continues on the other; an id no worker signed is unknown on both", async () => {
    const s = await start(["--workers", "2"]);
    const [a, b] = [await reach(s, s.pids[0] as number), await reach(s, s.pids[1] as number)];
    const session = await openSession(a);
    expect(session["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}\.2025-06-18\.[A-Za-z0-9_-]{22}$/);
    const onA = await search(a, session);
    const onB = await search(b, session);
    expect(onB).toMatchObject({ status: 200, body: onA.body });
    expect(onB.headers["mcp-session-id"]).toBe(session["mcp-session-id"]);
    const tools = await b.post("/mcp", { jsonrpc: "2.0", id: 2, method: "tools/list" }, session);
    expect(tools.status).toBe(200);
    expect((JSON.parse(tools.body) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name)).toEqual([SEARCH, "query_docs_filesystem_nimbus_storage", "submit_feedback"]);

    const [id, version, mac] = (session["mcp-session-id"] as string).split(".") as [string, string, string];
    const forged = { ...session, "mcp-session-id": `${id}.${version}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}` };
    const unsigned = { ...session, "mcp-session-id": id };
    for (const c of [a, b]) {
      for (const headers of [forged, unsigned]) {
        const r = await search(c, headers);
        expect(r.status).toBe(404);
        expect(JSON.parse(r.body)).toEqual({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found: it expired or was closed; initialize a new one" }, id: null });
      }
    }
    // The session's id is bound to its endpoint: on /authed/mcp it is unknown (before any token check, a 401).
    expect((await b.post("/authed/mcp", { jsonrpc: "2.0", id: 3, method: "tools/list" }, session)).status).toBe(401);
  });

  it("a session whose client renders MCP Apps keeps them on the other worker; its traits cannot be forged (issue 25)", async () => {
    const s = await start(["--workers", "2"]);
    const [a, b] = [await reach(s, s.pids[0] as number), await reach(s, s.pids[1] as number)];
    const capabilities = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
    const opened = await a.post("/mcp", { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: PROTOCOL, capabilities, clientInfo: { name: "t", version: "1" } } });
    expect(opened.status).toBe(200);
    const apps = { "mcp-session-id": opened.headers["mcp-session-id"] as string, "mcp-protocol-version": PROTOCOL };
    expect(apps["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}\.2025-06-18\.apps\.[A-Za-z0-9_-]{22}$/);
    const plain = await openSession(a);
    const names = async (c: Connection, session: Record<string, string>) => {
      const r = await c.post("/mcp", { jsonrpc: "2.0", id: 2, method: "tools/list" }, session);
      return [r.status, (JSON.parse(r.body) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name)];
    };
    const withApps = [SEARCH, "query_docs_filesystem_nimbus_storage", "submit_feedback", "api_request_nimbus_storage"];
    // Served by the worker that did not open it (a single request, not a batch), and by the one that did.
    expect(await names(b, apps)).toEqual([200, withApps]);
    expect(await names(a, apps)).toEqual([200, withApps]);
    expect(await names(b, plain)).toEqual([200, withApps.slice(0, 3)]);
    // A plain session's id given the apps mark (its signature kept) is an unknown session on both.
    const [id, version, mac] = (plain["mcp-session-id"] as string).split(".") as [string, string, string];
    for (const c of [a, b]) {
      const r = await c.post("/mcp", { jsonrpc: "2.0", id: 3, method: "tools/list" }, { ...plain, "mcp-session-id": `${id}.${version}.apps.${mac}` });
      expect([r.status, JSON.parse(r.body)]).toEqual([404, { jsonrpc: "2.0", error: { code: -32001, message: "Session not found: it expired or was closed; initialize a new one" }, id: null }]);
    }
  });

  it("a worker killed with SIGKILL is replaced; the counters and sessions live on", async () => {
    const s = await start(LIMITED);
    const [a, b] = [await reach(s, s.pids[0] as number), await reach(s, s.pids[1] as number)];
    const session = await openSession(a);
    expect((await search(a, session)).status).toBe(200);
    expect((await search(b, session)).status).toBe(200);

    const [victim, survivor] = s.pids as [number, number];
    const replaced = s.waitFor(/^svc-mcp: worker process (\d+) is serving$/);
    process.kill(victim, "SIGKILL");
    const fresh = Number((await replaced)[1]);
    expect(s.lines).toContain(`svc-mcp: warning: worker process ${victim} exited with signal SIGKILL; starting another`);
    expect(fresh).not.toBe(victim);

    const pids = [survivor, fresh];
    const c = await connectionTo(s.origin, pids, fresh);
    connections.push(c);
    // Two of the four calls were taken before the crash: two more pass, on the new worker too.
    expect((await search(c, session)).status).toBe(200);
    expect((await search(b, session)).status).toBe(200);
    expectRefused(await search(c, session));
    expectRefused(await search(b, session));
  });

  it("SIGTERM drains: a request being received finishes, then every worker and the primary exit 0", async () => {
    const s = await start(["--workers", "2"]);
    const socket = connect(s.port, "127.0.0.1");
    await once(socket, "connect");
    const body = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    const half = Math.floor(body.length / 2);
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, half)}`,
    );
    let answer = "";
    socket.on("data", (d: Buffer) => (answer += d.toString()));
    const ended = once(socket, "end");
    // The request is being received by a worker when the primary is told to stop.
    const draining = s.waitFor(/^svc-mcp: worker (\d+): stopping: finishing 1 request in flight$/);
    const exited = once(s.child, "exit");
    s.child.kill("SIGTERM");
    await draining;
    socket.write(body.slice(half));
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({ jsonrpc: "2.0", id: 0, result: { protocolVersion: PROTOCOL } });
    expect(await exited).toEqual([0, null]);
    server = undefined;
  });

  it("a worker killed during feedback ingestion loses no acknowledged entry; both write one SQLite file", async () => {
    const keys = openKeyStore(state.dir);
    const { key } = await keys.create("workers", Date.now());
    await keys.close();
    const s = await start(["--workers", "2", "--rate-limit", "ip=off", "--rate-limit", "feedback=off", "--rate-limit", "feedback-bytes=off"]);
    const acknowledged: { id: string }[] = [];
    const statuses: number[] = [];
    const post = (i: number): Promise<void> =>
      fetch(`${s.origin}/v1/feedback/docs/rating`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path: "/quickstart", helpful: i % 2 === 0 }),
        // Bounded all the same: a connection that never gets an answer is given up on, as a real
        // client would (one the killed worker held, or was being sent, is closed with it).
        signal: AbortSignal.timeout(15_000),
      }).then(
        async (r) => {
          statuses.push(r.status);
          if (r.status === 201) acknowledged.push((await r.json()) as { id: string });
        },
        // A request on the killed worker's connection fails without an answer: nothing was promised.
        () => undefined,
      );
    const burst = Array.from({ length: 60 }, (_, i) => post(i));
    await Promise.race(burst);
    process.kill(s.pids[0] as number, "SIGKILL");
    await Promise.all(burst);
    expect(acknowledged.length).toBeGreaterThan(0);
    // Two processes committing to one file: every answer is a 201 (no busy database error).
    expect(new Set(statuses)).toEqual(new Set([201]));
    await s.waitFor(/^svc-mcp: worker process (\d+) is serving$/);
    const listed = await fetch(`${s.origin}/v1/analytics/docs/feedback?limit=100`, { headers: { authorization: `Bearer ${key}` } });
    const stored = new Map(((await listed.json()) as { feedback: { id: string }[] }).feedback.map((e) => [e.id, e]));
    for (const e of acknowledged) expect(stored.get(e.id)).toEqual(e);
  });
});

describe("--workers", () => {
  it("takes an integer from 1 to 64, or auto (one per core)", () => {
    expect([parseWorkers("1"), parseWorkers("2"), parseWorkers("64"), parseWorkers("auto", 6), parseWorkers(undefined)]).toEqual([1, 2, 64, 6, 1]);
  });

  it.each([
    [["serve", "--http", "--workers", "0"], '--workers must be an integer from 1 to 64, or auto (one per core); got "0"'],
    [["serve", "--http", "--workers", "65"], '--workers must be an integer from 1 to 64, or auto (one per core); got "65"'],
    [["serve", "--http", "--workers", "two"], '--workers must be an integer from 1 to 64, or auto (one per core); got "two"'],
    [["serve", "--http", "--workers", "1.5"], '--workers must be an integer from 1 to 64, or auto (one per core); got "1.5"'],
    [["serve", "--workers", "2"], "--workers is for --http: over stdio one process serves one client"],
    [["serve", "--http", "--workers", "2", "--port", "70000"], "--port must be an integer from 0 to 65535; got 70000"],
    [["serve", "--http", "--relay-timeout", "0"], "--relay-timeout must be a number of seconds from 1 to 3600; got 0"],
    [["serve", "--http", "--relay-timeout", "7200"], "--relay-timeout must be a number of seconds from 1 to 3600; got 7200"],
  ])("%j is a usage error (exit 2) before any process starts", async (argv, message) => {
    expect(await runCli(argv)).toEqual({ code: 2, stdout: "", stderr: `svc-mcp: ${message}\n` });
  });
});

/** Two ends of a channel in one process, delivering asynchronously like IPC (a JSON copy). */
function channel(): [Port, Port] {
  const a = new EventEmitter();
  const b = new EventEmitter();
  const port = (self: EventEmitter, other: EventEmitter): Port => ({
    send: (m) => setImmediate(() => other.emit("message", JSON.parse(JSON.stringify(m)))),
    on: (event, listener) => self.on(event, listener),
  });
  return [port(a, b), port(b, a)];
}

describe("what the primary keeps for its workers, over the channel", () => {
  /** A primary holding one limiter and one sign-in table, and `n` workers asking it. */
  function primaryWith(n: number) {
    const limiter = new FixedWindowLimiter(3_600_000, () => Date.UTC(2030, 0, 1, 10, 30));
    const sessions = new SiteSessions();
    return Array.from({ length: n }, () => {
      const [primaryEnd, workerEnd] = channel();
      new Rpc<never, never, never>(primaryEnd, {
        handle: async (ask: WorkerAsk) => (ask.t === "limiter" ? answerLimiterRequest(limiter, ask) : ask.t === "site-session" ? answerSiteSessionRequest(sessions, ask) : undefined),
      });
      const rpc = new Rpc<WorkerAsk, never, never>(workerEnd, {});
      return {
        limiter: new RemoteLimiter(async (r) => (await rpc.ask({ t: "limiter", ...r })) as LimiterReply),
        sessions: new RemoteSiteSessions((r) => rpc.ask({ t: "site-session", ...r })),
      };
    });
  }

  it("counters: N units pass across workers taking at once, the N+1th is refused on each", async () => {
    const workers = primaryWith(3);
    const charge = { key: "tool:mcp:search", limit: 5, what: "search calls per hour on this documentation site" };
    const decisions = await Promise.all(workers.flatMap((w) => [w.limiter.take([charge]), w.limiter.take([charge])]));
    expect(decisions.filter((d) => d.ok)).toHaveLength(5);
    expect(decisions.filter((d) => !d.ok)).toEqual([{ ok: false, charge, retryAfterSec: 1800, resetAt: Date.UTC(2030, 0, 1, 11) }]);
    await workers[0]?.limiter.refund([charge]);
    expect(await workers[2]?.limiter.take([charge])).toEqual({ ok: true });
    // Limits off never leave the worker (nothing to decide).
    expect(await workers[1]?.limiter.take([{ ...charge, limit: Number.POSITIVE_INFINITY }])).toEqual({ ok: true });
  });

  it("site sign-ins: a cookie one worker set signs in on another; signing out on a third ends it on all", async () => {
    const [a, b, c] = primaryWith(3) as [ReturnType<typeof primaryWith>[number], ReturnType<typeof primaryWith>[number], ReturnType<typeof primaryWith>[number]];
    const token = await a.sessions.create({ name: "sam", createdAt: 1 });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect([await b.sessions.user(token), await c.sessions.user(token)]).toEqual([{ name: "sam", createdAt: 1 }, { name: "sam", createdAt: 1 }]);
    expect([await b.sessions.user(undefined), await b.sessions.user("not a token"), await b.sessions.user("x".repeat(43))]).toEqual([undefined, undefined, undefined]);
    await c.sessions.end(token);
    expect([await a.sessions.user(token), await b.sessions.user(token)]).toEqual([undefined, undefined]);
  });
});
