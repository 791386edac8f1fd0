import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startBridge } from "./harness.js";

/**
 * The per-IP limit answers before the Origin check runs; its 429 must still carry the CORS
 * headers the Origin check would have added, or a browser MCP client cannot read `Retry-After`
 * (it sees a network error). Decided without the state store: loopback and the configured public
 * origin only.
 */
let h: Harness;
beforeAll(async () => {
  h = await startBridge({ rateLimits: ["ip=3"], bridge: { publicUrl: "https://docs.example.com" } });
});
afterAll(async () => h.close());

const ping = { jsonrpc: "2.0", id: 1, method: "ping" };

async function post(path: string, origin: string | undefined): Promise<{ status: number; headers: Record<string, string | null> }> {
  const res = await fetch(`${h.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(origin !== undefined ? { origin } : {}) },
    body: JSON.stringify(ping),
  });
  await res.arrayBuffer();
  const names = ["access-control-allow-origin", "access-control-expose-headers", "vary"];
  return { status: res.status, headers: Object.fromEntries(names.map((n) => [n, res.headers.get(n)])) };
}

async function get(path: string, origin: string): Promise<{ status: number; cors: string | null }> {
  const res = await fetch(`${h.origin}${path}`, { headers: { origin } });
  await res.arrayBuffer();
  return { status: res.status, cors: res.headers.get("access-control-allow-origin") };
}

describe("the per-IP limit's 429", () => {
  it("carries CORS headers for a loopback or the public origin on MCP, none for others, and * on the discovery documents", async () => {
    for (let i = 0; i < 3; i++) expect((await post("/mcp", undefined)).status).not.toBe(429);
    const exposed = "Mcp-Session-Id, WWW-Authenticate, Retry-After";
    expect(await post("/mcp", "http://localhost:5173")).toEqual({
      status: 429,
      headers: { "access-control-allow-origin": "http://localhost:5173", "access-control-expose-headers": exposed, vary: "Origin" },
    });
    expect(await post("/authed/mcp", "https://docs.example.com")).toEqual({
      status: 429,
      headers: { "access-control-allow-origin": "https://docs.example.com", "access-control-expose-headers": exposed, vary: "Origin" },
    });
    expect(await post("/mcp", "https://evil.example")).toEqual({
      status: 429,
      headers: { "access-control-allow-origin": null, "access-control-expose-headers": null, vary: null },
    });
    expect(await get("/.well-known/mcp", "https://evil.example")).toEqual({ status: 429, cors: "*" });
    // Pages are not CORS paths: no headers, whatever the origin.
    expect(await get("/quickstart", "http://localhost:5173")).toEqual({ status: 429, cors: null });
  });
});

describe("the per-IP limit's 429 for a web-based AI tool on the redirect-domain list", () => {
  let t: Harness;
  beforeAll(async () => {
    t = await startBridge({ rateLimits: ["ip=3"] });
    await t.state.addRedirectDomain("https://tool.example");
  });
  afterAll(async () => t.close());

  async function postTo(origin: string | undefined): Promise<{ status: number; headers: Record<string, string | null> }> {
    const res = await fetch(`${t.origin}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(origin !== undefined ? { origin } : {}) },
      body: JSON.stringify(ping),
    });
    await res.arrayBuffer();
    const names = ["access-control-allow-origin", "access-control-expose-headers", "vary"];
    return { status: res.status, headers: Object.fromEntries(names.map((n) => [n, res.headers.get(n)])) };
  }

  it("carries CORS headers for an origin on the list as the Origin check last read it, none for one off it", async () => {
    // Let through: the Origin check reads the list from the store, and the 429 answers from what it read.
    expect((await postTo("https://tool.example")).headers["access-control-allow-origin"]).toBe("https://tool.example");
    expect((await postTo(undefined)).status).not.toBe(429);
    expect((await postTo(undefined)).status).not.toBe(429);
    expect(await postTo("https://tool.example")).toEqual({
      status: 429,
      headers: { "access-control-allow-origin": "https://tool.example", "access-control-expose-headers": "Mcp-Session-Id, WWW-Authenticate, Retry-After", vary: "Origin" },
    });
    expect(await postTo("https://other.example")).toEqual({
      status: 429,
      headers: { "access-control-allow-origin": null, "access-control-expose-headers": null, vary: null },
    });
    // An http origin never matches an https entry.
    expect(await postTo("http://tool.example")).toEqual({
      status: 429,
      headers: { "access-control-allow-origin": null, "access-control-expose-headers": null, vary: null },
    });
  });
});
