import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverName } from "../../src/bridge/discovery/server-card.js";
import { bridgeUrls } from "../../src/bridge/urls.js";
import { type Harness, RESTRICTED_SKILL, accessRepo, mcpClient, startBridge, userTokens } from "./harness.js";

/**
 * Discovery before connecting, over real HTTP: the server cards of both endpoints, the catalog
 * naming them, and the Agent Skills index with each SKILL.md, each as the request's reader sees it.
 */
let repo: ReturnType<typeof accessRepo>;
let h: Harness;
let staff: string;
const VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

beforeAll(async () => {
  repo = accessRepo();
  h = await startBridge({ root: repo.dir, authMode: "partial", mcp: "enabled" });
  await h.state.addUser("sam", "sam-password-1", ["staff"]);
  staff = (await userTokens(h, "sam", "sam-password-1")).access_token;
});
afterAll(async () => {
  await h.close();
  repo.cleanup();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("server cards", () => {
  it("describe /mcp with the tools exactly as tools/list gives them to its reader", async () => {
    const r = await fetch(h.urls.serverCard);
    expect([r.status, r.headers.get("content-type"), r.headers.get("cache-control")]).toEqual([200, "application/mcp-server-card+json", "no-store"]);
    const card = (await r.json()) as Record<string, unknown>;
    const client = await mcpClient(h.urls.mcp);
    const { tools } = await client.client.listTools();
    await client.close();
    expect(card).toEqual({
      $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
      name: "127.0.0.1/nimbus-storage",
      version: "0.1.0",
      description: "Object storage with buckets, signed URLs and webhooks.",
      title: "Nimbus Storage docs",
      websiteUrl: "https://docs.nimbus.example",
      remotes: [{ type: "streamable-http", url: h.urls.mcp, supportedProtocolVersions: VERSIONS }],
      tools,
    });
    expect(tools.map((t) => t.name)).toEqual(["search_nimbus_storage", "query_docs_filesystem_nimbus_storage"]);
  });

  it("describe /authed/mcp with its authorization header, for the token's reader", async () => {
    const card = (await (await fetch(h.urls.authedServerCard, { headers: bearer(staff) })).json()) as Record<string, unknown>;
    const client = await mcpClient(h.urls.authedMcp, { token: staff });
    const { tools } = await client.client.listTools();
    await client.close();
    expect(card).toMatchObject({
      name: "127.0.0.1/nimbus-storage-authed",
      title: "Nimbus Storage docs (signed in)",
      remotes: [
        {
          type: "streamable-http",
          url: h.urls.authedMcp,
          headers: [
            {
              name: "Authorization",
              description: "An OAuth 2.1 bearer token from this server's authorization server (see its protected resource metadata).",
              isRequired: true,
              isSecret: true,
            },
          ],
          supportedProtocolVersions: VERSIONS,
        },
      ],
      tools,
    });
  });
});

describe("server names", () => {
  it("reverse the public host's name, keep an address as it is", () => {
    expect(serverName(bridgeUrls("https://docs.nimbus.example"), "Nimbus Storage", "mcp")).toBe("example.nimbus.docs/nimbus-storage");
    expect(serverName(bridgeUrls("http://[::1]:3333"), "Nimbus Storage", "authed")).toBe("--1/nimbus-storage-authed");
  });
});

describe("the catalog", () => {
  it("names both cards, at /.well-known/mcp/catalog.json and /.well-known/ai-catalog.json", async () => {
    const expected = {
      specVersion: "1.0",
      entries: [
        { identifier: "urn:air:127.0.0.1:mcp:nimbus-storage", displayName: "Nimbus Storage docs", type: "application/mcp-server-card+json", url: h.urls.serverCard },
        {
          identifier: "urn:air:127.0.0.1:mcp:nimbus-storage-authed",
          displayName: "Nimbus Storage docs (signed in)",
          type: "application/mcp-server-card+json",
          url: h.urls.authedServerCard,
        },
      ],
    };
    expect(await (await fetch(h.urls.mcpCatalog)).json()).toEqual(expected);
    expect(await (await fetch(`${h.origin}/.well-known/ai-catalog.json`)).json()).toEqual(expected);
  });
});

describe("agent skills", () => {
  it("lists an anonymous reader's skills with the digest of what each URL serves; a restricted skill never appears", async () => {
    const index = (await (await fetch(h.urls.agentSkillsIndex)).json()) as { skills: { url: string; digest: string }[] };
    const generated = await (await fetch(h.urls.agentSkill("nimbus-storage"))).text();
    expect(index).toEqual({
      $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
      skills: [
        {
          name: "nimbus-storage",
          type: "skill-md",
          description: "How to use the Nimbus Storage documentation tools (generated)",
          url: h.urls.agentSkill("nimbus-storage"),
          digest: `sha256:${sha256(generated)}`,
        },
      ],
    });
    expect(generated).toContain("name: nimbus_storage\n");
    // The restricted skill's file is answered exactly like a skill that never existed.
    const restricted = await fetch(h.urls.agentSkill("oncall"));
    const missing = await fetch(h.urls.agentSkill("nope"));
    expect([restricted.status, await restricted.json()]).toEqual([
      404,
      { error: { code: "not_found", message: 'no skill named "oncall"; see /.well-known/agent-skills/index.json' } },
    ]);
    expect([missing.status, await missing.json()]).toEqual([404, { error: { code: "not_found", message: 'no skill named "nope"; see /.well-known/agent-skills/index.json' } }]);
  });

  it("lists the restricted skill to a reader of its group, with its exact text", async () => {
    const index = await (await fetch(h.urls.agentSkillsIndex, { headers: bearer(staff) })).json();
    expect(index).toEqual({
      $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
      skills: [
        {
          name: "oncall",
          type: "skill-md",
          description: "On-call procedures STAFF-SKILL-DESC-5E21",
          url: h.urls.agentSkill("oncall"),
          digest: `sha256:${sha256(RESTRICTED_SKILL)}`,
        },
      ],
    });
    const r = await fetch(h.urls.agentSkill("oncall"), { headers: bearer(staff) });
    expect([r.status, r.headers.get("content-type"), await r.text()]).toEqual([200, "text/markdown; charset=utf-8", RESTRICTED_SKILL]);
  });

  it("tags a SKILL.md with the SHA-256 of the reader's bytes, and answers a matching If-None-Match with 304", async () => {
    const tag = `"sha256-${sha256(RESTRICTED_SKILL)}"`;
    const headersOf = (r: Response) => [r.status, r.headers.get("etag"), r.headers.get("cache-control"), r.headers.get("vary")];
    const first = await fetch(h.urls.agentSkill("oncall"), { headers: bearer(staff) });
    expect(headersOf(first)).toEqual([200, tag, "private, no-cache", "Authorization"]);
    for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, "*"]) {
      const again = await fetch(h.urls.agentSkill("oncall"), { headers: { ...bearer(staff), "If-None-Match": ifNoneMatch } });
      expect([...headersOf(again), await again.text()]).toEqual([304, tag, "private, no-cache", "Authorization", ""]);
    }
    const changed = await fetch(h.urls.agentSkill("oncall"), { headers: { ...bearer(staff), "If-None-Match": '"sha256-0000"' } });
    expect([changed.status, await changed.text()]).toEqual([200, RESTRICTED_SKILL]);
    // Without the group, the tag confirms nothing: the same 404 as a skill that does not exist.
    const anonymous = await fetch(h.urls.agentSkill("oncall"), { headers: { "If-None-Match": tag } });
    expect([anonymous.status, anonymous.headers.get("etag")]).toEqual([404, null]);
  });
});

