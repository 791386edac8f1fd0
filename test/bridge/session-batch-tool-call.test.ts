import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BatchStep } from "../../src/bridge/mcp/batch-runner.js";
import { BATCH_PROTOCOL, FS, type Harness, SEARCH, TestClock, accessRepo, openSession, postJson, startBridge, userTokens } from "./harness.js";

/**
 * The plain tool calls of a JSON-RPC batch (a 2025-03-26 session) are answered by the tool
 * directly (`SessionToolCalls`), as they are sent alone, not through the session's SDK transport.
 * Over real HTTP, two bridges on one site, one with the direct path and one without, each get a
 * session per reader and are sent the same batches: every answer (status, headers, body) is the
 * same byte for byte, and on the direct bridge exactly the messages the direct path must leave
 * to the SDK (a ping, a notification, a `_meta`, an unknown tool...) reached the transport.
 */
type Reader = "anonymous" | "staff";
type Side = "direct" | "sdk";

let repo: ReturnType<typeof accessRepo>;
const bridges = {} as Record<Side, Harness>;
const tokens = {} as Record<Side, string>;
const sessions = {} as Record<Side, Record<Reader, string>>;

function urlOf(side: Side, reader: Reader): string {
  return reader === "staff" ? bridges[side].urls.authedMcp : bridges[side].urls.mcp;
}

function authOf(side: Side, reader: Reader): Record<string, string> {
  return reader === "staff" ? { Authorization: `Bearer ${tokens[side]}` } : {};
}

async function open(side: Side, reader: Reader): Promise<string> {
  const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: BATCH_PROTOCOL, capabilities: {}, clientInfo: { name: "batch-direct-test", version: "1" } } };
  const r = await postJson(urlOf(side, reader), init, authOf(side, reader));
  const id = r.headers.get("mcp-session-id");
  if (r.status !== 200 || id === null) throw new Error(`initialize: ${r.status} ${r.text}`);
  await postJson(urlOf(side, reader), { jsonrpc: "2.0", method: "notifications/initialized" }, { ...authOf(side, reader), "mcp-session-id": id, "mcp-protocol-version": BATCH_PROTOCOL });
  return id;
}

beforeAll(async () => {
  repo = accessRepo();
  const start = async (directToolCalls: boolean): Promise<Harness> => {
    const h = await startBridge({ root: repo.dir, authMode: "partial", mcp: "enabled", clock: new TestClock(), bridge: { directToolCalls } });
    await h.state.addUser("sam", "sam-password-1", ["staff"]);
    return h;
  };
  [bridges.direct, bridges.sdk] = await Promise.all([start(true), start(false)]);
  for (const side of ["direct", "sdk"] as const) {
    tokens[side] = (await userTokens(bridges[side], "sam", "sam-password-1")).access_token;
    sessions[side] = { anonymous: await open(side, "anonymous"), staff: await open(side, "staff") };
  }
});
afterAll(async () => {
  await Promise.all([bridges.direct.close(), bridges.sdk.close()]);
  repo.cleanup();
});

const call = (id: unknown, name: string, args?: unknown, extra: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, ...(args === undefined ? {} : { arguments: args }), ...extra },
});

/** One side's answer to `batch` (status, headers but the connection's, body), and the ids of the messages its session's transport was handed. */
async function answer(side: Side, reader: Reader, batch: readonly unknown[]): Promise<{ text: string; transported: unknown[] }> {
  const session = sessions[side][reader];
  const spy = vi.spyOn(bridges[side].bridge.endpoint.sessions.get(session)!.transport, "handleRequest");
  try {
    const r = await postJson(urlOf(side, reader), batch, { ...authOf(side, reader), "mcp-session-id": session, "mcp-protocol-version": BATCH_PROTOCOL });
    const headers = [...r.headers].filter(([k]) => k !== "date" && k !== "keep-alive" && k !== "connection").map(([k, v]) => `${k}: ${v.replaceAll(session, "<session>")}`);
    const transported = spy.mock.calls.map(([, options]) => ((options?.parsedBody ?? {}) as { id?: unknown; method?: unknown }).id ?? (options?.parsedBody as { method?: unknown }).method);
    return { text: `${r.status} ${headers.join("; ")}\n${r.text}`, transported };
  } finally {
    spy.mockRestore();
  }
}

