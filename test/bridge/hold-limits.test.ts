import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientAddress } from "../../src/bridge/context.js";
import { callerAddress } from "../../src/bridge/middleware/caller-address.js";
import { OwnerLru } from "../../src/bridge/mcp/owner-lru.js";
import { type Session, SessionTable } from "../../src/bridge/mcp/sessions.js";
import { SessionCalls } from "../../src/bridge/mcp/session-calls.js";
import { LIMITS } from "../../src/limits.js";
import { accessRepo, type Harness, INIT, PROTOCOL, startBridge, userTokens } from "./harness.js";

/**
 * What one party may hold at once on the MCP endpoints (issue 25, items 4 and 5): a flood of
 * anonymous sessions never evicts a signed-in reader's `/authed/mcp` session (separate tables
 * per endpoint) nor another address's session (the table sheds the biggest holder's first);
 * `subscriptions/listen` streams are bounded per caller and per endpoint, and a refusal names
 * the bound it met.
 */

/** A session as the table sees it: closing it is all the table does with the rest. */
function fakeSession(id: string, endpoint: "mcp" | "authed", owner: string): Session {
  const server = { close: () => {}, server: { close: async () => {} } };
  return { id, endpoint, principal: endpoint === "authed" ? owner : "anonymous", owner, transport: {} as Session["transport"], server: server as unknown as Session["server"], lastSeen: 0, openStreams: 0, calls: new SessionCalls() };
}

describe("the session table, at the real bounds", () => {
  const table = () => new SessionTable({ maxSessions: LIMITS.bridge.maxSessions, maxSessionsPerCaller: LIMITS.bridge.maxSessionsPerCaller, idleMs: LIMITS.bridge.sessionIdleMs, now: () => 0 });

  it("10,050 anonymous initializes from 20 addresses evict neither a signed-in reader's session nor a quiet address's", () => {
    const t = table();
    t.add(fakeSession("signed-in", "authed", "user:ann"));
    t.add(fakeSession("quiet", "mcp", "address:192.0.2.200"));
    for (let i = 0; i < 10_050; i++) t.add(fakeSession(`flood-${i}`, "mcp", `address:192.0.2.${i % 20}`));
    expect([t.get("signed-in")?.id, t.get("quiet")?.id]).toEqual(["signed-in", "quiet"]);
    // The flood shed its own oldest sessions: the anonymous table is full, the signed-in one apart.
    expect(t.get("flood-10049")?.id).toBe("flood-10049");
    expect(t.get("flood-0")).toBeUndefined();
    expect(t.size).toBe(1 + LIMITS.bridge.maxSessions);
  });

  it("a full endpoint sheds the oldest session of whoever holds the most", () => {
    const t = new SessionTable({ maxSessions: 4, maxSessionsPerCaller: 10, idleMs: 1, now: () => 0 });
    t.add(fakeSession("a1", "mcp", "a"));
    t.add(fakeSession("b1", "mcp", "b"));
    t.add(fakeSession("b2", "mcp", "b"));
    t.add(fakeSession("b3", "mcp", "b"));
    t.add(fakeSession("c1", "mcp", "c"));
    expect(["a1", "b1", "b2", "b3", "c1"].map((id) => t.get(id) !== undefined)).toEqual([true, false, true, true, true]);
    // Used again, b2 is b's most recent: b3 goes next.
    t.get("b2");
    t.add(fakeSession("d1", "mcp", "d"));
    expect(["a1", "b2", "b3", "c1", "d1"].map((id) => t.get(id) !== undefined)).toEqual([true, true, false, true, true]);
  });

  it("one owner past its own bound loses its own oldest, whatever room is left", () => {
    const gone: string[] = [];
    const lru = new OwnerLru<string>({ max: 100, maxPerOwner: 2 }, (key) => void gone.push(key));
    for (const key of ["x1", "x2", "x3"]) lru.add("x", key, key);
    lru.add("y", "y1", "y1");
    expect([gone, lru.size]).toEqual([["x1"], 3]);
  });
});

