/**
 * A caller that gives up stops its shell command (issue 25.1), on every path a call reaches the
 * pool: the SDK client's `notifications/cancelled` and a dropped HTTP request on a 2025 session,
 * a session ended while its call runs, a dropped 2026-07-28 request (answered directly or by
 * the SDK), and the stdio server's cancellation and closing. The pool has one worker and the
 * runaway would run for an hour, so another caller's `ls /` answers only if the cancellation
 * freed the worker: asserted by the pool's events in order, never by time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import type { PoolEvent } from "../../src/engine/shell/pool-events.js";
import { localContext, requestContext } from "../../src/vfs/request-context.js";
import { ANONYMOUS } from "../../src/vfs/access.js";
import { connect } from "../helpers/mcp.js";
import { PoolRecorder } from "../helpers/pool-events.js";
import { FS, type Harness, PROTOCOL, mcpClient, startBridge } from "./harness.js";

const RUNAWAY = "awk 'BEGIN { for (i = 0; i < 1e12; i++) s += i; print s }'";
const LIMITS_HOUR = { ...LIMITS.shell, maxExecutionMs: 3_600_000, maxLoopIterations: 1e12, maxAwkSedIterations: 1e13, maxSteps: 1e15 };
/** What an anonymous reader of the demo site sees at `/`. */
const LS_ROOT = "api\nguides\nindex.mdx\nquickstart.mdx\nskill.md\n";
const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "cancel-test", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
const ATTACKER = "203.0.113.7";
const VICTIM = "198.51.100.9";

/** A fetch that says it comes from `ip` (the bridge trusts X-Forwarded-For here). */
function fetchFrom(ip: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("X-Forwarded-For", ip);
    return fetch(input, { ...init, headers });
  };
}

function startPool(directToolCalls = true): Promise<{ h: Harness; rec: PoolRecorder }> {
  const rec = new PoolRecorder();
  return startBridge({ shell: { workers: 1, limits: LIMITS_HOUR, maxCpuMs: 3_600_000, onEvent: rec.onEvent }, bridge: { trustProxy: true, directToolCalls } }).then((h) => ({ h, rec }));
}

/**
 * Starts the runaway with `attack` (resolving once it runs, to the way to give it up), queues
 * another caller's `ls /` behind it, gives up, and checks the ls answers, after the runaway ended
 * cancelled, on a fresh worker.
 */
async function victimAfter(h: Harness, rec: PoolRecorder, attack: () => Promise<() => Promise<void> | void>, victimCaller = `address:${VICTIM}`): Promise<void> {
  const from = rec.events.length;
  const since = (match: (e: PoolEvent) => boolean) => rec.next((e) => rec.events.indexOf(e) >= from && match(e));
  const started = since((e) => e.t === "start");
  const giveUp = await attack();
  const runaway = (await started) as Extract<PoolEvent, { t: "start" }>;
  const victim = await mcpClient(h.urls.mcp, { fetch: fetchFrom(VICTIM) });
  try {
    const answer = victim.text(FS, { command: "ls /" });
    const queued = (await since((e) => e.t === "queued" && e.caller === victimCaller)) as Extract<PoolEvent, { t: "queued" }>;
    await giveUp();
    expect(await answer).toBe(LS_ROOT);
    const names = new Map([[runaway.call, "runaway"], [queued.call, "ls"]]);
    const lines = rec.events
      .slice(from)
      .filter((e) => (e.t === "start" || e.t === "end") && names.has(e.call))
      .map((e) => `${names.get((e as { call: number }).call)} ${e.t === "end" ? `ended: ${e.how}` : "started"}`);
    expect(lines).toEqual(["runaway started", "runaway ended: cancelled", "ls started", "ls ended: result"]);
  } finally {
    await victim.close();
  }
}

/** A raw POST that the test can drop mid-flight (the client disconnects; no JSON-RPC message says so). */
function droppable(url: string, body: unknown, headers: Record<string, string>): () => void {
  const abort = new AbortController();
  fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-Forwarded-For": ATTACKER, ...headers },
    body: JSON.stringify(body),
    signal: abort.signal,
  }).catch(() => {});
  return () => abort.abort();
}

