import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FS, type Harness, SEARCH, TestClock, accessRepo, postJson, startBridge, userTokens } from "./harness.js";

/**
 * Plain tool calls of 2025 sessions are answered by the tool directly (`SessionToolCalls`),
 * without the session's SDK transport and server. Over real HTTP, two bridges on one site, one
 * with the direct path and one without, each get a session per reader (and one whose client
 * renders MCP Apps) and are sent the same requests: every answer (status, headers, body) is the
 * same byte for byte, and on the direct bridge the plain calls never reached the session's
 * transport. Calls the direct path must leave to the SDK (another id kind, a `_meta`, a task,
 * headers the transport refuses...) reach it on both and are answered alike.
 */
const FEEDBACK = "submit_feedback";
const APP_TOOL = "api_request_nimbus_storage";
const VERSION = "2025-11-25";
const UI = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };

type Reader = "anonymous" | "staff" | "pat" | "apps";
type Side = "direct" | "sdk";

let repo: ReturnType<typeof accessRepo>;
const bridges = {} as Record<Side, Harness>;
const tokens = {} as Record<Side, { staff: string; pat: string }>;
const sessions = {} as Record<Side, Record<Reader, string>>;

async function start(directToolCalls: boolean): Promise<Harness> {
  const h = await startBridge({ root: repo.dir, authMode: "partial", mcp: "enabled", clock: new TestClock(), apps: true, playgroundApps: true, feedbackTool: true, bridge: { directToolCalls } });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  await h.state.addUser("pat", "pat-password-1", []);
  return h;
}

function urlOf(side: Side, reader: Reader): string {
  return reader === "staff" || reader === "pat" ? bridges[side].urls.authedMcp : bridges[side].urls.mcp;
}

function authOf(side: Side, reader: Reader): Record<string, string> {
  return reader === "staff" || reader === "pat" ? { Authorization: `Bearer ${tokens[side][reader]}` } : {};
}

async function open(side: Side, reader: Reader): Promise<string> {
  const capabilities = reader === "apps" ? UI : {};
  const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: VERSION, capabilities, clientInfo: { name: "session-direct-test", version: "1" } } };
  const r = await postJson(urlOf(side, reader), init, authOf(side, reader));
  const id = r.headers.get("mcp-session-id");
  if (r.status !== 200 || id === null) throw new Error(`initialize: ${r.status} ${r.text}`);
  await postJson(urlOf(side, reader), { jsonrpc: "2.0", method: "notifications/initialized" }, { ...authOf(side, reader), "mcp-session-id": id, "mcp-protocol-version": VERSION });
  return id;
}

beforeAll(async () => {
  repo = accessRepo();
  [bridges.direct, bridges.sdk] = await Promise.all([start(true), start(false)]);
  for (const side of ["direct", "sdk"] as const) {
    const h = bridges[side];
    tokens[side] = { staff: (await userTokens(h, "sam", "sam-password-1")).access_token, pat: (await userTokens(h, "pat", "pat-password-1")).access_token };
    sessions[side] = { anonymous: await open(side, "anonymous"), staff: await open(side, "staff"), pat: await open(side, "pat"), apps: await open(side, "apps") };
  }
});
afterAll(async () => {
  await Promise.all([bridges.direct.close(), bridges.sdk.close()]);
  repo.cleanup();
});

interface Sent {
  readonly reader: Reader;
  readonly body: Record<string, unknown>;
  /** Headers beside the session's (replacing the defaults). */
  readonly headers?: Record<string, string>;
}

function toolCall(name: string, args: unknown, reader: Reader = "anonymous", id: unknown = 7): Sent {
  return { reader, body: { jsonrpc: "2.0", id, method: "tools/call", params: { name, ...(args === undefined ? {} : { arguments: args }) } } };
}

async function answer(side: Side, sent: Sent): Promise<string> {
  const session = sessions[side][sent.reader];
  const r = await postJson(urlOf(side, sent.reader), sent.body, { ...authOf(side, sent.reader), "mcp-session-id": session, "mcp-protocol-version": VERSION, ...sent.headers });
  const headers = [...r.headers].filter(([k]) => k !== "date" && k !== "keep-alive" && k !== "connection").map(([k, v]) => `${k}: ${v.replaceAll(session, "<session>")}`);
  // Feedback entries are named at random: the one difference two stores may show.
  return `${r.status} ${headers.join("; ")}\n${r.text.replaceAll(/fb_[a-z0-9]+/g, "fb_<id>")}`;
}