describe("caller addresses", () => {
  it("an IPv6 address counts by its /64, an IPv4-mapped one as its IPv4 address", () => {
    expect(["203.0.113.7", "::ffff:203.0.113.7", "2001:db8:1:2:aaaa::1", "2001:db8:1:2:bbbb::2", "2001:db8:1:3::1", "::1", "unknown"].map(callerAddress)).toEqual([
      "203.0.113.7",
      "203.0.113.7",
      "2001:db8:1:2::/64",
      "2001:db8:1:2::/64",
      "2001:db8:1:3::/64",
      "0:0:0:0::/64",
      "unknown",
    ]);
  });

  // Before: any last entry was the caller, so each distinct text (`unknown`, `a1`, `a2`...) was a
  // caller with budgets of its own, for as many texts as one client could make a proxy pass on.
  it("with --trust-proxy are the last forwarded address, and the peer's when that is no address", () => {
    const peer = "127.0.0.1";
    const forwarded = ["198.51.100.1, 203.0.113.7", "203.0.113.7:8080", "[2001:db8::1]:443", "unknown", "198.51.100.1, not-an-address", "203.0.113.7,", "a1", undefined];
    expect(forwarded.map((f) => clientAddress(true, f, peer))).toEqual(["203.0.113.7", "203.0.113.7:8080", "[2001:db8::1]:443", peer, peer, peer, peer, peer]);
    expect(clientAddress(false, "203.0.113.7", peer)).toBe(peer);
  });

  it("gives an address the same key however often it is asked, past the keys kept and for text no address is", () => {
    const asked = ["2001:db8:1:2:aaaa::1", "[2001:db8:1:2:aaaa::1]:443", "::ffff:203.0.113.7", "203.0.113.7:8080", `${"x".repeat(70)}`, " 2001:db8:1:2:AAAA::1%eth0 "];
    const first = asked.map(callerAddress);
    expect(first).toEqual(["2001:db8:1:2::/64", "2001:db8:1:2::/64", "203.0.113.7", "203.0.113.7", "x".repeat(70), "2001:db8:1:2::/64"]);
    for (let i = 0; i < 5000; i++) expect(callerAddress(`10.${i >> 8}.${i & 255}.1`)).toBe(`10.${i >> 8}.${i & 255}.1`);
    expect(asked.map(callerAddress)).toEqual(first);
  });
});

/** A POST from a chosen loopback source address; `keep` leaves a streaming answer open (call `close`). */
function postFrom(
  url: string,
  from: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; first: string; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", localAddress: from, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      let first = "";
      const close = () => res.destroy();
      const streaming = (res.headers["content-type"] ?? "").startsWith("text/event-stream");
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        first += chunk;
        // A listen stream: answered once its acknowledgement arrived; it stays open.
        if (streaming && first.includes("\n\n")) resolve({ status: res.statusCode ?? 0, headers: res.headers, first, close });
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, first, close }));
      res.on("error", () => {});
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const MODERN = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
const LISTEN = { jsonrpc: "2.0", id: 7, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: MODERN } };
const LISTEN_HEADERS = { "mcp-protocol-version": "2026-07-28", "mcp-method": "subscriptions/listen" };

