import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, type ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { petsRepo, startTestApi } from "../web/site.js";
import { type Harness, startBridge, userTokens } from "./harness.js";

/**
 * The playground apps (MCP Apps) over the bridge's HTTP endpoints, in both protocol generations,
 * through the official SDK client: each endpoint's reader lists its own apps, a search points at
 * the best API hit's app (the 2026-07-28 direct tool path and the 2025 session alike), the apps'
 * Send takes the relay's per-IP budget, a client that renders apps is told when its apps change,
 * and a client without the extension sees no change.
 */
const UI = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
const ERAS = ["2026-07-28", "2025-11-25"] as const;
const VAULT = "ui://pets/playground/api-reference/pets/vault-vault-op-61";

let api: Awaited<ReturnType<typeof startTestApi>>;
let h: Harness;
let staff: string;

beforeAll(async () => {
  api = await startTestApi();
  h = await startBridge({ root: petsRepo(api.origin), authMode: "partial", mcp: "enabled", playgroundApps: true, rateLimits: ["relay=2"] });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  staff = (await userTokens(h, "sam", "sam-password-1")).access_token;
});
afterAll(async () => {
  await h?.close();
  await api?.close();
});

async function withClient<T>(era: (typeof ERAS)[number], url: string, ui: boolean, run: (client: Client) => Promise<T>, token?: string): Promise<T> {
  const transport = new StreamableHTTPClientTransport(new URL(url), token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: "apps-http", version: "1.0.0" }, { ...(ui ? { capabilities: UI } : {}), ...(era === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}) });
  await client.connect(transport);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

const apps = async (client: Client) => (await client.listResources()).resources.filter((r) => r.uri.startsWith("ui://")).map((r) => r.uri);

for (const era of ERAS) {
  describe(`playground apps over HTTP, ${era}`, () => {
    it("lists each endpoint's reader its own apps, and points a search at the best API hit's", async () => {
      const anonymous = await withClient(era, h.urls.mcp, true, async (client) => {
        const search = await client.callTool({ name: "search_pets", arguments: { query: "pet bark" } });
        const vault = await client.readResource({ uri: VAULT }).then(() => "read", (e: unknown) => [(e as ProtocolError).code, (e as Error).message]);
        return { uris: await apps(client), ui: search._meta?.ui, vault };
      });
      expect(anonymous.uris).toHaveLength(8);
      expect(anonymous.uris).not.toContain(VAULT);
      expect(anonymous.ui).toEqual({ resourceUri: "ui://pets/playground/api-reference/pets/pet-bark" });
      expect(anonymous.vault).toEqual([-32602, `Resource not found: ${VAULT}`]);
      const staffUris = await withClient(era, h.urls.authedMcp, true, apps, staff);
      expect(staffUris).toHaveLength(9);
      expect(staffUris).toContain(VAULT);
    });

    it("shows a client without the extension no app, no app tool and no pointer", async () => {
      const seen = await withClient(era, h.urls.mcp, false, async (client) => ({
        tools: (await client.listTools()).tools.map((t) => t.name),
        uris: await apps(client),
        ui: (await client.callTool({ name: "search_pets", arguments: { query: "pet bark" } }))._meta?.ui,
      }));
      expect(seen).toEqual({ tools: ["search_pets", "query_docs_filesystem_pets"], uris: [], ui: undefined });
    });
  });
}

describe("the apps' Send over HTTP", () => {
  it("takes the relay's per-IP budget, as POST /_svc/api/request does", async () => {
    const send = (client: Client) => client.callTool({ name: "api_request_pets", arguments: { page: "/api-reference/pets/get-a-pet", method: "GET", url: `${api.origin}/v1/pets/rex` } }).then((r) => (r.content as { text: string }[])[0]?.text, (e: unknown) => (e as Error).message);
    const answers = await withClient("2026-07-28", h.urls.mcp, true, async (client) => [await send(client), await send(client), await send(client)]);
    expect(answers.slice(0, 2)).toEqual(["200 OK", "200 OK"]);
    expect(answers[2]).toMatch(/playground relay requests per hour from one IP address/);
  });
});

const RESOURCES = "notifications/resources/list_changed";

describe.each(ERAS)("list_changed of the apps, %s", (era) => {
  it("tells a client that renders apps when its apps change, and one without the extension nothing of them", async () => {
    const site = await startTestApi();
    const root = petsRepo(site.origin);
    const own = await startBridge({ root, mcp: "enabled", playgroundApps: true });
    const listen = async (ui: boolean) => {
      const client = new Client({ name: "apps-listen", version: "1.0.0" }, { ...(ui ? { capabilities: UI } : {}), ...(era === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}) });
      const heard: string[] = [];
      let count: (() => void) | undefined;
      client.setNotificationHandler(RESOURCES, () => {
        heard.push(RESOURCES);
        count?.();
      });
      const transport = new StreamableHTTPClientTransport(new URL(own.urls.mcp));
      await client.connect(transport);
      const subscription = era === "2026-07-28" ? await client.listen({ resourcesListChanged: true }) : undefined;
      if (era !== "2026-07-28") while ((own.bridge.endpoint.sessions.get(transport.sessionId as string)?.openStreams ?? 0) === 0) await new Promise((resolve) => setImmediate(resolve));
      return {
        heard,
        heardCount: (n: number) => (heard.length >= n ? Promise.resolve() : new Promise<void>((resolve) => (count = () => heard.length >= n && resolve()))),
        close: async () => {
          await subscription?.close();
          await client.close();
        },
      };
    };
    try {
      const [apps, plain] = [await listen(true), await listen(false)];
      // The vault operation opens to everyone: a new app for the anonymous reader, no other resource.
      const spec = JSON.parse(readFileSync(join(root, "pets.json"), "utf8")) as { paths: Record<string, { get: Record<string, unknown> }> };
      delete spec.paths["/vault"]!.get["x-svc"];
      writeFileSync(join(root, "pets.json"), JSON.stringify(spec));
      await own.runtime.applyChanges(["pets.json"]);
      // Then a skill for everyone: the last thing each hears.
      writeFileSync(join(root, "SKILL.md"), "---\nname: marker\ndescription: A skill for everyone\n---\n\n# Marker\n");
      await own.runtime.applyChanges(["SKILL.md"]);
      await Promise.all([apps.heardCount(2), plain.heardCount(1)]);
      expect({ apps: apps.heard, plain: plain.heard }).toEqual({ apps: [RESOURCES, RESOURCES], plain: [RESOURCES] });
      await Promise.all([apps.close(), plain.close()]);
    } finally {
      await own.close();
      await site.close();
    }
  });
});