/** Both bridges' answers to each request in turn, and which requests reached the direct bridge's session transports (their indexes). */
async function answers(requests: readonly Sent[]): Promise<{ direct: string[]; sdk: string[]; transported: number[] }> {
  const spies = Object.values(sessions.direct).map((id) => vi.spyOn(bridges.direct.bridge.endpoint.sessions.get(id)!.transport, "handleRequest"));
  const out = { direct: [] as string[], sdk: [] as string[], transported: [] as number[] };
  const calls = (): number => spies.reduce((n, s) => n + s.mock.calls.length, 0);
  try {
    for (const [i, sent] of requests.entries()) {
      const before = calls();
      out.direct.push(await answer("direct", sent));
      if (calls() > before) out.transported.push(i);
      out.sdk.push(await answer("sdk", sent));
    }
  } finally {
    for (const s of spies) s.mockRestore();
  }
  return out;
}

const status = (a: string): string => a.slice(0, a.indexOf(" "));

describe("2025 session tool calls answered directly", () => {
  it("answer plain calls exactly as the SDK does, for every reader, without the session's transport", async () => {
    const plain = [
      toolCall(SEARCH, { query: "replication" }),
      toolCall(SEARCH, { query: "drain the node" }, "staff"),
      toolCall(SEARCH, { query: "drain the node" }, "pat"),
      toolCall(SEARCH, { query: "drain the node" }),
      toolCall(SEARCH, { query: "replication", pageSize: 0 }),
      toolCall(SEARCH, { query: "replication", version: "v9" }),
      toolCall(SEARCH, undefined, "anonymous", "call-string-id"),
      toolCall(SEARCH, { query: "replication" }, "apps", 0),
      toolCall(FS, { command: "cat /internal/runbook.mdx" }, "staff"),
      toolCall(FS, { command: "cat /internal/runbook.mdx" }, "pat"),
      toolCall(FS, { command: "rg -l STAFF /" }),
      toolCall(FEEDBACK, { path: "/quickstart", feedback: "The install step misses the Windows command." }),
      toolCall(APP_TOOL, {}, "apps"),
      // A `"__proto__"` member (kept by JSON.parse, dropped by the SDK's schemas) is left out before either path reads the call.
      toolCall(SEARCH, JSON.parse('{"query":"replication","__proto__":{"pageSize":0}}')),
      // The session's own version named, or none.
      { ...toolCall(SEARCH, { query: "replication" }), headers: { "mcp-protocol-version": VERSION } },
    ];
    const got = await answers(plain);
    expect(got.direct).toEqual(got.sdk);
    expect(got.direct.map(status)).toEqual(plain.map(() => "200"));
    expect(got.direct[0]).toContain("content-type: application/json; mcp-session-id: <session>\n");
    expect(got.direct[0]).toMatch(/^200 [^\n]*\n\{"result":\{"_meta":\{"svc-mcp\/provenance":\{.*\},"jsonrpc":"2\.0","id":7\}$/s);
    expect(got.direct[1]).toContain("STAFF-ONLY-RUNBOOK-7F3A");
    expect(got.direct[8]).toContain("STAFF-ONLY-RUNBOOK-7F3A");
    for (const i of [2, 3, 9, 10]) expect(got.direct[i]).not.toContain("STAFF-ONLY-RUNBOOK-7F3A");
    expect(got.direct[13]).toBe(got.direct[0]);
    expect(got.transported).toEqual([]);
  });

  it("leave to the SDK every call it must judge, and answer it as before", async () => {
    const base = toolCall(SEARCH, { query: "replication" });
    const params = base.body.params as Record<string, unknown>;
    const odd: Sent[] = [
      toolCall("search_elsewhere", { query: "replication" }),
      toolCall(APP_TOOL, {}),
      toolCall(SEARCH, ["replication"]),
      toolCall(SEARCH, "replication"),
      toolCall(SEARCH, { query: "replication" }, "anonymous", 1.5),
      toolCall(SEARCH, { query: "replication" }, "anonymous", 2 ** 53),
      toolCall(SEARCH, { query: "replication" }, "anonymous", null),
      { ...base, body: { ...base.body, extra: 1 } },
      { ...base, body: { ...base.body, jsonrpc: "1.0" } },
      { ...base, body: { ...base.body, params: { ...params, task: { ttl: 1000 } } } },
      { ...base, body: { ...base.body, params: { ...params, _meta: { progressToken: 1 } } } },
      { ...base, body: { ...base.body, params: { ...params, requestState: "abc" } } },
      { ...base, headers: { "mcp-protocol-version": "2025-06-18" } },
      { ...base, headers: { "mcp-protocol-version": "1999-01-01" } },
      { ...base, headers: { Accept: "application/json" } },
    ];
    const got = await answers(odd);
    expect(got.direct).toEqual(got.sdk);
    expect(got.direct.map(status)).toEqual(["200", "200", "200", "200", "400", "400", "400", "400", "400", "200", "200", "200", "200", "400", "406"]);
    // The rest are refused by the bridge's own reading of the body, before any transport: an
    // unknown member (7) is the message's own problem, answered -32600 as the SDK's schema would.
    expect(got.transported).toEqual([0, 1, 2, 3, 9, 10, 11, 12, 13, 14]);
  });
});
