import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Bridge, createBridge } from "../../src/bridge/bridge.js";
import { listen } from "../../src/bridge/http-server.js";
import { openStateStore, type SqliteStateStore } from "../../src/store/state/sqlite-state-store.js";
import type { SiteSettings, StateStore } from "../../src/store/state/state-store.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS } from "../../src/vfs/access.js";
import { requestContext } from "../../src/vfs/request-context.js";
import { authInfoWithContext, bridgeContext, contextFromAuthInfo } from "../../src/bridge/middleware/request-context.js";
import { accessRepo, BATCH_PROTOCOL, FS, openSession, postJson, tempDir } from "./harness.js";

/**
 * One context per request: a request is served under the auth setting it read, whatever another
 * request in flight read. The interleaving is made deterministic, without sleeps: request A's
 * body is held back after its handler has read the setting, the setting changes (as
 * `svc-mcp mcp auth` changes it while the server runs), request B runs to completion, and only
 * then A's body is sent.
 */

/** The state store, telling the test each time a request has read the site settings. */
function watchSettings(state: SqliteStateStore): { store: StateStore; next: () => Promise<SiteSettings> } {
  let waiter: ((s: SiteSettings) => void) | undefined;
  const store = new Proxy(state, {
    get(target, prop, receiver) {
      if (prop === "settings") {
        return async () => {
          const settings = await target.settings();
          waiter?.(settings);
          waiter = undefined;
          return settings;
        };
      }
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, next: () => new Promise((resolve) => (waiter = resolve)) };
}

/** A POST whose headers go now and whose body goes when `send` is called; `response` is its answer. */
function heldPost(url: string, headers: Record<string, string>, body: unknown): { send: () => void; response: Promise<{ status: number; body: unknown }> } {
  const text = JSON.stringify(body);
  const req = httpRequest(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "content-length": String(Buffer.byteLength(text)), ...headers },
  });
  const response = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    req.on("response", (res) => {
      let out = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (out += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(out) as unknown }));
    });
    req.on("error", reject);
  });
  req.flushHeaders();
  return { send: () => req.end(text), response };
}

const FIND = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: FS, arguments: { command: "find / -type f -name '*.md*'" } } };
const RESOURCES = { jsonrpc: "2.0", id: 8, method: "resources/list" };

/** The batch's two answers: the files the reader sees and the resources they are offered. */
function seen(body: unknown): { files: string; resources: string[] } {
  const [find, resources] = body as [{ result: { structuredContent: { stdout: string } } }, { result: { resources: { uri: string }[] } }];
  return { files: find.result.structuredContent.stdout, resources: resources.result.resources.map((r) => r.uri) };
}

/** What an anonymous reader sees of the access repository under each auth setting. */
const PARTIAL = {
  files: [
    "/api/authentication.mdx",
    "/api/overview.mdx",
    "/guides/access-control.mdx",
    "/guides/uploading-files.mdx",
    "/guides/webhooks.mdx",
    "/index.mdx",
    "/quickstart.mdx",
    "/skill.md",
    "/status.mdx",
    "",
  ].join("\n"),
  resources: ["docs://nimbus_storage/skill.md"],
};
const FULL = { files: "/status.mdx\n", resources: [] };

let repo: { dir: string; cleanup: () => void };
let stateDir: { dir: string; cleanup: () => void };
let state: SqliteStateStore;
let watched: ReturnType<typeof watchSettings>;
let runtime: DocsRuntime;
let bridge: Bridge;
let server: Awaited<ReturnType<typeof listen>>;
let mcpUrl: string;

