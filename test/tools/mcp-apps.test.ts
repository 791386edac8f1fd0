import { Client, InMemoryTransport, type ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playgroundApps } from "../../src/bridge/playground/apps.js";
import { createMcpServer } from "../../src/mcp/server.js";
import type { PlaygroundApps } from "../../src/mcp/ui-extension.js";
import { DocsRuntime } from "../../src/engine/runtime.js";
import { ANONYMOUS, type Reader, readerWithGroups } from "../../src/vfs/access.js";
import { localContext } from "../../src/vfs/request-context.js";
import { petsRepo, startTestApi } from "../web/site.js";

/**
 * The API playground as MCP Apps (`io.modelcontextprotocol/ui`) through the official SDK client:
 * each reader lists and reads the apps of the operation pages they may read, and nothing of the
 * others; the apps' Send tool goes through the relay to a loopback API; search points at the
 * best API hit's app; and a client that does not declare the extension sees exactly what a
 * server without apps shows.
 */
const UI = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
const APP = "ui://pets/playground/api-reference/pets";

let api: Awaited<ReturnType<typeof startTestApi>>;
let runtime: DocsRuntime;
let apps: PlaygroundApps;

beforeAll(async () => {
  api = await startTestApi();
  runtime = await DocsRuntime.load({ root: petsRepo(api.origin) });
  apps = playgroundApps({ runtime });
});
afterAll(async () => {
  await runtime?.close();
  await api?.close();
});

async function connect(reader: Reader, options: { ui: boolean; apps?: PlaygroundApps | undefined }): Promise<{ client: Client; close: () => Promise<void> }> {
  const { server, close } = createMcpServer({ runtime, context: localContext(reader), ...(options.apps !== undefined ? { apps: options.apps } : {}) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "apps-test", version: "1.0.0" }, options.ui ? { capabilities: UI } : {});
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    close: async () => {
      close();
      await client.close();
    },
  };
}

async function withClient<T>(reader: Reader, options: { ui: boolean; apps?: PlaygroundApps | undefined }, run: (client: Client) => Promise<T>): Promise<T> {
  const { client, close } = await connect(reader, options);
  try {
    return await run(client);
  } finally {
    await close();
  }
}

const refusal = (e: unknown) => [(e as ProtocolError).code, (e as Error).message];

