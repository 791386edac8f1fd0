import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, INIT, credentialTokens, openSession, startBridge } from "./harness.js";

/**
 * An `initialize` is sent alone: MCP 2025-03-26 says it is not part of a JSON-RPC batch, and the
 * revisions after it have no batches at all. Sent in one, at any protocol version, on either
 * endpoint, with or without a session, it is refused whole with a 400 and one JSON-RPC error per
 * request, and opens no session. Before, a batch of one `initialize` at any version but 2025-11-25
 * was an HTTP 500 (the session id was signed before the server negotiated, for the version of a
 * body the bridge did not look into), and at 2025-11-25 it opened a session (adversary round 58, F1).
 */

/** Every session (2025-era) protocol version the SDK negotiates. */
const VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"] as const;

const ALONE = { code: -32600, message: "Invalid Request: initialize must be sent alone, not in a JSON-RPC batch" };
const NOT_RUN = (index: number) => ({ code: -32600, message: `Invalid Request: the batch was not processed because its message at index ${index} is invalid` });
const init = (protocolVersion: string, id: number | string = 1) => ({ ...INIT, id, params: { ...INIT.params, protocolVersion } });

let h: Harness;
let token = "";

beforeAll(async () => {
  h = await startBridge({ authMode: "partial", mcp: "enabled" });
  token = (await credentialTokens(h)).access_token;
});
afterAll(() => h.close());

/** The whole answer as a client sees it: status, the headers that matter, the body's text. */
async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  return { status: r.status, type: r.headers.get("content-type"), session: r.headers.get("mcp-session-id"), body: JSON.parse(await r.text()) as unknown };
}

const endpoints = (): readonly (readonly [string, string, Record<string, string>])[] => [
  ["/mcp", h.urls.mcp, {}],
  ["/authed/mcp", h.urls.authedMcp, { Authorization: `Bearer ${token}` }],
];

describe("an initialize in a batch", () => {
  it("is refused 400 at every protocol version on both endpoints, and opens no session", async () => {
    const before = h.bridge.endpoint.sessions.size;
    const answers: unknown[] = [];
    const expected: unknown[] = [];
    for (const [name, url, headers] of endpoints()) {
      for (const version of VERSIONS) {
        answers.push([name, version, await post(url, [init(version)], headers)]);
        expected.push([name, version, { status: 400, type: "application/json", session: null, body: [{ jsonrpc: "2.0", id: 1, error: ALONE }] }]);
      }
    }
    expect(answers).toEqual(expected);
    expect(h.bridge.endpoint.sessions.size).toBe(before);
    expect(h.logs.filter((l) => l.startsWith("error:"))).toEqual([]);
  });

  it("refuses the whole batch: the initialize gets its own error, the other requests the batch's, notifications nothing", async () => {
    const batch = [{ jsonrpc: "2.0", id: "p", method: "ping" }, init("2025-03-26", 7), { jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: 9, method: "tools/list" }];
    for (const [, url, headers] of endpoints()) {
      expect(await post(url, batch, headers)).toEqual({
        status: 400,
        type: "application/json",
        session: null,
        body: [
          { jsonrpc: "2.0", id: "p", error: NOT_RUN(1) },
          { jsonrpc: "2.0", id: 7, error: ALONE },
          { jsonrpc: "2.0", id: 9, error: NOT_RUN(1) },
        ],
      });
    }
  });

  it("is refused the same way inside a session, whether the session keeps batches (2025-03-26) or not (2025-11-25), and the session goes on", async () => {
    for (const [, url, headers] of endpoints()) {
      for (const version of ["2025-03-26", "2025-11-25"]) {
        const id = await openSession(url, headers, version);
        const inSession = { ...headers, "mcp-session-id": id, "mcp-protocol-version": version };
        expect(await post(url, [{ jsonrpc: "2.0", id: 2, method: "ping" }, init(version, 3)], inSession)).toEqual({
          status: 400,
          type: "application/json",
          session: null,
          body: [
            { jsonrpc: "2.0", id: 2, error: NOT_RUN(1) },
            { jsonrpc: "2.0", id: 3, error: ALONE },
          ],
        });
        expect(await post(url, { jsonrpc: "2.0", id: 4, method: "ping" }, inSession)).toEqual({ status: 200, type: "application/json", session: id, body: { jsonrpc: "2.0", id: 4, result: {} } });
      }
    }
  });

  it("an initialize sent alone still opens a session at the version it asked for", async () => {
    const negotiated: string[] = [];
    for (const version of VERSIONS) {
      const r = await post(h.urls.mcp, init(version));
      expect([r.status, typeof r.session]).toEqual([200, "string"]);
      negotiated.push((r.body as { result: { protocolVersion: string } }).result.protocolVersion);
    }
    expect(negotiated).toEqual(VERSIONS);
  });
});