describe("2025-03-26 batches' tool calls answered directly", () => {
  it("answer a batch's plain calls exactly as the SDK does, for each reader, without the session's transport", async () => {
    const batches: [Reader, unknown[]][] = [
      ["anonymous", [call(1, SEARCH, { query: "replication" }), call(2, SEARCH, { query: "drain the node" }), call("three", FS, { command: "rg -l STAFF /" })]],
      ["staff", [call(4, SEARCH, { query: "drain the node" }), call(5, FS, { command: "cat /internal/runbook.mdx" })]],
      ["anonymous", [call(6, SEARCH, { query: "replication", pageSize: 0 }), { jsonrpc: "2.0", id: 7, method: "ping" }, { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }, call(8, SEARCH)]],
    ];
    const direct: string[] = [];
    const sdk: string[] = [];
    const transported: unknown[][] = [];
    for (const [reader, batch] of batches) {
      const d = await answer("direct", reader, batch);
      direct.push(d.text);
      transported.push(d.transported);
      sdk.push((await answer("sdk", reader, batch)).text);
    }
    expect(direct).toEqual(sdk);
    expect(direct.map((a) => a.slice(0, a.indexOf("\n")).replace(/length: \d+/, "length: <n>"))).toEqual(batches.map(() => "200 content-length: <n>; content-type: application/json; mcp-session-id: <session>"));
    // Every request answered in order, each tool call with its result (rg finding nothing, a page size of 0 and a search without a query are the tool's own errors).
    const answered = direct.map((a) => (JSON.parse(a.slice(a.indexOf("\n") + 1)) as { id: unknown; result?: { isError?: boolean } }[]).map((m) => [m.id, m.result?.isError ?? false]));
    expect(answered).toEqual([
      [
        [1, false],
        [2, false],
        ["three", true],
      ],
      [
        [4, false],
        [5, false],
      ],
      [
        [6, true],
        [7, false],
        [8, true],
      ],
    ]);
    expect(direct[1]).toContain("STAFF-ONLY-RUNBOOK-7F3A");
    expect(direct[0]).not.toContain("STAFF-ONLY-RUNBOOK-7F3A");
    expect(transported).toEqual([[], [], [7, "notifications/progress"]]);
  });

  it("leave to the SDK every call of a batch it must judge, and answer it as before", async () => {
    const batch = [
      call(1, "search_elsewhere", { query: "replication" }),
      call(2, SEARCH, ["replication"]),
      call(3, SEARCH, { query: "replication" }, { _meta: { progressToken: 1 } }),
      call(4, SEARCH, { query: "replication" }, { task: { ttl: 1000 } }),
      call(5, SEARCH, { query: "replication" }),
    ];
    const d = await answer("direct", "anonymous", batch);
    const s = await answer("sdk", "anonymous", batch);
    expect(d.text).toBe(s.text);
    expect(d.transported).toEqual([1, 2, 3, 4]);
    expect(s.transported).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("a batch whose session closes while it runs", () => {
  it("leaves the calls after the close to the SDK's transport, as before", async () => {
    const texts: string[] = [];
    for (const directToolCalls of [true, false]) {
      const closing: { session?: string; h?: Harness } = {};
      const h = await startBridge({
        bridge: {
          directToolCalls,
          // The session ends (as by DELETE or the idle sweep) once the batch's first message is answered.
          observeBatch: (step: BatchStep) => {
            if (step.index === 0) void closing.h!.bridge.endpoint.sessions.get(closing.session!)!.transport.close();
          },
        },
      });
      try {
        closing.h = h;
        const session = await openSession(h.urls.mcp, {}, BATCH_PROTOCOL);
        closing.session = session;
        const r = await postJson(h.urls.mcp, [call(1, SEARCH, { query: "replication" }), call(2, SEARCH, { query: "drain the node" })], { "mcp-session-id": session, "mcp-protocol-version": BATCH_PROTOCOL });
        texts.push(`${r.status} ${r.text.replaceAll(session, "<session>")}`);
      } finally {
        await h.close();
      }
    }
    // The transport refuses the closed session's next message, and with it the batch, as it did before the direct path.
    const refused = '404 {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}';
    expect(texts).toEqual([refused, refused]);
  });
});
