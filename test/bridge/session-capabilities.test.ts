import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, type Harness, startBridge } from "./harness.js";

/**
 * Adversary round 60 F1: ~300 `initialize` requests from one address, each declaring 60 KB of
 * capabilities made of 20,000 empty arrays, kept ~0.6 GB of small live objects (the SDK's server
 * keeps a session's client capabilities and `clientInfo` for its life) and stalled other callers
 * for minutes. A session now keeps only what the server acts on: the MCP Apps extension, the trait
 * its id carries (so every worker sees the same session), and a name and version of at most 256
 * characters. A real bridge on port 0; the session's server is read from the endpoint's table.
 */

let h: Harness;
beforeAll(async () => {
  h = await startBridge({ root: DEMO, mcp: "enabled", rateLimits: ["ip=off"] });
});
afterAll(async () => {
  await h.close();
});

const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };

async function initialize(params: Record<string, unknown>): Promise<{ status: number; session: string | null; text: string }> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", ...params } });
  const res = await fetch(h.urls.mcp, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body });
  return { status: res.status, session: res.headers.get("mcp-session-id"), text: await res.text() };
}

function kept(session: string | null): unknown {
  const server = h.bridge.endpoint.sessions.get(session ?? "")?.server.server;
  return { capabilities: server?.getClientCapabilities(), clientInfo: server?.getClientVersion() };
}

describe("what a 2025 session keeps of its client's initialize", () => {
  it("keeps the MCP Apps extension alone of wide capabilities, and a bounded name", async () => {
    const wide = Array.from({ length: 3_000 }, () => []);
    const r = await initialize({
      capabilities: { roots: { listChanged: true }, sampling: {}, experimental: { x: { d: wide } }, extensions: { ...UI, "example.com/other": { d: wide } } },
      clientInfo: { name: `${"n".repeat(300)}`, version: "1.0.0", extra: wide },
    });
    expect(r.status).toBe(200);
    expect(kept(r.session)).toEqual({ capabilities: { extensions: UI }, clientInfo: { name: "n".repeat(256), version: "1.0.0" } });
  });

  it("keeps no capabilities of a client without the extension", async () => {
    const r = await initialize({ capabilities: { experimental: { x: { d: [[], [], []] } } }, clientInfo: { name: "c", version: "1" } });
    expect([r.status, kept(r.session)]).toEqual([200, { capabilities: {}, clientInfo: { name: "c", version: "1" } }]);
  });

  it("leaves an initialize the SDK refuses to the SDK: refused as before, no session", async () => {
    const before = h.bridge.endpoint.sessions.size;
    const r = await initialize({ capabilities: 5, clientInfo: { name: "c", version: "1" } });
    expect([r.status, r.session, h.bridge.endpoint.sessions.size - before]).toEqual([400, null, 0]);
  });
});
