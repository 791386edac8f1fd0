import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ListenQuota } from "../../src/bridge/mcp/listen-quota.js";
import { ListenQuotaLedger } from "../../src/bridge/mcp/shared-listen-quota.js";
import { socketOwner } from "../helpers/socket-owner.js";
import { startWorkers, stopProcess, type WorkersProcess } from "../helpers/workers.js";
import { DEMO, tempDir } from "./harness.js";

/**
 * `subscriptions/listen` streams under `serve --http --workers 2` (adversary round 39, F1): a
 * caller's 64 streams (`LIMITS.bridge.maxListenStreamsPerCaller`) are the server's bound, counted
 * by the primary, not each worker's (before, a caller held 64 in each). Real processes, real
 * HTTP; the caller is the address 127.0.0.2, each stream on a connection of its own.
 */
const OFF = ["ip", "search", "filesystem"].flatMap((k) => ["--rate-limit", `${k}=off`]);
const MODERN = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
const LISTEN = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: MODERN } });
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "subscriptions/listen" };

interface Opened {
  readonly status: number;
  readonly first: string;
  /** The worker process answering it. */
  readonly worker: number | undefined;
  readonly close: () => void;
}

let state: ReturnType<typeof tempDir>;
let server: WorkersProcess;
const open: Opened[] = [];

beforeAll(async () => {
  state = tempDir("svc-mcp-workers-listen-");
  server = await startWorkers(["--dir", DEMO, "--state", state.dir, "--project-id", "docs", "--workers", "2", ...OFF]);
});

afterAll(async () => {
  for (const o of open) o.close();
  if (server !== undefined) await stopProcess(server.child);
  state?.cleanup();
});

/** The worker process serving a new keep-alive connection of `agent`: a first request on it, then /proc. */
function ownerOfNext(agent: Agent): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.origin}/.well-known/mcp`, { agent }, (res) => {
      const socket = res.socket;
      res.resume();
      res.on("end", () => resolve(socketOwner(socket, server.pids)));
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * A listen request from `from` on a connection of its own (whose worker is read first: a refused
 * one may be closed before it could be), answered once its acknowledgement or a refusal arrived;
 * a stream stays open until `close`.
 */
async function listen(from = "127.0.0.2"): Promise<Opened> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: from });
  const worker = await ownerOfNext(agent);
  return new Promise((resolve, reject) => {
    const req = request(`${server.origin}/mcp`, { method: "POST", agent, headers: HEADERS }, (res) => {
      let first = "";
      const done = (): void => resolve({ status: res.statusCode ?? 0, first, worker, close: () => (res.destroy(), agent.destroy()) });
      const streaming = (res.headers["content-type"] ?? "").startsWith("text/event-stream");
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        first += chunk;
        if (streaming && first.includes("\n\n")) done();
      });
      res.on("end", done);
      res.on("error", () => {});
    });
    req.on("error", reject);
    req.end(LISTEN);
  });
}

const PER_CALLER = {
  jsonrpc: "2.0",
  id: 7,
  error: {
    code: -32029,
    message: "Too many open subscriptions/listen streams: at most 64 at once per caller (address or token), and this one holds 64; close one before opening another",
    data: { reason: "listen_streams_per_caller", limit: 64 },
  },
};

describe("listen streams under serve --http --workers 2 (adversary round 39, F1)", () => {
  it("a caller's 64 are the server's: its 65th is refused on either worker, and a stream closed on one frees a place for the other", async () => {
    for (let i = 0; i < 64; i++) open.push(await listen());
    expect(open.map((o) => o.status)).toEqual(Array.from({ length: 64 }, () => 200));
    // Spread over both workers (each new connection goes to the one holding fewer): the owners
    // seen are exactly the two started, and no worker exited and was replaced meanwhile.
    const byPid = (a: number | undefined, b: number | undefined): number => (a ?? -1) - (b ?? -1);
    expect({ owners: [...new Set(open.map((o) => o.worker))].sort(byPid), exits: server.lines.filter((l) => l.includes("exited")) }).toEqual({
      owners: [...server.pids].sort(byPid),
      exits: [],
    });
    // Refused on each worker, the same answer as one process gives.
    const refusedOn = new Set<number | undefined>();
    for (let i = 0; i < 16 && refusedOn.size < 2; i++) {
      const more = await listen();
      expect([more.status, JSON.parse(more.first)]).toEqual([429, PER_CALLER]);
      refusedOn.add(more.worker);
      more.close();
    }
    expect(refusedOn.size).toBe(2);
    // Another address has its own 64.
    const other = await listen("127.0.0.3");
    expect(other.status).toBe(200);
    other.close();
    // One closed, wherever it was: one more opens (the primary has been told by the time the next take reaches it, on the same channel).
    open.shift()?.close();
    // Asked until one opens: the test's time limit is the hang detector.
    let reopened: Opened | undefined;
    while (reopened === undefined) {
      const again = await listen();
      if (again.status === 200) reopened = again;
      else {
        // The close may not have reached its worker yet: refused as at the bound, never otherwise.
        expect([again.status, JSON.parse(again.first)]).toEqual([429, PER_CALLER]);
        again.close();
      }
    }
    open.push(reopened);
    expect(open.length).toBe(64);
  });
});

describe("ListenQuotaLedger (the primary's count)", () => {
  it("gives back the places of a worker that exits, and takes none more for it", () => {
    const ledger = new ListenQuotaLedger<number>(new ListenQuota({ maxStreams: 4, maxStreamsPerCaller: 2 }));
    expect(ledger.answer(1, { op: "take", endpoint: "mcp", caller: "address:a" })).toEqual({ ok: true });
    expect(ledger.answer(2, { op: "take", endpoint: "mcp", caller: "address:a" })).toEqual({ ok: true });
    expect(ledger.answer(2, { op: "take", endpoint: "mcp", caller: "address:a" })).toEqual({
      ok: false,
      status: 429,
      reason: "listen_streams_per_caller",
      limit: 2,
      message: "Too many open subscriptions/listen streams: at most 2 at once per caller (address or token), and this one holds 2; close one before opening another",
    });
    // A release of what a worker never took changes nothing.
    expect(ledger.answer(1, { op: "release", endpoint: "mcp", caller: "address:b" })).toEqual({});
    expect(ledger.size("mcp")).toBe(2);
    ledger.forget(1);
    expect(ledger.size("mcp")).toBe(1);
    expect(() => ledger.answer(1, { op: "take", endpoint: "mcp", caller: "address:a" })).toThrow("the worker process is gone");
    expect(ledger.answer(2, { op: "take", endpoint: "mcp", caller: "address:a" })).toEqual({ ok: true });
    expect(ledger.size("mcp")).toBe(2);
  });
});