beforeAll(async () => {
  repo = accessRepo();
  stateDir = tempDir("svc-mcp-context-state-");
  state = openStateStore(join(stateDir.dir, "state"));
  await state.setMcp("enabled");
  watched = watchSettings(state);
  runtime = await DocsRuntime.load({ root: repo.dir, baseUrl: "https://docs.nimbus.example", shellWorker: true });
  bridge = createBridge({ runtime, state: watched.store, allowedHosts: ["127.0.0.1"] });
  server = await listen(bridge, { host: "127.0.0.1", port: 0 });
  mcpUrl = `${server.origin}/mcp`;
});
afterAll(async () => {
  await server.close();
  await bridge.close();
  await runtime.close();
  await state.close();
  stateDir.cleanup();
  repo.cleanup();
});

describe("each request is served under the auth setting it read", () => {
  it("two MCP requests interleave across a change of the setting; each sees exactly its own setting's content", async () => {
    await state.setAuthMode("partial");
    const a = await openSession(mcpUrl, {}, BATCH_PROTOCOL);
    const b = await openSession(mcpUrl, {}, BATCH_PROTOCOL);
    const held = heldPost(mcpUrl, { "mcp-session-id": a, "mcp-protocol-version": BATCH_PROTOCOL }, [FIND, RESOURCES]);
    expect((await watched.next()).authMode).toBe("partial");
    await state.setAuthMode("full");
    const other = await postJson(mcpUrl, [FIND, RESOURCES], { "mcp-session-id": b, "mcp-protocol-version": BATCH_PROTOCOL });
    held.send();
    const first = await held.response;
    expect([first.status, seen(first.body)]).toEqual([200, PARTIAL]);
    expect([other.status, seen(other.body)]).toEqual([200, FULL]);
  });

  it("the other way round, and with /.well-known/mcp in between: a read of the setting changes nothing shared", async () => {
    await state.setAuthMode("full");
    const a = await openSession(mcpUrl, {}, BATCH_PROTOCOL);
    const held = heldPost(mcpUrl, { "mcp-session-id": a, "mcp-protocol-version": BATCH_PROTOCOL }, [FIND, RESOURCES]);
    expect((await watched.next()).authMode).toBe("full");
    await state.setAuthMode("partial");
    const wellKnown = (await (await fetch(`${server.origin}/.well-known/mcp`)).json()) as { siteAuth: string; resources: { uri: string }[] };
    held.send();
    const first = await held.response;
    expect([first.status, seen(first.body)]).toEqual([200, FULL]);
    expect([wellKnown.siteAuth, wellKnown.resources.map((r) => r.uri)]).toEqual(["partial", PARTIAL.resources]);
  });
});

describe("the runtime's per-reader state", () => {
  it("is keyed by the auth setting too: contexts under two settings each get their own view", () => {
    const partial = runtime.readerState(requestContext(ANONYMOUS, "partial"));
    const full = runtime.readerState(requestContext(ANONYMOUS, "full"));
    expect([partial.view.files.some((f) => f.path === "/index.mdx"), full.view.files.map((f) => f.path)]).toEqual([true, ["/status.mdx"]]);
    expect(runtime.readerState(requestContext(ANONYMOUS, "partial", () => 0))).toBe(partial);
  });
});

describe("the context rides the SDK's authInfo, read back in one place", () => {
  it("a context the bridge built comes back as is; a look-alike, a copy or none is refused", () => {
    const context = bridgeContext({ authMode: "partial", mcp: undefined }, ANONYMOUS, () => 7, "address:127.0.0.1");
    const carried = authInfoWithContext(context, { token: "t", clientId: "c", scopes: ["mcp:search"] });
    expect(carried).toEqual({ token: "t", clientId: "c", scopes: ["mcp:search"], extra: { context } });
    expect(contextFromAuthInfo(carried)).toBe(context);
    const refused = "an MCP request reached its handler without a request context";
    expect(() => contextFromAuthInfo({ token: "", clientId: "", scopes: [], extra: { context: { ...context } } })).toThrow(refused);
    expect(() => contextFromAuthInfo({ token: "", clientId: "", scopes: [] })).toThrow(refused);
    expect(() => contextFromAuthInfo(undefined)).toThrow(refused);
  });
});
