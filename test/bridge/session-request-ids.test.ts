/**
 * A request id belongs to one running request of a 2025 session (MCP forbids reusing one within
 * a session): a request sent with the id of one still running is refused with an error naming the
 * id, alone or inside a batch, on the SDK's path and on the bridge's direct one. Before, the SDK's
 * transport (which keys its answers by id) never answered the first request, which held its
 * connection for good; on the direct path the first call could no longer be cancelled by its id
 * (adversary round 27, F1 and F2). The first request is held waiting for the search thread (the
 * test takes a turn itself) and watched by the turns' events, never by time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TurnEvent } from "../../src/engine/search/caller-turns.js";
import { BATCH_PROTOCOL, type Harness, PROTOCOL, SEARCH, openSession, postJson, startBridge } from "./harness.js";

const HOLDER = "address:192.0.2.251";

/** Resolves once the turns tell of an event matching `match`. */
function seen(h: Harness, match: (e: TurnEvent) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const stop = h.runtime.searchTurns.observe((e) => {
      if (!match(e)) return;
      stop();
      resolve();
    });
  });
}

const refusal = (id: string | number) => ({
  jsonrpc: "2.0",
  id,
  error: { code: -32600, message: `Invalid Request: id ${JSON.stringify(id)} belongs to a request of this session that is still running; give each request an id of its own` },
});

describe("a request id already running in the session", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startBridge({ bridge: { trustProxy: true } });
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Holds the search thread, sends a search with `id` (params `extra`), then `second`; returns the second's answer and the first's once released. */
  async function whileRunning(ip: string, protocol: string, id: string | number, extra: Record<string, unknown>, second: unknown) {
    const session = await openSession(h.urls.mcp, { "X-Forwarded-For": ip }, protocol);
    const headers = { "X-Forwarded-For": ip, "Mcp-Session-Id": session, "MCP-Protocol-Version": protocol };
    const release = (await h.runtime.searchTurns.take(HOLDER)) as () => void;
    let first: ReturnType<typeof postJson> | undefined;
    let again: Awaited<ReturnType<typeof postJson>>;
    try {
      const queued = seen(h, (e) => e.t === "queued" && e.caller === `address:${ip}`);
      first = postJson(h.urls.mcp, { jsonrpc: "2.0", id, method: "tools/call", params: { name: SEARCH, arguments: { query: "install" }, ...extra } }, headers);
      await queued;
      again = await postJson(h.urls.mcp, second, headers);
    } finally {
      release();
    }
    const answered = await first;
    // Answered, the id is free again.
    const after = await postJson(h.urls.mcp, { jsonrpc: "2.0", id, method: "ping" }, headers);
    return { again, first: answered, after };
  }

  for (const [path, extra] of [
    ["answered directly", {}],
    ["through the SDK (a progress token)", { _meta: { progressToken: 1 } }],
  ] as const) {
    it(`refuses a second request with the id, and answers the first (${path})`, async () => {
      const ip = path === "answered directly" ? "203.0.113.31" : "203.0.113.32";
      const r = await whileRunning(ip, PROTOCOL, 7, extra, { jsonrpc: "2.0", id: 7, method: "ping" });
      expect({ status: r.again.status, body: r.again.body }).toEqual({ status: 400, body: refusal(7) });
      expect(r.first.status).toBe(200);
      expect((r.first.body as { id: unknown; result: { isError?: boolean } }).id).toBe(7);
      expect((r.first.body as { result: { isError?: boolean } }).result.isError).toBeUndefined();
      expect({ status: r.after.status, body: r.after.body }).toEqual({ status: 200, body: { jsonrpc: "2.0", id: 7, result: {} } });
    });
  }

  it("keeps a string id and a number apart", async () => {
    const r = await whileRunning("203.0.113.33", PROTOCOL, "7", {}, { jsonrpc: "2.0", id: 7, method: "ping" });
    expect({ status: r.again.status, body: r.again.body }).toEqual({ status: 200, body: { jsonrpc: "2.0", id: 7, result: {} } });
    expect(r.first.status).toBe(200);
  });

  it("refuses the batch message with the id and runs the others", async () => {
    const r = await whileRunning("203.0.113.34", BATCH_PROTOCOL, "a", {}, [
      { jsonrpc: "2.0", id: "a", method: "ping" },
      { jsonrpc: "2.0", id: "b", method: "ping" },
    ]);
    expect({ status: r.again.status, body: r.again.body }).toEqual({ status: 200, body: [refusal("a"), { jsonrpc: "2.0", id: "b", result: {} }] });
    expect(r.first.status).toBe(200);
    expect({ status: r.after.status, body: r.after.body }).toEqual({ status: 200, body: { jsonrpc: "2.0", id: "a", result: {} } });
  });
});