describe("the cards where scanners and the hosted platform look", () => {
  const json = async (path: string, token?: string) => {
    const r = await fetch(`${h.origin}${path}`, token !== undefined ? { headers: bearer(token) } : {});
    return { status: r.status, type: r.headers.get("content-type"), cache: r.headers.get("cache-control"), body: (await r.json()) as unknown };
  };
  const card = async (url: string, token?: string) => (await fetch(url, token !== undefined ? { headers: bearer(token) } : {})).json();

  it("serve the main endpoint's card (here /authed/mcp, the site signs readers in) for each reader", async () => {
    for (const token of [undefined, staff]) {
      const expected = { status: 200, type: "application/mcp-server-card+json", cache: "no-store", body: await card(h.urls.authedServerCard, token) };
      expect(await json("/.well-known/mcp/server-card.json", token)).toEqual(expected);
      expect(await json("/.well-known/mcp.json", token)).toEqual(expected);
    }
  });

  it("serve /mcp's card at /mcp/server-card.json, anonymous whatever the request carries", async () => {
    const expected = { status: 200, type: "application/mcp-server-card+json", cache: "no-store", body: await card(h.urls.serverCard) };
    expect(await json("/mcp/server-card.json")).toEqual(expected);
    expect(await json("/mcp/server-card.json", staff)).toEqual(expected);
  });

  it("list every card of the reader at /.well-known/mcp/server-cards.json", async () => {
    for (const token of [undefined, staff]) {
      expect(await json("/.well-known/mcp/server-cards.json", token)).toEqual({
        status: 200,
        type: "application/json",
        cache: "no-store",
        body: [await card(h.urls.serverCard), await card(h.urls.authedServerCard, token)],
      });
    }
  });

  it("follow the auth setting: a public site's main card is /mcp's", async () => {
    await h.state.setAuthMode("public");
    try {
      expect((await json("/.well-known/mcp/server-card.json", staff)).body).toEqual(await card(h.urls.serverCard));
    } finally {
      await h.state.setAuthMode("partial");
    }
  });

  it("declare every tool schema as JSON Schema 2020-12", async () => {
    const { tools } = (await card(h.urls.serverCard)) as { tools: { inputSchema: { $schema: string }; outputSchema: { $schema: string } }[] };
    expect(tools.flatMap((t) => [t.inputSchema.$schema, t.outputSchema.$schema])).toEqual(Array.from({ length: 4 }, () => "https://json-schema.org/draft/2020-12/schema"));
  });

  it("answer 403 while the MCP server is off", async () => {
    await h.state.setMcp("disabled");
    try {
      for (const path of ["/.well-known/mcp/server-card.json", "/.well-known/mcp.json", "/mcp/server-card.json", "/.well-known/mcp/server-cards.json"]) {
        expect({ path, ...(await json(path)) }).toEqual({
          path,
          status: 403,
          type: "application/json",
          cache: null,
          body: { error: { code: "mcp_disabled", message: "The MCP server of the Nimbus Storage documentation is not enabled" } },
        });
      }
    } finally {
      await h.state.setMcp("enabled");
    }
  });
});

