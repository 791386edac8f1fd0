import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FS, type Harness, SEARCH, TestClock, accessRepo, postJson, startBridge, userTokens } from "./harness.js";

/**
 * Plain 2026-07-28 tool calls are answered by the tool directly (`DirectToolCalls`), without a
 * server the SDK builds for the request. Over real HTTP, two bridges on one site, one with the
 * direct path and one without, are sent the same requests: every answer (status, content type,
 * body) is the same byte for byte, for every reader, and the direct bridge made no server for
 * the plain calls. Calls the direct path must leave to the SDK (a header that disagrees, an
 * unknown tool, a task, more `_meta`...) are answered by the SDK on both.
 */
const FEEDBACK = "submit_feedback";
const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "direct-test", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

let repo: ReturnType<typeof accessRepo>;
let direct: Harness;
let sdk: Harness;
const tokens: Record<"direct" | "sdk", { staff: string; pat: string }> = { direct: { staff: "", pat: "" }, sdk: { staff: "", pat: "" } };

async function start(directToolCalls: boolean): Promise<Harness> {
  const h = await startBridge({ root: repo.dir, authMode: "partial", mcp: "enabled", clock: new TestClock(), apps: true, feedbackTool: true, bridge: { directToolCalls } });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  await h.state.addUser("pat", "pat-password-1", []);
  return h;
}

beforeAll(async () => {
  repo = accessRepo();
  [direct, sdk] = await Promise.all([start(true), start(false)]);
  for (const [key, h] of [["direct", direct], ["sdk", sdk]] as const) {
    tokens[key] = { staff: (await userTokens(h, "sam", "sam-password-1")).access_token, pat: (await userTokens(h, "pat", "pat-password-1")).access_token };
  }
});
afterAll(async () => {
  await Promise.all([direct.close(), sdk.close()]);
  repo.cleanup();
});

interface Sent {
  /** Who asks: anonymous on /mcp, or a signed-in reader on /authed/mcp. */
  readonly reader: "anonymous" | "staff" | "pat";
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
}

/** A tools/call with its standard headers, as a 2026-07-28 client sends it. */
function toolCall(name: string, args: unknown, reader: Sent["reader"] = "anonymous", id: string | number = 7): Sent {
  return {
    reader,
    body: { jsonrpc: "2.0", id, method: "tools/call", params: { name, ...(args === undefined ? {} : { arguments: args }), _meta: ENVELOPE } },
    headers: { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name },
  };
}

async function answer(h: Harness, key: "direct" | "sdk", sent: Sent): Promise<string> {
  const url = sent.reader === "anonymous" ? h.urls.mcp : h.urls.authedMcp;
  const auth: Record<string, string> = sent.reader === "anonymous" ? {} : { Authorization: `Bearer ${tokens[key][sent.reader]}` };
  const r = await postJson(url, sent.body, { ...sent.headers, ...auth });
  // Feedback entries are named at random: the one difference two stores may show.
  return `${r.status} ${r.headers.get("content-type")}\n${r.text.replaceAll(/fb_[a-z0-9]+/g, "fb_<id>")}`;
}

/** Both bridges' answers to each request, in turn (the feedback store counts entries in order). */
async function answers(requests: readonly Sent[]): Promise<{ direct: string[]; sdk: string[] }> {
  const out = { direct: [] as string[], sdk: [] as string[] };
  for (const sent of requests) {
    out.direct.push(await answer(direct, "direct", sent));
    out.sdk.push(await answer(sdk, "sdk", sent));
  }
  return out;
}

