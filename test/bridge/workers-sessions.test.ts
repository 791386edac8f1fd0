import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Answer, type Connection, connectionTo, startWorkers, stopProcess, type WorkersProcess } from "../helpers/workers.js";
import { BATCH_PROTOCOL, DEMO, FS, PROTOCOL, SEARCH, tempDir } from "./harness.js";

/**
 * The end of a 2025 session under `serve --http --workers 2` (adversary round 26, F1 and F2):
 * ended on one worker (DELETE), it is ended on both, and a cancellation sent through either
 * stops the call where it runs; a session resumed by the worker that did not open it keeps the
 * protocol version it negotiated. Before, a signed id alone let any worker take the session up
 * again after its DELETE, a cancellation reached only its own worker, and the sibling resumed
 * at a default version. Real processes and real HTTP; each worker reached over its own
 * connection (`connectionTo`).
 */
// A billion additions in nested reductions, no array: since jq's generators stop once their
// consumer has enough (issue 25), `[limit(100000000; repeat(1))]` ends at the element limit.
const RUNAWAY = "jq -n 'reduce range(1000) as $i (0; reduce range(1000) as $j (.; reduce range(1000) as $k (.; .+1)))'";
const NOT_FOUND = { jsonrpc: "2.0", error: { code: -32001, message: "Session not found: it expired or was closed; initialize a new one" }, id: null };
const OFF = ["ip", "search", "filesystem"].flatMap((k) => ["--rate-limit", `${k}=off`]);

let state: ReturnType<typeof tempDir>;
let server: WorkersProcess;
let a: Connection;
let b: Connection;

beforeAll(async () => {
  state = tempDir("svc-mcp-workers-sessions-");
  server = await startWorkers(["--dir", DEMO, "--state", state.dir, "--project-id", "docs", "--workers", "2", ...OFF]);
  a = await connectionTo(server.origin, server.pids, server.pids[0] as number);
  b = await connectionTo(server.origin, server.pids, server.pids[1] as number);
});

afterAll(async () => {
  a?.close();
  b?.close();
  if (server !== undefined) await stopProcess(server.child);
  state?.cleanup();
});