describe("a disabled server, and other methods", () => {
  it("publishes no card, no catalog entry and no skill while the MCP server is off", async () => {
    await h.state.setMcp("disabled");
    try {
      const r = await fetch(h.urls.serverCard);
      expect([r.status, await r.json()]).toEqual([403, { error: { code: "mcp_disabled", message: "The MCP server of the Nimbus Storage documentation is not enabled" } }]);
      expect(await (await fetch(h.urls.mcpCatalog)).json()).toEqual({ specVersion: "1.0", entries: [] });
      expect(await (await fetch(h.urls.agentSkillsIndex, { headers: bearer(staff) })).json()).toEqual({
        $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
        skills: [],
      });
    } finally {
      await h.state.setMcp("enabled");
    }
  });

  it("answers GET and HEAD only", async () => {
    for (const url of [h.urls.serverCard, h.urls.authedServerCard, h.urls.mcpCatalog, h.urls.agentSkillsIndex]) {
      const r = await fetch(url, { method: "POST" });
      expect([url, r.status, r.headers.get("allow"), await r.json()]).toEqual([url, 405, "GET, HEAD", { error: { code: "method_not_allowed", message: "POST is not allowed here; use GET" } }]);
    }
    expect((await fetch(h.urls.serverCard, { method: "HEAD" })).status).toBe(200);
  });
});