describe("the API playground as MCP Apps", () => {
  it("without the extension, a client sees what a server without apps shows", async () => {
    const seen = async (withApps: PlaygroundApps | undefined) =>
      withClient(ANONYMOUS, { ui: false, apps: withApps }, async (client) => ({
        tools: await client.listTools(),
        resources: await client.listResources(),
        search: await client.callTool({ name: "search_pets", arguments: { query: "get a pet" } }),
        read: await client.readResource({ uri: `${APP}/get-a-pet` }).then(() => "read", refusal),
        send: await client.callTool({ name: "api_request_pets", arguments: {} }).then(() => "called", refusal),
      }));
    const without = await seen(undefined);
    expect(await seen(apps)).toEqual(without);
    expect(without.read).toEqual([-32602, `Resource not found: ${APP}/get-a-pet`]);
    expect(without.send).toEqual([-32602, 'Unknown tool "api_request_pets". Available: search_pets, query_docs_filesystem_pets']);
    expect(without.search._meta).not.toHaveProperty("ui");
  });

  it("lists each reader the apps of the operation pages they may read, and nothing of the others", async () => {
    const listed = (reader: Reader) => withClient(reader, { ui: true, apps }, async (client) => (await client.listResources()).resources.filter((r) => r.uri.startsWith("ui://")));
    const anonymous = await listed(ANONYMOUS);
    expect(anonymous.map((r) => [r.uri, r.title, r.mimeType])).toEqual([
      [`${APP}/get-a-pet`, "Get a pet playground", "text/html;profile=mcp-app"],
      [`${APP}/pet-photo`, "Pet photo playground", "text/html;profile=mcp-app"],
      [`${APP}/pet-bark`, "Pet bark playground", "text/html;profile=mcp-app"],
      [`${APP}/pet-video`, "Pet video playground", "text/html;profile=mcp-app"],
      [`${APP}/statistics`, "Statistics playground", "text/html;profile=mcp-app"],
      [`${APP}/members-area`, "Members area playground", "text/html;profile=mcp-app"],
      [`${APP}/kennel-staff-tools`, "Kennel staff tools playground", "text/html;profile=mcp-app"],
      ["ui://pets/playground/adopt", "Adopting a pet playground", "text/html;profile=mcp-app"],
    ]);
    expect(anonymous[0]).toEqual({
      uri: `${APP}/get-a-pet`,
      name: "/api-reference/pets/get-a-pet",
      title: "Get a pet playground",
      description: "Try GET /pets/{petId} from the page /api-reference/pets/get-a-pet: the page's form and answer view, sent through the docs server's relay.",
      mimeType: "text/html;profile=mcp-app",
    });
    expect(JSON.stringify(anonymous)).not.toContain("VAULT");
    const staff = await listed(readerWithGroups(["staff"]));
    expect(staff.map((r) => r.uri)).toEqual([...anonymous.slice(0, 7).map((r) => r.uri), `${APP}/vault-vault-op-61`, "ui://pets/playground/adopt"]);
  });

  it("reads a reader's app as one HTML document with the page's form, and a restricted one as one that does not exist", async () => {
    const uri = `${APP}/get-a-pet`;
    const { contents } = await withClient(ANONYMOUS, { ui: true, apps }, (client) => client.readResource({ uri }));
    expect(contents.map((c) => [c.uri, c.mimeType, c._meta])).toEqual([[uri, "text/html;profile=mcp-app", { ui: { prefersBorder: true } }]]);
    const html = (contents[0] as { text: string }).text;
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(/<button[^>]*data-testid="playground-send"/.test(html)).toBe(true);
    const parts = ['data-testid="param-petId"', 'data-testid="auth-key"', '"tool":"api_request_pets"', '"transport":"proxy"', '<script type="module">'];
    expect(parts.filter((p) => !html.includes(p))).toEqual([]);
    // Nothing it loads from elsewhere: the style and the script are in the document.
    expect(/<script[^>]+src=|<link /.test(html)).toBe(false);

    const vault = `${APP}/vault-vault-op-61`;
    const missing = `${APP}/no-such-op`;
    const refused = await withClient(ANONYMOUS, { ui: true, apps }, async (client) => [await client.readResource({ uri: vault }).then(() => "read", refusal), await client.readResource({ uri: missing }).then(() => "read", refusal)]);
    expect(refused).toEqual([
      [-32602, `Resource not found: ${vault}`],
      [-32602, `Resource not found: ${missing}`],
    ]);
    const staffRead = await withClient(readerWithGroups(["staff"]), { ui: true, apps }, (client) => client.readResource({ uri: vault }));
    expect((staffRead.contents[0] as { text: string }).text).toContain("Vault VAULT-OP-61");
  });

  it("offers the apps' Send tool to the app alone, and sends through the relay as the reader", async () => {
    await withClient(ANONYMOUS, { ui: true, apps }, async (client) => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => [t.name, t._meta])).toEqual([
        ["search_pets", undefined],
        ["query_docs_filesystem_pets", undefined],
        ["api_request_pets", { ui: { visibility: ["app"] } }],
      ]);
      const sent = await client.callTool({
        name: "api_request_pets",
        arguments: { page: "/api-reference/pets/get-a-pet", method: "GET", url: `${api.origin}/v1/pets/rex`, query: { species: "dog" }, headers: { "X-Api-Key": "k-1" } },
      });
      expect(sent.isError).toBeUndefined();
      expect(sent.content).toEqual([{ type: "text", text: "200 OK" }]);
      const answer = (sent.structuredContent as { relayStatus: number; answer: { status: number; body: string; contentType: string } });
      expect([answer.relayStatus, answer.answer.status, answer.answer.contentType, JSON.parse(answer.answer.body)]).toEqual([200, 200, "application/json", { path: "/v1/pets/rex", query: "species=dog", body: null }]);
      expect(api.received.at(-1)?.headers["x-api-key"]).toBe("k-1");

      // A page the reader may not read: the relay's answer for a page that does not exist.
      const before = api.received.length;
      const vault = await client.callTool({ name: "api_request_pets", arguments: { page: "/api-reference/pets/vault-vault-op-61", method: "GET", url: `${api.origin}/v1/vault` } });
      expect([vault.isError, vault.content]).toEqual([true, [{ type: "text", text: "The relay refused the request (404): /api-reference/pets/vault-vault-op-61 is not an API page of this site" }]]);
      expect(vault.structuredContent).toEqual({ relayStatus: 404, answer: { error: { code: "unknown_page", message: "/api-reference/pets/vault-vault-op-61 is not an API page of this site" } } });
      // Its request through a page the reader may read: the same check as the HTTP route's, only the page's own operation.
      const through = await client.callTool({ name: "api_request_pets", arguments: { page: "/api-reference/pets/get-a-pet", method: "GET", url: `${api.origin}/v1/vault` } });
      const message = "the path /vault is not the one of /api-reference/pets/get-a-pet's operation (GET /pets/{petId}); the relay sends only the page's own operation";
      expect([through.isError, through.content, through.structuredContent]).toEqual([true, [{ type: "text", text: `The relay refused the request (403): ${message}` }], { relayStatus: 403, answer: { error: { code: "not_page_operation", message } } }]);
      expect(api.received.length).toBe(before);
    });
  });

  it("points a search's result at its best API hit's app, for the reader's pages only", async () => {
    await withClient(ANONYMOUS, { ui: true, apps }, async (client) => {
      const found = await client.callTool({ name: "search_pets", arguments: { query: "pet photo" } });
      const first = (found.structuredContent as { results: { path: string }[] }).results[0];
      expect(first?.path).toBe("/api-reference/pets/pet-photo");
      expect(found._meta?.ui).toEqual({ resourceUri: `${APP}/pet-photo` });
      const vault = await client.callTool({ name: "search_pets", arguments: { query: "VAULT-OP-61" } });
      expect((vault.structuredContent as { results: unknown[] }).results).toEqual([]);
      expect(vault._meta?.ui).toBeUndefined();
    });
  });
});