/** A 2025 session opened by raw requests: its id. */
async function rawSession(h: Harness): Promise<string> {
  const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-Forwarded-For": ATTACKER };
  const init = await fetch(h.urls.mcp, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
  });
  const id = init.headers.get("mcp-session-id") as string;
  await init.text();
  const note = await fetch(h.urls.mcp, {
    method: "POST",
    headers: { ...headers, "Mcp-Session-Id": id, "MCP-Protocol-Version": PROTOCOL },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await note.text();
  return id;
}

describe("over HTTP, 2025 sessions and 2026-07-28 direct calls", () => {
  let h: Harness;
  let rec: PoolRecorder;

  beforeAll(async () => {
    ({ h, rec } = await startPool());
  });
  afterAll(async () => {
    await h?.close();
  });

  it("the SDK client's cancellation (notifications/cancelled) stops the command and frees its worker", async () => {
    const attacker = await mcpClient(h.urls.mcp, { fetch: fetchFrom(ATTACKER) });
    try {
      await victimAfter(h, rec, async () => {
        const abort = new AbortController();
        const call = attacker.client.callTool({ name: FS, arguments: { command: RUNAWAY } }, undefined, { signal: abort.signal }).then(
          () => "answered",
          () => "rejected",
        );
        return async () => {
          abort.abort();
          expect(await call).toBe("rejected");
        };
      });
    } finally {
      await attacker.close();
    }
  });

  it("a dropped request (the client disconnects) on a 2025 session stops the command", async () => {
    const session = await rawSession(h);
    await victimAfter(h, rec, async () =>
      droppable(h.urls.mcp, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: FS, arguments: { command: RUNAWAY } } }, { "Mcp-Session-Id": session, "MCP-Protocol-Version": PROTOCOL }),
    );
  });

  it("a session ended (DELETE) while its call runs stops the command", async () => {
    const attacker = await mcpClient(h.urls.mcp, { fetch: fetchFrom(ATTACKER) });
    const call = attacker.client.callTool({ name: FS, arguments: { command: RUNAWAY } }).catch((e: Error) => e.name);
    await victimAfter(h, rec, async () => async () => {
      await attacker.transport.terminateSession();
      await attacker.close();
    });
    await call;
  });

  it("a dropped 2026-07-28 request answered directly stops the command", async () => {
    await victimAfter(h, rec, async () =>
      droppable(h.urls.mcp, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: FS, arguments: { command: RUNAWAY }, _meta: ENVELOPE } }, {
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": FS,
      }),
    );
  });
});

describe("over HTTP, 2026-07-28 calls served by the SDK", () => {
  let h: Harness;
  let rec: PoolRecorder;

  beforeAll(async () => {
    ({ h, rec } = await startPool(false));
  });
  afterAll(async () => {
    await h?.close();
  });

  it("a dropped request stops the command", async () => {
    await victimAfter(h, rec, async () =>
      droppable(h.urls.mcp, { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: FS, arguments: { command: RUNAWAY }, _meta: ENVELOPE } }, {
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": FS,
      }),
    );
  });
});

describe("the stdio server (the same server, over an in-memory transport)", () => {
  let h: Harness;
  let rec: PoolRecorder;

  beforeAll(async () => {
    ({ h, rec } = await startPool());
  });
  afterAll(async () => {
    await h?.close();
  });

  it("the client's cancellation stops the command", async () => {
    const local = await connect(h.runtime, requestContext(ANONYMOUS, "public", Date.now, "stdio"));
    try {
      await victimAfter(h, rec, async () => {
        const abort = new AbortController();
        const call = local.client.callTool({ name: FS, arguments: { command: RUNAWAY } }, undefined, { signal: abort.signal }).then(
          () => "answered",
          () => "rejected",
        );
        return async () => {
          abort.abort();
          expect(await call).toBe("rejected");
        };
      });
    } finally {
      await local.close();
    }
  });

  it("the connection closing (the client went away) stops the command", async () => {
    const local = await connect(h.runtime, localContext());
    const call = local.client.callTool({ name: FS, arguments: { command: RUNAWAY } }).catch((e: Error) => e.name);
    await victimAfter(h, rec, async () => () => local.close());
    await call;
  });
});
