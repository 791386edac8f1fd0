/**
 * A search whose HTTP client hung up is not run (issue 25's closing note): the client sends a
 * `tools/call` of the search tool on a raw socket and destroys the socket; no JSON-RPC message
 * says it has gone. Searches wait for the thread (`CallerTurns`), which the test holds by taking
 * a turn itself, so the hung-up search is certainly waiting when its client goes; and a client
 * that hangs up while another caller's search runs is seen before the next search starts.
 * Asserted by the turns' events in order, never by time.
 */
import { connect as tcpConnect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TurnEvent } from "../../src/engine/search/caller-turns.js";
import { type Harness, PROTOCOL, SEARCH, openSession, startBridge } from "./harness.js";

const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "hang-up-test", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
const HOLDER = "address:192.0.2.250";

/** A 2026-07-28 search call, as its raw request headers and body. */
function modernSearch(query: string): { headers: Record<string, string>; body: unknown } {
  return {
    headers: { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": SEARCH },
    body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: SEARCH, arguments: { query }, _meta: ENVELOPE } },
  };
}

/** Sends one POST to /mcp from `ip` on a socket of its own; resolves once written, to the socket. */
function rawPost(h: Harness, ip: string, call: { headers: Record<string, string>; body: unknown }): Promise<Socket> {
  const url = new URL(h.urls.mcp);
  const body = JSON.stringify(call.body);
  const headers = {
    Host: url.host,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "X-Forwarded-For": ip,
    "Content-Length": String(Buffer.byteLength(body)),
    ...call.headers,
  };
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(Number(url.port), url.hostname, () => socket.write(`POST ${url.pathname} HTTP/1.1\r\n${head}\r\n${body}`, () => resolve(socket)));
    socket.on("error", reject);
  });
}

/** The turns' events from now on, and a way to wait for one. */
function watch(h: Harness): { readonly events: TurnEvent[]; next: (match: (e: TurnEvent) => boolean) => Promise<TurnEvent>; stop: () => void } {
  const events: TurnEvent[] = [];
  const waiters: { match: (e: TurnEvent) => boolean; resolve: (e: TurnEvent) => void }[] = [];
  const stop = h.runtime.searchTurns.observe((e) => {
    events.push(e);
    for (const w of [...waiters]) {
      if (!w.match(e)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(e);
    }
  });
  const next = (match: (e: TurnEvent) => boolean): Promise<TurnEvent> => {
    const seen = events.find(match);
    return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ match, resolve }));
  };
  return { events, next, stop };
}

/** What happened to `caller`'s searches, in order. */
function story(events: readonly TurnEvent[], caller: string): string[] {
  // Turns given up to connections being accepted (a test's own connections) say nothing of hang-ups.
  return events.filter((e) => e.caller === caller && e.t !== "yielded").map((e) => e.t);
}

describe("a search whose HTTP client hung up", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startBridge({ bridge: { trustProxy: true } });
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Holds the thread, sends `call` from `ip`, hangs up once it waits, and checks it never runs. */
  async function hangUpWhileWaiting(ip: string, call: { headers: Record<string, string>; body: unknown }): Promise<void> {
    const w = watch(h);
    const release = (await h.runtime.searchTurns.take(HOLDER)) as () => void;
    try {
      const socket = await rawPost(h, ip, call);
      await w.next((e) => e.t === "queued" && e.caller === `address:${ip}`);
      socket.destroy();
      await w.next((e) => e.t === "given-up" && e.caller === `address:${ip}`);
    } finally {
      release();
    }
    // The thread is free again: another caller's search runs and is answered.
    const answered = await fetch(h.urls.mcp, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-Forwarded-For": "198.51.100.9", ...modernSearch("install").headers },
      body: JSON.stringify(modernSearch("install").body),
    });
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { result: { isError?: boolean } }).result.isError).toBeUndefined();
    w.stop();
    expect(story(w.events, `address:${ip}`)).toEqual(["queued", "given-up"]);
    expect(story(w.events, "address:198.51.100.9")).toEqual(["queued", "run"]);
    expect(h.runtime.searchTurns.busyCallers).toBe(0);
  }

  it("leaves its queue at once and never runs (2026-07-28, answered directly)", async () => {
    await hangUpWhileWaiting("203.0.113.7", modernSearch("install"));
  });

  it("leaves its queue at once and never runs (a 2025 session's POST, answered directly)", async () => {
    const session = await openSession(h.urls.mcp, { "X-Forwarded-For": "203.0.113.8" });
    await hangUpWhileWaiting("203.0.113.8", {
      headers: { "Mcp-Session-Id": session, "MCP-Protocol-Version": PROTOCOL },
      body: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: SEARCH, arguments: { query: "install" } } },
    });
  });

  it("leaves its queue at once and never runs (a 2025 session's POST with a progress token, through the SDK)", async () => {
    const session = await openSession(h.urls.mcp, { "X-Forwarded-For": "203.0.113.9" });
    await hangUpWhileWaiting("203.0.113.9", {
      headers: { "Mcp-Session-Id": session, "MCP-Protocol-Version": PROTOCOL },
      body: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: SEARCH, arguments: { query: "install" }, _meta: { progressToken: 2 } } },
    });
  });

  it("is seen as gone when it hangs up while another caller's search runs, before the next search starts", async () => {
    const w = watch(h);
    const first = "203.0.113.21";
    const second = "203.0.113.22";
    const release = (await h.runtime.searchTurns.take(HOLDER)) as () => void;
    let answer: Promise<string> | undefined;
    const sockets: Socket[] = [];
    try {
      const a = await rawPost(h, first, modernSearch("install"));
      answer = new Promise((resolve) => {
        let text = "";
        a.on("data", (d: Buffer) => {
          text += d.toString();
          if (text.includes('"jsonrpc"')) resolve(text);
        });
      });
      await w.next((e) => e.t === "queued" && e.caller === `address:${first}`);
      const b = await rawPost(h, second, modernSearch("quickstart"));
      await w.next((e) => e.t === "queued" && e.caller === `address:${second}`);
      // As the first search starts (told synchronously, before it runs), the second's client
      // goes: its end is on the server's socket before the first search ends.
      w.next((e) => e.t === "run" && e.caller === `address:${first}`).then(
        () => b.destroy(),
        () => {},
      );
      sockets.push(a);
    } finally {
      release();
    }
    await w.next((e) => e.t === "given-up" && e.caller === `address:${second}`);
    w.stop();
    expect(story(w.events, `address:${first}`)).toEqual(["queued", "run"]);
    expect(story(w.events, `address:${second}`)).toEqual(["queued", "given-up"]);
    expect(await answer).toContain('"jsonrpc":"2.0"');
    for (const s of sockets) s.destroy();
  });
});