describe("2026-07-28 tool calls answered directly", () => {
  it("answer plain calls exactly as the SDK does, for every reader, without a server per call", async () => {
    const plain = [
      toolCall(SEARCH, { query: "replication" }),
      toolCall(SEARCH, { query: "drain the node" }, "staff"),
      toolCall(SEARCH, { query: "drain the node" }, "pat"),
      toolCall(SEARCH, { query: "drain the node" }),
      toolCall(SEARCH, { query: "replication", pageSize: 0 }),
      toolCall(SEARCH, { query: "replication", version: "v9" }),
      toolCall(SEARCH, undefined, "anonymous", "call-string-id"),
      toolCall(FS, { command: "cat /internal/runbook.mdx" }, "staff"),
      toolCall(FS, { command: "cat /internal/runbook.mdx" }, "pat"),
      toolCall(FS, { command: "rg -l STAFF /" }),
      toolCall(FEEDBACK, { path: "/quickstart", feedback: "The install step misses the Windows command." }),
      toolCall(FEEDBACK, { path: "/internal/runbook", feedback: "Stale." }, "pat"),
      // A `"__proto__"` member (kept by JSON.parse, dropped by the SDK's schemas) is left out before either path reads the call.
      toolCall(SEARCH, JSON.parse('{"query":"replication","__proto__":{"pageSize":0}}')),
    ];
    const got = await answers(plain);
    expect(got.direct).toEqual(got.sdk);
    // What each reader was told, in short: the access rule held on the direct path.
    expect(got.direct.map((a) => a.slice(0, a.indexOf("\n")))).toEqual(Array.from({ length: plain.length }, () => "200 application/json"));
    expect(got.direct[1]).toContain("STAFF-ONLY-RUNBOOK-7F3A");
    expect(got.direct[7]).toContain("STAFF-ONLY-RUNBOOK-7F3A");
    for (const i of [2, 3, 8, 9, 11]) expect(got.direct[i]).not.toContain("STAFF-ONLY-RUNBOOK-7F3A");
    expect(got.direct[12]).toBe(got.direct[0]);
    // The tool's own `_meta` (its provenance) first, the server's identity added to it.
    expect(got.direct[0]).toContain('{"result":{"_meta":{"svc-mcp/provenance":{');
    expect(got.direct[0]).toContain('"io.modelcontextprotocol/serverInfo":{"name":"svc-mcp","title":"Nimbus Storage docs","version":');
    expect(got.direct[0]).toContain('"resultType":"complete"},"jsonrpc":"2.0"');
    // The SDK's bridge built servers for these calls; the direct one built none.
    expect(direct.bridge.endpoint.servers.size).toBe(0);
    expect(sdk.bridge.endpoint.servers.size).toBeGreaterThan(0);
  });

  it("leave to the SDK every call it must judge, and answer it as before", async () => {
    const base = toolCall(SEARCH, { query: "replication" });
    const params = base.body.params as Record<string, unknown>;
    const odd: Sent[] = [
      toolCall("search_elsewhere", { query: "replication" }),
      toolCall(SEARCH, ["replication"]),
      toolCall(SEARCH, "replication"),
      { ...base, headers: { ...base.headers, "Mcp-Name": FS } },
      { ...base, headers: { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call" } },
      { ...base, headers: { "MCP-Protocol-Version": "2026-07-28", "Mcp-Name": SEARCH } },
      { ...base, headers: { "Mcp-Method": "tools/call", "Mcp-Name": SEARCH } },
      { ...base, headers: { ...base.headers, "Mcp-Method": "tools/list" } },
      { ...base, headers: { ...base.headers, "MCP-Protocol-Version": "2025-11-25" } },
      { ...base, body: { ...base.body, params: { ...params, task: { ttl: 1000 } } } },
      { ...base, body: { ...base.body, params: { ...params, _meta: { ...ENVELOPE, progressToken: 1 } } } },
      { ...base, body: { ...base.body, params: { ...params, _meta: { ...ENVELOPE, "io.modelcontextprotocol/clientInfo": "me" } } } },
      { ...base, body: { ...base.body, params: { ...params, _meta: { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2027-01-01" } } } },
      { ...base, body: { ...base.body, params: { ...params, requestState: "abc" } } },
    ];
    const got = await answers(odd);
    expect(got.direct).toEqual(got.sdk);
    expect(got.direct.map((a) => a.slice(0, a.indexOf("\n")))).toEqual([
      "200 application/json",
      "200 application/json",
      "200 application/json",
      "400 application/json",
      "400 application/json",
      "400 application/json",
      "400 application/json",
      "400 application/json",
      "400 application/json",
      "200 application/json",
      "200 application/json",
      "400 application/json",
      "400 application/json",
      "200 application/json",
    ]);
  });

  it("judge each call alike once a client's envelope was judged: another kind of id, another member, another jsonrpc", async () => {
    const base = toolCall(SEARCH, { query: "replication" });
    const calls: Sent[] = [
      base,
      { ...base, body: { ...base.body, id: 1.5 } },
      { ...base, body: { ...base.body, id: null } },
      { ...base, body: { ...base.body, id: true } },
      { ...base, body: { ...base.body, id: 2 ** 53 } },
      { ...base, body: { ...base.body, id: "seven" } },
      { ...base, body: { ...base.body, extra: 1 } },
      { ...base, body: { ...base.body, jsonrpc: "1.0" } },
      { ...base, body: { ...base.body, id: 8 } },
    ];
    const got = await answers(calls);
    expect(got.direct).toEqual(got.sdk);
    expect(got.direct.map((a) => a.slice(0, a.indexOf("\n")))).toEqual([
      "200 application/json",
      "400 application/json",
      "400 application/json",
      "400 application/json",
      "400 application/json",
      "200 application/json",
      "400 application/json",
      "400 application/json",
      "200 application/json",
    ]);
  });
});