describe("over HTTP, with small bounds", () => {
  let h: Harness;
  let repo: ReturnType<typeof accessRepo>;
  beforeAll(async () => {
    repo = accessRepo();
    h = await startBridge({
      root: repo.dir,
      authMode: "partial",
      mcp: "enabled",
      bridge: { holdLimits: { maxSessions: 6, maxSessionsPerCaller: 3, maxListenStreams: 4, maxListenStreamsPerCaller: 2 } },
    });
    await h.state.addUser("ann", "ann-password-1", ["staff"]);
  });
  afterAll(async () => {
    await h?.close();
    repo?.cleanup();
  });

  const open = async (url: string, from: string, headers: Record<string, string> = {}): Promise<string> => {
    const r = await postFrom(url, from, INIT, headers);
    const id = r.headers["mcp-session-id"];
    if (r.status !== 200 || typeof id !== "string") throw new Error(`initialize: ${r.status} ${r.first}`);
    return id;
  };
  // Asked from the address that opened the session: another address's is unknown (404) to it.
  const alive = async (url: string, id: string, from: string, headers: Record<string, string> = {}): Promise<number> =>
    (await postFrom(url, from, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { ...headers, "mcp-session-id": id, "mcp-protocol-version": PROTOCOL })).status;

  it("anonymous sessions from several addresses evict only the biggest holders' own, never a signed-in reader's", async () => {
    const token = (await userTokens(h, "ann", "ann-password-1")).access_token;
    const bearer = { authorization: `Bearer ${token}` };
    const signedIn = await open(h.urls.authedMcp, "127.0.0.9", bearer);
    const quiet = await open(h.urls.mcp, "127.0.0.8");
    const flood: { id: string; from: string }[] = [];
    for (const from of ["127.0.0.2", "127.0.0.3", "127.0.0.4"]) for (let i = 0; i < 4; i++) flood.push({ id: await open(h.urls.mcp, from), from });
    expect([await alive(h.urls.authedMcp, signedIn, "127.0.0.1", bearer), await alive(h.urls.mcp, quiet, "127.0.0.8")]).toEqual([200, 200]);
    // 12 opened by three addresses, 3 each at most, 5 left beside the quiet one.
    const left = await Promise.all(flood.map(({ id, from }) => alive(h.urls.mcp, id, from)));
    expect(left.filter((s) => s === 200).length).toBe(5);
    expect(h.bridge.endpoint.sessions.size).toBe(7);
  });

  it("listen streams: two per address, four per endpoint; each refusal names its bound", async () => {
    const open1 = await postFrom(h.urls.mcp, "127.0.0.2", LISTEN, LISTEN_HEADERS);
    const open2 = await postFrom(h.urls.mcp, "127.0.0.2", LISTEN, LISTEN_HEADERS);
    expect([open1.status, open2.status, open1.first]).toEqual([200, 200, expect.stringContaining("notifications/subscriptions/acknowledged")]);
    const third = await postFrom(h.urls.mcp, "127.0.0.2", LISTEN, LISTEN_HEADERS);
    expect([third.status, JSON.parse(third.first)]).toEqual([
      429,
      {
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: -32029,
          message: "Too many open subscriptions/listen streams: at most 2 at once per caller (address or token), and this one holds 2; close one before opening another",
          data: { reason: "listen_streams_per_caller", limit: 2 },
        },
      },
    ]);
    const others = [await postFrom(h.urls.mcp, "127.0.0.3", LISTEN, LISTEN_HEADERS), await postFrom(h.urls.mcp, "127.0.0.3", LISTEN, LISTEN_HEADERS)];
    const full = await postFrom(h.urls.mcp, "127.0.0.4", LISTEN, LISTEN_HEADERS);
    expect([full.status, full.headers["retry-after"], JSON.parse(full.first)]).toEqual([
      503,
      "60",
      {
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32000, message: "This server holds its most open subscriptions/listen streams (4 on this endpoint); retry later", data: { reason: "listen_streams", limit: 4 } },
      },
    ]);
    // The signed-in endpoint has its own four.
    const token = (await userTokens(h, "ann", "ann-password-1")).access_token;
    const authed = await postFrom(h.urls.authedMcp, "127.0.0.4", LISTEN, { ...LISTEN_HEADERS, authorization: `Bearer ${token}` });
    expect(authed.status).toBe(200);
    // A closed stream gives its place back.
    open1.close();
    await new Promise<void>((resolve) => {
      const poll = (): void => void (h.bridge.endpoint.listenStreams("mcp") === 3 ? resolve() : setImmediate(poll));
      poll();
    });
    const again = await postFrom(h.urls.mcp, "127.0.0.2", LISTEN, LISTEN_HEADERS);
    expect(again.status).toBe(200);
    for (const s of [open2, ...others, authed, again]) s.close();
  });
});