/** `initialize` at `version` on a connection: the session's id. */
async function open(c: Connection, version = PROTOCOL): Promise<string> {
  const r = await c.post("/mcp", { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  expect([r.status, (JSON.parse(r.body) as { result: { protocolVersion: string } }).result.protocolVersion]).toEqual([200, version]);
  return r.headers["mcp-session-id"] as string;
}

const headers = (id: string, version = PROTOCOL): Record<string, string> => ({ "mcp-session-id": id, "mcp-protocol-version": version });
const search = (c: Connection, id: string): Promise<Answer> => c.post("/mcp", { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: SEARCH, arguments: { query: "signed url" } } }, headers(id));
const answer = (r: Answer): [number, unknown] => [r.status, JSON.parse(r.body)];

describe("2025 sessions under serve --http --workers 2 (adversary round 26)", () => {
  it("DELETE ends the session on both workers, through either; the id is then unknown on both, as one never opened", async () => {
    // Opened on a, used on b (both hold it), deleted through b; then opened on a, used on b, deleted through a;
    // then opened on a and deleted there, never seen by b (the worker that opened it must not take it up again).
    for (const [via, usedOnB] of [[b, true], [a, true], [a, false]] as const) {
      const id = await open(a);
      if (usedOnB) expect((await search(b, id)).status).toBe(200);
      expect((await via.delete("/mcp", headers(id))).status).toBe(200);
      for (const c of [a, b]) expect(answer(await search(c, id))).toEqual([404, NOT_FOUND]);
      for (const c of [a, b]) expect(answer(await c.delete("/mcp", headers(id)))).toEqual([404, NOT_FOUND]);
    }
  });

  it("an anonymous session is its address's: from another address, on either worker, it is unknown to ping, calls and DELETE, and lives on for its own (adversary round 40, F1)", async () => {
    const id = await open(a);
    expect((await search(b, id)).status).toBe(200);
    const others = [await connectionTo(server.origin, server.pids, server.pids[0] as number, "127.0.0.2"), await connectionTo(server.origin, server.pids, server.pids[1] as number, "127.0.0.2")];
    try {
      for (const other of others) {
        expect(answer(await other.post("/mcp", { jsonrpc: "2.0", id: 3, method: "ping" }, headers(id)))).toEqual([404, NOT_FOUND]);
        expect(answer(await search(other, id))).toEqual([404, NOT_FOUND]);
        expect(answer(await other.delete("/mcp", headers(id)))).toEqual([404, NOT_FOUND]);
      }
    } finally {
      for (const other of others) other.close();
    }
    for (const c of [a, b]) expect((await search(c, id)).status).toBe(200);
    expect((await a.delete("/mcp", headers(id))).status).toBe(200);
  });

  it("a caller's 1,000 sessions are the server's: its 1,001st, opened over both workers, ends its oldest on both (adversary round 39, F2)", async () => {
    const from = "127.0.0.3";
    const c = [await connectionTo(server.origin, server.pids, server.pids[0] as number, from), await connectionTo(server.origin, server.pids, server.pids[1] as number, from)] as const;
    try {
      // 500 opened on each worker (each worker's own bound of 1,000 is not reached), the first used on both.
      const ids: string[] = [];
      for (let i = 0; i < 1000; i++) ids.push(await open(c[i % 2] as Connection));
      const [first, second] = ids as [string, string];
      for (const w of c) expect((await search(w, first)).status).toBe(200);
      ids.push(await open(c[1]));
      // Ended on both workers, the one that holds it without having opened it too.
      for (const w of c) expect(answer(await search(w, first))).toEqual([404, NOT_FOUND]);
      for (const w of c) expect((await search(w, second)).status).toBe(200);
      for (const w of c) expect((await search(w, ids[1000] as string)).status).toBe(200);
      // Another caller's sessions are untouched.
      const mine = await open(a);
      expect((await search(b, mine)).status).toBe(200);
      for (const id of [...ids.slice(1), mine]) expect((await (id === mine ? a : c[0]).delete("/mcp", headers(id))).status).toBe(200);
    } finally {
      for (const w of c) w.close();
    }
  });

  it("a cancellation sent through the other worker stops the shell command where it runs", async () => {
    const id = await open(a);
    const call = a.post("/mcp", { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: FS, arguments: { command: RUNAWAY } } }, headers(id));
    let answered: Answer | undefined;
    void call.then((r) => (answered = r));
    // Sent until the call answers: one sent before the call started on a names no running call.
    // Each is a round trip through b; the runaway would otherwise run to its work limit.
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5, reason: "given up" } };
    while (answered === undefined) expect((await b.post("/mcp", cancel, headers(id))).status).toBe(202);
    const stopped = JSON.parse((await call).body) as { id: number; result: { content: { text: string }[]; isError: boolean } };
    expect([stopped.id, stopped.result.content, stopped.result.isError]).toEqual([5, [{ type: "text", text: "bash: cancelled by the client\n[exit code 130]" }], true]);
    // Its place is given back: the caller's next command runs on either worker.
    for (const c of [a, b]) {
      const ls = await c.post("/mcp", { jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: FS, arguments: { command: "ls /" } } }, headers(id));
      expect((JSON.parse(ls.body) as { result: { content: { text: string }[] } }).result.content[0]?.text).toBe("api\nguides\nindex.mdx\nquickstart.mdx\nskill.md\n");
    }
  });

  it("a DELETE through the other worker stops the shell command of the session where it runs", async () => {
    const id = await open(a);
    const call = a.post("/mcp", { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: FS, arguments: { command: RUNAWAY } } }, headers(id));
    expect((await b.delete("/mcp", headers(id))).status).toBe(200);
    // The call was taken by a before the DELETE reached it (its command given up), or after (the session unknown);
    // either way it does not run to its work limit.
    const r = await call;
    const body = r.status === 200 ? (JSON.parse(r.body) as { result: { content: { text: string }[] } }).result.content : JSON.parse(r.body);
    expect([[200, [{ type: "text", text: "bash: cancelled by the client\n[exit code 130]" }]], [404, NOT_FOUND]]).toContainEqual([r.status, body]);
    for (const c of [a, b]) expect(answer(await search(c, id))).toEqual([404, NOT_FOUND]);
  });

  it("the worker that did not open a session resumes it at the version it negotiated; an id whose version was changed or stripped is unknown", async () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", id: 2, method: "ping" },
    ];
    // A 2025-06-18 session refuses batches on both workers, its requests naming their version or not.
    const modern = await open(a);
    const refused = [
      400,
      [1, 2].map((n) => ({
        jsonrpc: "2.0",
        id: n,
        error: { code: -32600, message: "Invalid Request: JSON-RPC batches were removed in protocol version 2025-06-18, and this session uses 2025-06-18; send one message per request" },
      })),
    ];
    expect(answer(await b.post("/mcp", batch, { "mcp-session-id": modern }))).toEqual(refused);
    expect(answer(await a.post("/mcp", batch, { "mcp-session-id": modern }))).toEqual(refused);
    expect(modern).toMatch(/^[0-9a-f-]{36}\.2025-06-18\.[A-Za-z0-9_-]{22}$/);
    // A 2025-03-26 session runs them on both.
    const older = await open(a, BATCH_PROTOCOL);
    for (const c of [b, a]) {
      const r = await c.post("/mcp", batch, { "mcp-session-id": older });
      expect([r.status, (JSON.parse(r.body) as { id: number }[]).map((m) => m.id)]).toEqual([200, [1, 2]]);
    }
    expect(older).toMatch(/^[0-9a-f-]{36}\.2025-03-26\.[A-Za-z0-9_-]{22}$/);
    // The other version written into a signed id, or none: unknown on both.
    const [uuid, , mac] = modern.split(".") as [string, string, string];
    for (const forged of [`${uuid}.${BATCH_PROTOCOL}.${mac}`, `${uuid}.${mac}`, `${uuid}.2025-06-18.apps.${mac}`]) {
      for (const c of [a, b]) expect(answer(await c.post("/mcp", batch, { "mcp-session-id": forged }))).toEqual([404, NOT_FOUND]);
    }
  });
});
