import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STATELESS_PROTOCOL_VERSIONS } from "../../src/mcp/protocol-versions.js";
import { FS, type Harness, INIT, SEARCH, accessRepo, postJson, startBridge, userTokens } from "./harness.js";

/**
 * Both protocol generations over real HTTP with the official SDK v2 client: 2025-11-25
 * (`initialize`, a session, list_changed on the session's GET stream) and 2026-07-28 (no
 * handshake, `server/discover`, list_changed on `subscriptions/listen`), on `/mcp` and on
 * `/authed/mcp` with a signed-in reader's token.
 */

type Era = "2025-11-25" | "2026-07-28";
const ERAS: readonly Era[] = ["2025-11-25", "2026-07-28"];

let h: Harness;
let repo: ReturnType<typeof accessRepo>;
let staffToken: string;

beforeAll(async () => {
  repo = accessRepo();
  h = await startBridge({ root: repo.dir, authMode: "partial", mcp: "enabled", watch: true });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  staffToken = (await userTokens(h, "sam", "sam-password-1")).access_token;
});
afterAll(async () => {
  await h.close();
  repo.cleanup();
});

async function connect(era: Era, url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: "generations-test", version: "1.0.0" }, era === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  await client.connect(transport);
  return client;
}

/** Resolves with the next notification of `method` the client receives. */
function next(client: Client, method: "notifications/resources/list_changed" | "notifications/tools/list_changed"): Promise<string> {
  return new Promise((resolve) => client.setNotificationHandler(method, () => resolve(method)));
}

describe.each(ERAS)("protocol %s over HTTP", (era) => {
  it("negotiates the revision, lists and calls both tools, lists and reads skills on /mcp", async () => {
    const client = await connect(era, h.urls.mcp);
    expect(client.getNegotiatedProtocolVersion()).toBe(era);
    expect(client.getServerVersion()).toMatchObject({ name: "svc-mcp", title: "Nimbus Storage docs" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, resources: { listChanged: true } });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([SEARCH, FS]);
    const ls = await client.callTool({ name: FS, arguments: { command: "ls /" } });
    expect(ls.isError).toBeFalsy();
    const search = await client.callTool({ name: SEARCH, arguments: { query: "multipart upload parts", pageSize: 1 } });
    expect((search.content as { text: string }[])[0]?.text).toContain("https://docs.nimbus.example/guides/uploading-files#multipart-upload");
    const { resources } = await client.listResources();
    // Anonymous readers get no restricted skill.
    expect(resources.map((r) => r.name)).not.toContain("oncall");
    await client.close();
  });

  it("answers an unknown skill with -32602 and the uri in data", async () => {
    const client = await connect(era, h.urls.mcp);
    const uri = "skill://nimbus_storage/nope/SKILL.md";
    const error = await client.readResource({ uri }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect({ code: (error as ProtocolError).code, data: (error as ProtocolError).data }).toEqual({ code: -32602, data: { uri } });
    await client.close();
  });

  it("scopes /authed/mcp to the token's groups", async () => {
    const client = await connect(era, h.urls.authedMcp, staffToken);
    const { resources } = await client.listResources();
    const oncall = resources.find((r) => r.name === "oncall");
    expect(oncall).toBeDefined();
    const read = await client.readResource({ uri: (oncall as { uri: string }).uri });
    expect((read.contents[0] as { text: string }).text).toContain("STAFF-SKILL-44D1");
    await client.close();
  });

  it("tells an open client that the resources changed after a new skill", async () => {
    const client = await connect(era, h.urls.mcp);
    const heard = next(client, "notifications/resources/list_changed");
    const subscription = era === "2026-07-28" ? await client.listen({ resourcesListChanged: true, toolsListChanged: true }) : undefined;
    if (era === "2025-11-25") await waitForGetStream((client.transport as StreamableHTTPClientTransport).sessionId as string);
    // Through the file watcher, as an author's edit arrives (test/bridge/list-changed.test.ts has who is told what).
    mkdirSync(join(repo.dir, "skills", `generations-${era}`), { recursive: true });
    writeFileSync(join(repo.dir, "skills", `generations-${era}`, "SKILL.md"), `---\nname: generations-${era}\ndescription: A new skill\n---\n\n# New\n`);
    expect(await heard).toBe("notifications/resources/list_changed");
    await subscription?.close();
    await client.close();
  });
});

/** The 2025 client opens its GET stream after `initialize` without waiting: wait until the session counts it. */
async function waitForGetStream(sessionId: string): Promise<void> {
  while ((h.bridge.endpoint.sessions.get(sessionId)?.openStreams ?? 0) === 0) await new Promise((resolve) => setImmediate(resolve));
}

describe("2026-07-28 by raw HTTP", () => {
  const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

  it("serves server/discover without a session, with cache hints on lists", async () => {
    const headers = { "MCP-Protocol-Version": "2026-07-28" };
    const discover = await postJson(h.urls.mcp, { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: envelope } }, { ...headers, "Mcp-Method": "server/discover" });
    expect(discover.status).toBe(200);
    expect(discover.headers.get("mcp-session-id")).toBeNull();
    expect((discover.body as { result: { supportedVersions: string[] } }).result.supportedVersions).toEqual(STATELESS_PROTOCOL_VERSIONS);
    const list = await postJson(h.urls.mcp, { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: envelope } }, { ...headers, "Mcp-Method": "tools/list" });
    expect(list.body).toMatchObject({ result: { resultType: "complete", ttlMs: 60000, cacheScope: "private" } });
  });

  it("answers odd 2026-07-28 requests with the SDK's 4xx and JSON-RPC errors, never a 5xx", async () => {
    const rpc = (method: string, meta: object = envelope) => ({ jsonrpc: "2.0", id: 1, method, params: { _meta: meta } });
    const headers = { "MCP-Protocol-Version": "2026-07-28" };
    const answers = [
      await postJson(h.urls.mcp, rpc("tools/list"), { ...headers, "Mcp-Method": "tools/call" }),
      await postJson(h.urls.mcp, rpc("tools/list", { ...envelope, "io.modelcontextprotocol/protocolVersion": "2027-01-01" }), { "MCP-Protocol-Version": "2027-01-01", "Mcp-Method": "tools/list" }),
      await postJson(h.urls.mcp, rpc("ping"), { ...headers, "Mcp-Method": "ping" }),
      await postJson(h.urls.mcp, [rpc("tools/list"), { ...rpc("tools/list"), id: 2 }], headers),
    ].map((r) => [r.status, (r.body as { error: { code: number; message: string } }).error]);
    expect(answers).toEqual([
      [
        400,
        {
          code: -32020,
          message: "Bad Request: the request headers and body disagree: the body names method tools/list but the Mcp-Method header names tools/call",
          data: { mismatch: { header: "tools/call", body: "the body names method tools/list but the Mcp-Method header names tools/call" } },
        },
      ],
      [400, { code: -32022, message: "Unsupported protocol version: 2027-01-01", data: { supported: ["2026-07-28"], requested: "2027-01-01" } }],
      [404, { code: -32601, message: "Method not found" }],
      [400, { code: -32600, message: "Bad Request: JSON-RPC batches may not contain requests for protocol revision 2026-07-28 or later" }],
    ]);
  });

  it("asks for a token on /authed/mcp before anything else, as for a session", async () => {
    const r = await postJson(h.urls.authedMcp, { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope } }, { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list" });
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toMatch(/^Bearer /);
  });

  it("refuses params that are no object, naming the member, in either generation", async () => {
    expect(await postJson(h.urls.mcp, { jsonrpc: "2.0", id: 1, method: "tools/list", params: [] })).toMatchObject({
      status: 400,
      body: { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid params: params: must be an object (got an array)" } },
    });
    expect(await postJson(h.urls.mcp, { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: 5 } })).toMatchObject({
      status: 400,
      body: { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "Invalid params: params._meta: must be an object (got 5)" } },
    });
  });
});

describe("JSON-RPC batches in 2025 sessions", () => {
  const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });
  async function session(version: string): Promise<Record<string, string>> {
    const init = await postJson(h.urls.mcp, { ...INIT, params: { ...INIT.params, protocolVersion: version } });
    const headers = { "mcp-session-id": init.headers.get("mcp-session-id") as string, "mcp-protocol-version": version };
    await postJson(h.urls.mcp, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    return headers;
  }

  it("2025-03-26 keeps them: each request is answered in one array", async () => {
    const r = await postJson(h.urls.mcp, [list(1), list(2)], await session("2025-03-26"));
    expect(r.status).toBe(200);
    expect((r.body as { id: number; result: { tools: unknown[] } }[]).map((m) => [m.id, m.result.tools.length])).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });

  it.each(["2025-06-18", "2025-11-25"])("%s refuses them, saying why, and runs none", async (version) => {
    const message = `Invalid Request: JSON-RPC batches were removed in protocol version 2025-06-18, and this session uses ${version}; send one message per request`;
    expect(await postJson(h.urls.mcp, [list(1), list(2)], await session(version))).toMatchObject({
      status: 400,
      body: [
        { jsonrpc: "2.0", id: 1, error: { code: -32600, message } },
        { jsonrpc: "2.0", id: 2, error: { code: -32600, message } },
      ],
    });
  });
});
